"""Orders (RULES.md §1 «Orders», §4.4, §5; engine/orders.py, engine/turn.py `_play_order`).

«Бал» takes men from opponents' houses (1 + one per Миледи in your houses, never
from a castle house; properties resolve after all transfers, in transfer order);
«Брачный союз» moves a card between your own houses, keeping its colour and a
Слуга's side; «Лазарет» resurrects the top card of the graveyard; a Купец only
builds a castle. An order may be played with no effect; a played order goes to
the orders discard.
"""

from engine import GameState
from engine.invariants import violations
from tests.engine.helpers import decision, hand, houses, keys, kind, kinds, of, play, setup

RED_CASTLE = {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}
BLUE_CASTLE = {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}


def offered(options: tuple[tuple[str, ...], ...], state: GameState) -> list[tuple[str, str]]:
    """(seat, card kind) of every card option."""
    return sorted((o[0], kind(state, o[1])) for o in options if len(o) == 2)


# ====================================================================== Бал
def test_ball_offers_only_opponents_men_outside_castle_houses() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "green", "cards": ["knight.green"]}]},
            {
                "houses": [
                    {"colour": "red", "cards": ["lady.red", "harlot.red", "servant.red.blue@red"]},
                    {"colour": "blue", "cards": ["page.blue", "spy.blue"]},
                ]
            },
            {
                "houses": [
                    {**RED_CASTLE, "castle": "permanent"},
                    {"colour": "orange", "cards": ["plague.orange"]},
                ]
            },
        ],
        deck=["page.orange"],
    )
    play(state, "play", "ball")
    d = decision(state)
    assert d.seat == 0 and d.kind == "ball.take" and d.params["left"] == 1
    # men only (no women, no Слуги), never the player's own, never from a castle house
    assert offered(d.options, state) == [("1", "page.blue"), ("2", "plague.orange")]
    assert ("done",) in d.options


def test_ball_with_no_lady_moves_one_man_into_the_players_house_of_his_colour() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue", "knight.blue"]}]},
        ],
        deck=["page.orange"],
    )
    events = play(state, "play", "ball")
    events += play(state, "1", "lord.blue")
    assert houses(state, 0) == [("blue", ["page.blue", "lord.blue"], None)]
    assert houses(state, 1) == [("blue", ["knight.blue"], None)]
    assert kinds(state, state.orders_discard) == ["ball"]
    assert len(of(events, "ball.took")) == 1
    # one transfer only: the Бал is over, one action spent
    assert decision(state).kind == "action" and state.actions_left == 2
    assert not violations(state)


def test_ball_gives_one_more_transfer_per_lady_in_the_players_houses() -> None:
    state = setup(
        players=[
            {
                "hand": ["ball", "lady.green"],
                "houses": [
                    {"colour": "red", "cards": ["lady.red"]},
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "lady.blue", "page.blue"],
                        "castle": "permanent",
                    },
                ],
            },
            {
                "houses": [
                    {
                        "colour": "green",
                        "cards": ["page.green", "knight.green", "lord.green", "healer.green"],
                    }
                ]
            },
            {"houses": [{"colour": "orange", "cards": ["lady.orange", "page.orange"]}]},
        ],
        deck=["page.red"],
    )
    # two Миледи in the houses (one in the castle house): 3 transfers; the Миледи in hand
    # and the opponents' Миледи do not count
    play(state, "play", "ball")
    assert decision(state).params["left"] == 3
    play(state, "1", "page.green")
    play(state, "right")
    assert decision(state).params["left"] == 2
    play(state, "2", "page.orange")
    play(state, "left")
    play(state, "1", "lord.green")
    assert decision(state).kind == "action"
    assert houses(state, 0) == [
        ("orange", ["page.orange"], None),
        ("red", ["lady.red"], None),
        ("blue", ["lord.blue", "lady.blue", "page.blue"], "permanent"),
        ("green", ["page.green", "lord.green"], None),
    ]
    assert houses(state, 1) == [("green", ["knight.green", "healer.green"], None)]
    assert houses(state, 2) == [("orange", ["lady.orange"], None)]


def test_ball_may_stop_before_all_transfers() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["lady.red"]}]},
            {"houses": [{"colour": "red", "cards": ["page.red", "knight.red"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "play", "ball")
    play(state, "1", "knight.red")
    d = decision(state)
    assert d.kind == "ball.take" and d.params["left"] == 1
    play(state, "done")
    assert houses(state, 0) == [("red", ["lady.red", "knight.red"], None)]
    assert houses(state, 1) == [("red", ["page.red"], None)]


def test_ball_takes_from_several_opponents_in_a_six_player_game() -> None:
    state = setup(
        players=[
            {
                "hand": ["ball"],
                "houses": [
                    {"colour": "red", "cards": ["lady.red"]},
                    {"colour": "blue", "cards": ["lady.blue"]},
                ],
            },
            {"houses": [{"colour": "red", "cards": ["page.red"]}]},
            {},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
        ],
        deck=["lord.red"],
    )
    play(state, "play", "ball")
    d = decision(state)
    assert sorted(o[0] for o in d.options if o != ("done",)) == ["1", "3", "4", "5"]
    play(state, "5", "page.blue")
    play(state, "1", "page.red")
    play(state, "4", "page.orange")
    play(state, "right")
    assert houses(state, 0) == [
        ("red", ["lady.red", "page.red"], None),
        ("blue", ["lady.blue", "page.blue"], None),
        ("orange", ["page.orange"], None),
    ]
    # emptied houses vanish
    assert houses(state, 1) == [] and houses(state, 4) == [] and houses(state, 5) == []
    assert houses(state, 3) == [("green", ["page.green"], None)]


def test_ball_new_house_end_is_chosen_by_the_player() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green", "knight.green"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "play", "ball")
    play(state, "1", "knight.green")
    d = decision(state)
    assert d.seat == 0 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 0) == [("green", ["knight.green"], None), ("red", ["page.red"], None)]


def test_ball_properties_resolve_after_all_transfers_in_transfer_order() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["lady.red"]}]},
            {
                "hand": ["lord.blue"],
                "houses": [
                    {"colour": "green", "cards": ["alchemist.green", "page.green"]},
                    {"colour": "red", "cards": ["priest.red", "page.red"]},
                    {"colour": "orange", "cards": ["harlot.orange"]},
                ],
            },
        ],
        deck=["page.orange"],
    )
    play(state, "play", "ball")
    events = play(state, "1", "alchemist.green")
    # no property fires before every transfer is made
    assert not of(events, "card.killed") and decision(state).kind == "house_end"
    play(state, "right")
    assert decision(state).kind == "ball.take"
    play(state, "1", "priest.red")
    # both men lie in seat 0's houses; the Алхимик (first transferred) acts first
    assert houses(state, 0) == [
        ("red", ["lady.red", "priest.red"], None),
        ("green", ["alchemist.green"], None),
    ]
    d = decision(state)
    assert d.seat == 0 and d.kind == "alchemist.kill"
    # the Священник is already there: the Алхимик can send him to the graveyard …
    assert ("0", state.players[0].houses[0].cards[1]) in d.options
    play(state, "0", "priest.red")
    # … and then the Священник, no longer in seat 0's houses, does not act
    assert decision(state).kind == "action"
    assert houses(state, 1)[-1] == ("orange", ["harlot.orange"], None)
    assert kinds(state, state.graveyard) == ["priest.red"]


def test_ball_properties_in_transfer_order_priest_then_alchemist() -> None:
    state = setup(
        players=[
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["lady.red"]}]},
            {
                "houses": [
                    {"colour": "green", "cards": ["alchemist.green", "page.green"]},
                    {"colour": "red", "cards": ["priest.red", "page.red"]},
                    {"colour": "orange", "cards": ["harlot.orange"]},
                ],
            },
        ],
        deck=["page.orange"],
    )
    play(state, "play", "ball")
    play(state, "1", "priest.red")
    play(state, "1", "alchemist.green")
    play(state, "left")
    assert decision(state).kind == "priest.kill"
    play(state, "1", "harlot.orange")
    assert decision(state).kind == "alchemist.kill"
    play(state, "skip")
    assert kinds(state, state.graveyard) == ["harlot.orange"]


def test_ball_counts_the_ladies_when_played() -> None:
    # the Миледи laid during the turn before the Бал counts
    state = setup(
        players=[
            {"hand": ["ball", "lady.blue"]},
            {"houses": [{"colour": "red", "cards": ["page.red", "knight.red"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "lady.blue")
    play(state, "play", "ball")
    assert decision(state).params["left"] == 2


def test_ball_with_no_man_to_take_is_played_without_effect() -> None:
    state = setup(
        players=[
            {"hand": ["ball", "page.red"]},
            {
                "houses": [
                    {"colour": "red", "cards": ["lady.red"]},
                    {**BLUE_CASTLE, "castle": "one_time"},
                ]
            },
        ],
        deck=["page.orange"],
    )
    assert ("play", state.players[0].hand[0]) in decision(state).options
    events = play(state, "play", "ball")
    assert "order.played" in keys(events)
    assert kinds(state, state.orders_discard) == ["ball"]
    assert hand(state, 0) == ["page.red"]
    assert decision(state).kind == "action" and state.actions_left == 2


# ====================================================================== Брачный союз
def test_marriage_moves_a_card_between_own_houses_keeping_its_colour() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red", "page.red"]},
                    {"colour": "blue", "cards": ["page.blue", "treasurer.blue"]},
                ],
            },
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    d = decision(state)
    moves = sorted((kind(state, o[2]), o[3]) for o in d.options if o[0] == "play")
    # any card of one own house into another own house; nothing of an opponent's
    assert moves == [
        ("lord.red", "blue"),
        ("page.blue", "red"),
        ("page.red", "blue"),
        ("treasurer.blue", "red"),
    ]
    events = play(state, "play", "marriage", "treasurer.blue", "red")
    assert houses(state, 0) == [
        ("red", ["lord.red", "page.red", "treasurer.blue"], None),
        ("blue", ["page.blue"], None),
    ]
    # no property: the Казначей took no order
    assert hand(state, 0) == [] and kinds(state, state.orders) == ["ball"]
    assert kinds(state, state.orders_discard) == ["marriage"]
    assert len(of(events, "marriage.moved")) == 1
    # he is still blue: a blue Миледи of an opponent may take him out of the red house
    moved = state.players[0].houses[0].cards[-1]
    assert kind(state, moved) == "treasurer.blue"


def test_marriage_keeps_a_married_card_of_its_own_colour_for_the_lady() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage"],
                "houses": [
                    {"colour": "red", "cards": ["lord.red"]},
                    {"colour": "blue", "cards": ["page.blue", "treasurer.blue"]},
                ],
            },
            {"hand": ["lady.blue", "page.green"]},
        ],
        deck=["page.orange", "page.orange"],
    )
    play(state, "play", "marriage", "treasurer.blue", "red")
    play(state, "end")
    # seat 1's blue Миледи finds the blue Казначей in seat 0's red house
    play(state, "lay", "lady.blue")
    d = decision(state)
    assert d.kind == "lady.take"
    assert offered(d.options, state) == [("0", "page.blue"), ("0", "treasurer.blue")]


def test_ruling_marriage_does_not_flip_a_servant() -> None:
    """Что происходит с Слугой, если раньше я при помощи приказа «Брачный союз» переместил его из зелёного дома в красный?"""  # noqa: E501
    state = setup(
        players=[
            {
                "hand": ["marriage"],
                "houses": [
                    {"colour": "green", "cards": ["page.green", "servant.blue.green@green"]},
                    {"colour": "red", "cards": ["page.red"]},
                ],
            },
            {},
        ],
        deck=["page.orange"],
    )
    play(state, "play", "marriage", "servant.blue.green", "red")
    servant = state.players[0].houses[1].cards[-1]
    assert kind(state, servant) == "servant.blue.green@green"
    assert state.servant_up[servant] == "green"
    assert houses(state, 0) == [
        ("green", ["page.green"], None),
        ("red", ["page.red", "servant.blue.green"], None),
    ]
    assert not violations(state)


def test_marriage_emptying_a_castle_house_makes_it_vanish_and_the_castle_return() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage", "marriage", "marriage"],
                "houses": [
                    {**RED_CASTLE, "castle": "permanent"},
                    {"colour": "blue", "cards": ["page.blue"]},
                ],
            },
            {},
        ],
        deck=["page.orange"],
    )
    assert "red" not in state.castles
    # the owner's own Брачный союз may take cards out of their castle house …
    play(state, "play", "marriage", "lord.red", "blue")
    play(state, "play", "marriage", "page.red", "blue")
    assert houses(state, 0)[0] == ("red", ["knight.red"], "permanent")
    events = play(state, "play", "marriage", "knight.red", "blue")
    # … and when it is empty, it vanishes and its castle returns to the supply
    assert houses(state, 0) == [
        ("blue", ["page.blue", "lord.red", "page.red", "knight.red"], None),
    ]
    assert "red" in state.castles
    assert "house.vanished" in keys(events) and "castle.returned" in keys(events)
    assert not violations(state)


def test_marriage_may_move_a_card_into_the_owners_castle_house() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage"],
                "houses": [
                    {"colour": "green", "cards": ["page.green", "knight.green"]},
                    {**RED_CASTLE, "castle": "one_time"},
                ],
            },
            {},
        ],
        deck=["page.orange"],
    )
    play(state, "play", "marriage", "knight.green", "red")
    assert houses(state, 0) == [
        ("green", ["page.green"], None),
        ("red", ["lord.red", "page.red", "knight.red", "knight.green"], "one_time"),
    ]


def test_marriage_with_one_house_is_played_without_effect() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage", "page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}],
            },
            {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["page.orange"],
    )
    marriage = next(c for c in state.players[0].hand if kind(state, c) == "marriage")
    plays = [o for o in decision(state).options if o[0] == "play"]
    assert plays == [("play", marriage)]
    play(state, "play", "marriage")
    assert houses(state, 0) == [("red", ["lord.red", "page.red"], None)]
    assert kinds(state, state.orders_discard) == ["marriage"]
    assert state.actions_left == 2


def test_marriage_with_no_house_is_played_without_effect() -> None:
    state = setup(players=[{"hand": ["marriage", "page.blue"]}, {}], deck=["page.orange"])
    play(state, "play", "marriage")
    assert houses(state, 0) == [] and kinds(state, state.orders_discard) == ["marriage"]


# ====================================================================== Лазарет
def test_infirmary_resurrects_the_top_of_the_graveyard_and_its_property_fires() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {},
        ],
        deck=["page.orange"],
        graveyard=["treasurer.blue", "lord.red"],
        orders=["ball"],
    )
    events = play(state, "play", "infirmary")
    assert houses(state, 0) == [("blue", ["page.blue", "treasurer.blue"], None)]
    assert kinds(state, state.graveyard) == ["lord.red"]
    assert hand(state, 0) == ["ball"]
    assert kinds(state, state.orders_discard) == ["infirmary"]
    assert "resurrected" in keys(events)


def test_infirmary_new_house_end_is_chosen_by_the_player() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {},
        ],
        deck=["page.orange"],
        graveyard=["lord.red"],
    )
    play(state, "play", "infirmary")
    d = decision(state)
    assert d.seat == 0 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 0) == [("red", ["lord.red"], None), ("blue", ["page.blue"], None)]


def test_infirmary_resurrected_servant_lies_on_the_side_the_player_chooses() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {},
        ],
        deck=["page.orange"],
        graveyard=["servant.red.blue"],
    )
    play(state, "play", "infirmary")
    d = decision(state)
    assert d.seat == 0 and d.kind == "servant_side"
    assert sorted(d.options) == [("blue",), ("red",)]
    play(state, "red")
    play(state, "right")
    assert houses(state, 0) == [("blue", ["page.blue"], None), ("red", ["servant.red.blue"], None)]
    assert kind(state, state.players[0].houses[1].cards[0]) == "servant.red.blue@red"


def test_infirmary_resurrected_lady_uses_her_property() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary", "page.blue"]},
            {"houses": [{"colour": "green", "cards": ["lord.green"]}]},
        ],
        deck=["page.orange"],
        graveyard=["lady.green"],
    )
    play(state, "play", "infirmary")
    d = decision(state)
    assert d.kind == "lady.take" and d.seat == 0
    play(state, "1", "lord.green")
    assert houses(state, 0) == [("green", ["lady.green", "lord.green"], None)]
    assert houses(state, 1) == []


def test_ruling_infirmary_may_plant_a_resurrected_plague_man_or_harlot_in_any_players_house() -> (
    None
):
    """Можно ли в рамках смуты «Новая Эпоха» подкладывать воскрешаемых Чумовых и Блудниц в дома соперников или обязательно в свой?"""  # noqa: E501
    state = setup(
        players=[
            {
                "hand": ["infirmary", "infirmary"],
                "houses": [{"colour": "red", "cards": ["page.red"]}],
            },
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {
                "houses": [
                    {"colour": "green", "cards": ["page.green"]},
                    {**RED_CASTLE, "castle": "permanent"},
                ]
            },
        ],
        deck=["page.orange"],
        graveyard=["plague.red", "harlot.orange"],
    )
    play(state, "play", "infirmary")
    d = decision(state)
    assert d.seat == 0 and d.kind == "plant_row"
    # never into an opponent's castle house: seat 2's red house is a castle house
    assert sorted(d.options) == [("0",), ("1",)]
    play(state, "1")
    # seat 1 has no red house: seat 1, the row's owner, chooses the end
    d = decision(state)
    assert d.seat == 1 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 1) == [("red", ["plague.red"], None), ("blue", ["page.blue"], None)]
    assert houses(state, 0) == [("red", ["page.red"], None)]
    # the Блудница: seat 2 has no orange castle, so every row is open
    play(state, "play", "infirmary")
    d = decision(state)
    assert sorted(d.options) == [("0",), ("1",), ("2",)]
    play(state, "2")
    play(state, "right")
    assert houses(state, 2) == [
        ("green", ["page.green"], None),
        ("red", ["lord.red", "page.red", "knight.red"], "permanent"),
        ("orange", ["harlot.orange"], None),
    ]
    assert state.graveyard == []
    assert not violations(state)


def test_infirmary_plants_into_an_opponents_existing_house_without_asking_an_end() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary"]},
            {
                "houses": [
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "red", "cards": ["page.red"]},
                ]
            },
        ],
        deck=["page.orange"],
        graveyard=["harlot.red"],
    )
    play(state, "play", "infirmary")
    play(state, "1")
    assert houses(state, 1) == [
        ("blue", ["page.blue"], None),
        ("red", ["page.red", "harlot.red"], None),
    ]
    assert decision(state).kind == "action" and state.current == 0


def test_infirmary_plague_man_goes_to_the_owner_when_every_opponent_row_is_closed() -> None:
    state = setup(
        players=[
            {"hand": ["infirmary", "page.green"]},
            {"houses": [{**RED_CASTLE, "castle": "permanent"}]},
        ],
        deck=["page.orange"],
        graveyard=["plague.red"],
    )
    play(state, "play", "infirmary")
    # the only open row is seat 0's own: nobody is asked
    assert houses(state, 0) == [("red", ["plague.red"], None)]
    assert decision(state).kind == "action"


def test_infirmary_on_an_empty_graveyard_is_played_without_effect() -> None:
    state = setup(players=[{"hand": ["infirmary", "page.blue"]}, {}], deck=["page.orange"])
    events = play(state, "play", "infirmary")
    assert "order.played" in keys(events) and "resurrected" not in keys(events)
    assert kinds(state, state.orders_discard) == ["infirmary"]
    assert houses(state, 0) == [] and state.actions_left == 2


# ====================================================================== Купец
def test_merchant_cannot_be_played_only_built_or_discarded() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red", "merchant.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}],
            },
            {},
        ],
        deck=["page.orange"],
    )
    options = decision(state).options
    red, blue = state.players[0].hand
    assert not [o for o in options if o[0] == "play"]
    assert ("build", red, "permanent") in options and ("build", red, "one_time") in options
    # no blue house: the blue Купец may only be discarded
    assert [o for o in options if blue in o] == [("discard", blue)]
    play(state, "discard", "merchant.blue")
    assert kinds(state, state.orders_discard) == ["merchant.blue"]


def test_merchant_builds_the_castle_of_its_colour() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red"],
                "houses": [{"colour": "red", "cards": ["page.red", "knight.red", "lord.red"]}],
            },
            {},
        ],
        deck=["page.orange"],
    )
    events = play(state, "build", "merchant.red", "permanent")
    assert houses(state, 0) == [("red", ["page.red", "knight.red", "lord.red"], "permanent")]
    assert "red" not in state.castles
    assert kinds(state, state.orders_discard) == ["merchant.red"]
    assert "discard" not in keys(events) and "castle.built" in keys(events)
    assert state.actions_left == 2


def test_building_needs_a_lord_three_cards_and_the_castle_in_the_supply() -> None:
    def builds(house: dict[str, object], others: list[dict[str, object]] | None = None) -> bool:
        state = setup(
            players=[{"hand": ["merchant.red"], "houses": [house]}, *(others or [{}])],
            deck=["page.orange"],
        )
        return any(o[0] == "build" for o in decision(state).options)

    assert builds({"colour": "red", "cards": ["lord.blue", "page.red", "servant.red.green"]})
    assert not builds({"colour": "red", "cards": ["lord.red", "page.red"]})
    assert not builds({"colour": "red", "cards": ["knight.red", "page.red", "page.red"]})
    assert not builds(
        {"colour": "red", "cards": ["lord.red", "page.red", "page.red"]},
        [
            {
                "houses": [
                    {
                        "colour": "red",
                        "cards": ["lord.red", "knight.red", "healer.red"],
                        "castle": "one_time",
                    }
                ]
            }
        ],
    )


def test_building_the_one_time_side_fires_it_at_once() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.orange"],
                "houses": [
                    {"colour": "orange", "cards": ["lord.orange", "page.orange", "knight.orange"]}
                ],
            },
            {},
        ],
        deck=["page.red"],
        orders=["ball", "marriage", "infirmary"],
    )
    play(state, "build", "merchant.orange", "one_time")
    # Замок Торговли, one-time side: the top two orders
    assert hand(state, 0) == ["ball", "marriage"]
    assert kinds(state, state.orders) == ["infirmary"]
