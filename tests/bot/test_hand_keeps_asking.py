"""/hand in the middle of a turn leaves no question frozen, through the
dispatcher in both languages, in a group's game and in practice: the prompt is
asked again below the hand, with its buttons, and the message that asked it
before keeps its story but no longer asks — it points down to the live one.
The person answers there, and the turn goes on."""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LobbyCb
from engine import pending
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, is_prompt

GROUP = -100444


async def mid_turn(h: Harness, chat_id: int, users: list[User]) -> User:
    """Play (computers by the clock, people their first option) until a person
    has taken an action of their turn and is asked what next."""
    for _ in range(60):
        table = await h.table(chat_id)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        if table.state.players[decision.seat].computer:
            await h.tick(h.defaults.computer_pause + 1)
            continue
        user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
        full = table.state.rules.actions_per_turn
        if decision.kind == "action" and table.state.actions_left < full:
            return user
        draw = [o for o in decision.options if o == ("draw",)]
        await h.answer(user, chat_id, draw[0] if draw else decision.options[0])
    raise AssertionError("nobody got to a second action")


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("practice", [False, True])
async def test_hand_mid_turn_asks_again_below_and_freezes_no_question(
    store: Store, lang: str, practice: bool
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    if practice:
        lobby, game = await h.open_practice(anna)
        await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
        chat_id, users = anna.id, [anna]
    else:
        await h.open_game(GROUP, anna, [boris], seed=5, lang=lang)
        chat_id, users = GROUP, [anna, boris]
    who = await mid_turn(h, chat_id, users)
    table = await h.table(chat_id)
    assert table.state is not None
    seat = table.seat_of(who.id)
    old = (await store.messages(chat_id))[f"prompt:{seat}"]
    left = h.tr.t(lang, "prompt-actions-left", n=table.state.actions_left)
    assert left in h.tg.texts[(who.id, old)] and is_prompt(h.tg.markups[(who.id, old)])

    await h.say(who.id, who, "/hand")

    new = (await store.messages(chat_id))[f"prompt:{seat}"]
    assert new != old and new > old, "the question is asked again below"
    assert is_prompt(h.tg.markups[(who.id, new)]) and left in h.tg.texts[(who.id, new)]
    before = h.tg.texts[(who.id, old)]
    assert not is_prompt(h.tg.markups[(who.id, old)])
    assert left not in before, "the old message still asks, with nothing to answer it"
    assert before.endswith(h.tr.t(lang, "prompt-moved"))
    # nowhere in the chat a question without its buttons
    for (chat, message), text in h.tg.texts.items():
        if chat == who.id and left in text:
            assert is_prompt(h.tg.markups[(chat, message)]), text

    # the person answers below, and the turn goes on
    decision = pending(table.state)
    assert decision is not None
    await h.answer(who, chat_id, decision.options[0])
    assert (await h.table(chat_id)).version > table.version
