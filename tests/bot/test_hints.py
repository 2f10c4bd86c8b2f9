"""«💡 Подсказка» (issue 20): the normal level's choice and one reason, through the dispatcher.

- A person's first practice games offer it on every prompt; later ones do not.
- A group offers it only when its /settings allow it; a hint used in a rated
  game is counted once a decision and shown in the result.
- The hint is the normal level's answer, said with the prompt's own button
  labels, and its reason in the reader's language; it never names a card the
  seat cannot see.
"""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.service.lobby import PRACTICE_HINTS
from bot.service.profile import SettingsCb
from bot.service.thinking import Thinker
from bot.store import Store, UserPrefs
from bot.words.keyboards import HintCb, LangCb, LobbyCb, StopCb
from engine import GameSetup, new_game, pending
from engine.ai import decide
from engine.ai.hint import hint
from engine.policy import choose
from tests.bot.harness import MARK, Harness, people, public_zones

GROUP = -100_777


def _hint_data(h: Harness, user: User, message_id: int) -> str | None:
    found = [d for _, d in h.buttons(user.id, message_id) if d.startswith("hn:")]
    return found[0] if found else None


async def _prompt_id(h: Harness, chat_id: int, seat: int) -> int:
    return (await h.store.messages(chat_id))[f"prompt:{seat}"]


async def _ask_hint(h: Harness, user: User, chat_id: int, lang: str) -> None:
    """Press the hint of `user`'s prompt, and check what it says against the engine."""
    table = await h.table(chat_id)
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None
    seat = table.seat_of(user.id)
    assert decision.seat == seat and seat is not None
    message = await _prompt_id(h, chat_id, seat)
    data = _hint_data(h, user, message)
    assert data is not None, "the prompt offers no hint"
    assert HintCb.unpack(data).decision == decision.id
    before = len(h.tg.answers())
    await h.press(user, user.id, message, data)
    answers = h.tg.answers()[before:]
    assert len(answers) == 1 and answers[0].show_alert
    text = answers[0].text or ""
    expected = hint(state, decision)
    assert expected.option == decide(state, decision, "normal")
    reason = h.tr.t(lang, f"hint-reason-{expected.reason.replace('_', '-')}", **expected.params)
    assert text.startswith("💡") and reason[:40] in text
    # a hint names only cards the seat may see: its hand, the table, the cards its
    # own prompt shows (a hand it looked at)
    visible = set(state.players[seat].hand) | public_zones(state)
    visible |= {part for option in decision.options for part in option}
    assert set(MARK.findall(text)) <= visible, text


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_first_practice_game_offers_hints_that_name_nothing_hidden(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    await h.press(anna, anna.id, 1, LangCb(lang=lang).pack())
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert table.hints
    lobby = (await h.store.messages(anna.id))["lobby"]
    for action in ("bot_normal", "bot_easy"):
        await h.press(anna, anna.id, lobby, LobbyCb(action=action, game=table.game_no).pack())
    h.app.games.seeds.seed(11)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=table.game_no).pack())
    hinted = 0
    for step in range(400):
        table = await h.table(anna.id)
        if table.status != "playing" or hinted >= 12:
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            assert await h.tick(5) >= 1
            continue
        await _ask_hint(h, anna, anna.id, lang)
        hinted += 1
        await h.answer(anna, anna.id, choose(table.state.seed + step, decision))
    assert hinted >= 12
    # a practice game is not rated: its hints are not counted
    assert all(s.hints == 0 for s in (await h.table(anna.id)).seats)


async def test_later_practice_games_offer_no_hint(store: Store) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    await store.save_user(UserPrefs(user_id=anna.id, started=True, practices=PRACTICE_HINTS))
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert not table.hints
    h.app.games.seeds.seed(3)
    lobby = (await h.store.messages(anna.id))["lobby"]
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=table.game_no).pack())
    for _ in range(50):
        table = await h.table(anna.id)
        decision = pending(table.state)  # type: ignore[arg-type]
        assert decision is not None
        if table.seats[decision.seat].user_id == anna.id:
            break
        await h.tick(5)
    message = await _prompt_id(h, anna.id, 0 if table.seats[0].user_id == anna.id else 1)
    assert _hint_data(h, anna, message) is None
    # a forged hint button is refused
    forged = HintCb(chat=anna.id, game=table.game_no, decision=decision.id).pack()
    before = len(h.tg.answers())
    await h.press(anna, anna.id, message, forged)
    assert h.tg.answers()[before].text == h.tr.t("ru", "err-bad-button")


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_group_allows_hints_in_its_settings_and_the_result_counts_them(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    # by default a group's prompts offer no hint
    table = await h.open_game(GROUP, anna, [boris], seed=4)
    decision = await h.decision(GROUP)
    assert decision is not None and not table.hints
    person = anna if table.seats[decision.seat].user_id == anna.id else boris
    assert _hint_data(h, person, await _prompt_id(h, GROUP, decision.seat)) is None
    await h.say(GROUP, anna, "/stop")
    stop = StopCb(game=table.game_no, confirm=True).pack()
    await h.press(anna, GROUP, h.last_with_button(GROUP, "st:"), stop)
    assert (await h.table(GROUP)).status != "playing"
    # the chat's settings switch hints on (and the language, for this run)
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="hints").pack())
    if lang == "en":
        await h.press(anna, GROUP, settings, SettingsCb(what="lang").pack())
    table = await h.open_game(GROUP, anna, [boris], seed=4)
    assert table.hints
    counted: dict[int, set[int]] = {anna.id: set(), boris.id: set()}
    for step in range(3000):
        table = await h.table(GROUP)
        if table.status != "playing":
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user = anna if table.seats[decision.seat].user_id == anna.id else boris
        if user is anna and len(counted[anna.id]) < 2:
            await _ask_hint(h, user, GROUP, table.seats[decision.seat].lang)
            await _ask_hint(h, user, GROUP, table.seats[decision.seat].lang)  # counted once
            counted[anna.id].add(decision.id)
        await h.answer(user, GROUP, choose(table.state.seed + step, decision))
    table = await h.table(GROUP)
    assert table.status == "finished"
    seat = table.seat_of(anna.id)
    assert seat is not None and table.seats[seat].hints == 2
    assert table.seats[1 - seat].hints == 0
    result = next(r.text or "" for r in reversed(h.tg.sent(GROUP)) if "🏁" in (r.text or ""))
    count = h.tr.t(lang, "result-hints", player="§", n=2).split("§", 1)[1]
    last = result.splitlines()[-1]  # below the winners: who used hints
    assert count in last and "Анна" in last and "Борис" not in last


async def test_a_hint_thought_in_the_worker_pool_is_the_one_thought_in_place() -> None:
    state, _ = new_game(GameSetup(players=3, seed=21))
    decision = pending(state)
    assert decision is not None
    thinker = Thinker(workers=1)
    try:
        assert await thinker.hint(state, decision) == hint(state, decision)
    finally:
        thinker.close()
