"""A turn (RULES.md §3, §4, §5, §7; engine/turn.py, engine/placement.py).

1–3 actions, ending early only after the first; drawing a смута ends the turn;
a full hand (7) draws only a face-up смута; the end of the deck gives every
other player one more turn, then the score; houses: one per colour, the row's
owner chooses the end, Чумовой and Блудница may go into another player's house
but never an opponent's castle house, an emptied house vanishes.
"""

from typing import Any

import pytest

from engine.invariants import violations
from engine.state import Result
from tests.engine.helpers import decision, hand, houses, keys, kind, kinds, of, play, setup

SEVEN = ["page.red", "page.blue", "page.green", "page.orange", "lord.red", "lord.blue", "ball"]
RED_CASTLE = {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}


# ====================================================================== actions
def test_a_turn_has_three_actions_then_passes_to_the_left() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue", "page.green", "page.orange"]},
            {"hand": ["lord.red"]},
            {},
        ],
        deck=["knight.red"],
    )
    assert decision(state).params == {"actions_left": 3, "actions_taken": 0}
    play(state, "lay", "page.red")
    assert state.actions_left == 2 and state.actions_taken == 1
    play(state, "lay", "page.blue", "0", "blue", "right")
    assert state.current == 0 and state.actions_left == 1
    events = play(state, "discard", "page.green")
    # the third action ends the turn: seat 1, on seat 0's left, plays next
    assert state.current == 1 and state.actions_left == 3 and state.actions_taken == 0
    assert [e.params["seat"] for e in of(events, "turn.start")] == [1]
    assert hand(state, 0) == ["page.orange"]


def test_the_turn_may_end_after_one_or_two_actions_never_before_one() -> None:
    state = setup(
        players=[{"hand": ["page.red", "page.blue"]}, {"hand": ["lord.red"]}], deck=["knight.red"]
    )
    assert ("end",) not in decision(state).options
    play(state, "lay", "page.red")
    assert ("end",) in decision(state).options
    events = play(state, "end")
    assert "turn.ended" in keys(events)
    assert state.current == 1 and hand(state, 0) == ["page.blue"]

    state = setup(
        players=[{"hand": ["page.red", "page.blue", "page.green"]}, {"hand": ["lord.red"]}],
        deck=["knight.red"],
    )
    play(state, "lay", "page.red")
    play(state, "discard", "page.blue")
    assert ("end",) in decision(state).options
    play(state, "end")
    assert state.current == 1 and hand(state, 0) == ["page.green"]


def test_turns_go_clockwise_round_a_six_player_table() -> None:
    state = setup(
        players=[
            {"hand": [card]}
            for card in ("lord.red", "lord.blue", "lord.green", "lord.orange", "ball", "marriage")
        ],
        deck=["knight.red"],
        current=4,
    )
    seats = []
    for _ in range(3):
        seats.append(state.current)
        play(state, "discard")
        play(state, "end")
    assert seats == [4, 5, 0] and state.current == 1


def test_drawing_a_house_card_puts_it_in_the_hand_privately() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {}], deck=["lord.green", "page.blue"])
    events = play(state, "draw")
    assert hand(state, 0) == ["lord.green", "page.red"]
    assert kinds(state, state.deck) == ["page.blue"]
    public = of(events, "deck.drew")
    private = of(events, "deck.drew.private")
    assert public[0].to is None and "card" not in public[0].params
    assert private[0].to == (0,) and kind(state, private[0].params["card"]) == "lord.green"


def test_drawing_an_order_takes_the_top_of_the_orders_deck() -> None:
    state = setup(
        players=[{"hand": ["page.red"]}, {}], deck=["page.blue"], orders=["ball", "marriage"]
    )
    play(state, "order")
    assert hand(state, 0) == ["ball", "page.red"] and kinds(state, state.orders) == ["marriage"]
    assert state.actions_left == 2


def test_drawing_a_smuta_resolves_it_and_ends_the_turn_even_as_the_first_action() -> None:
    state = setup(
        players=[{"hand": ["page.red", "page.blue"]}, {"hand": ["lord.red"]}],
        deck=["reformation", "knight.red"],
    )
    events = play(state, "draw")
    # Реформация with no castle has no effect, but it is resolved and ends the turn
    assert [e.params["smuta"] for e in of(events, "smuta.start")] == ["reformation"]
    assert kinds(state, state.smuta_discard) == ["reformation"]
    assert hand(state, 0) == ["page.blue", "page.red"]
    assert state.current == 1 and state.actions_left == 3


def test_drawing_a_smuta_as_the_last_action_ends_the_turn_once() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue"]},
            {"hand": ["lord.red"]},
            {"hand": ["lord.blue"]},
        ],
        deck=["reformation", "knight.red"],
    )
    play(state, "lay", "page.red")
    play(state, "lay", "page.blue", "0", "blue", "left")
    play(state, "draw")
    assert state.current == 1


def test_a_full_hand_cannot_draw_from_either_deck() -> None:
    state = setup(players=[{"hand": SEVEN}, {}], deck=["knight.red"], orders=["marriage"])
    options = decision(state).options
    assert ("draw",) not in options and ("order",) not in options
    play(state, "discard", "page.red")
    options = decision(state).options
    assert ("draw",) in options and ("order",) in options


def test_a_full_hand_may_draw_a_face_up_smuta_on_top() -> None:
    state = setup(
        players=[{"hand": SEVEN}, {}],
        deck=["reformation", "knight.red"],
        deck_top_open=True,
        orders=["marriage"],
    )
    options = decision(state).options
    assert ("draw",) in options and ("order",) not in options
    play(state, "draw")
    assert kinds(state, state.smuta_discard) == ["reformation"]
    assert not state.deck_top_open
    assert len(state.players[0].hand) == 7 and state.current == 1


def test_empty_decks_cannot_be_drawn() -> None:
    state = setup(players=[{"hand": ["page.red"]}, {}], deck=[], final_turns=1)
    options = decision(state).options
    assert ("draw",) not in options and ("order",) not in options


def test_a_player_with_nothing_to_do_passes() -> None:
    state = setup(
        players=[{"hand": ["page.red"]}, {}, {"hand": ["page.blue"]}],
        deck=[],
        orders=[],
        final_turns=2,
    )
    events = play(state, "discard", "page.red")
    # seat 1 has no card and both decks are empty: its turn passes at once
    assert "turn.nothing_to_do" in keys(events)
    assert state.current == 2


def test_discarding_a_house_card_tops_the_graveyard_and_an_order_the_orders_discard() -> None:
    state = setup(
        players=[{"hand": ["page.red", "ball"]}, {}],
        deck=["knight.red"],
        graveyard=["lord.blue"],
        orders_discard=["marriage"],
    )
    play(state, "discard", "page.red")
    play(state, "discard", "ball")
    assert kinds(state, state.graveyard) == ["page.red", "lord.blue"]
    assert kinds(state, state.orders_discard) == ["ball", "marriage"]


def test_another_players_permanent_castles_capture_discards_if_they_have_room() -> None:
    green_castle = {"colour": "green", "cards": ["lord.green", "page.green", "knight.green"]}
    blue_castle = {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}
    state = setup(
        players=[
            {
                "hand": ["page.red", "ball", "lord.red"],
                "houses": [{**green_castle, "castle": "permanent"}],
            },
            {"houses": [{**blue_castle, "castle": "permanent"}]},
            {},
        ],
        deck=["knight.red"],
    )
    # the green castle is seat 0's own: it does not capture seat 0's discard
    play(state, "discard", "page.red")
    assert kinds(state, state.graveyard) == ["page.red"]
    events = play(state, "discard", "ball")
    assert hand(state, 1) == ["ball"] and state.orders_discard == []
    assert of(events, "discard.captured")[0].params["owner"] == 1
    play(state, "discard", "lord.red")
    assert kinds(state, state.graveyard) == ["lord.red", "page.red"]
    # seat 1 discards a house card: seat 0's permanent Замок Знаний takes it
    state = setup(
        players=[
            {"houses": [{**green_castle, "castle": "permanent"}]},
            {"hand": ["page.red", "page.blue"]},
        ],
        deck=["knight.red"],
        current=1,
    )
    play(state, "discard", "page.red")
    assert hand(state, 0) == ["page.red"] and state.graveyard == []


def test_a_castle_owner_with_a_full_hand_does_not_capture() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue"]},
            {
                "hand": SEVEN,
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": "permanent",
                    }
                ],
            },
        ],
        deck=["knight.red"],
    )
    play(state, "discard", "page.red")
    assert kinds(state, state.graveyard) == ["page.red"]
    assert len(state.players[1].hand) == 7


def test_a_one_time_castle_captures_nothing() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue"]},
            {
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": "one_time",
                    }
                ]
            },
        ],
        deck=["knight.red"],
    )
    play(state, "discard", "page.red")
    assert kinds(state, state.graveyard) == ["page.red"] and hand(state, 1) == []


def test_a_permanent_trade_castle_gives_four_actions() -> None:
    state = setup(
        players=[
            {"hand": ["page.red"]},
            {
                "hand": ["page.blue", "page.green", "page.orange", "lord.blue", "lord.green"],
                "houses": [
                    {
                        "colour": "orange",
                        "cards": ["lord.orange", "page.orange", "knight.orange"],
                        "castle": "permanent",
                    }
                ],
            },
        ],
        deck=["knight.red"],
    )
    play(state, "discard", "page.red")
    play(state, "end")
    assert state.current == 1 and state.actions_left == 4
    for card in ("page.blue", "page.green", "page.orange"):
        play(state, "discard", card)
    assert state.current == 1 and state.actions_left == 1
    play(state, "discard", "lord.blue")
    assert state.current == 0


# ====================================================================== houses
def test_a_card_joins_the_house_of_its_colour_without_asking_an_end() -> None:
    state = setup(
        players=[
            {
                "hand": ["knight.red"],
                "houses": [
                    {"colour": "red", "cards": ["page.red"]},
                    {"colour": "blue", "cards": ["page.blue"]},
                ],
            },
            {},
        ],
        deck=["knight.blue"],
    )
    card = state.players[0].hand[0]
    assert [o for o in decision(state).options if o[0] == "lay"] == [("lay", card, "0", "red", "-")]
    play(state, "lay", "knight.red")
    assert houses(state, 0) == [
        ("red", ["page.red", "knight.red"], None),
        ("blue", ["page.blue"], None),
    ]
    assert not violations(state)


def test_a_new_house_goes_at_the_end_the_owner_chooses() -> None:
    for end, expected in (("left", ["green", "red", "blue"]), ("right", ["red", "blue", "green"])):
        state = setup(
            players=[
                {
                    "hand": ["page.green", "page.orange"],
                    "houses": [
                        {"colour": "red", "cards": ["page.red"]},
                        {"colour": "blue", "cards": ["page.blue"]},
                    ],
                },
                {},
            ],
            deck=["knight.blue"],
        )
        lays = [
            o
            for o in decision(state).options
            if o[0] == "lay" and kind(state, o[1]) == "page.green"
        ]
        # never between two houses: only the two ends are offered
        assert sorted(o[4] for o in lays) == ["left", "right"]
        play(state, "lay", "page.green", "0", "green", end)
        assert [h[0] for h in houses(state, 0)] == expected


def test_the_first_house_needs_no_end() -> None:
    state = setup(players=[{"hand": ["page.green", "page.red"]}, {}], deck=["knight.blue"])
    lays = [
        o for o in decision(state).options if o[0] == "lay" and kind(state, o[1]) == "page.green"
    ]
    assert [o[4] for o in lays] == ["-"]


def test_a_servant_is_laid_with_either_colour_up() -> None:
    state = setup(
        players=[
            {
                "hand": ["servant.red.blue", "page.green"],
                "houses": [{"colour": "blue", "cards": ["page.blue"]}],
            },
            {},
        ],
        deck=["knight.blue"],
    )
    lays = sorted(
        o[3:]
        for o in decision(state).options
        if o[0] == "lay" and kind(state, o[1]) == "servant.red.blue"
    )
    assert lays == [("blue", "-"), ("red", "left"), ("red", "right")]
    play(state, "lay", "servant.red.blue", "0", "red", "left")
    assert houses(state, 0) == [("red", ["servant.red.blue"], None), ("blue", ["page.blue"], None)]
    assert kind(state, state.players[0].houses[0].cards[0]) == "servant.red.blue@red"


def test_a_player_may_lay_into_their_own_castle_house() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue"], "houses": [{**RED_CASTLE, "castle": "permanent"}]},
            {},
        ],
        deck=["knight.blue"],
    )
    play(state, "lay", "page.red")
    assert houses(state, 0) == [
        ("red", ["lord.red", "page.red", "knight.red", "page.red"], "permanent")
    ]


def test_plague_man_and_harlot_go_into_any_house_but_an_opponents_castle_house() -> None:
    state = setup(
        players=[
            {
                "hand": ["plague.red", "harlot.blue"],
                "houses": [{"colour": "green", "cards": ["page.green"]}],
            },
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "permanent",
                    }
                ]
            },
            {
                "houses": [
                    {"colour": "orange", "cards": ["page.orange"]},
                    {**RED_CASTLE, "castle": "one_time"},
                ]
            },
        ],
        deck=["knight.green"],
    )
    options = decision(state).options
    plague = sorted(o[2:] for o in options if o[0] == "lay" and kind(state, o[1]) == "plague.red")
    harlot = sorted(o[2:] for o in options if o[0] == "lay" and kind(state, o[1]) == "harlot.blue")
    # seat 3's red house is a castle house, seat 2's blue house too; in another player's
    # row the end is left to that row's owner ("-")
    assert plague == [
        ("0", "red", "left"),
        ("0", "red", "right"),
        ("1", "red", "-"),
        ("2", "red", "-"),
    ]
    assert harlot == [
        ("0", "blue", "left"),
        ("0", "blue", "right"),
        ("1", "blue", "-"),
        ("3", "blue", "-"),
    ]


def test_planting_into_an_existing_house_of_another_player() -> None:
    state = setup(
        players=[
            {"hand": ["plague.red", "page.green"]},
            {"houses": [{"colour": "red", "cards": ["lord.red"]}]},
        ],
        deck=["knight.green"],
    )
    events = play(state, "lay", "plague.red", "1")
    assert houses(state, 1) == [("red", ["lord.red", "plague.red"], None)]
    assert houses(state, 0) == []
    assert of(events, "lay")[0].params["target"] == 1
    assert state.current == 0 and state.actions_left == 2


def test_planting_a_new_house_lets_the_rows_owner_choose_the_end() -> None:
    state = setup(
        players=[
            {"hand": ["harlot.green", "page.red"]},
            {
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                ]
            },
        ],
        deck=["knight.green"],
    )
    play(state, "lay", "harlot.green", "1")
    d = decision(state)
    assert d.seat == 1 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 1) == [
        ("green", ["harlot.green"], None),
        ("red", ["lord.red"], None),
        ("blue", ["lord.blue"], None),
    ]
    # the action was seat 0's: seat 0 goes on
    assert state.current == 0 and decision(state).seat == 0


def test_planting_into_a_player_without_houses_needs_no_end() -> None:
    state = setup(players=[{"hand": ["harlot.green", "page.red"]}, {}], deck=["knight.green"])
    play(state, "lay", "harlot.green", "1")
    assert houses(state, 1) == [("green", ["harlot.green"], None)]
    assert decision(state).seat == 0


def test_other_cards_are_laid_only_into_the_players_own_row() -> None:
    state = setup(
        players=[
            {"hand": ["lord.red", "servant.red.blue"]},
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
        ],
        deck=["knight.green"],
    )
    assert {o[2] for o in decision(state).options if o[0] == "lay"} == {"0"}


# ====================================================================== end of the game
def test_the_end_of_the_deck_gives_every_other_player_one_more_turn() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue"]},
            {"hand": ["lord.red", "lord.blue"]},
            {"hand": ["knight.red", "knight.blue"]},
        ],
        deck=["page.green"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "draw")
    assert "deck.empty" in keys(events) and state.final_turns == 2
    # seat 0's turn goes on, without the game deck
    assert state.current == 0 and ("draw",) not in decision(state).options
    play(state, "lay", "page.red")
    play(state, "end")
    assert state.current == 1
    play(state, "lay", "lord.red")
    play(state, "end")
    assert state.current == 2 and state.result is None
    play(state, "lay", "knight.red")
    events = play(state, "end")
    # seat 0 does not play again: the game is over and scored
    assert state.result is not None
    assert "game.over" in keys(events)
    assert state.result.scores == [1, 3, 2]
    assert state.result.winners == [1]
    assert state.frames == []


def test_the_deck_ending_on_a_smuta_still_gives_the_others_one_turn_each() -> None:
    state = setup(
        players=[{"hand": ["page.red"]}, {"hand": ["lord.red"]}],
        deck=["reformation"],
    )
    play(state, "draw")
    assert state.current == 1 and state.final_turns == 0
    play(state, "lay", "lord.red")
    assert state.result is not None and state.result.scores == [0, 3]


def test_a_restarted_turn_after_the_deck_ran_out_is_still_the_same_turn() -> None:
    state = setup(
        players=[
            {"hand": ["page.red", "page.blue", "page.green"]},
            {"hand": ["lord.red", "lord.blue"]},
        ],
        deck=["betrayal"],
    )
    play(state, "draw")
    # Предательство: seat 1 took a card; seat 0 starts the turn again
    assert state.current == 0 and state.actions_left == 3 and state.final_turns == 1
    while state.current == 0:
        play(state, "discard")
    assert state.current == 1 and state.result is None
    while state.result is None:
        assert state.current == 1
        play(state, "discard")


def final_result(*rows: list[dict[str, Any]]) -> Result:
    """The result when seat 0, on the last turn, discards its only card: seat `i` has
    the houses `rows[i]`."""
    players: list[dict[str, Any]] = [{"houses": r} for r in rows]
    players[0]["hand"] = ["page.orange"]
    state = setup(players=players, deck=[], final_turns=0)
    play(state, "discard", "page.orange")
    assert state.result is not None
    assert not state.result.aborted
    return state.result


def house(colour: str, *cards: str, castle: str | None = None) -> dict[str, Any]:
    return {"colour": colour, "cards": list(cards), "castle": castle}


GREEN_9 = house("green", "lord.green", "lord.green", "knight.green", "page.green")
RED_5_CASTLE = house("red", "lord.red", "page.red", "page.red", castle="one_time")


def test_score_is_card_points_plus_three_per_castle() -> None:
    result = final_result(
        [
            house("red", "lord.red", "lady.red", "knight.red", castle="permanent"),
            house(
                "blue",
                "page.blue",
                "servant.blue.green",
                "treasurer.blue",
                "plague.blue",
                "harlot.blue",
            ),
        ],
        [GREEN_9],
    )
    # seat 0: 3 + 3 + 2 + castle 3 = 11, then 1 + 1 + 1 + 0 + 0 = 3 → 14; seat 1: 3 + 3 + 2 + 1 = 9
    assert result.scores == [14, 9]
    assert result.castles == [1, 0]
    assert result.winners == [0]


@pytest.mark.parametrize(
    ("rows", "scores", "castles", "winners"),
    [
        # seats 1 and 2 tie on points; neither has a castle: shared
        pytest.param(
            [
                [RED_5_CASTLE],
                [GREEN_9],
                [house("blue", "lord.blue", "lady.blue", "knight.blue", "page.blue")],
            ],
            [8, 9, 9],
            [1, 0, 0],
            [1, 2],
            id="a-tie-without-castles-is-shared",
        ),
        pytest.param(
            [[RED_5_CASTLE, house("blue", "knight.blue")], [GREEN_9]],
            [10, 9],
            [1, 0],
            [0],
            id="more-points-win",
        ),
        # 8 each: the castle decides
        pytest.param(
            [
                [RED_5_CASTLE],
                [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "lord.green", "page.green", "page.green"],
                    }
                ],
            ],
            [8, 8],
            [1, 0],
            [0],
            id="the-castle-decides",
        ),
    ],
)
def test_a_tie_on_points_goes_to_more_castles(
    rows: list[list[dict[str, Any]]], scores: list[int], castles: list[int], winners: list[int]
) -> None:
    result = final_result(*rows)
    assert result.scores == scores
    assert result.castles == castles
    assert result.winners == winners
