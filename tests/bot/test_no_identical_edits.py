"""No edit repeats what its message already shows (issue 24, "Noise"): an
identical edit is refused by Telegram («message is not modified») and still
spends the group's pace. Over whole games through the dispatcher, in both
languages — a group's game of people, one with computers, a practice game —
the fake Telegram receives no edit whose text and buttons equal the
message's; the outbox knows what it last showed."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.methods import EditMessageReplyMarkup, EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup

from benchmarks.chat_volume import GROUP, play_game
from bot.store import Store
from bot.words.keyboards import LobbyCb
from engine import pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import FakeTelegram, person
from tests.bot.harness import Harness

#: a whole game played once in each store and once in each language: the
#: stores keep the same record whatever its language, so their cross would
#: play each game twice more for nothing new
STORE_LANG = [("memory", "ru"), ("redis", "en")]


def identical_edits(tg: FakeTelegram) -> list[tuple[int, str]]:
    """The edits that changed nothing, replayed from the recording: (chat, text)."""
    shown: dict[tuple[int, int], tuple[str, Any]] = {}
    same: list[tuple[int, str]] = []
    for r in tg.requests:
        if isinstance(r, SendMessage) and id(r) in tg.message_id_of:
            markup = r.reply_markup if isinstance(r.reply_markup, InlineKeyboardMarkup) else None
            shown[(r.chat_id, tg.message_id_of[id(r)])] = (r.text, markup)  # type: ignore[index]
        elif isinstance(r, EditMessageText):
            key = (r.chat_id, r.message_id)
            now = (r.text, r.reply_markup)
            if shown.get(key) == now:  # type: ignore[arg-type]
                same.append((r.chat_id, r.text))  # type: ignore[arg-type]
            shown[key] = now  # type: ignore[index]
        elif isinstance(r, EditMessageReplyMarkup):
            key = (r.chat_id, r.message_id)  # type: ignore[assignment]
            if key in shown:
                shown[key] = (shown[key][0], r.reply_markup)  # type: ignore[index]
    return same


@pytest.mark.parametrize(("seed", "lang"), [(3, "ru"), (5, "en")])
async def test_a_whole_group_game_sends_no_identical_edit(seed: int, lang: str) -> None:
    h, volume = await play_game(3, seed, lang)
    assert (await h.table(GROUP)).status == "finished"
    edits = [r for r in h.tg.edits(GROUP)]
    same = identical_edits(h.tg)
    print(f"group edits {len(edits)}, identical {len(same)}; turns {volume.turns}")
    assert len(edits) > 20, "the table was edited as the game went"
    assert same == [], same[:3]


@pytest.mark.parametrize(("store", "lang"), STORE_LANG, indirect=["store"])
async def test_games_with_computers_and_practice_send_no_identical_edit(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    await h.open_game(-100222, anna, [boris], computers=2, seed=4, lang=lang)
    lobby, game = await h.open_practice(person(102, "Вера", lang))
    vera = person(102, "Вера", lang)
    await h.press(vera, vera.id, lobby, LobbyCb(action="bot_normal", game=game).pack())
    await h.press(vera, vera.id, lobby, LobbyCb(action="go", game=game).pack())
    by_id = {u.id: u for u in (anna, boris, vera)}
    for n in range(400):
        moved = False
        for chat_id in (-100222, vera.id):
            table = await h.table(chat_id)
            if table.status != "playing" or table.state is None:
                continue
            decision = pending(table.state)
            assert decision is not None
            if table.state.players[decision.seat].computer:
                continue
            user = by_id[table.seats[decision.seat].user_id]  # type: ignore[index]
            await h.answer(user, chat_id, choose(table.state.seed + n, decision))
            moved = True
        if not moved:
            statuses = [(await h.table(c)).status for c in (-100222, vera.id)]
            if "playing" not in statuses:
                break
            await h.tick(h.defaults.computer_pause + 1)
    same = identical_edits(h.tg)
    print(f"edits {len(h.tg.edits())}, identical {len(same)}")
    assert len(h.tg.edits()) > 20
    assert same == [], same[:3]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_table_edit_telegram_kept_failing_is_sent_again(store: Store, lang: str) -> None:
    """What the outbox remembers is what landed: an edit lost to a Telegram
    outage is not taken for shown, and the table's next show sends it."""
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    chat = -100_223
    table = await h.open_game(chat, anna, [boris], seed=5, lang=lang)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    h.tg.down.add(chat)  # every request to the group answers 5xx
    # a move that keeps the turn going: the table's message is edited
    keep = [o for o in decision.options if o[0] in ("order", "lay")]
    await h.answer(decider, chat, keep[0])
    assert (await h.table(chat)).state.turn == table.state.turn  # type: ignore[union-attr]
    failed = h.tg.edits(chat)[-1].text
    table_message = (await store.messages(chat))["table"]
    assert h.tg.texts[(chat, table_message)] != failed, "the outage kept the edit out"
    h.tg.down.discard(chat)
    since = len(h.tg.requests)
    h.app.telling.outboxes.show(chat, "table")  # shown again, the record unchanged
    await h.settle()
    again = [r for r in h.tg.requests[since:] if isinstance(r, EditMessageText)]
    assert [r.text for r in again] == [failed]
    assert h.tg.texts[(chat, table_message)] == failed
