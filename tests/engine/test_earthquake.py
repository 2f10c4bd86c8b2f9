"""🌎 Землетрясение (smuty.ru.txt; RULES.md §3.7, §6): every castle returns to the
supply at once; then, from the initiator clockwise, each player chooses an
opponent and takes every card of that opponent's left house (one house is left
and right), laying each out in their own houses by its own colour (a Слуга by
either colour, a new house at an end chosen by the taker). All are placed first,
then their on-appearing properties fire oldest first: Миледи takes a man of her
colour, Менестрель looks for women, Лазутчица only looks and discards. The
смута ends the turn."""

from __future__ import annotations

from typing import Any

from engine.cards import COLOURS
from engine.scenario import play
from engine.state import GameState
from tests.engine.helpers import (
    asked,
    decision,
    draw_smuta,
    hand,
    houses,
    kinds,
    row,
    setup,
    smuta_over,
)


def victims(state: GameState) -> list[int]:
    d = decision(state)
    assert d.kind == "earthquake.target"
    return sorted(int(o[0]) for o in d.options)


# ------------------------------------------------------------------ rulings
def test_ruling_a_single_house_is_the_left_house() -> None:
    """Что, если у соперника только один дом?

    Этот единственный дом считается одновременно левым и правым: it is taken."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
            {
                "hand": ["page.blue"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}],
            },
        ],
    )
    # seat 0 had one victim, so no question; a new blue house needs an end
    assert asked(state) == (0, "house_end")
    play(state, "right")
    # seat 1, left with nothing, then took seat 0's left house (red) — one victim again
    assert row(state, 0) == [("blue", ["lord.blue", "page.blue", "knight.blue"])]
    assert row(state, 1) == [("red", ["lord.red"])]
    smuta_over(state, "earthquake", 1)


def test_ruling_four_players_may_all_strip_the_same_player() -> None:
    """Получается если нас играют 4 человека. Мы можем выбрать игрока у которого 3 дома.
    Каждый по очереди заберёт у него целиком дом? И он вообще останется без выложенных карт?

    Такое возможно, но не обязательно: each player in turn chooses freely whom to take from."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {
                "hand": ["page.green"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "page.red"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                    {"colour": "green", "cards": ["lord.green"]},
                ],
            },
            {"hand": ["page.blue"], "houses": [{"colour": "orange", "cards": ["lord.orange"]}]},
            {"hand": ["page.green"], "houses": [{"colour": "orange", "cards": ["page.orange"]}]},
        ],
        current=1,
        deck=["earthquake", "lord.orange"],
    )
    # seat 1 (the initiator) goes first and may choose any opponent with houses
    assert asked(state) == (1, "earthquake.target")
    assert victims(state) == [0, 2, 3]
    play(state, "0")  # the red Рыцарь joins seat 1's red house
    assert row(state, 1)[0] == ("red", ["lord.red", "page.red", "knight.red"])
    # seat 2 could choose seat 3 instead, but chooses seat 1
    assert asked(state) == (2, "earthquake.target")
    assert victims(state) == [1, 3]
    play(state, "1")
    play(state, "left")
    assert asked(state) == (3, "earthquake.target")
    assert victims(state) == [1, 2]
    play(state, "1")
    play(state, "right")
    assert asked(state) == (0, "earthquake.target")
    assert victims(state) == [1, 2, 3]
    play(state, "1")
    assert row(state, 1) == []
    assert row(state, 2) == [
        ("red", ["lord.red", "page.red", "knight.red"]),
        ("orange", ["lord.orange"]),
    ]
    assert row(state, 3) == [("orange", ["page.orange"]), ("blue", ["lord.blue"])]
    assert row(state, 0) == [("green", ["lord.green"])]
    smuta_over(state, "earthquake", 2)


# a third player with a house: the next player then has a choice, so is asked,
# and the taker's new row can be read before anyone takes from it
BYSTANDER: dict[str, Any] = {
    "hand": ["page.green"],
    "houses": [{"colour": "orange", "cards": ["lord.orange"]}],
}
SPLIT_HOUSE = ["servant.red.green", "servant.red.orange", "knight.red", "treasurer.blue"]


def take_the_split_house() -> GameState:
    """Землетрясение with seat 1's red house the SPLIT_HOUSE: seat 0 takes it."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"]},
            {"hand": ["page.blue"], "houses": [{"colour": "red", "cards": SPLIT_HOUSE}]},
            BYSTANDER,
        ],
        deck=["earthquake", "lord.green"],
    )
    play(state, "1")
    return state


def test_ruling_a_taken_house_may_split_into_four_houses() -> None:
    """Если у меня в красном доме Красно-зелёный слуга, Красно-рыжий слуга, Красный Рыцарь
    и пожененный Синий Казначей, то соперник забрав их у меня может в теории распределить
    их аж на 4 дома?

    Теоретически да: at most four houses (green, orange, red, blue)."""
    state = take_the_split_house()
    assert asked(state) == (0, "servant_side")
    play(state, "green")  # the first card opens seat 0's row: no end to choose
    assert asked(state) == (0, "servant_side")
    play(state, "orange")
    play(state, "right")
    play(state, "right")  # the Рыцарь's red house
    play(state, "right")  # the married Казначей goes by his own colour: blue
    assert row(state, 0) == [
        ("green", ["servant.red.green@green"]),
        ("orange", ["servant.red.orange@orange"]),
        ("red", ["knight.red"]),
        ("blue", ["treasurer.blue"]),
    ]
    assert row(state, 1) == []
    assert asked(state) == (1, "earthquake.target")


def test_the_same_house_splits_into_at_least_two_houses() -> None:
    """… «как минимум на 2»: both Слуги red, Рыцарь red, the Казначей blue."""
    state = take_the_split_house()
    play(state, "red")
    play(state, "red")
    play(state, "left")  # the Казначей's blue house
    assert row(state, 0) == [
        ("blue", ["treasurer.blue"]),
        ("red", ["servant.red.green@red", "servant.red.orange@red", "knight.red"]),
    ]


def test_ruling_properties_fire_lady_takes_a_man_of_her_colour() -> None:
    """Если я забрал у соперника карты, сработает ли их свойство при появлении в доме?

    Да, почти у всех: Миледи lets the taker take a man of her colour."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"]},
            {
                "hand": ["page.blue"],
                "houses": [
                    {"colour": "red", "cards": ["lady.red"]},
                    # a red Рыцарь married into the blue house keeps his colour
                    {"colour": "blue", "cards": ["lord.blue", "knight.red", "page.blue"]},
                ],
            },
            {"hand": ["page.green"], "houses": [{"colour": "green", "cards": ["lord.red"]}]},
        ],
    )
    assert asked(state) == (0, "earthquake.target")
    play(state, "1")
    d = decision(state)
    assert (d.seat, d.kind) == (0, "lady.take")
    # men of red only (the blue Лорд and Паж are not hers), from any opponent
    assert sorted(kinds(state, [o[1] for o in d.options if o != ("skip",)])) == [
        "knight.red",
        "lord.red",
    ]
    assert ("skip",) in d.options
    play(state, "1", "knight.red")
    assert row(state, 0) == [("red", ["lady.red", "knight.red"])]
    assert row(state, 1) == [("blue", ["lord.blue", "page.blue"])]


def test_ruling_properties_fire_minstrel_looks_for_women() -> None:
    """Если я забрал у соперника карты, сработает ли их свойство при появлении в доме?

    Да: Менестрель looks at an opponent's hand and may lay a woman from it."""
    state = setup(
        players=[
            {"hand": ["page.orange"]},
            {"hand": ["page.blue"], "houses": [{"colour": "red", "cards": ["minstrel.red"]}]},
            {"hand": ["lady.green", "page.green", "spy.blue", "ball"]},
        ],
        deck=["earthquake", "lord.orange"],
        orders=["marriage"],
    )
    play(state, "draw")
    # seat 0 took the only house; the Менестрель asks whose hand to look at
    assert asked(state) == (0, "minstrel.target")
    assert sorted(o[0] for o in decision(state).options) == ["1", "2"]
    events = play(state, "2")
    shown = [e for e in events if e.key == "hand.shown"]
    assert len(shown) == 1 and shown[0].to == (0,)  # only the taker sees the hand
    looked = [e for e in events if e.key == "hand.looked"]
    assert len(looked) == 1 and looked[0].to is None and "cards" not in looked[0].params
    d = decision(state)
    assert (d.seat, d.kind) == (0, "minstrel.lay")
    # the women of the hand (not the Паж, not the order), or nothing
    assert sorted(kinds(state, [o[0] for o in d.options if o != ("skip",)])) == [
        "lady.green",
        "spy.blue",
    ]
    assert ("skip",) in d.options
    play(state, "spy.blue")
    play(state, "right")
    assert row(state, 0) == [("red", ["minstrel.red"]), ("blue", ["spy.blue"])]
    assert hand(state, 2) == ["ball", "lady.green", "page.green"]
    # the Лазутчица laid out by the Менестрель fires in turn: look and discard, no draw
    assert asked(state) == (0, "spy.target")
    play(state, "2")
    assert asked(state) == (0, "spy.discard")
    play(state, "ball")
    assert hand(state, 2) == ["lady.green", "page.green"]
    assert kinds(state, state.orders_discard) == ["ball"]
    assert kinds(state, state.orders) == ["marriage"]
    assert hand(state, 0) == ["page.orange"]


def test_ruling_properties_fire_spy_only_looks_and_discards() -> None:
    """Если я забрал у соперника карты, сработает ли их свойство при появлении в доме?

    Лазутчица при смуте даёт только вариант посмотреть руку соперника и сбросить
    у него приказ (без добора карт) — even in the initiator's own turn."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"]},
            {"hand": ["ball", "page.blue"], "houses": [{"colour": "red", "cards": ["spy.red"]}]},
        ],
        orders=["marriage", "infirmary"],
    )
    assert asked(state) == (0, "spy.discard")
    play(state, "ball")
    assert kinds(state, state.orders) == ["marriage", "infirmary"]
    assert hand(state, 0) == ["page.orange"]
    assert hand(state, 1) == ["page.blue"]
    assert kinds(state, state.orders_discard) == ["ball"]


def test_servants_have_no_property_and_take_either_side() -> None:
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
            {
                "hand": ["page.blue"],
                "houses": [{"colour": "green", "cards": ["servant.blue.green"]}],
            },
            BYSTANDER,
        ],
        deck=["earthquake", "lord.green"],
    )
    play(state, "1")
    assert asked(state) == (0, "servant_side")
    play(state, "blue")
    assert row(state, 0) == [("blue", ["lord.blue", "servant.blue.green@blue"])]


# ------------------------------------------------------------------ castles
def test_castles_return_first_so_a_castle_house_can_be_taken() -> None:
    state = setup(
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
            {
                "hand": ["page.blue"],
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "one_time",
                    },
                    {"colour": "green", "cards": ["lord.green"]},
                ],
            },
        ],
        deck=["earthquake", "lord.orange"],
    )
    events = play(state, "draw")
    returned = [e for e in events if e.key == "castles.returned"]
    assert len(returned) == 1 and returned[0].params["seats"] == {"0": ["red"], "1": ["blue"]}
    assert sorted(state.castles) == sorted(COLOURS)
    play(state, "left")  # seat 0 took seat 1's (former castle) blue house
    # seat 1 then takes seat 0's left house — the blue one just laid at the left end
    assert asked(state) == (1, "house_end")
    play(state, "right")
    assert row(state, 0) == [("red", ["lord.red", "page.red", "knight.red"])]
    assert row(state, 1) == [
        ("green", ["lord.green"]),
        ("blue", ["lord.blue", "page.blue", "knight.blue"]),
    ]
    assert all(h[2] is None for seat in (0, 1) for h in houses(state, seat))
    # the initiator's permanent Замок Власти is gone: the turn ends
    smuta_over(state, "earthquake", 1)


# ------------------------------------------------------------------ the effect
def test_the_left_house_is_taken_not_the_right() -> None:
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "green", "cards": ["page.green"]}]},
            {
                "hand": ["page.blue"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "page.red"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
            {"hand": ["page.green"], "houses": [{"colour": "orange", "cards": ["lord.orange"]}]},
        ],
        deck=["earthquake", "lord.green"],
    )
    play(state, "1")
    play(state, "right")
    assert row(state, 0) == [("green", ["page.green"]), ("red", ["lord.red", "page.red"])]
    assert row(state, 1) == [("blue", ["lord.blue"])]
    assert asked(state) == (1, "earthquake.target")


def test_the_text_example_page_knight_and_servant() -> None:
    """Красный Паж, Красный Рыцарь, Красно-зелёный Слуга: Паж and Рыцарь into the red
    house, the Слуга into the red or the green house, as the taker chooses."""
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
            {
                "hand": ["page.blue"],
                "houses": [
                    {"colour": "red", "cards": ["page.red", "knight.red", "servant.red.green"]},
                    {"colour": "blue", "cards": ["lord.blue"]},
                ],
            },
            {"hand": ["page.green"], "houses": [{"colour": "orange", "cards": ["lord.orange"]}]},
        ],
        deck=["earthquake", "lord.green"],
    )
    play(state, "1")
    assert asked(state) == (0, "servant_side")
    assert sorted(decision(state).options) == [("green",), ("red",)]
    play(state, "green")
    play(state, "right")
    # taken cards join the existing red house on top, oldest first
    assert row(state, 0) == [
        ("red", ["lord.red", "page.red", "knight.red"]),
        ("green", ["servant.red.green@green"]),
    ]
    assert asked(state) == (1, "earthquake.target")


def test_all_cards_are_placed_before_properties_fire_oldest_first() -> None:
    state = setup(
        players=[
            {"hand": ["page.orange"]},
            {
                "hand": ["ball", "page.blue"],
                "houses": [{"colour": "red", "cards": ["treasurer.red", "spy.red"]}],
            },
        ],
        deck=["earthquake", "lord.orange"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    keys = [e.key for e in events if e.key in ("placed", "order.drawn", "hand.looked")]
    assert keys == ["placed", "placed", "order.drawn", "hand.looked"]
    assert hand(state, 0) == ["marriage", "page.orange"]
    assert asked(state) == (0, "spy.discard")


def test_a_player_whose_opponents_have_no_houses_is_skipped() -> None:
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"]},
            {"hand": ["page.blue"]},
            {"hand": ["page.green"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
        ],
        current=2,
    )
    # seat 2 has no victim; seat 0 takes from seat 2 (the only one); seat 1 from seat 0
    assert row(state, 2) == []
    assert row(state, 0) == []
    assert row(state, 1) == [("red", ["lord.red"])]
    smuta_over(state, "earthquake", 0)


def test_nobody_has_houses_the_smuta_still_ends_the_turn() -> None:
    state = setup(
        players=[{"hand": ["page.orange", "lord.red"]}, {"hand": ["page.blue"]}],
        deck=["earthquake", "lord.orange"],
    )
    events = play(state, "draw")
    assert [e.params["seat"] for e in events if e.key == "earthquake.nothing"] == [0, 1]
    smuta_over(state, "earthquake", 1)


def test_the_initiators_own_turn_does_not_let_a_spy_draw() -> None:
    """Lay a card first, then draw Землетрясение: still no draw for the Лазутчица."""
    state = setup(
        players=[
            {"hand": ["page.orange", "lord.orange"]},
            {"hand": ["page.blue"], "houses": [{"colour": "red", "cards": ["spy.red"]}]},
        ],
        deck=["earthquake", "lord.green"],
        orders=["marriage"],
    )
    play(state, "lay", "lord.orange")
    play(state, "draw")
    play(state, "right")  # the red house of the Лазутчица
    # she looked at seat 1's hand (no order in it) and drew nothing
    assert kinds(state, state.orders) == ["marriage"]
    assert hand(state, 0) == ["page.orange"]
    # then seat 1 took seat 0's left house
    assert row(state, 0) == [("red", ["spy.red"])]
    assert row(state, 1) == [("orange", ["lord.orange"])]
    smuta_over(state, "earthquake", 1)


def test_six_players_go_clockwise_from_the_initiator() -> None:
    colours = ["red", "blue", "green", "orange", "red", "blue"]
    players: list[dict[str, Any]] = [
        {"hand": [f"page.{c}"], "houses": [{"colour": c, "cards": [f"lord.{c}"]}]} for c in colours
    ]
    state, _ = draw_smuta("earthquake", players=players, current=3)
    order = []
    while decision(state).kind != "action":
        seat, what = asked(state)
        if what == "earthquake.target":
            order.append(seat)
            # each takes from the player on their left
            play(state, str((seat + 1) % 6))
        else:
            play(state, "right")
    assert order == [3, 4, 5, 0, 1, 2]
    smuta_over(state, "earthquake", 4)


def test_a_treasurer_taken_into_a_full_hand_draws_nothing() -> None:
    full = ["page.green", "page.green", "lord.green", "lord.green", "knight.green"]
    full += ["healer.green", "jester.green"]
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["treasurer.red"]}]},
            {"hand": full, "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        orders=["marriage"],
    )
    play(state, "right")  # seat 0's new blue house
    # seat 1 (7 cards) took seat 0's left house: the Казначей fires, but there is no room
    assert row(state, 1) == [("red", ["treasurer.red"])]
    assert len(state.players[1].hand) == 7
    assert kinds(state, state.orders) == ["marriage"]
    smuta_over(state, "earthquake", 1)


def test_a_treasurer_taken_with_room_draws_an_order() -> None:
    state, _ = draw_smuta(
        "earthquake",
        players=[
            {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["treasurer.red"]}]},
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        orders=["marriage"],
    )
    play(state, "right")
    assert hand(state, 1) == ["marriage", "page.blue"]
    assert state.orders == []
