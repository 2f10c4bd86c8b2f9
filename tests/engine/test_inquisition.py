"""🔥 Инквизиция (smuty.ru.txt; RULES.md §6): from the initiator, clockwise, each
player sends to the graveyard every house of theirs holding a Блудница — a
castle house excepted — in the order they choose; a house goes oldest card
first, so its newest card ends on top. The смута ends the initiator's turn."""

from __future__ import annotations

from typing import Any

from tests.engine.helpers import decision, draw_smuta, hand, houses, kinds, play, setup, smuta_over

# Every seat holds a card, so the next player is asked for an action (a seat with a
# single legal action would take it on its own and blur what the смута did).
FILLER = ["page.orange"]


# ------------------------------------------------------------------ rulings
def test_ruling_a_castle_protects_its_house() -> None:
    """Защищает ли замок дом от Инквизиции?

    Да: a castle house with a Блудница stays whole; the same player's house
    without a castle is sent to the graveyard."""
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "harlot.red", "page.red"],
                        "castle": "one_time",
                    },
                    {"colour": "blue", "cards": ["knight.blue", "harlot.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert houses(state, 0) == [("red", ["lord.red", "harlot.red", "page.red"], "one_time")]
    assert kinds(state, state.graveyard) == ["harlot.blue", "knight.blue"]
    assert "red" not in state.castles  # the castle was not touched
    smuta_over(state, "inquisition", 1)


def test_ruling_one_harlot_is_enough_and_more_change_nothing() -> None:
    """Блудница уничтожает дом одна или важно сколько их?

    Неважно: a house with one Блудница among many cards and a house with two
    (one married in from another colour) both go whole to the graveyard."""
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "knight.red", "page.red", "harlot.red", "page.red"],
                    },
                ],
            },
            {
                "hand": ["page.green"],
                "houses": [
                    {"colour": "blue", "cards": ["harlot.blue", "lord.blue", "harlot.green"]}
                ],
            },
        ],
    )
    assert houses(state, 0) == []
    assert houses(state, 1) == []
    # each house whole, oldest card first: seat 1's newest card lies on top
    assert kinds(state, state.graveyard) == [
        "harlot.green", "lord.blue", "harlot.blue",
        "page.red", "harlot.red", "page.red", "knight.red", "lord.red",
    ]  # fmt: skip
    smuta_over(state, "inquisition", 1)


def test_ruling_players_go_in_turn_and_each_chooses_the_order_of_their_houses() -> None:
    """Все дома уничтожаются одновременно или по очереди?

    По очереди: each player, in their go, destroys all their houses with a
    Блудница, in the order they choose."""
    position: dict[str, Any] = {
        "players": [
            {"hand": FILLER, "houses": [{"colour": "orange", "cards": ["harlot.orange"]}]},
            {
                "hand": ["page.green"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "harlot.red"]},
                    {"colour": "green", "cards": ["knight.green"]},
                    {"colour": "blue", "cards": ["harlot.blue", "page.blue"]},
                ],
            },
        ],
    }
    for first, second in (("red", "blue"), ("blue", "red")):
        state = setup(deck=["inquisition", "lord.orange"], **position)
        play(state, "draw")
        # the initiator went first: their house is already gone when seat 1 is asked
        assert houses(state, 0) == []
        assert kinds(state, state.graveyard) == ["harlot.orange"]
        d = decision(state)
        assert (d.seat, d.kind) == (1, "destroy.order")
        assert sorted(d.options) == [("blue",), ("red",)]
        play(state, first)
        # both doomed houses go in this one go; the last chosen lies on top
        assert houses(state, 1) == [("green", ["knight.green"], None)]
        top = {"red": ["harlot.red", "lord.red"], "blue": ["page.blue", "harlot.blue"]}
        assert kinds(state, state.graveyard) == top[second] + top[first] + ["harlot.orange"]
        smuta_over(state, "inquisition", 1)


# ------------------------------------------------------------------ the effect
def test_the_example_red_house_goes_blue_house_stays() -> None:
    """The text's example: red Лорд + Блудница goes whole, blue Рыцарь + Слуга stays."""
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "harlot.red"]},
                    {"colour": "blue", "cards": ["knight.blue", "servant.blue.green"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert houses(state, 0) == [("blue", ["knight.blue", "servant.blue.green"], None)]
    # oldest card first, so the newest (the Блудница) ends on top
    assert kinds(state, state.graveyard) == ["harlot.red", "lord.red"]
    smuta_over(state, "inquisition", 1)


def test_one_doomed_house_is_not_asked_about() -> None:
    state = setup(
        players=[
            {"hand": FILLER, "houses": [{"colour": "red", "cards": ["harlot.red", "lord.red"]}]},
            {"hand": ["page.green"]},
        ],
        deck=["inquisition", "lord.orange"],
    )
    events = play(state, "draw")
    destroyed = [e for e in events if e.key == "house.destroyed"]
    assert len(destroyed) == 1
    assert destroyed[0].to is None  # public
    assert destroyed[0].params["seat"] == 0
    assert destroyed[0].params["by"] == "inquisition"
    assert kinds(state, state.graveyard) == ["lord.red", "harlot.red"]
    smuta_over(state, "inquisition", 1)


def test_cards_land_on_top_of_the_existing_graveyard() -> None:
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {"hand": FILLER, "houses": [{"colour": "red", "cards": ["page.red", "harlot.red"]}]},
            {"hand": ["page.green"]},
        ],
        graveyard=["knight.blue", "lord.green"],
    )
    assert kinds(state, state.graveyard) == ["harlot.red", "page.red", "knight.blue", "lord.green"]


def test_a_harlot_planted_in_an_opponents_house_dooms_that_house() -> None:
    """The house with the Блудница goes, whoever planted her; the planter's houses stay."""
    state = setup(
        players=[
            {
                "hand": ["harlot.blue", "page.orange"],
                "houses": [{"colour": "green", "cards": ["lord.green"]}],
            },
            {
                "hand": ["page.green"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "knight.blue"]}],
            },
        ],
        deck=["inquisition", "lord.orange"],
    )
    play(state, "lay", "harlot.blue", "1", "blue")
    assert houses(state, 1) == [("blue", ["lord.blue", "knight.blue", "harlot.blue"], None)]
    play(state, "draw")
    assert houses(state, 0) == [("green", ["lord.green"], None)]
    assert houses(state, 1) == []
    assert kinds(state, state.graveyard) == ["harlot.blue", "knight.blue", "lord.blue"]
    smuta_over(state, "inquisition", 1)


def test_a_middle_house_goes_and_the_row_closes_up() -> None:
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["harlot.blue"]},
                    {"colour": "green", "cards": ["lord.green"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert [h[0] for h in houses(state, 0)] == ["red", "green"]


def test_without_a_harlot_nothing_happens_and_the_turn_still_ends() -> None:
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [{"colour": "red", "cards": ["lord.red", "plague.red", "lady.red"]}],
            },
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["knight.blue"]}]},
        ],
        graveyard=["page.blue"],
    )
    assert houses(state, 0) == [("red", ["lord.red", "plague.red", "lady.red"], None)]
    assert houses(state, 1) == [("blue", ["knight.blue"], None)]
    assert kinds(state, state.graveyard) == ["page.blue"]
    assert hand(state, 0) == ["page.orange"]  # the смута was not taken into the hand
    smuta_over(state, "inquisition", 1)


def test_the_smuta_ends_the_turn_even_with_actions_left() -> None:
    state = setup(
        players=[
            {"hand": ["lord.red", "page.orange"]},
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["harlot.blue"]}]},
        ],
        deck=["inquisition", "lord.orange"],
    )
    play(state, "lay", "lord.red")
    assert state.actions_left == 2
    play(state, "draw")
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 1) == []
    smuta_over(state, "inquisition", 1)


def test_a_permanent_castle_of_power_gives_the_initiator_a_new_turn() -> None:
    """Инквизиция is no disaster: castles stay, so a permanent Замок Власти restarts the turn."""
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": FILLER,
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "harlot.red"],
                        "castle": "permanent",
                    },
                    {"colour": "blue", "cards": ["harlot.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
        actions_left=2,
    )
    assert houses(state, 0) == [("red", ["lord.red", "page.red", "harlot.red"], "permanent")]
    assert kinds(state, state.graveyard) == ["harlot.blue"]
    assert kinds(state, state.smuta_discard) == ["inquisition"]
    assert state.current == 0
    assert state.actions_left == 3
    assert decision(state).seat == 0


def test_order_of_players_starts_with_the_initiator_and_goes_clockwise() -> None:
    """Six players, seat 4 draws: the doomed houses go in the order 5, 0, 2, 3
    (seats 4 and 1 have none) — so seat 3's cards end on top, seat 5's at the bottom."""
    state, _ = draw_smuta(
        "inquisition",
        players=[
            {
                "hand": ["lord.red"],
                "houses": [{"colour": "blue", "cards": ["page.blue", "harlot.blue"]}],
            },
            {"hand": ["lord.blue"], "houses": [{"colour": "green", "cards": ["lord.green"]}]},
            {"hand": ["lord.blue"], "houses": [{"colour": "green", "cards": ["harlot.green"]}]},
            {
                "hand": ["lord.green"],
                "houses": [{"colour": "orange", "cards": ["knight.orange", "harlot.orange"]}],
            },
            {"hand": ["lord.orange"], "houses": [{"colour": "orange", "cards": ["lord.orange"]}]},
            {
                "hand": ["knight.red"],
                "houses": [{"colour": "red", "cards": ["page.red", "harlot.red"]}],
            },
        ],
        deck=["inquisition", "lord.red"],
        current=4,
    )
    assert kinds(state, state.graveyard) == [
        "harlot.orange", "knight.orange",  # seat 3
        "harlot.green",  # seat 2
        "harlot.blue", "page.blue",  # seat 0
        "harlot.red", "page.red",  # seat 5
    ]  # fmt: skip
    assert houses(state, 1) == [("green", ["lord.green"], None)]
    assert houses(state, 4) == [("orange", ["lord.orange"], None)]
    for seat in (0, 2, 3, 5):
        assert houses(state, seat) == []
    smuta_over(state, "inquisition", 5)
