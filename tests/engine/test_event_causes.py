"""What the events say about their causes, for the words that explain them
(issue 16): which property gave an order, whose Лазутчица discarded one,
whether a смута touched anyone, and why a turn starts again."""

from __future__ import annotations

from typing import Any

from engine import Event
from tests.engine.helpers import asked, draw_smuta, kind, of, play, setup


def one(events: list[Event], key: str) -> Event:
    found = of(events, key)
    assert len(found) == 1, [e.key for e in events]
    return found[0]


# ------------------------------------------------------------------ who gave an order
def test_an_order_drawn_says_what_gave_it() -> None:
    state = setup(
        players=[{"hand": ["treasurer.red", "page.red"]}, {"hand": ["page.green"]}],
        deck=["lord.orange", "lord.green"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "order")
    assert one(events, "order.drawn").params == {"seat": 0, "reason": "action"}
    events = play(state, "lay", "treasurer.red")
    drawn = one(events, "order.drawn.private")
    assert drawn.params["reason"] == "treasurer" and drawn.to == (0,)
    assert one(events, "order.drawn").params["reason"] == "treasurer"


def test_a_spy_in_ones_own_turn_draws_as_the_spy() -> None:
    state = setup(
        players=[{"hand": ["spy.red", "page.red"]}, {"hand": ["ball", "page.green"]}],
        deck=["lord.orange"],
        orders=["marriage"],
    )
    play(state, "lay", "spy.red")  # the only opponent's hand is looked at
    events = play(state, "ball")  # and discard their order
    assert of(events, "discard") == []
    discarded = one(events, "spy.discarded").params
    assert (discarded["seat"], discarded["target"]) == (0, 1)
    assert kind(state, discarded["card"]) == "ball"
    assert one(events, "order.drawn").params["reason"] == "spy"


def test_ones_own_discard_names_nobody_else() -> None:
    state = setup(players=[{"hand": ["page.red", "ball"]}, {"hand": ["page.green"]}])
    events = play(state, "discard", "ball")
    assert one(events, "discard").params.keys() == {"seat", "card"}


# ------------------------------------------------------------------ a смута that touched nobody
NOBODY: dict[str, Any] = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
        {"hand": ["page.green"]},
    ]
}


def test_a_smuta_that_touched_nobody_says_so() -> None:
    for smuta in ("pestilence", "fire", "inquisition", "reformation", "drought"):
        _, events = draw_smuta(smuta, **NOBODY)
        assert one(events, "smuta.end").params["touched"] is False, smuta


def test_a_smuta_that_did_something_says_so() -> None:
    castle: dict[str, Any] = {
        "players": [
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]},
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "permanent",
                    },
                ],
            },
            {"hand": ["page.green"]},
        ]
    }
    # a castle back in the supply is something, though no house was struck
    _, events = draw_smuta("pestilence", **castle)
    assert one(events, "smuta.end").params["touched"] is True
    # a смута that stopped to ask someone counts as touching them
    plague: dict[str, Any] = {
        "players": [
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["plague.red"]},
                    {"colour": "blue", "cards": ["plague.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ]
    }
    state, events = draw_smuta("pestilence", **plague)
    assert of(events, "smuta.end") == []
    assert asked(state) == (0, "destroy.order")
    events = play(state, "red")
    assert one(events, "smuta.end").params["touched"] is True


# ------------------------------------------------------------------ why a turn starts again
def test_a_restarted_turn_says_why() -> None:
    _, events = draw_smuta(
        "betrayal",
        players=[{"hand": ["page.orange", "page.red"]}, {"hand": ["page.green"]}],
    )
    assert one(events, "turn.restart").params == {"seat": 0, "reason": "betrayal"}
    _, events = draw_smuta(
        "grail",
        players=[
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
            {"hand": ["page.green"]},
        ],
        orders=["ball", "marriage"],
    )
    assert one(events, "turn.restart").params == {"seat": 0, "reason": "power"}
