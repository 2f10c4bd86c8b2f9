"""⚔️ Удачный Поход (smuty.ru.txt; RULES.md §6): from the initiator, clockwise,
each player chooses an opponent whose right house has no castle, takes one card
of it and lays it out in their own houses; compulsory if possible.

One house is both left and right; a castle on the right house protects it (but
not a newcomer laid to its right); the taker chooses a Слуга's side; the card's
on-appearing property fires for the taker (Миледи takes a man of her colour)."""

from __future__ import annotations

from engine import Event, GameState
from engine.cards import catalog_for
from tests.engine.helpers import decision, draw_smuta, hand, houses, options, play, smuta_over

BLUE_CASTLE = {
    "colour": "blue",
    "cards": ["lord.blue", "page.blue", "page.blue"],
    "castle": "permanent",
}

# Every position has an orders deck (a Лазарет): drawing is then not the only action,
# which a player would take on their own.


def takes(state: GameState, events: list[Event]) -> list[tuple[int, str, int]]:
    """(taker, card kind, source) of every take, in order."""
    cat = catalog_for(state.rules)
    return [
        (e.params["seat"], cat[e.params["card"]].type_key, e.params["source"])
        for e in events
        if e.key == "campaign.took"
    ]


def nothing(events: list[Event]) -> list[int]:
    return [e.params["seat"] for e in events if e.key == "campaign.nothing"]


# ------------------------------------------------------------------ the rulings
def test_a_single_house_is_the_right_house() -> None:
    """Что, если у соперника только один дом?
    — Этот дом считается и левым, и правым одновременно. Можно брать карту из него."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [BLUE_CASTLE]},
            {"houses": [{"colour": "green", "cards": ["page.green", "knight.green"]}]},
        ],
        orders=["infirmary"],
    )
    assert decision(state).seat == 0 and decision(state).kind == "campaign.take"
    assert options(state) == {("1", "page.green"), ("1", "knight.green")}
    play(state, "1", "knight.green")
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    events = play(state, "left")
    assert houses(state, 0) == [
        ("green", ["knight.green"], None),
        ("blue", ["lord.blue", "page.blue", "page.blue"], "permanent"),
    ]
    assert houses(state, 1) == [("green", ["page.green"], None)]
    # seat 1's only possible prey is seat 0's right house, which has a castle
    assert nothing(events) == [1]
    smuta_over(state, "campaign", 1)


def test_a_castle_on_the_right_house_protects_it() -> None:
    """Что если в правом доме есть замок?
    — В этом случае дом защищён, и брать из него карту нельзя."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {},
            {"houses": [{"colour": "red", "cards": ["knight.red"]}, BLUE_CASTLE]},
            {"houses": [{"colour": "green", "cards": ["page.green", "lord.green"]}]},
        ],
        orders=["infirmary"],
    )
    # seat 1's right house is its castle house: neither it nor its left house may be raided
    assert decision(state).seat == 0
    assert options(state) == {("2", "page.green"), ("2", "lord.green")}


def test_everyone_protected_means_nothing_is_taken() -> None:
    """Что если в правом доме есть замок? — брать из него карту нельзя: with every
    right house castled, nobody takes anything, and the turn still ends."""
    red_castle = {
        "colour": "red",
        "cards": ["lord.red", "page.red", "page.red"],
        "castle": "one_time",
    }
    state, events = draw_smuta(
        "campaign",
        players=[
            {"houses": [{"colour": "green", "cards": ["page.green"]}, red_castle]},
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}, BLUE_CASTLE]},
        ],
        orders=["infirmary"],
    )
    assert takes(state, events) == []
    assert nothing(events) == [0, 1]
    assert len(houses(state, 0)) == 2 and len(houses(state, 1)) == 2
    smuta_over(state, "campaign", 1)


def test_a_newcomer_laid_right_of_ones_castle_can_be_taken() -> None:
    """Что если в правом доме есть замок? — … если сам не заберёт какую-то карту у
    другого и не положит её себе справа от замка, тогда эту новоприбывшую карту
    можно будет забрать."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [BLUE_CASTLE]},
            {"houses": [{"colour": "green", "cards": ["page.green", "knight.green"]}]},
        ],
        orders=["infirmary"],
    )
    play(state, "1", "knight.green")
    events = play(state, "right")  # the new green house goes right of the castle
    # seat 1's only prey is now that newcomer: taken at once
    assert takes(state, events) == [(1, "knight.green", 0)]
    assert houses(state, 0) == [("blue", ["lord.blue", "page.blue", "page.blue"], "permanent")]
    assert houses(state, 1) == [("green", ["page.green", "knight.green"], None)]
    smuta_over(state, "campaign", 1)


def test_the_taker_chooses_a_servants_house() -> None:
    """Что если забираю Слугу с двумя цветами?
    — Вы выбираете, в какой из двух своих домов (по цвету Слуги) его положить."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "knight.red", "servant.red.green@red"]}
                ]
            },
        ],
        orders=["infirmary"],
    )
    # «Вы можете забрать любого из них»
    assert options(state) == {("1", "lord.red"), ("1", "knight.red"), ("1", "servant.red.green")}
    play(state, "1", "servant.red.green")
    d = decision(state)
    assert d.seat == 0 and d.kind == "servant_side"
    assert set(d.options) == {("red",), ("green",)}
    play(state, "green")
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    events = play(state, "left")
    servant = state.players[0].houses[0].cards[0]
    assert state.servant_up[servant] == "green"
    # the green house went to the left, so seat 1's prey is seat 0's red (right) house
    assert takes(state, events) == [(1, "page.red", 0)]
    assert houses(state, 0) == [("green", ["servant.red.green"], None)]
    assert houses(state, 1) == [("red", ["lord.red", "knight.red", "page.red"], None)]


def test_a_servant_may_join_the_house_of_its_other_colour() -> None:
    """Что если забираю Слугу с двумя цветами? — the taker may also lay it by the
    colour it did not show, into an existing house (no end to choose)."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {"houses": [{"colour": "red", "cards": ["lord.red", "servant.red.green@red"]}]},
        ],
        orders=["infirmary"],
    )
    play(state, "1", "servant.red.green")
    play(state, "green")
    assert houses(state, 0) == [("green", ["page.green", "servant.red.green"], None)]
    servant = state.players[0].houses[0].cards[1]
    assert state.servant_up[servant] == "green"


def test_a_lord_taken_goes_into_the_takers_house_of_its_colour() -> None:
    """«Забранного Лорда или Рыцаря выкладываете в свой красный дом»."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {
                "houses": [
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "red", "cards": ["page.red"]},
                ]
            },
            {
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "knight.red", "servant.red.green@red"]}
                ]
            },
        ],
        orders=["infirmary"],
    )
    play(state, "1", "lord.red")
    assert houses(state, 0) == [
        ("blue", ["page.blue"], None),
        ("red", ["page.red", "lord.red"], None),
    ]
    assert houses(state, 1) == [("red", ["knight.red", "servant.red.green"], None)]


def test_a_lady_taken_takes_a_man_of_her_colour() -> None:
    """Срабатывают ли свойства «при появлении в доме»?
    — Да. Например, Миледи позволит вам тут же забрать мужчину нужного цвета из дома соперника."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {},
            {
                "houses": [
                    {"colour": "green", "cards": ["knight.green"]},
                    {"colour": "red", "cards": ["lady.red"]},
                ]
            },
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": [
                            "knight.red",
                            "page.red",
                            "treasurer.blue",
                            "servant.red.green@red",
                        ],
                    },
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "lord.red"],
                        "castle": "permanent",
                    },
                ]
            },
        ],
        orders=["infirmary"],
    )
    # the Миледи is seat 0's only prey (seat 2's right house is a castle): taken at once
    d = decision(state)
    assert d.seat == 0 and d.kind == "lady.take"
    # men of HER colour (by their own colour), from any opponent's house without a castle:
    # not the married blue Казначей, not the Слуга, not the red Лорд in the castle house
    assert options(state) == {("2", "knight.red"), ("2", "page.red"), ("skip",)}
    play(state, "2", "knight.red")
    assert houses(state, 0) == [("red", ["lady.red", "knight.red"], None)]
    assert houses(state, 2)[0] == (
        "red",
        ["page.red", "treasurer.blue", "servant.red.green"],
        None,
    )
    assert houses(state, 1) == [("green", ["knight.green"], None)]


def test_a_lady_taken_may_take_from_the_player_she_came_from() -> None:
    """Срабатывают ли свойства «при появлении в доме»? — Да: the Миледи's man may
    come from any house of any opponent — here her former owner's left house."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {},
            {
                "houses": [
                    {"colour": "orange", "cards": ["lord.orange"]},
                    {"colour": "red", "cards": ["page.red", "lady.red"]},
                ]
            },
        ],
        orders=["infirmary"],
    )
    # the right house holds two cards: seat 0 chooses the Миледи
    play(state, "1", "lady.red")
    assert options(state) == {("1", "page.red"), ("skip",)}
    play(state, "1", "page.red")
    assert houses(state, 0) == [("red", ["lady.red", "page.red"], None)]
    assert houses(state, 1) == [("orange", ["lord.orange"], None)]


def test_a_spy_taken_looks_for_orders_without_drawing() -> None:
    """Срабатывают ли свойства «при появлении в доме»? — Да … Лазутчица даст
    возможность проверить руки соперника на приказ (during a смута: no draw)."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"hand": ["page.red"]},
            {
                "hand": ["ball", "lord.blue"],
                "houses": [{"colour": "green", "cards": ["spy.green"]}],
            },
            {"hand": ["marriage"]},
        ],
        orders=["infirmary"],
    )
    # the Лазутчица is the only prey, so she is taken; then seat 0 picks a hand to see
    d = decision(state)
    assert d.seat == 0 and d.kind == "spy.target"
    assert set(d.options) == {("1",), ("2",)}
    events = play(state, "1")
    shown = [e for e in events if e.key == "hand.shown"]
    assert len(shown) == 1 and shown[0].to == (0,) and shown[0].params["target"] == 1
    assert options(state) == {("ball",), ("skip",)}
    play(state, "ball")
    assert hand(state, 1) == ["lord.blue"]
    assert hand(state, 0) == ["page.red"]  # no order drawn
    assert [catalog_for(state.rules)[c].type for c in state.orders] == ["infirmary"]
    # seat 1 then takes her back (seat 0's one house) and she looks for seat 1 in turn
    assert houses(state, 0) == []
    assert houses(state, 1) == [("green", ["spy.green"], None)]
    assert decision(state).seat == 1 and decision(state).kind == "spy.target"


# ------------------------------------------------------------------ the effect
def test_only_the_right_house_may_be_raided() -> None:
    """«выбирают правый дом любого соперника»: the left and middle houses are safe."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {},
            {
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "green", "cards": ["lord.green"]},
                    {"colour": "blue", "cards": ["page.blue", "knight.blue"]},
                ]
            },
        ],
        orders=["infirmary"],
    )
    assert options(state) == {("1", "page.blue"), ("1", "knight.blue")}


def test_any_opponent_may_be_raided_and_taking_is_compulsory() -> None:
    """Each player chooses any opponent's right house; there is no option to pass."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
        ],
        orders=["infirmary"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "campaign.take"
    assert options(state) == {("1", "page.blue"), ("2", "page.green"), ("3", "page.orange")}


def test_a_card_taken_may_go_into_the_takers_own_castle_house() -> None:
    """Cards the owner takes may join their own castle house (RULES.md §5)."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [BLUE_CASTLE]},
            {"houses": [{"colour": "blue", "cards": ["knight.blue", "treasurer.blue"]}]},
        ],
        orders=["infirmary", "ball"],
    )
    play(state, "1", "knight.blue")
    assert houses(state, 0) == [
        ("blue", ["lord.blue", "page.blue", "page.blue", "knight.blue"], "permanent")
    ]
    # and seat 1 cannot raid it back: the right house is a castle house
    assert houses(state, 1) == [("blue", ["treasurer.blue"], None)]
    smuta_over(state, "campaign", 1)


def test_a_treasurer_taken_draws_an_order_for_the_taker() -> None:
    """Срабатывают ли свойства «при появлении в доме»? — Да: a Казначей draws for the
    taker (the draw is not silenced during a смута)."""
    state, events = draw_smuta(
        "campaign",
        players=[{}, {"houses": [{"colour": "orange", "cards": ["treasurer.orange"]}]}],
        orders=["infirmary", "ball"],
    )
    # seat 0 takes him and draws; seat 1 takes him back and draws in turn
    assert takes(state, events) == [(0, "treasurer.orange", 1), (1, "treasurer.orange", 0)]
    assert hand(state, 0) == ["infirmary"]
    assert hand(state, 1) == ["ball"]
    assert houses(state, 0) == []
    assert houses(state, 1) == [("orange", ["treasurer.orange"], None)]
    assert state.orders == []
    smuta_over(state, "campaign", 1)


def test_an_emptied_right_house_hands_the_role_to_the_next_house() -> None:
    """When a right house loses its last card it vanishes; the next player's
    «right house» of that opponent is the one now at the end of the row."""
    green_castle = {
        "colour": "green",
        "cards": ["lord.green", "page.green", "page.green"],
        "castle": "one_time",
    }
    state, events = draw_smuta(
        "campaign",
        players=[
            {"houses": [green_castle]},
            {
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["page.blue"]},
                ]
            },
            {},
        ],
        orders=["infirmary"],
    )
    # seat 0's one choice (seat 1's blue Паж) was made; it picks the end of its row
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    events = play(state, "left")
    assert takes(state, events) == [(2, "lord.red", 1)]
    assert nothing(events) == [1]  # seat 0's right house is a castle; seat 2 has nothing
    assert houses(state, 1) == []
    assert houses(state, 2) == [("red", ["lord.red"], None)]
    assert houses(state, 0)[0] == ("blue", ["page.blue"], None)
    smuta_over(state, "campaign", 1)


def test_takers_go_from_the_initiator_clockwise() -> None:
    """«Игроки по очереди (начиная с инициатора смуты и далее по часовой стрелке)»:
    with seat 1 drawing among three, the takers are 1, 2, 0."""
    state, events = draw_smuta(
        "campaign",
        players=[
            {"houses": [{"colour": "red", "cards": ["page.red", "page.red"]}]},
            {"houses": [{"colour": "red", "cards": ["knight.red", "lord.red"]}]},
            {"houses": [{"colour": "red", "cards": ["lord.red", "healer.red"]}]},
        ],
        orders=["infirmary"],
        current=1,
    )
    seen = takes(state, events)
    while decision(state).kind == "campaign.take":
        seen += takes(state, play(state, *decision(state).options[0]))
    assert [taker for taker, _, _ in seen] == [1, 2, 0]
    assert all(taker != source for taker, _, source in seen)
    smuta_over(state, "campaign", 2)


def test_six_players_take_in_turn_round_the_table() -> None:
    """Six players, seat 4 draws: the takers are 4, 5, 0, 1, 2, 3."""
    rows = [
        ("red", ["page.red", "lord.red"]),
        ("blue", ["page.blue", "lord.blue"]),
        ("green", ["page.green", "lord.green"]),
        ("orange", ["page.orange", "lord.orange"]),
        ("red", ["knight.red", "healer.red"]),
        ("blue", ["knight.blue", "healer.blue"]),
    ]
    state, events = draw_smuta(
        "campaign",
        players=[{"houses": [{"colour": colour, "cards": cards}]} for colour, cards in rows],
        orders=["infirmary"],
        current=4,
    )
    seen = takes(state, events)
    while decision(state).kind != "action":
        seen += takes(state, play(state, *decision(state).options[0]))
    assert [taker for taker, _, _ in seen] == [4, 5, 0, 1, 2, 3]
    smuta_over(state, "campaign", 5)


def test_nothing_to_take_and_the_turn_still_ends() -> None:
    """A смута with no effect still ends the turn (RULES.md §6)."""
    state, events = draw_smuta(
        "campaign", players=[{"hand": ["lord.red"]}, {"hand": ["page.blue"]}], orders=["infirmary"]
    )
    assert nothing(events) == [0, 1]
    assert hand(state, 0) == ["lord.red"] and hand(state, 1) == ["page.blue"]
    smuta_over(state, "campaign", 1)


def test_a_treasurer_taken_into_a_full_hand_draws_nothing() -> None:
    """A taker holding 7 cards gains no order from the Казначей's property."""
    full = [
        "page.red",
        "page.red",
        "knight.red",
        "page.green",
        "page.green",
        "knight.green",
        "ball",
    ]
    state, events = draw_smuta(
        "campaign",
        players=[
            {"hand": full, "houses": [BLUE_CASTLE]},
            {"houses": [{"colour": "blue", "cards": ["treasurer.blue"]}]},
        ],
        deck_top_open=True,  # a face-up смута may be drawn with 7 cards
        orders=["marriage"],
    )
    assert takes(state, events) == [(0, "treasurer.blue", 1)]
    assert len(state.players[0].hand) == 7
    assert [catalog_for(state.rules)[c].type for c in state.orders] == ["marriage"]
    assert houses(state, 0)[0][1][-1] == "treasurer.blue"
    smuta_over(state, "campaign", 1)


def test_a_permanent_castle_of_power_gives_the_initiator_a_new_turn() -> None:
    """The смута ends the turn — except with a permanent Замок Власти, when a new
    turn of the initiator begins (RULES.md §4)."""
    power = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "permanent"}
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [power]},
            {"houses": [{"colour": "green", "cards": ["page.green", "lord.green"]}]},
        ],
        orders=["infirmary"],
        actions_left=2,
    )
    play(state, "1", "lord.green")
    play(state, "left")
    assert houses(state, 0)[0] == ("green", ["lord.green"], None)
    assert [catalog_for(state.rules)[c].type for c in state.smuta_discard] == ["campaign"]
    assert state.current == 0
    assert state.turn == 2
    assert state.actions_left == 3 and state.actions_taken == 0


def test_a_harlot_taken_goes_into_the_takers_own_houses() -> None:
    """Cards taken always go into the taker's own houses (RULES.md §3.3): a Блудница
    taken is not planted elsewhere, and nobody is asked where she goes."""
    state, _ = draw_smuta(
        "campaign",
        players=[
            {"houses": [BLUE_CASTLE]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {"houses": [{"colour": "red", "cards": ["harlot.red"]}]},
        ],
        orders=["infirmary"],
    )
    play(state, "2", "harlot.red")
    d = decision(state)
    assert d.seat == 0 and d.kind == "house_end"
    events = play(state, "left")
    assert houses(state, 0)[0] == ("red", ["harlot.red"], None)
    # seat 1 finds only castles and empty rows; seat 2 raids seat 1's one house
    assert nothing(events) == [1]
    assert takes(state, events) == [(2, "page.green", 1)]
    assert houses(state, 2) == [("green", ["page.green"], None)]
    smuta_over(state, "campaign", 1)
