"""💀 Чума (smuty.ru.txt; RULES.md §6): every castle returns to the supply at once;
then, from the initiator clockwise, each player sends to the graveyard every
house of theirs with a Чумовой and no Лекарь, in the order they choose (a house
goes oldest card first, so its newest card ends on top). The смута ends the turn."""

from __future__ import annotations

from typing import Any

from engine.cards import COLOURS
from tests.engine.helpers import asked, decision, draw_smuta, houses, kinds, play, setup, smuta_over


# ------------------------------------------------------------------ rulings
def test_ruling_the_player_chooses_the_order_but_both_houses_go() -> None:
    """В какой последовательности уничтожаются мои дома, если в двух из них есть Чумовой
    и нет Лекаря?

    В любой последовательности на ваш выбор; both go whole to the graveyard.
    The order decides which card ends on top of the graveyard."""
    position: dict[str, Any] = {
        "players": [
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["plague.red", "lord.red"]},
                    {"colour": "green", "cards": ["lord.green"]},
                    {"colour": "blue", "cards": ["page.blue", "plague.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
        "deck": ["pestilence", "lord.orange"],
    }
    tops = {}
    for first in ("red", "blue"):
        state = setup(**position)
        play(state, "draw")
        assert asked(state) == (0, "destroy.order")
        assert sorted(decision(state).options) == [("blue",), ("red",)]
        play(state, first)
        assert houses(state, 0) == [("green", ["lord.green"], None)]
        assert sorted(kinds(state, state.graveyard)) == sorted(
            ["plague.red", "lord.red", "page.blue", "plague.blue"]
        )
        tops[first] = kinds(state, state.graveyard)
        smuta_over(state, "pestilence", 1)
    assert tops["red"] == ["plague.blue", "page.blue", "lord.red", "plague.red"]
    assert tops["blue"] == ["lord.red", "plague.red", "plague.blue", "page.blue"]


def test_ruling_a_healer_protects_a_house_with_a_plague() -> None:
    """Что если в доме Чумовой и Лекарь?

    Такой дом остаётся целым."""
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "red", "cards": ["plague.red", "lord.red", "healer.red"]}],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert houses(state, 0) == [("red", ["plague.red", "lord.red", "healer.red"], None)]
    assert state.graveyard == []
    smuta_over(state, "pestilence", 1)


def test_ruling_players_go_in_turn_each_destroying_all_their_plague_houses() -> None:
    """Игроки уничтожают все свои дома одновременно или по очереди? Когда моя очередь,
    я уничтожаю все свои дома с Чумовыми сразу или один и жду следующего круга?

    По очереди, но в свою очередь каждый уничтожает все свои дома с Чумовыми."""
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "orange", "cards": ["plague.orange"]}],
            },
            {
                "hand": ["page.green"],
                "houses": [
                    {"colour": "red", "cards": ["plague.red", "lord.red"]},
                    {"colour": "blue", "cards": ["plague.blue"]},
                ],
            },
            {
                "hand": ["page.green"],
                "houses": [{"colour": "green", "cards": ["lord.green", "plague.green"]}],
            },
        ],
        current=1,
        deck=["pestilence", "lord.blue"],
    )
    # seat 1 (the initiator) goes first and is asked only about the order
    assert asked(state) == (1, "destroy.order")
    assert state.graveyard == []
    play(state, "blue")
    # both of seat 1's houses went in this one go, then seat 2's, then seat 0's
    assert kinds(state, state.graveyard) == [
        "plague.orange",  # seat 0
        "plague.green", "lord.green",  # seat 2
        "lord.red", "plague.red",  # seat 1, second
        "plague.blue",  # seat 1, first
    ]  # fmt: skip
    for seat in range(3):
        assert houses(state, seat) == []
    smuta_over(state, "pestilence", 2)


# ------------------------------------------------------------------ the effect
def test_the_example_red_stays_blue_goes() -> None:
    """Красный дом: Чумовой, Лекарь → остаётся; Синий дом: Чумовой, Рыцарь → сбрасывается."""
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["plague.red", "healer.red"]},
                    {"colour": "blue", "cards": ["plague.blue", "knight.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert houses(state, 0) == [("red", ["plague.red", "healer.red"], None)]
    assert kinds(state, state.graveyard) == ["knight.blue", "plague.blue"]
    smuta_over(state, "pestilence", 1)


def test_castles_return_first_so_a_castle_house_is_not_protected() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "plague.red"],
                        "castle": "permanent",
                    },
                    {"colour": "green", "cards": ["lord.green"]},
                ],
            },
            {
                "hand": ["page.green"],
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "one_time",
                    }
                ],
            },
        ],
        deck=["pestilence", "lord.orange"],
    )
    events = play(state, "draw")
    keys = [e.key for e in events]
    returned = [e for e in events if e.key == "castles.returned"]
    assert len(returned) == 1 and returned[0].params["seats"] == {"0": ["red"], "1": ["blue"]}
    assert keys.index("castles.returned") < keys.index("house.destroyed")
    assert houses(state, 0) == [("green", ["lord.green"], None)]
    assert houses(state, 1) == [("blue", ["lord.blue", "page.blue", "knight.blue"], None)]
    assert kinds(state, state.graveyard) == ["plague.red", "page.red", "lord.red"]
    assert sorted(state.castles) == sorted(COLOURS)
    # the initiator's permanent Замок Власти is gone too: the turn ends
    smuta_over(state, "pestilence", 1)


def test_a_married_healer_of_another_colour_protects_the_house_he_lies_in() -> None:
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "red", "cards": ["plague.red", "healer.blue"]},
                    {"colour": "blue", "cards": ["plague.blue", "lord.blue"]},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    # the Лекарь protects only his own house, whatever its colour
    assert houses(state, 0) == [("red", ["plague.red", "healer.blue"], None)]
    assert kinds(state, state.graveyard) == ["lord.blue", "plague.blue"]


def test_a_plague_planted_in_an_opponents_house_dooms_that_house() -> None:
    state = setup(
        players=[
            {
                "hand": ["plague.blue", "page.orange"],
                "houses": [{"colour": "green", "cards": ["lord.green"]}],
            },
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["pestilence", "lord.orange"],
    )
    play(state, "lay", "plague.blue", "1", "blue")
    play(state, "draw")
    assert houses(state, 0) == [("green", ["lord.green"], None)]
    assert houses(state, 1) == []
    assert kinds(state, state.graveyard) == ["plague.blue", "lord.blue"]
    smuta_over(state, "pestilence", 1)


def test_the_dead_land_on_top_of_the_existing_graveyard() -> None:
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["plague.red"]}]},
            {"hand": ["page.green"]},
        ],
        graveyard=["lord.blue", "page.blue"],
    )
    assert kinds(state, state.graveyard) == ["plague.red", "lord.blue", "page.blue"]


def test_without_a_plague_only_the_castles_go_and_the_turn_ends() -> None:
    state, _ = draw_smuta(
        "pestilence",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "healer.red"],
                        "castle": "one_time",
                    }
                ],
            },
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["harlot.blue"]}]},
        ],
    )
    assert houses(state, 0) == [("red", ["lord.red", "page.red", "healer.red"], None)]
    assert houses(state, 1) == [("blue", ["harlot.blue"], None)]
    assert state.graveyard == []
    assert sorted(state.castles) == sorted(COLOURS)
    smuta_over(state, "pestilence", 1)


def test_the_smuta_ends_the_turn_even_with_actions_left() -> None:
    state = setup(
        players=[
            {"hand": ["lord.red", "page.orange"]},
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["plague.blue"]}]},
        ],
        deck=["pestilence", "lord.orange"],
    )
    play(state, "lay", "lord.red")
    play(state, "draw")
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert houses(state, 1) == []
    smuta_over(state, "pestilence", 1)


def test_six_players_from_the_initiator_clockwise() -> None:
    """Seat 5 draws: the plague houses go in the order 5, 0, 1, 2 (seats 3, 4 have none)."""
    players: list[dict[str, Any]] = [
        {"hand": ["page.red"], "houses": [{"colour": "red", "cards": ["lord.red", "plague.red"]}]},
        {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["plague.blue"]}]},
        {
            "hand": ["page.green"],
            "houses": [{"colour": "green", "cards": ["plague.green", "page.green"]}],
        },
        {"hand": ["lord.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        {"hand": ["lord.green"], "houses": [{"colour": "green", "cards": ["lord.green"]}]},
        {"hand": ["page.orange"], "houses": [{"colour": "orange", "cards": ["plague.orange"]}]},
    ]
    state, _ = draw_smuta("pestilence", players=players, current=5)
    assert kinds(state, state.graveyard) == [
        "page.green", "plague.green",  # seat 2
        "plague.blue",  # seat 1
        "plague.red", "lord.red",  # seat 0
        "plague.orange",  # seat 5
    ]  # fmt: skip
    assert houses(state, 3) == [("blue", ["lord.blue"], None)]
    assert houses(state, 4) == [("green", ["lord.green"], None)]
    smuta_over(state, "pestilence", 0)


def test_pestilence_as_the_last_card_of_the_deck_resolves_then_final_turns_begin() -> None:
    state = setup(
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["plague.red"]}]},
            {"hand": ["page.green", "lord.green"]},
        ],
        deck=["pestilence"],
    )
    events = play(state, "draw")
    assert "deck.empty" in [e.key for e in events]
    assert houses(state, 0) == []
    assert kinds(state, state.graveyard) == ["plague.red"]
    assert state.deck == []
    # seat 1 plays the one last turn, without the game deck
    smuta_over(state, "pestilence", 1)
    assert state.final_turns == 0
    assert ("draw",) not in decision(state).options
