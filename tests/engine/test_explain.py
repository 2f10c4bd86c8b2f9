"""Why a usual action is missing (engine.explain): the reasons agree with the
legal actions, and their numbers come from the game's Rules; an order that
would do nothing is named, and playing it indeed does nothing."""

from __future__ import annotations

from engine import GameState, apply, pending
from engine.cards import catalog_for
from engine.explain import Missing, castle_needs, idle_orders, missing_actions
from engine.scenario import build


def _position(
    hand: list[str], houses: list[dict[str, object]], **more: object
) -> dict[str, object]:
    return {
        "players": [{"hand": hand, "houses": houses}, {"houses": []}],
        "deck": ["page.red"],
        "orders": ["marriage"],
        "current": 0,
        "actions_left": 3,
        **more,
    }


def test_a_full_hand_tells_the_games_limit_and_no_draw_is_offered() -> None:
    state = build(_position(["page.red", "page.blue", "page.green"], [], rules={"hand_limit": 3}))
    decision = pending(state)
    assert decision is not None
    assert ("draw",) not in decision.options and ("order",) not in decision.options
    assert Missing("hand_full", {"limit": 3, "smuta_open": False}) in missing_actions(state, 0)


def test_a_ready_house_without_its_merchant_names_its_colour() -> None:
    state = build(
        _position(
            ["page.orange"], [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}]
        )
    )
    assert [m for m in missing_actions(state, 0) if m.reason.startswith("castle")] == [
        Missing("castle", {"colour": "red", "needs": ("merchant",)})
    ]


def _castle_notes(state: GameState) -> dict[str, tuple[str, ...]]:
    return {
        m.params["colour"]: m.params["needs"]
        for m in missing_actions(state, 0)
        if m.reason == "castle"
    }


def test_a_castle_is_told_about_only_when_one_move_away() -> None:
    """One card, one Купец or the castle's return would do it: told, with all
    it lacks (a Лорд that is also the missing card: both). Further off, built
    already, or a house not there yet: nothing."""
    state = build(
        _position(
            ["merchant.red", "merchant.blue", "merchant.green", "merchant.orange"],
            [
                # a Лорд missing, and with him the third card: one move
                {"colour": "red", "cards": ["page.red", "knight.red"]},
                # its castle stands already
                {
                    "colour": "blue",
                    "cards": ["lord.blue", "page.blue", "knight.blue"],
                    "castle": "permanent",
                },
                # a Лорд and one card: two cards short — two moves
                {"colour": "green", "cards": ["lord.green"]},
            ],
            # no orange house at all, though its Купец is in hand
        )
    )
    assert _castle_notes(state) == {"red": ("lord", "cards")}
    assert castle_needs(state, 0, "orange") == () and castle_needs(state, 0, "blue") == ()


def test_a_castle_one_card_short_or_out_of_the_supply_says_that() -> None:
    position = _position(
        ["merchant.red", "merchant.green"],
        [
            {"colour": "red", "cards": ["lord.red", "page.red"]},
            {"colour": "green", "cards": ["lord.green", "page.green", "knight.green"]},
            # ready, but no Купец and its castle gone from the supply: two things
            {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]},
        ],
    )
    # the green and blue castles stand in the opponent's houses
    position["players"] = [
        position["players"][0],  # type: ignore[index]
        {
            "houses": [
                {"colour": "green", "cards": ["lady.green"], "castle": "permanent"},
                {"colour": "blue", "cards": ["lady.blue"], "castle": "one_time"},
            ]
        },
    ]
    state = build(position)
    assert _castle_notes(state) == {"red": ("cards",), "green": ("supply",)}
    found = next(m for m in missing_actions(state, 0) if m.params.get("colour") == "red")
    assert found.params["cards"] == 3 and found.params["has"] == 2


def test_a_castle_that_can_be_built_now_has_no_note() -> None:
    state = build(
        _position(
            ["merchant.red"], [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}]
        )
    )
    decision = pending(state)
    assert decision is not None and any(o[0] == "build" for o in decision.options)
    assert _castle_notes(state) == {}


def test_nothing_is_missing_when_everything_is_possible() -> None:
    state = build(_position(["page.red"], []))
    assert missing_actions(state, 0) == []


# ================================================================ orders that would do nothing
def _houses_and_graveyard(state: GameState) -> tuple[object, ...]:
    return (
        tuple(tuple((h.colour, tuple(h.cards)) for h in p.houses) for p in state.players),
        tuple(state.graveyard),
    )


def test_an_order_that_would_do_nothing_is_named_with_its_reason() -> None:
    state = build(
        {
            "players": [
                {
                    "hand": ["marriage", "infirmary", "ball"],
                    "houses": [{"colour": "red", "cards": ["lord.red"]}],
                },
                {
                    # a man only in a castle house, a woman in the open one
                    "houses": [
                        {
                            "colour": "blue",
                            "cards": ["lord.blue", "page.blue", "knight.blue"],
                            "castle": "permanent",
                        },
                        {"colour": "green", "cards": ["lady.green"]},
                    ]
                },
            ],
            "deck": ["page.red"],
            "current": 0,
            "actions_left": 3,
        }
    )
    idle = idle_orders(state, 0)
    by_kind = {kind(state, card): why for card, why in idle.items()}
    assert by_kind == {
        "marriage": Missing("marriage_houses", {"houses": 1}),
        "infirmary": Missing("infirmary_empty"),
        "ball": Missing("ball_no_men"),
    }
    # each does nothing indeed: played, it only leaves the hand
    for card in idle:
        played = build_copy(state)
        before = _houses_and_graveyard(played)
        decision = pending(played)
        assert decision is not None
        option = next(o for o in decision.options if o[:2] == ("play", card))
        events = apply(played, 0, decision.id, option)
        # and says so, for everyone, with the reason the hand was told
        assert [e.key for e in events] == ["order.played", "order.idle"]
        idle_event = events[1]
        assert idle_event.to is None
        assert idle_event.params == {
            "seat": 0,
            "order": kind(state, card),
            "reason": idle[card].reason,
        }
        assert _houses_and_graveyard(played) == before
        assert pending(played) is not None and pending(played).kind == "action"  # type: ignore[union-attr]


def test_an_order_with_something_to_do_is_not_named() -> None:
    state = build(
        {
            "players": [
                {
                    "hand": ["marriage", "infirmary", "ball"],
                    "houses": [
                        {"colour": "red", "cards": ["lord.red"]},
                        {"colour": "blue", "cards": ["page.blue"]},
                    ],
                },
                {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            ],
            "deck": ["page.red"],
            "graveyard": ["knight.orange"],
            "current": 0,
            "actions_left": 3,
        }
    )
    assert idle_orders(state, 0) == {}
    # played, each does something, and no event says it did nothing
    for card in state.players[0].hand:
        played = build_copy(state)
        decision = pending(played)
        assert decision is not None
        option = next(o for o in decision.options if o[:2] == ("play", card))
        events = apply(played, 0, decision.id, option)
        while (asked := pending(played)) is not None and asked.kind != "action":
            events += apply(played, asked.seat, asked.id, asked.options[0])
        assert "order.idle" not in [e.key for e in events], kind(state, card)


def test_a_ball_whose_player_takes_no_one_says_it_did_nothing() -> None:
    state = build(
        {
            "players": [
                {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
                {"houses": [{"colour": "green", "cards": ["knight.green"]}]},
            ],
            "deck": ["page.red"],
            "current": 0,
            "actions_left": 3,
        }
    )
    assert idle_orders(state, 0) == {}  # there is a man to take
    decision = pending(state)
    assert decision is not None
    ball = state.players[0].hand[0]
    knight = list(state.players[1].houses[0].cards)
    events = apply(state, 0, decision.id, ("play", ball))
    asked = pending(state)
    assert asked is not None and asked.kind == "ball.take" and ("done",) in asked.options
    assert "order.idle" not in [e.key for e in events]
    events = apply(state, 0, asked.id, ("done",))
    idle = [e for e in events if e.key == "order.idle"]
    assert [e.params for e in idle] == [{"seat": 0, "order": "ball", "reason": "ball_declined"}]
    assert state.players[1].houses[0].cards == knight, "the knight stays where he was"


def build_copy(state: GameState) -> GameState:
    return GameState.from_json(state.to_json())


def kind(state: GameState, card_id: str) -> str:
    return catalog_for(state.rules)[card_id].type
