"""A «ℹ️» reason (why a usual action is missing) is told when it is news,
through the real dispatcher in both languages: a reason that still holds at
the player's next prompt — later in the turn, or next turn — is not told
again; a new one is; one that stopped holding and holds again is told again."""

from __future__ import annotations

import pytest

from bot.store.memory import MemoryStore
from bot.words import reasons
from engine import pending
from engine.cards import catalog_for
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100727
# Анна's blue house is ready for its castle, but she has no blue Купец; her
# hand holds 3 of the game's 4
POSITION = {
    "players": [
        {
            "hand": ["page.orange", "page.green", "page.red"],
            "houses": [
                {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]},
                {"colour": "green", "cards": ["lord.green"]},
            ],
        },
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
    ],
    "deck": ["knight.green", "knight.red", "knight.orange", "lord.orange", "page.blue"],
    "orders": ["marriage", "marriage"],
    "current": 0,
    "actions_left": 3,
    "rules": {"hand_limit": 4},
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_reason_is_told_once_while_it_holds(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, boris = person(301, "Анна", lang), person(302, "Борис", lang)
    await h.open_game(GROUP, anna, [boris])
    table = await h.set_position(GROUP, POSITION)
    reasons.note(table)  # as the move that made this position would
    assert await h.store.save(table)
    await h.say(anna.id, anna, "/hand")
    t = h.tr.t
    merchant = t(lang, "why-castle-merchant", colour="🔵")
    castle = t(lang, "why-castle", castle=t(lang, "castle-blue"), needs=merchant)
    full = t(lang, "why-hand-full", limit=4, smuta_open="no")

    async def prompt() -> str:
        return h.tg.texts[(anna.id, (await h.store.messages(GROUP))["prompt:0"])]

    async def act(verb: str, kind: str | None = None) -> None:
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        cards = catalog_for(table.state.rules)
        option = next(
            o
            for o in decision.options
            if o[0] == verb
            and (kind is None or f"{cards[o[1]].type}.{cards[o[1]].colours[0]}" == kind)
        )
        user = anna if decision.seat == 0 else boris
        await h.answer(user, GROUP, option)

    first = await prompt()
    assert castle in first and full not in first
    await act("draw")  # her hand is full now: news; the castle's reason is not
    text = await prompt()
    assert full in text and castle not in text
    await act("lay", "page.green")  # no longer full; the castle's reason still holds
    text = await prompt()
    assert full not in text and castle not in text
    await act("draw")  # full again: her turn ends; Борис plays one card and ends his
    await act("discard")
    await act("end")
    text = await prompt()
    assert "ℹ️" in text and full in text, "full again after it stopped: told again"
    assert castle not in text, "the castle's reason held all along: not told again"
