"""🌞 Засуха (smuty.ru.txt; RULES.md §6): every castle returns to the supply at
once; then, from the initiator clockwise, each player flips every Слуга of theirs
to its other side and moves it to their house of the new colour (a new house at
either end of the row, chosen by the owner). A Слуга moved by Брачный союз
flips from the side it shows. No property fires. The смута ends the turn."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import COLOURS
from engine.scenario import play
from tests.engine.helpers import asked, decision, draw_smuta, houses, kinds, row, setup, smuta_over


# ------------------------------------------------------------------ rulings
def test_ruling_a_servant_moved_by_marriage_flips_from_the_side_it_shows() -> None:
    """Что происходит с Слугой, если раньше я при помощи приказа «Брачный союз»
    переместил его из зелёного дома в красный?

    Брачный союз only moves him, green side up; Засуха flips him to blue and he
    goes to the blue house."""
    state = setup(
        players=[
            {
                "hand": ["marriage", "page.orange"],
                "houses": [
                    {"colour": "green", "cards": ["lord.green", "servant.blue.green"]},
                    {"colour": "red", "cards": ["lord.red"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
        deck=["drought", "lord.orange"],
    )
    play(state, "play", "marriage", "servant.blue.green", "red")
    assert row(state, 0) == [
        ("green", ["lord.green"]),
        ("red", ["lord.red", "servant.blue.green@green"]),
    ]
    play(state, "draw")
    # no blue house yet: the owner chooses the end
    assert asked(state) == (0, "house_end")
    play(state, "right")
    assert row(state, 0) == [
        ("green", ["lord.green"]),
        ("red", ["lord.red"]),
        ("blue", ["servant.blue.green@blue"]),
    ]
    smuta_over(state, "drought", 1)


def test_ruling_no_on_appearing_property_fires_for_servants(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Срабатывают ли свойства «при появлении» для Слуг при Засухе?

    Нет: the Слуга stays in its owner's houses, so nothing «appears»."""
    import engine.characters

    fired: list[str] = []
    original = engine.characters.on_appearing

    def spy(g: Any, seat: int, card_id: str) -> None:
        fired.append(card_id)
        original(g, seat, card_id)

    monkeypatch.setattr(engine.characters, "on_appearing", spy)
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "servant.red.green@red"]},
                    {"colour": "green", "cards": ["servant.blue.green@green"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
    )
    assert row(state, 0) == [
        ("red", ["lord.red"]),
        ("green", ["servant.red.green@green"]),
        ("blue", ["lord.blue", "servant.blue.green@blue"]),
    ]
    assert fired == []
    smuta_over(state, "drought", 1)


def test_ruling_the_simple_example_two_servants_leave_the_red_house() -> None:
    """Можете привести простой пример?

    Red house with a red-green and a red-blue Слуга: the first goes to the green
    house, the second to the blue house."""
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "servant.red.green", "servant.red.blue"],
                    },
                ],
            },
            {"hand": ["page.blue"]},
        ],
    )
    assert asked(state) == (0, "house_end")
    assert decision(state).params["colour"] == "green"
    play(state, "left")
    assert asked(state) == (0, "house_end")
    assert decision(state).params["colour"] == "blue"
    play(state, "right")
    assert row(state, 0) == [
        ("green", ["servant.red.green@green"]),
        ("red", ["lord.red"]),
        ("blue", ["servant.red.blue@blue"]),
    ]
    smuta_over(state, "drought", 1)


# ------------------------------------------------------------------ castles
def test_every_castle_returns_to_the_supply_at_once() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "servant.red.blue"],
                        "castle": "one_time",
                    },
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
            {
                "hand": ["page.blue"],
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["lord.green", "page.green", "knight.green"],
                        "castle": "permanent",
                    },
                    {
                        "colour": "orange",
                        "cards": ["lord.orange", "page.orange", "knight.orange"],
                        "castle": "one_time",
                    },
                ],
            },
        ],
        deck=["drought", "lord.orange"],
    )
    assert state.castles == ["blue"]
    events = play(state, "draw")
    returned = [e for e in events if e.key == "castles.returned"]
    assert len(returned) == 1 and returned[0].to is None
    assert returned[0].params["seats"] == {"0": ["red"], "1": ["green", "orange"]}
    # the castles were gone before any Слуга moved
    assert [e.key for e in events].index("castles.returned") < [e.key for e in events].index(
        "drought.flipped"
    )
    assert sorted(state.castles) == sorted(COLOURS)
    assert all(h[2] is None for seat in (0, 1) for h in houses(state, seat))
    # the Слуга of the former castle house flipped like any other
    assert row(state, 0) == [
        ("red", ["lord.red", "page.red"]),
        ("blue", ["lord.blue", "servant.red.blue@blue"]),
    ]
    smuta_over(state, "drought", 1)


def test_a_permanent_castle_of_power_is_lost_so_the_turn_ends() -> None:
    state, _ = draw_smuta(
        "drought",
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
            {"hand": ["page.blue"]},
        ],
        actions_left=3,
    )
    assert houses(state, 0) == [("red", ["lord.red", "page.red", "knight.red"], None)]
    assert "red" in state.castles
    smuta_over(state, "drought", 1)


# ------------------------------------------------------------------ the flips
def test_a_servant_joins_an_existing_house_on_top_without_a_question() -> None:
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "blue", "cards": ["lord.blue", "servant.blue.orange"]},
                    {"colour": "orange", "cards": ["lord.orange", "page.orange"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
        deck=["drought", "lord.green"],
    )
    assert row(state, 0) == [
        ("blue", ["lord.blue"]),
        ("orange", ["lord.orange", "page.orange", "servant.blue.orange@orange"]),
    ]
    smuta_over(state, "drought", 1)


def test_a_servant_alone_in_its_house_leaves_it_and_the_house_vanishes() -> None:
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "green", "cards": ["lord.green"]},
                    {"colour": "red", "cards": ["servant.red.orange"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
    )
    play(state, "left")
    assert row(state, 0) == [("orange", ["servant.red.orange@orange"]), ("green", ["lord.green"])]


def test_a_lone_servant_in_a_lone_house_needs_no_end() -> None:
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "red", "cards": ["servant.red.orange"]}],
            },
            {"hand": ["page.blue"]},
        ],
    )
    assert row(state, 0) == [("orange", ["servant.red.orange@orange"])]
    smuta_over(state, "drought", 1)


def test_a_married_servant_whose_new_side_matches_its_house_stays_and_flips() -> None:
    """A red-blue Слуга showing red in the blue house (moved there by Брачный союз)
    flips to blue: it is already in the blue house."""
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["lord.blue", "servant.red.blue@red", "page.blue"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
    )
    assert row(state, 0) == [
        ("red", ["lord.red"]),
        ("blue", ["lord.blue", "servant.red.blue@blue", "page.blue"]),
    ]
    smuta_over(state, "drought", 1)


def test_every_servant_flips_exactly_once() -> None:
    """The red-green Слуга lands in the green house, whose own green-orange Слуга
    has not flipped yet; each flips once, and the newcomer is not flipped back."""
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "servant.red.green@red"]},
                    {"colour": "green", "cards": ["lord.green", "servant.green.orange@green"]},
                    {"colour": "orange", "cards": ["lord.orange"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
        deck=["drought", "lord.blue"],
    )
    assert row(state, 0) == [
        ("red", ["lord.red"]),
        ("green", ["lord.green", "servant.red.green@green"]),
        ("orange", ["lord.orange", "servant.green.orange@orange"]),
    ]


def test_two_servants_going_to_one_new_colour_share_the_new_house() -> None:
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "servant.red.green"]},
                    {"colour": "blue", "cards": ["lord.blue", "servant.blue.green"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
    )
    play(state, "left")  # asked once, for the first; the second joins the new house
    assert row(state, 0) == [
        ("green", ["servant.red.green@green", "servant.blue.green@green"]),
        ("red", ["lord.red"]),
        ("blue", ["lord.blue"]),
    ]
    smuta_over(state, "drought", 1)


def test_other_cards_do_not_move_even_married_ones() -> None:
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "treasurer.blue", "lady.green"]},
                    {"colour": "blue", "cards": ["page.blue"]},
                ],
            },
            {"hand": ["page.blue"]},
        ],
        orders=["ball"],
    )
    assert row(state, 0) == [
        ("red", ["lord.red", "treasurer.blue", "lady.green"]),
        ("blue", ["page.blue"]),
    ]
    assert kinds(state, state.orders) == ["ball"]


def test_players_flip_in_turn_from_the_initiator_clockwise() -> None:
    """Three players, seat 1 draws: seat 1 chooses an end, then seat 2, then seat 0 —
    each for their own row."""
    state, _ = draw_smuta(
        "drought",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "red", "cards": ["lord.red", "servant.red.green"]}],
            },
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "servant.blue.orange"]}],
            },
            {
                "hand": ["page.green"],
                "houses": [{"colour": "orange", "cards": ["lord.orange", "servant.red.orange"]}],
            },
        ],
        current=1,
        deck=["drought", "lord.green"],
    )
    order = []
    for end in ("left", "right", "left"):
        seat, what = asked(state)
        assert what == "house_end"
        order.append(seat)
        play(state, end)
    assert order == [1, 2, 0]
    assert row(state, 1) == [("orange", ["servant.blue.orange@orange"]), ("blue", ["lord.blue"])]
    assert row(state, 2) == [("orange", ["lord.orange"]), ("red", ["servant.red.orange@red"])]
    assert row(state, 0) == [("green", ["servant.red.green@green"]), ("red", ["lord.red"])]
    smuta_over(state, "drought", 2)


def test_six_players_each_flip_their_own_servants() -> None:
    pairs = ["red.blue", "red.green", "red.orange", "blue.green", "blue.orange", "green.orange"]
    hands = ["page.blue", "page.red", "page.red", "page.green", "page.green", "page.orange"]
    players: list[dict[str, Any]] = [
        {"hand": [h], "houses": [{"colour": pair.split(".")[0], "cards": [f"servant.{pair}"]}]}
        for pair, h in zip(pairs, hands, strict=True)
    ]
    state, _ = draw_smuta("drought", players=players, current=5)
    for seat, pair in enumerate(pairs):
        second = pair.split(".")[1]
        assert row(state, seat) == [(second, [f"servant.{pair}@{second}"])]
    smuta_over(state, "drought", 0)


def test_without_servants_or_castles_nothing_changes_and_the_turn_ends() -> None:
    state = setup(
        players=[
            {"hand": ["lord.red", "page.orange"]},
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["drought", "lord.orange"],
    )
    play(state, "lay", "lord.red")
    events = play(state, "draw")
    assert "castles.returned" not in [e.key for e in events]
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    smuta_over(state, "drought", 1)
