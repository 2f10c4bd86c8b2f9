"""A quiet chat (issue 16), from the recording of whole games through the
real dispatcher:

- a person gets a new private message (which rings) only when their turn
  starts or someone else's move needs their choice — within a turn their
  message is edited in place: at most 1.5 new messages per own turn;
- the group's table and turn lines make no sound: only the lobby, the start
  and the result ring — at most 6 ringing messages a game;
- the table the group reads fits a phone with six 32-character names;
- /newgame says how long a game takes; /table full shows every card.
"""

from __future__ import annotations

import pytest
from aiogram.methods import EditMessageText, SendMessage, SendPhoto

from benchmarks.chat_volume import GROUP, play_game
from bot.service.seating import GAME_MINUTES
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.words.render import LINE_MAX, TABLE_MAX_LINES
from bot.words.shape import plain, visible_len
from engine import Decision, pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import person, text_of
from tests.bot.harness import Harness, decisions_of
from tests.bot.helpers.texts import LONG_NAMES

TABLE_MAX_CHARS = 1200


async def asks_only_when_someone_must_act(
    h: Harness, since: int, answered: Decision, before: Table, after: Table
) -> None:
    """Every new private message of a move asks its reader the pending
    question, and they either begin a turn or were not the one who answered."""
    assert before.state is not None and after.state is not None
    for r in h.tg.requests[since:]:
        if not isinstance(r, SendMessage) or not isinstance(r.chat_id, int) or r.chat_id < 0:
            continue
        asked = decisions_of(r.reply_markup)
        assert asked, f"a new private message that asks nothing: {r.text!r}"
        now = pending(after.state)
        assert now is not None and asked == {now.id}
        seat = after.seat_of(r.chat_id)
        turn_began = after.state.turn != before.state.turn and after.state.current == seat
        assert turn_began or answered.seat != seat, (
            f"a new message to someone who goes on choosing: {r.text!r}"
        )


@pytest.mark.parametrize(("seed", "lang"), [(3, "ru"), (8, "en")])
async def test_a_three_player_game_asks_little_and_rings_little(seed: int, lang: str) -> None:
    h, volume = await play_game(3, seed, lang, step=asks_only_when_someone_must_act)
    assert volume.private_per_own_turn <= 1.5, volume
    assert volume.group_ringing <= 6, volume
    # what rings in the group: the lobby, the start's table, the result
    group = h.tg.posted(GROUP)
    ringing = [r for r in group if not r.disable_notification]
    assert "lb:" in str(ringing[0].reply_markup), "the lobby"
    assert text_of(ringing[-1]).startswith(h.tr.t(lang, "result-title"))
    assert isinstance(ringing[-1], SendPhoto), "the result carries the game's picture"
    tables = [r for r in group if "✋" in text_of(r)]
    assert len(tables) > 20 and all(r.disable_notification for r in tables[1:])


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_six_long_names_keep_every_table_on_a_phone(lang: str) -> None:
    """Six players with 32-character names: every table the group is sent or
    shown in an edit keeps to 20 lines, 1,200 characters and 60 a line."""
    h, _ = await play_game(6, 11, lang, names=LONG_NAMES, most=150)
    shown = [
        r.text
        for r in h.tg.requests
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == GROUP and "✋" in r.text
    ]
    assert len(shown) > 100
    for text in shown:
        lines = text.split("\n")
        assert len(lines) <= TABLE_MAX_LINES == 20, text
        assert len(plain(text)) <= TABLE_MAX_CHARS, text
        assert max(visible_len(line) for line in lines) <= LINE_MAX == 60, text


# ====================================================================== /newgame and /table full
@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_newgame_says_how_long_a_game_takes(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, boris, vera = (person(700 + i, n, lang) for i, n in enumerate(("Анна", "Борис", "Вера")))
    if lang == "en":
        h.defaults.lang = "en"
        h.restart()
    lobby, _ = await h.open_lobby(GROUP, anna, [boris, vera])
    text = h.tg.texts[(GROUP, lobby)]
    low, high = GAME_MINUTES[3]
    assert h.tr.t(lang, "lobby-length", low=low, high=high, players=3) in text, text
    assert {"ru": "на троих", "en": "for three"}[lang] in text


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_table_full_shows_every_card_without_a_sound(lang: str) -> None:
    """/table shows the short table anew; /table full every house with all its
    cards, one line a house, its end marked — a new message that makes no sound."""
    h = Harness(MemoryStore())
    anna, boris = (person(800 + i, n, lang) for i, n in enumerate(("Анна", "Борис")))
    await h.open_game(GROUP, anna, [boris], seed=4)
    table = await h.table(GROUP)
    table.lang = lang  # type: ignore[assignment]
    assert await h.store.save(table)
    for _ in range(12):  # a few moves: houses on the table
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        lay = [o for o in decision.options if o[0] == "lay"]
        option = lay[0] if lay else choose(1, decision)
        await h.answer((anna, boris)[decision.seat], GROUP, option)
    since = len(h.tg.sent(GROUP))
    await h.say(GROUP, anna, "/table full")
    sent = h.tg.sent(GROUP)[since:]
    assert len(sent) == 1 and sent[0].disable_notification
    table = await h.table(GROUP)
    assert table.state is not None
    assert sent[0].text == h.app.games.render.full_table(table, table.state)
    houses = [p.houses for p in table.state.players]
    marked = [line for line in sent[0].text.split("\n") if line.startswith("  ")]
    assert len(marked) == sum(len(row) for row in houses) > 0
    assert all(line.split()[0] in ("⬅️", "➡️", "↔️", "▫️") for line in marked)
