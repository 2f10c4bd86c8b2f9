"""🕵️ Заговор (smuty.ru.txt; RULES.md §6): from the initiator, clockwise, each
player hands one of their house cards to an opponent's house of its colour.

«Дарёная» cards are not given on; giving is compulsory when possible; castle
houses neither give nor receive; the receiver chooses the end of the row and a
Слуга's side, and uses the card's on-appearing property (Лазутчица: look and
discard an order only, no draw)."""

from __future__ import annotations

from engine import Event
from engine.cards import catalog_for
from engine.scenario import play
from tests.engine.helpers import decision, draw_smuta, hand, houses, named, options, smuta_over

# Every position has an orders deck (a Лазарет): drawing is then not the only action,
# which a player would take on their own.


def gifts(events: list[Event]) -> list[tuple[int, int]]:
    """(giver, receiver) of every gift, in order."""
    return [(e.params["seat"], e.params["target"]) for e in events if e.key == "conspiracy.gave"]


# ------------------------------------------------------------------ the rulings
def test_a_received_card_cannot_be_given_back() -> None:
    """Можно ли передать карту обратно тому же сопернику в том же «Заговоре»?
    — Нет: карта становится «дарёной» и её нельзя выбрать в этот же Заговор."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue"]}]},
        ],
        orders=["infirmary"],
    )
    # seat 0 has one card and one opponent: the gift is forced
    assert decision(state).seat == 1 and decision(state).kind == "house_end"
    play(state, "right")
    assert houses(state, 1) == [
        ("blue", ["lord.blue", "page.blue"], None),
        ("red", ["knight.red"], None),
    ]
    assert decision(state).seat == 1 and decision(state).kind == "conspiracy.give"
    assert options(state) == {("lord.blue", "0"), ("page.blue", "0")}
    play(state, "lord.blue")
    assert houses(state, 0) == [("blue", ["lord.blue"], None)]
    assert houses(state, 1) == [("blue", ["page.blue"], None), ("red", ["knight.red"], None)]
    smuta_over(state, "conspiracy", 1)


def test_a_player_holding_only_a_gift_gives_nothing() -> None:
    """Можно ли передать карту обратно тому же сопернику в том же «Заговоре»?
    — Нет. (A player whose only card is the gift passes.)"""
    state, events = draw_smuta(
        "conspiracy",
        players=[{"houses": [{"colour": "red", "cards": ["knight.red"]}]}, {}],
        orders=["infirmary"],
    )
    assert gifts(events) == [(0, 1)]
    assert [e.params["seat"] for e in events if e.key == "conspiracy.nothing_to_give"] == [1]
    assert houses(state, 0) == []
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    smuta_over(state, "conspiracy", 1)


def test_a_gift_is_never_passed_on_to_a_third_player() -> None:
    """Можно ли передать карту обратно тому же сопернику в том же «Заговоре»?
    — «Дарёное» не отдают: not back, and not on to anyone else either."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        orders=["infirmary"],
    )
    play(state, "knight.red", "1")
    play(state, "left")  # seat 1 puts the red house at the left end
    assert options(state) == {("page.blue", "0"), ("page.blue", "2")}
    play(state, "page.blue", "2")
    play(state, "right")
    # seat 2 holds page.green and the gift page.blue: only the own card may go
    assert options(state) == {("page.green", "0"), ("page.green", "1")}
    play(state, "page.green", "0")
    assert houses(state, 0) == [("green", ["page.green"], None)]
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    assert houses(state, 2) == [("blue", ["page.blue"], None)]
    smuta_over(state, "conspiracy", 1)


def test_any_opponent_may_receive() -> None:
    """Могу ли я выбирать любого соперника для передачи?
    — Да. В свой ход выбираешь любого соперника и передаёшь ему выбранную карту."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
        ],
        orders=["infirmary"],
        deck=["conspiracy", "lord.orange"],
    )
    assert decision(state).seat == 0
    assert options(state) == {("knight.red", "1"), ("knight.red", "2"), ("knight.red", "3")}
    play(state, "knight.red", "2")  # not the neighbour: across the table
    assert decision(state).seat == 2 and decision(state).kind == "house_end"
    play(state, "left")
    assert houses(state, 2) == [("red", ["knight.red"], None), ("green", ["page.green"], None)]
    assert houses(state, 1) == [("blue", ["page.blue"], None)]
    assert houses(state, 3) == [("orange", ["page.orange"], None)]


def test_spy_received_in_a_conspiracy_looks_and_discards_an_order_without_drawing() -> None:
    """Срабатывают ли свойства «при появлении в доме», если я получил карту через
    Заговор? — Да. Лазутчица при получении через Заговор даёт возможность только
    посмотреть руку соперника и сбросить у него приказ."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "green", "cards": ["spy.green"]}]},
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"hand": ["marriage", "page.blue"]},
        ],
        orders=["infirmary"],
    )
    play(state, "spy.green", "1")
    assert decision(state).seat == 1 and decision(state).kind == "house_end"
    # seat 0's hand is empty, so the Лазутчица of seat 1 looks at seat 2's at once
    events = play(state, "right")
    shown = [e for e in events if e.key == "hand.shown"]
    assert len(shown) == 1
    assert shown[0].to == (1,)
    assert shown[0].params["target"] == 2
    assert sorted(named(state, tuple(shown[0].params["cards"]))) == ["marriage", "page.blue"]
    d = decision(state)
    assert d.seat == 1 and d.kind == "spy.discard"
    assert options(state) == {("marriage",), ("skip",)}  # orders only, never the Паж
    play(state, "marriage")
    assert hand(state, 2) == ["page.blue"]
    assert [catalog_for(state.rules)[c].type for c in state.orders_discard] == ["marriage"]
    assert hand(state, 1) == ["ball"]  # no draw during a смута
    assert len(state.orders) == 1
    # the Заговор goes on: seat 1 gives its own Паж (the Лазутчица is «дарёная»)
    assert decision(state).kind == "conspiracy.give"
    assert options(state) == {("page.red", "0"), ("page.red", "2")}


def test_spy_received_by_the_initiator_does_not_draw_either() -> None:
    """Срабатывают ли свойства «при появлении в доме», если я получил карту через
    Заговор? — Да, but Лазутчица only looks and discards: even for the initiator,
    whose turn it is, nothing is drawn during a смута."""
    state, events = draw_smuta(
        "conspiracy",
        players=[
            {"hand": ["page.red"]},
            {"hand": ["ball"], "houses": [{"colour": "green", "cards": ["spy.green"]}]},
        ],
        orders=["infirmary"],
    )
    assert [e.params["seat"] for e in events if e.key == "conspiracy.nothing_to_give"] == [0]
    assert gifts(events) == [(1, 0)]
    assert decision(state).seat == 0 and decision(state).kind == "spy.discard"
    play(state, "ball")
    assert hand(state, 1) == []
    assert hand(state, 0) == ["page.red"]
    assert len(state.orders) == 1
    assert houses(state, 0) == [("green", ["spy.green"], None)]
    smuta_over(state, "conspiracy", 1)


def test_treasurer_received_in_a_conspiracy_draws_for_the_receiver() -> None:
    """Срабатывают ли свойства «при появлении в доме», если я получил карту через
    Заговор? — Да: the receiver, not the giver, uses the property."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[{"houses": [{"colour": "orange", "cards": ["treasurer.orange"]}]}, {}],
        orders=["ball", "marriage"],
    )
    assert hand(state, 1) == ["ball"]
    assert hand(state, 0) == []
    assert houses(state, 1) == [("orange", ["treasurer.orange"], None)]
    assert len(state.orders) == 1


def test_treasurer_received_by_a_full_hand_draws_nothing() -> None:
    """A receiver holding 7 cards gains no order from a received Казначей."""
    full = ["page.red", "page.red", "page.blue", "page.blue", "page.green", "page.green", "ball"]
    state, _ = draw_smuta(
        "conspiracy",
        players=[{"houses": [{"colour": "orange", "cards": ["treasurer.orange"]}]}, {"hand": full}],
        orders=["marriage"],
    )
    assert len(state.players[1].hand) == 7
    assert len(state.orders) == 1
    assert houses(state, 1) == [("orange", ["treasurer.orange"], None)]


def test_the_only_card_of_a_house_must_be_given() -> None:
    """Если в доме только одна карта, я обязан отдать её?
    — Да. Любую свою выложенную карту дома можно отдать — даже если она единственная."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
        ],
        orders=["infirmary"],
    )
    # seat 0 was never asked: its one possible gift was made at once
    assert decision(state).seat == 1 and decision(state).kind == "house_end"
    assert houses(state, 0) == []
    play(state, "left")
    # seat 1 in turn must give its only own card, the last of its blue house
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    assert houses(state, 0) == [("blue", ["page.blue"], None)]
    smuta_over(state, "conspiracy", 1)


def test_no_card_goes_into_an_opponents_castle_house() -> None:
    """А если у соперника есть красный замок, а у меня только 1 красная карта
    (напр. Рыцарь)? — Нет. Вы не можете подселять карты в дом с замком соперника."""
    state, events = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "page.red"],
                        "castle": "permanent",
                    }
                ]
            },
        ],
        orders=["infirmary"],
    )
    assert gifts(events) == []
    nothing = [e.params["seat"] for e in events if e.key == "conspiracy.nothing_to_give"]
    assert nothing == [0, 1]
    assert houses(state, 0) == [("red", ["knight.red"], None)]
    assert houses(state, 1) == [("red", ["lord.red", "page.red", "page.red"], "permanent")]
    smuta_over(state, "conspiracy", 1)


def test_a_castle_house_only_shuts_out_its_own_colour() -> None:
    """А если у соперника есть красный замок, а у меня только 1 красная карта?
    — Нет; the red card must then go to an opponent who can take it."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "page.red"],
                        "castle": "one_time",
                    }
                ]
            },
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
        ],
        orders=["infirmary"],
    )
    # one legal gift (to seat 2): made at once; seat 2 picks the end
    assert decision(state).seat == 2 and decision(state).kind == "house_end"
    play(state, "right")
    assert houses(state, 2) == [("blue", ["page.blue"], None), ("red", ["knight.red"], None)]
    assert houses(state, 1) == [("red", ["lord.red", "page.red", "page.red"], "one_time")]


def test_cards_in_ones_own_castle_house_are_not_given() -> None:
    """Можно ли передавать карты из своего замка?
    — Нет. Карты, которые находятся в замке, не участвуют в Заговоре."""
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "permanent"}
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [castle, {"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {},
        ],
        orders=["infirmary"],
    )
    assert decision(state).seat == 0
    assert options(state) == {("page.blue", "1"), ("page.blue", "2")}


def test_a_player_with_only_a_castle_house_gives_nothing() -> None:
    """Можно ли передавать карты из своего замка? — Нет: with only a castle house,
    the player has nothing to give and the turn passes on."""
    # one-time side up: a permanent Замок Власти would give seat 0 a new turn
    castle = {"colour": "red", "cards": ["lord.red", "page.red", "page.red"], "castle": "one_time"}
    state, events = draw_smuta(
        "conspiracy",
        players=[{"houses": [castle]}, {"houses": [{"colour": "green", "cards": ["page.green"]}]}],
        orders=["infirmary"],
    )
    assert [e.params["seat"] for e in events if e.key == "conspiracy.nothing_to_give"] == [0]
    assert gifts(events) == [(1, 0)]
    # seat 1's Паж makes seat 0 a new green house: seat 0 picks the end
    assert decision(state).seat == 0 and decision(state).kind == "house_end"
    play(state, "left")
    assert houses(state, 0) == [
        ("green", ["page.green"], None),
        ("red", ["lord.red", "page.red", "page.red"], "one_time"),
    ]
    smuta_over(state, "conspiracy", 1)


# ------------------------------------------------------------------ the effect
def test_the_receiver_chooses_the_end_of_the_row() -> None:
    """«Если у соперника нет красного дома — он обязан его создать слева или справа
    от своих других домов»: the receiver is asked, and only left or right."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {
                "houses": [
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "green", "cards": ["page.green"]},
                ]
            },
        ],
        orders=["infirmary"],
    )
    d = decision(state)
    assert d.seat == 1 and d.kind == "house_end"
    assert set(d.options) == {("left",), ("right",)}
    play(state, "right")
    assert [h[0] for h in houses(state, 1)] == ["blue", "green", "red"]


def test_a_gift_joins_the_receivers_house_of_its_colour() -> None:
    """«Карты … сразу размещаются в доме соперника по правилам цвета»: into the
    existing house, on top, with no question asked."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {
                "houses": [
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "red", "cards": ["page.red"]},
                ]
            },
        ],
        orders=["infirmary"],
    )
    assert houses(state, 1)[1] == ("red", ["page.red", "knight.red"], None)
    # seat 1 then gives one of its own two cards (not the Рыцарь)
    assert decision(state).seat == 1
    assert options(state) == {("page.blue", "0"), ("page.red", "0")}


def test_the_receiver_chooses_a_servants_side() -> None:
    """The receiver of a Слуга chooses which of its colours it lies by (RULES.md §3.1)."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["servant.red.blue@red"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green", "page.green"]}]},
        ],
        orders=["infirmary"],
    )
    d = decision(state)
    assert d.seat == 1 and d.kind == "servant_side"
    assert set(d.options) == {("red",), ("blue",)}
    play(state, "blue")
    assert decision(state).seat == 1 and decision(state).kind == "house_end"
    play(state, "left")
    assert [h[0] for h in houses(state, 1)] == ["blue", "green"]
    servant = state.players[1].houses[0].cards[0]
    assert state.servant_up[servant] == "blue"


def test_a_servant_may_go_by_its_colour_that_is_not_a_castle() -> None:
    """«a Слуга can go if either of its colours is open there» (RULES.md §6):
    the receiver's red castle leaves only the blue side."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["servant.red.blue@red"]}]},
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "page.red"],
                        "castle": "permanent",
                    }
                ]
            },
        ],
        orders=["infirmary"],
    )
    d = decision(state)
    assert d.seat == 1 and d.kind == "house_end"  # the side was forced: blue
    play(state, "right")
    assert houses(state, 1)[1] == ("blue", ["servant.red.blue"], None)
    assert houses(state, 1)[0][2] == "permanent"
    assert houses(state, 0) == []


def test_giving_is_compulsory() -> None:
    """Giving is compulsory whenever possible (RULES.md §6): no option to pass."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["knight.red", "page.red"]}]},
            {},
            {},
        ],
        orders=["infirmary"],
    )
    d = decision(state)
    assert d.seat == 0 and d.kind == "conspiracy.give"
    assert len(d.options) == 4
    assert all(len(o) == 2 and o[1] in ("1", "2") for o in d.options)


def test_givers_go_from_the_initiator_clockwise() -> None:
    """«Все игроки по очереди (начиная с инициатора смуты и далее по часовой
    стрелке)»: with seat 2 drawing, the givers are 2, 3, 0, 1."""
    colours = ["red", "blue", "green", "orange"]
    state, events = draw_smuta(
        "conspiracy",
        players=[{"houses": [{"colour": c, "cards": [f"page.{c}", f"page.{c}"]}]} for c in colours],
        orders=["infirmary"],
        current=2,
    )
    seen = gifts(events)
    for _ in range(4):
        d = decision(state)
        assert d.kind == "conspiracy.give"
        left = (d.seat + 1) % 4
        seen += gifts(play(state, "page", str(left)))
        assert decision(state).kind == "house_end" and decision(state).seat == left
        seen += gifts(play(state, "right"))
    assert seen == [(2, 3), (3, 0), (0, 1), (1, 2)]
    for seat, colour in enumerate(colours):
        given = colours[(seat - 1) % 4]
        assert houses(state, seat) == [
            (colour, [f"page.{colour}"], None),
            (given, [f"page.{given}"], None),
        ]
    smuta_over(state, "conspiracy", 3)


def test_six_players_give_in_turn_round_the_table() -> None:
    """Six players, seat 5 draws: the givers are 5, 0, 1, 2, 3, 4 — each once."""
    cards = ["page.red", "page.blue", "page.green", "page.orange", "knight.red", "knight.blue"]
    state, events = draw_smuta(
        "conspiracy",
        players=[{"houses": [{"colour": c.split(".")[1], "cards": [c]}]} for c in cards],
        orders=["infirmary"],
        current=5,
    )
    seen = gifts(events)
    while decision(state).kind != "action":
        d = decision(state)
        seen += gifts(play(state, *d.options[0]))
    assert [giver for giver, _ in seen] == [5, 0, 1, 2, 3, 4]
    assert all(giver != receiver for giver, receiver in seen)
    smuta_over(state, "conspiracy", 0)


def test_a_card_moved_by_a_property_is_not_a_gift() -> None:
    """Only the card handed over by the Заговор is «дарёная» (RULES.md §6): a man
    the received Миледи takes may be given on in the same Заговор."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"houses": [{"colour": "red", "cards": ["lady.red"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
        ],
        orders=["infirmary"],
    )
    play(state, "lady.red", "1")
    play(state, "right")  # seat 1 lays the red house at the right
    d = decision(state)
    assert d.seat == 1 and d.kind == "lady.take"
    assert options(state) == {("2", "knight.red"), ("skip",)}
    play(state, "2", "knight.red")
    assert houses(state, 1) == [
        ("blue", ["page.blue"], None),
        ("red", ["lady.red", "knight.red"], None),
    ]
    assert houses(state, 2) == []
    assert decision(state).kind == "conspiracy.give" and decision(state).seat == 1
    assert options(state) == {
        ("page.blue", "0"),
        ("page.blue", "2"),
        ("knight.red", "0"),
        ("knight.red", "2"),
    }


def test_nobody_has_houses_and_the_turn_still_ends() -> None:
    """A смута with no effect still ends the turn (RULES.md §6)."""
    state, events = draw_smuta(
        "conspiracy", players=[{"hand": ["page.red"]}, {}, {}], orders=["infirmary"]
    )
    nothing = [e.params["seat"] for e in events if e.key == "conspiracy.nothing_to_give"]
    assert nothing == [0, 1, 2]
    assert hand(state, 0) == ["page.red"]
    smuta_over(state, "conspiracy", 1)


def test_the_conspiracy_ends_the_turn_even_with_actions_left() -> None:
    """The initiator drew the смута as the first action: the turn still ends."""
    state, _ = draw_smuta(
        "conspiracy",
        players=[
            {"hand": ["lord.blue"], "houses": [{"colour": "red", "cards": ["knight.red"]}]},
            {},
        ],
        orders=["infirmary"],
    )
    assert hand(state, 0) == ["lord.blue"]
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    smuta_over(state, "conspiracy", 1)


def test_a_jester_received_replays_nothing() -> None:
    """Срабатывают ли свойства «при появлении в доме», если я получил карту через
    Заговор? — Да, but Шут acts only outside смуты (RULES.md §1): no replay."""
    state, events = draw_smuta(
        "conspiracy",
        players=[{}, {"houses": [{"colour": "orange", "cards": ["jester.orange"]}]}],
        orders=["infirmary"],
        smuta_discard=["feast"],
    )
    assert gifts(events) == [(1, 0)]
    assert not [e for e in events if e.key == "jester.replays"]
    assert houses(state, 0) == [("orange", ["jester.orange"], None)]
    assert [catalog_for(state.rules)[c].type for c in state.smuta_discard] == [
        "conspiracy",
        "feast",
    ]
    assert state.current == 1
