"""🔥 Пожар (smuty.ru.txt; RULES.md §6): every castle returns to the supply at once;
then every former castle owner, from the initiator clockwise, sends one card of
each house that lost its castle to the graveyard (rule option `fire_each_house`;
when off, one card of one such house). Players without a castle are not
touched. The смута ends the turn even when it touches nobody."""

from __future__ import annotations

from typing import Any

from engine.cards import COLOURS
from engine.scenario import play
from engine.state import GameState
from tests.engine.helpers import asked, decision, draw_smuta, houses, kind, kinds, setup, smuta_over

RED_CASTLE: dict[str, Any] = {
    "colour": "red",
    "cards": ["lord.red", "page.red", "knight.red"],
    "castle": "one_time",
}
BLUE_CASTLE: dict[str, Any] = {
    "colour": "blue",
    "cards": ["lord.blue", "page.blue", "knight.blue"],
    "castle": "permanent",
}


def burnable(state: GameState) -> list[str]:
    d = decision(state)
    assert d.kind == "fire.burn"
    return sorted(kind(state, o[0]) for o in d.options)


# ------------------------------------------------------------------ rulings
def test_ruling_castles_go_at_once_then_the_burning_goes_in_turn() -> None:
    """Замки уничтожаются одновременно?

    Да: every castle returns at once; the choice of a card to burn goes in turn."""
    state = setup(
        players=[
            {"hand": ["page.orange"], "houses": [RED_CASTLE]},
            {"hand": ["page.green"], "houses": [BLUE_CASTLE]},
        ],
        deck=["fire", "lord.orange"],
    )
    events = play(state, "draw")
    returned = [e for e in events if e.key == "castles.returned"]
    assert len(returned) == 1 and returned[0].to is None
    assert returned[0].params["seats"] == {"0": ["red"], "1": ["blue"]}
    # when the initiator chooses, seat 1's castle is already back in the supply
    assert asked(state) == (0, "fire.burn")
    assert sorted(state.castles) == sorted(COLOURS)
    assert houses(state, 1)[0][2] is None
    assert burnable(state) == ["knight.red", "lord.red", "page.red"]
    play(state, "page.red")
    assert asked(state) == (1, "fire.burn")
    assert burnable(state) == ["knight.blue", "lord.blue", "page.blue"]
    play(state, "lord.blue")
    assert houses(state, 0) == [("red", ["lord.red", "knight.red"], None)]
    assert houses(state, 1) == [("blue", ["page.blue", "knight.blue"], None)]
    assert kinds(state, state.graveyard) == ["lord.blue", "page.red"]
    smuta_over(state, "fire", 1)


def test_ruling_a_player_without_a_castle_skips_and_burns_nothing_of_others() -> None:
    """Что происходит, если у меня не было замка? Могу ли я сбросить карту из чужого дома?

    Нет: they skip the stage; and the castle owner burns only in the house that
    lost its castle — not in their other houses, not in anyone else's."""
    state, _ = draw_smuta(
        "fire",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{"colour": "green", "cards": ["lord.green", "page.green"]}],
            },
            {
                "hand": ["page.green"],
                "houses": [RED_CASTLE, {"colour": "orange", "cards": ["lord.orange"]}],
            },
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["fire", "knight.orange"],
    )
    # seat 0 (the initiator) had no castle and is not asked
    assert asked(state) == (1, "fire.burn")
    assert burnable(state) == ["knight.red", "lord.red", "page.red"]
    play(state, "knight.red")
    assert houses(state, 0) == [("green", ["lord.green", "page.green"], None)]
    assert houses(state, 1) == [
        ("red", ["lord.red", "page.red"], None),
        ("orange", ["lord.orange"], None),
    ]
    assert houses(state, 2) == [("blue", ["lord.blue"], None)]
    assert kinds(state, state.graveyard) == ["knight.red"]
    smuta_over(state, "fire", 1)


def test_ruling_with_no_castle_anywhere_the_turn_still_ends() -> None:
    """Если я вытянул эту смуту, а ни у кого не было замка, продолжаю ли я ход?

    Нет: the смута is resolved even though it touched nobody, and the turn ends."""
    state = setup(
        players=[
            {
                "hand": ["page.orange", "lord.orange"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}],
            },
            {"hand": ["page.green"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["fire", "knight.orange"],
    )
    assert state.actions_left == 3
    events = play(state, "draw")
    assert "castles.returned" not in [e.key for e in events]
    assert "smuta.end" in [e.key for e in events]
    assert houses(state, 0) == [("red", ["lord.red", "page.red", "knight.red"], None)]
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    assert state.graveyard == []
    smuta_over(state, "fire", 1)


# ------------------------------------------------------------------ the effect
def test_the_example_the_page_burns_lord_and_knight_stay() -> None:
    state, _ = draw_smuta(
        "fire",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [{**RED_CASTLE, "castle": "permanent"}],
            },
            {"hand": ["page.green"]},
        ],
        graveyard=["page.blue"],
    )
    assert asked(state) == (0, "fire.burn")
    events = play(state, "page.red")
    killed = [e for e in events if e.key == "card.killed"]
    assert len(killed) == 1 and killed[0].to is None and killed[0].params["by"] == 0
    assert houses(state, 0) == [("red", ["lord.red", "knight.red"], None)]
    assert "red" in state.castles
    # the burned card lies on top of the graveyard
    assert kinds(state, state.graveyard) == ["page.red", "page.blue"]
    # the initiator's permanent Замок Власти burned down too: no new turn
    smuta_over(state, "fire", 1)


def test_each_house_that_lost_a_castle_burns_a_card_by_default() -> None:
    state, _ = draw_smuta(
        "fire",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [RED_CASTLE, {"colour": "green", "cards": ["lord.green"]}, BLUE_CASTLE],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert state.rules.fire_each_house is True
    assert asked(state) == (0, "fire.burn")
    assert burnable(state) == ["knight.red", "lord.red", "page.red"]
    play(state, "lord.red")
    assert asked(state) == (0, "fire.burn")
    assert burnable(state) == ["knight.blue", "lord.blue", "page.blue"]
    play(state, "knight.blue")
    assert houses(state, 0) == [
        ("red", ["page.red", "knight.red"], None),
        ("green", ["lord.green"], None),
        ("blue", ["lord.blue", "page.blue"], None),
    ]
    assert kinds(state, state.graveyard) == ["knight.blue", "lord.red"]
    smuta_over(state, "fire", 1)


def test_with_the_option_off_one_card_of_one_such_house_burns() -> None:
    state, _ = draw_smuta(
        "fire",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [RED_CASTLE, {"colour": "green", "cards": ["lord.green"]}, BLUE_CASTLE],
            },
            {
                "hand": ["page.green"],
                "houses": [
                    {
                        **RED_CASTLE,
                        "colour": "orange",
                        "cards": ["lord.orange", "page.orange", "knight.orange"],
                    }
                ],
            },
        ],
        rules={"fire_each_house": False},
        deck=["fire", "lord.orange"],
    )
    assert state.rules.fire_each_house is False
    assert asked(state) == (0, "fire.burn")
    # one choice among the cards of both former castle houses, never the green one
    assert burnable(state) == sorted(
        ["lord.red", "page.red", "knight.red", "lord.blue", "page.blue", "knight.blue"]
    )
    play(state, "page.blue")
    # seat 0 is done after one card; seat 1 burns in its own former castle house
    assert asked(state) == (1, "fire.burn")
    play(state, "knight.orange")
    assert houses(state, 0) == [
        ("red", ["lord.red", "page.red", "knight.red"], None),
        ("green", ["lord.green"], None),
        ("blue", ["lord.blue", "knight.blue"], None),
    ]
    assert houses(state, 1) == [("orange", ["lord.orange", "page.orange"], None)]
    assert kinds(state, state.graveyard) == ["knight.orange", "page.blue"]
    smuta_over(state, "fire", 1)


def test_former_owners_burn_from_the_initiator_clockwise() -> None:
    """Three players, seat 1 draws and had no castle: seat 2 burns, then seat 0."""
    state, _ = draw_smuta(
        "fire",
        players=[
            {"hand": ["page.orange"], "houses": [RED_CASTLE]},
            {"hand": ["page.green"], "houses": [{"colour": "green", "cards": ["lord.green"]}]},
            {"hand": ["page.green"], "houses": [BLUE_CASTLE]},
        ],
        current=1,
    )
    assert asked(state) == (2, "fire.burn")
    play(state, "page.blue")
    assert asked(state) == (0, "fire.burn")
    play(state, "page.red")
    assert kinds(state, state.graveyard) == ["page.red", "page.blue"]
    assert houses(state, 1) == [("green", ["lord.green"], None)]
    smuta_over(state, "fire", 2)


def test_a_castle_house_of_one_card_burns_away_without_a_question() -> None:
    """A castle stays until its house is empty (RULES.md §5), so a one-card castle
    house can exist; its only card burns at once and the house vanishes."""
    state, _ = draw_smuta(
        "fire",
        players=[
            {
                "hand": ["page.orange"],
                "houses": [
                    {"colour": "green", "cards": ["lord.green"]},
                    {"colour": "red", "cards": ["lord.red"], "castle": "one_time"},
                ],
            },
            {"hand": ["page.green"]},
        ],
    )
    assert houses(state, 0) == [("green", ["lord.green"], None)]
    assert kinds(state, state.graveyard) == ["lord.red"]
    assert sorted(state.castles) == sorted(COLOURS)
    smuta_over(state, "fire", 1)


def test_six_players_burn_in_order_from_the_initiator() -> None:
    colours = ["red", "blue", "green", "orange"]
    players: list[dict[str, Any]] = [{"hand": ["page.red"]}, {"hand": ["page.green"]}]
    for c in colours:
        players.append(
            {
                "hand": [f"lady.{c}"],
                "houses": [
                    {
                        "colour": c,
                        "cards": [f"lord.{c}", f"page.{c}", f"knight.{c}"],
                        "castle": "one_time",
                    }
                ],
            }
        )
    # seats 2..5 own the castles; seat 4 draws
    state, _ = draw_smuta("fire", players=players, current=4, deck=["fire", "lord.blue"])
    order = []
    while asked(state)[1] == "fire.burn":
        seat = asked(state)[0]
        order.append(seat)
        play(state, f"knight.{colours[seat - 2]}")
    assert order == [4, 5, 2, 3]
    assert kinds(state, state.graveyard) == [
        "knight.blue", "knight.red", "knight.orange", "knight.green"
    ]  # fmt: skip
    assert sorted(state.castles) == sorted(COLOURS)
    smuta_over(state, "fire", 5)


def test_a_full_hand_may_draw_a_face_up_fire_and_it_resolves() -> None:
    """A смута turned up by Великий Пир lies face up: a player with 7 cards may draw it."""
    full = ["page.green", "page.green", "lord.green", "lord.green", "knight.green"]
    full += ["healer.green", "jester.green"]
    state, _ = draw_smuta(
        "fire",
        players=[
            {"hand": full, "houses": [RED_CASTLE]},
            {"hand": ["page.orange"], "houses": [BLUE_CASTLE]},
        ],
        deck_top_open=True,
    )
    assert asked(state) == (0, "fire.burn")
    play(state, "lord.red")
    assert asked(state) == (1, "fire.burn")
    play(state, "lord.blue")
    assert len(state.players[0].hand) == 7
    assert kinds(state, state.graveyard) == ["lord.blue", "lord.red"]
    assert state.deck_top_open is False
    smuta_over(state, "fire", 1)
