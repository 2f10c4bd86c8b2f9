"""An order that would do nothing is never offered without a word, through the
real dispatcher in both languages: its button says «впустую» and the choice of
an order says why (engine.explain.idle_orders); Бал's «Хватит» before anyone
was taken reads «Никого не брать»."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.types import User

from bot.store.memory import MemoryStore
from engine.cards import catalog_for
from engine.scenario import build
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100919


async def seated(h: Harness, position: dict[str, Any], lang: str) -> tuple[User, int]:
    """Анна (seat 0) and Борис play `position`; Анна's prompt for it: its message id."""
    anna, boris = person(301, "Анна", lang), person(302, "Борис", lang)
    await h.open_game(GROUP, anna, [boris])
    await h.set_position(GROUP, position, anna)
    return anna, (await h.store.messages(GROUP))["prompt:0"]


def card_named(h: Harness, lang: str, kind: str) -> str:
    card = next(c for c in catalog_for(build(NOTHING_TO_DO).rules).cards.values() if c.type == kind)
    return h.tr.card(lang, card)


async def press_label(h: Harness, user: User, message: int, label: str) -> None:
    data = [d for t, d in h.buttons(user.id, message) if t == label]
    assert data, f"no button {label!r} in {[t for t, _ in h.buttons(user.id, message)]}"
    await h.press(user, user.id, message, data[0])


# one house, an empty graveyard, no man in Борис's houses outside his castle
NOTHING_TO_DO = {
    "players": [
        {
            "hand": ["marriage", "infirmary", "ball", "page.blue"],
            "houses": [{"colour": "red", "cards": ["lord.red"]}],
        },
        {
            "houses": [
                {
                    "colour": "green",
                    "cards": ["lord.green", "page.green", "knight.green"],
                    "castle": "permanent",
                },
                {"colour": "orange", "cards": ["lady.orange"]},
            ]
        },
    ],
    "deck": ["page.red", "page.orange"],
    "current": 0,
    "actions_left": 3,
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_orders_that_would_do_nothing_say_so_before_they_are_played(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, prompt = await seated(h, NOTHING_TO_DO, lang)
    t = h.tr.t
    await press_label(h, anna, prompt, t(lang, "opt-play"))
    text = h.tg.texts[(anna.id, prompt)]
    names = {kind: card_named(h, lang, kind) for kind in ("marriage", "infirmary", "ball")}
    assert t(lang, "why-idle-marriage", card=names["marriage"], houses=1) in text, text
    assert t(lang, "why-idle-infirmary", card=names["infirmary"]) in text
    assert t(lang, "why-idle-ball", card=names["ball"]) in text
    labels = [label for label, _ in h.buttons(anna.id, prompt)]
    for name in names.values():
        assert t(lang, "opt-play-idle", card=name) in labels, labels

    # played all the same, it only goes to the discard
    await press_label(h, anna, prompt, t(lang, "opt-play-idle", card=names["marriage"]))
    table = await h.table(GROUP)
    assert table.state is not None
    houses = table.state.players[0].houses
    assert [(x.colour, len(x.cards)) for x in houses] == [("red", 1)]  # her house as it was
    discarded = catalog_for(table.state.rules)[table.state.orders_discard[0]]
    assert discarded.type == "marriage"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_single_idle_order_is_named_on_the_button_that_plays_it(lang: str) -> None:
    position = {**NOTHING_TO_DO}
    position["players"] = [
        {"hand": ["marriage", "page.blue"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
        {"houses": []},
    ]
    h = Harness(MemoryStore())
    anna, prompt = await seated(h, position, lang)
    labels = [label for label, _ in h.buttons(anna.id, prompt)]
    idle = h.tr.t(lang, "opt-play-idle", card=card_named(h, lang, "marriage"))
    assert idle in labels and h.tr.t(lang, "opt-play") not in labels, labels


BALL = {
    "players": [
        {
            "hand": ["ball", "page.orange"],
            "houses": [
                {"colour": "red", "cards": ["lady.red"]},
                {"colour": "blue", "cards": ["lord.blue"]},
            ],
        },
        {"houses": [{"colour": "blue", "cards": ["page.blue", "knight.blue"]}]},
    ],
    "deck": ["page.red", "page.green"],
    "current": 0,
    "actions_left": 3,
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_ball_reads_take_no_one_before_the_first_man_and_enough_after(lang: str) -> None:
    h = Harness(MemoryStore())
    anna, prompt = await seated(h, BALL, lang)
    t = h.tr.t
    await press_label(h, anna, prompt, t(lang, "opt-play"))
    decision = await h.decision(GROUP)
    assert decision is not None and decision.kind == "ball.take"
    prompt = (await h.store.messages(GROUP))["prompt:0"]
    labels = [label for label, _ in h.buttons(anna.id, prompt)]
    assert t(lang, "opt-ball-none") in labels and t(lang, "opt-done") not in labels, labels
    # she takes one man (two transfers with her Миледи): now «Хватит» ends the Ball
    await h.answer(anna, GROUP, next(o for o in decision.options if o != ("done",)))
    decision = await h.decision(GROUP)
    assert decision is not None and decision.kind == "ball.take"
    prompt = (await h.store.messages(GROUP))["prompt:0"]
    labels = [label for label, _ in h.buttons(anna.id, prompt)]
    assert t(lang, "opt-done") in labels and t(lang, "opt-ball-none") not in labels, labels
