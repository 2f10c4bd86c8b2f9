"""A finished game of four, ready for «Ещё партию»."""

from __future__ import annotations

from aiogram.types import User

from bot.service import journal
from engine import pending
from engine.scenario import build
from tests.bot.harness import Harness, answer_data, people

GROUP = -100321


LAST_ACTION = {
    "players": [
        {
            "hand": ["page.orange"],
            "houses": [
                {
                    "colour": "red",
                    "cards": ["lord.red", "page.red", "knight.red"],
                    "castle": "permanent",
                }
            ],
        },
        {
            "houses": [
                {"colour": "blue", "cards": ["lord.blue", "page.blue", "page.blue", "knight.blue"]}
            ]
        },
        {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        {"houses": [{"colour": "orange", "cards": ["page.orange"]}], "computer": True},
    ],
    "current": 0,
    "actions_left": 1,
    "final_turns": 0,
}


async def finished_game(h: Harness) -> tuple[list[User], int]:
    """Анна, Борис, Вера and a computer play to the end. Returns the people
    and the message id of the result."""
    anna, boris, vera = users = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera], computers=1)
    table = await h.table(GROUP)
    table.state = build(LAST_ACTION)
    journal.told_all(table)
    assert await h.store.save(table)
    decision = pending(table.state)
    assert decision is not None and decision.seat == 0
    discard = next(o for o in decision.options if o[0] == "discard")
    await h.press(anna, anna.id, 1, answer_data(table, decision, discard))
    assert (await h.table(GROUP)).status == "finished"
    return users, h.last_with_button(GROUP, "rm:")
