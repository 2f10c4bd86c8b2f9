"""🏆 Святой Грааль (smuty.ru.txt; RULES.md §6).

Round after round, from the initiator clockwise, each player takes the top
card of the orders deck; a full hand (7) skips; it stops when every hand is
full or the orders deck is empty. The initiator's turn then ends — unless they
hold a permanent Замок Власти.
"""

from engine import Event
from engine.invariants import violations
from tests.engine.helpers import decision, hand, keys, kinds, play, secret_takes, setup

SEVEN = ["page.red", "page.blue", "page.green", "page.orange", "knight.red", "knight.blue", "ball"]
POWER = {
    "colour": "red",
    "cards": ["lord.red", "page.red", "knight.red"],
    "castle": "permanent",
}


def drawers(events: list[Event]) -> list[int]:
    return [e.params["seat"] for e in events if e.key == "order.drawn"]


def test_players_take_orders_from_the_initiator_clockwise_round_after_round() -> None:
    state = setup(
        players=[{}, {}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary", "merchant.red", "merchant.blue"],
        current=1,
    )
    events = play(state, "draw")
    assert drawers(events) == [1, 2, 0, 1, 2]
    assert hand(state, 1) == ["ball", "merchant.red"]
    assert hand(state, 2) == ["marriage", "merchant.blue"]
    assert hand(state, 0) == ["infirmary"]
    assert state.orders == []
    assert not violations(state)


def test_ruling_when_the_orders_deck_runs_out_the_grail_stops_for_everyone() -> None:
    """Что происходит, если колода приказов закончилась?"""
    state = setup(
        players=[{}, {}, {}, {}],
        deck=["grail", "page.red", "page.blue"],
        orders=["ball", "marriage"],
    )
    events = play(state, "draw")
    # only two orders: seats 0 and 1 take one each, 2 and 3 nothing
    assert drawers(events) == [0, 1]
    assert [hand(state, s) for s in range(4)] == [["ball"], ["marriage"], [], []]
    assert "grail.orders_empty" in keys(events)
    # the смута is over and so is the turn
    assert kinds(state, state.smuta_discard) == ["grail"]
    assert state.current == 1


def test_ruling_nobody_discards_during_the_grail() -> None:
    """Могу ли я сбросить карты с руки прямо во время Святого Грааля, чтобы освободить место?"""
    state = setup(
        players=[{"hand": ["lord.red"]}, {"hand": SEVEN}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary", "merchant.red"],
    )
    d_before = state.decision
    events = play(state, "draw")
    # no question was asked during the whole смута
    assert state.decision == d_before + 1
    assert decision(state).seat == 1 and decision(state).kind == "action"
    assert not [k for k in keys(events) if k.startswith("discard")]
    assert state.graveyard == [] and state.orders_discard == []
    assert len(state.players[1].hand) == 7
    assert hand(state, 0) == ["ball", "infirmary", "lord.red"]
    assert hand(state, 2) == ["marriage", "merchant.red"]


def test_ruling_a_player_who_reaches_the_limit_skips_the_next_rounds() -> None:
    """Если кто-то уперся в лимит, он продолжает играть?"""
    five = SEVEN[:5]
    state = setup(
        players=[{"hand": five}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary", "merchant.red", "merchant.blue", "ball"],
    )
    events = play(state, "draw")
    # seat 0: 5 -> 6 -> 7, then skipped; seat 1 keeps taking
    assert drawers(events) == [0, 1, 0, 1, 1, 1]
    assert len(state.players[0].hand) == 7
    assert hand(state, 0) == sorted([*five, "ball", "infirmary"])
    assert hand(state, 1) == ["ball", "marriage", "merchant.blue", "merchant.red"]


def test_example_a_player_holding_seven_skips_from_the_start() -> None:
    """Игрок с 7 картами на руке вообще пропускает набор с самого начала."""
    state = setup(
        players=[{}, {"hand": SEVEN}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "draw")
    assert 1 not in drawers(events)
    assert hand(state, 0) == ["ball", "infirmary"]
    assert hand(state, 2) == ["marriage"]


def test_the_grail_stops_when_every_hand_is_full() -> None:
    state = setup(
        players=[
            {
                "hand": [
                    "lord.red",
                    "lord.blue",
                    "lord.green",
                    "lord.orange",
                    "knight.green",
                    "ball",
                ]
            },
            {"hand": SEVEN[:6]},
        ],
        deck=["grail", "page.red"],
        orders=["marriage", "infirmary", "merchant.red", "merchant.blue"],
    )
    play(state, "draw")
    assert [len(p.hand) for p in state.players] == [7, 7]
    assert kinds(state, state.orders) == ["merchant.red", "merchant.blue"]
    assert state.current == 1


def test_an_empty_orders_deck_means_no_effect_but_the_turn_still_ends() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {"hand": ["page.blue"]}],
        deck=["grail", "page.red"],
        orders=[],
    )
    events = play(state, "draw")
    assert "order.drawn" not in keys(events)
    assert hand(state, 0) == ["lord.red"]
    assert kinds(state, state.smuta_discard) == ["grail"]
    assert state.current == 1


def test_the_initiators_turn_ends_with_actions_left() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {"hand": ["page.blue"]}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary"],
    )
    play(state, "draw")
    assert state.current == 1 and state.actions_left == 3 and state.actions_taken == 0


def test_a_permanent_castle_of_power_gives_the_initiator_a_new_turn() -> None:
    state = setup(
        players=[{"houses": [POWER]}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage", "infirmary"],
        actions_left=2,
        actions_taken=1,
    )
    events = play(state, "draw")
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0
    assert hand(state, 0) == ["ball", "infirmary"]


def test_only_the_drawer_sees_the_order_drawn() -> None:
    state = setup(
        players=[{}, {}],
        deck=["grail", "page.red"],
        orders=["ball", "marriage"],
    )
    events = play(state, "draw")
    assert secret_takes(state, events, "order.drawn") == [
        ((0,), "ball"),
        ((1,), "marriage"),
    ]


def test_six_players_the_round_wraps_past_the_last_seat() -> None:
    orders = ["ball", "marriage", "infirmary", "merchant.red", "merchant.blue", "merchant.green"]
    state = setup(
        players=[{}] * 6,
        deck=["grail", "page.red"],
        orders=[*orders, "merchant.orange"],
        current=5,
    )
    events = play(state, "draw")
    assert drawers(events) == [5, 0, 1, 2, 3, 4, 5]
    assert hand(state, 5) == ["ball", "merchant.orange"]
    assert hand(state, 0) == ["marriage"]
    assert hand(state, 4) == ["merchant.green"]
    assert state.current == 0


def test_a_full_initiator_drawing_a_face_up_grail_is_skipped() -> None:
    state = setup(
        players=[{"hand": SEVEN}, {}, {}],
        deck=["grail", "page.red"],
        deck_top_open=True,
        orders=["marriage", "infirmary"],
    )
    # a full hand may draw the face-up смута; it then takes no order itself
    events = play(state, "draw")
    assert drawers(events) == [1, 2]
    assert len(state.players[0].hand) == 7
    assert hand(state, 1) == ["marriage"] and hand(state, 2) == ["infirmary"]
