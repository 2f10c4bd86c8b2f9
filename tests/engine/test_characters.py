"""Characters' on-appearing properties (RULES.md §1 «House cards», §3.5–3.7;
engine/characters.py).

A property fires when a house card enters a player's houses from outside them
(from a hand, the graveyard, another player's row), also during смуты, and the
player who receives the card uses it. Moving a card between one's own houses
fires nothing. During a смута Лазутчица only looks and discards, and Шут does
nothing.
"""

from engine.invariants import violations
from tests.engine.helpers import decision, hand, houses, keys, kind, kinds, of, play, setup

# a castle house: a Лорд and at least three cards
RED_CASTLE = {"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}
# a permanent Замок Интриг: it captures other players' discarded orders
BLUE_INTRIGUE = {
    "colour": "blue",
    "cards": ["lord.blue", "page.blue", "knight.blue"],
    "castle": "permanent",
}


# ====================================================================== Миледи
def test_lady_offers_only_men_of_her_own_colour_in_opponents_houses() -> None:
    state = setup(
        players=[
            {
                "hand": ["lady.red"],
                "houses": [{"colour": "red", "cards": ["page.red"]}],
            },
            {
                "houses": [
                    {"colour": "red", "cards": ["knight.red", "harlot.red", "servant.red.blue"]},
                    {"colour": "blue", "cards": ["lord.blue", "treasurer.red"]},
                ]
            },
            {"houses": [{"colour": "green", "cards": ["lord.green", "jester.red"]}]},
        ],
        deck=["page.green"],
    )
    play(state, "lay", "lady.red")
    d = decision(state)
    assert d.seat == 0 and d.kind == "lady.take"
    offered = sorted((o[0], kind(state, o[1])) for o in d.options if o != ("skip",))
    # a man of her colour is a man whose own colour is red, wherever he lies; women,
    # Слуги, men of other colours and her own player's men are not offered
    assert offered == [("1", "knight.red"), ("1", "treasurer.red"), ("2", "jester.red")]
    assert ("skip",) in d.options


def test_lady_takes_the_man_into_her_players_house_of_his_colour() -> None:
    state = setup(
        players=[
            {"hand": ["lady.red"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "red", "cards": ["knight.red", "lord.red"]}]},
        ],
        deck=["page.green"],
    )
    events = play(state, "lay", "lady.red")
    events += play(state, "1", "knight.red")
    assert houses(state, 0) == [("red", ["page.red", "lady.red", "knight.red"], None)]
    assert houses(state, 1) == [("red", ["lord.red"], None)]
    took = of(events, "lady.took")
    assert len(took) == 1 and took[0].params["seat"] == 0 and took[0].params["source"] == 1
    assert took[0].to is None
    # the property is part of laying her: one action spent, the turn goes on
    assert state.current == 0 and state.actions_left == 2
    assert not violations(state)


def test_lady_takes_a_married_man_of_her_colour_out_of_another_colours_house() -> None:
    state = setup(
        players=[
            {"hand": ["lady.blue"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
            {"houses": [{"colour": "red", "cards": ["knight.red", "treasurer.blue"]}]},
        ],
        deck=["page.green"],
        orders=["ball"],
    )
    play(state, "lay", "lady.blue", "0", "blue", "right")
    # the only blue man is the blue Казначей lying in the red house: a single option
    # besides skipping, so she is asked
    d = decision(state)
    assert [kind(state, o[1]) for o in d.options if o != ("skip",)] == ["treasurer.blue"]
    play(state, "1", "treasurer.blue")
    # he goes into her player's blue house, by his own colour, and his property fires
    # for the player who received him
    assert houses(state, 0) == [
        ("red", ["page.red"], None),
        ("blue", ["lady.blue", "treasurer.blue"], None),
    ]
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    assert hand(state, 0) == ["ball"]
    assert hand(state, 1) == []


def test_lady_never_takes_from_a_castle_house() -> None:
    state = setup(
        players=[
            {"hand": ["lady.red", "page.blue"]},
            {"houses": [{**RED_CASTLE, "castle": "permanent"}]},
        ],
        deck=["page.green"],
    )
    events = play(state, "lay", "lady.red")
    # every red man is in a castle house: nothing to take, nobody is asked
    assert "lady.took" not in keys(events)
    d = decision(state)
    assert d.kind == "action" and d.seat == 0
    assert houses(state, 1) == [("red", ["lord.red", "page.red", "knight.red"], "permanent")]


def test_lady_may_decline() -> None:
    state = setup(
        players=[
            {"hand": ["lady.red", "page.blue"]},
            {"houses": [{"colour": "red", "cards": ["knight.red"]}]},
        ],
        deck=["page.green"],
    )
    play(state, "lay", "lady.red")
    assert decision(state).kind == "lady.take"
    play(state, "skip")
    assert houses(state, 0) == [("red", ["lady.red"], None)]
    assert houses(state, 1) == [("red", ["knight.red"], None)]


def test_lady_emptying_an_opponents_house_makes_it_vanish() -> None:
    state = setup(
        players=[
            {
                "hand": ["lady.green", "page.blue"],
                "houses": [{"colour": "red", "cards": ["page.red"]}],
            },
            {
                "houses": [
                    {"colour": "blue", "cards": ["page.blue"]},
                    {"colour": "green", "cards": ["knight.green"]},
                ]
            },
        ],
        deck=["page.green"],
    )
    play(state, "lay", "lady.green", "0", "green", "left")
    play(state, "1", "knight.green")
    assert houses(state, 1) == [("blue", ["page.blue"], None)]
    assert houses(state, 0) == [
        ("green", ["lady.green", "knight.green"], None),
        ("red", ["page.red"], None),
    ]


def test_lady_looks_at_every_opponent_in_a_six_player_game() -> None:
    state = setup(
        players=[
            {"hand": ["lady.orange"]},
            {"houses": [{"colour": "orange", "cards": ["page.orange"]}]},
            {},
            {"houses": [{"colour": "orange", "cards": ["knight.orange"]}]},
            {"houses": [{"colour": "red", "cards": ["lord.orange"]}]},
            {"houses": [{"colour": "orange", "cards": ["healer.orange"]}]},
        ],
        deck=["page.green"],
        current=0,
    )
    play(state, "lay", "lady.orange")
    d = decision(state)
    assert sorted(o[0] for o in d.options if o != ("skip",)) == ["1", "3", "4", "5"]


def test_a_man_taken_by_the_lady_into_a_new_house_lets_her_player_choose_the_end() -> None:
    state = setup(
        players=[
            {"hand": ["lady.red"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {"houses": [{"colour": "green", "cards": ["knight.red"]}]},
        ],
        deck=["page.green"],
    )
    # Миледи goes into a red house to the right; the red Рыцарь joins her there
    play(state, "lay", "lady.red", "0", "red", "right")
    play(state, "1", "knight.red")
    assert houses(state, 0) == [
        ("blue", ["page.blue"], None),
        ("red", ["lady.red", "knight.red"], None),
    ]
    assert houses(state, 1) == []


# ====================================================================== Казначей
def test_treasurer_takes_the_top_order() -> None:
    state = setup(
        players=[{"hand": ["treasurer.red"]}, {}],
        deck=["page.green"],
        orders=["marriage", "ball", "infirmary"],
    )
    events = play(state, "lay", "treasurer.red")
    assert hand(state, 0) == ["marriage"]
    assert kinds(state, state.orders) == ["ball", "infirmary"]
    public = of(events, "order.drawn")
    private = of(events, "order.drawn.private")
    assert len(public) == 1 and public[0].to is None and "card" not in public[0].params
    assert len(private) == 1 and private[0].to == (0,)
    assert kind(state, private[0].params["card"]) == "marriage"
    assert state.actions_left == 2


def test_treasurer_with_an_empty_orders_deck_takes_nothing() -> None:
    state = setup(players=[{"hand": ["treasurer.red", "page.red"]}, {}], deck=["page.green"])
    play(state, "lay", "treasurer.red")
    assert hand(state, 0) == ["page.red"]
    assert houses(state, 0) == [("red", ["treasurer.red"], None)]


def test_treasurer_received_with_a_full_hand_takes_nothing() -> None:
    seven = ["page.red", "page.blue", "page.green", "page.orange", "lord.red", "lord.blue", "ball"]
    state = setup(
        players=[{"hand": ["knight.red"]}, {"hand": seven}],
        deck=["new_era", "page.green"],
        graveyard=["page.red", "treasurer.blue"],
        orders=["marriage", "infirmary"],
    )
    # Новая Эпоха: seat 0 lays the Паж, seat 1 (seven cards) the Казначей
    play(state, "draw")
    assert houses(state, 1) == [("blue", ["treasurer.blue"], None)]
    assert len(state.players[1].hand) == 7
    assert kinds(state, state.orders) == ["marriage", "infirmary"]


# ====================================================================== Алхимик
def test_alchemist_targets_any_house_without_a_castle_or_an_alchemist() -> None:
    state = setup(
        players=[
            {
                "hand": ["alchemist.red"],
                "houses": [
                    {"colour": "red", "cards": ["page.red"]},
                    {"colour": "blue", "cards": ["knight.blue"]},
                ],
            },
            {
                "houses": [
                    {"colour": "green", "cards": ["lord.green", "alchemist.green"]},
                    {"colour": "orange", "cards": ["page.orange", "servant.blue.orange@orange"]},
                ]
            },
            {"houses": [{**RED_CASTLE, "castle": "one_time"}]},
        ],
        deck=["page.green"],
    )
    play(state, "lay", "alchemist.red")
    d = decision(state)
    assert d.seat == 0 and d.kind == "alchemist.kill"
    offered = sorted((o[0], kind(state, o[1])) for o in d.options if o != ("skip",))
    # his own house now holds an Алхимик; seat 1's green house has one; seat 2's is a castle
    assert offered == [
        ("0", "knight.blue"),
        ("1", "page.orange"),
        ("1", "servant.blue.orange@orange"),
    ]
    assert ("skip",) in d.options


def test_alchemist_sends_the_card_to_the_top_of_the_graveyard() -> None:
    state = setup(
        players=[
            {"hand": ["alchemist.red"]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue", "knight.blue"]}]},
        ],
        deck=["page.green"],
        graveyard=["page.green", "page.orange"],
    )
    play(state, "lay", "alchemist.red")
    events = play(state, "1", "lord.blue")
    assert kinds(state, state.graveyard) == ["lord.blue", "page.green", "page.orange"]
    assert houses(state, 1) == [("blue", ["knight.blue"], None)]
    killed = of(events, "card.killed")
    assert len(killed) == 1 and killed[0].params["by"] == 0 and killed[0].params["seat"] == 1


def test_alchemist_emptying_a_house_makes_it_vanish() -> None:
    state = setup(
        players=[
            {"hand": ["alchemist.red", "page.red"]},
            {
                "houses": [
                    {"colour": "blue", "cards": ["lord.blue"]},
                    {"colour": "green", "cards": ["page.green"]},
                ]
            },
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "alchemist.red")
    play(state, "1", "page.green")
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]


def test_alchemist_may_decline() -> None:
    state = setup(
        players=[
            {"hand": ["alchemist.red", "page.red"]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "alchemist.red")
    play(state, "skip")
    assert houses(state, 1) == [("blue", ["lord.blue"], None)]
    assert state.graveyard == []


def test_alchemist_with_no_target_asks_nothing() -> None:
    state = setup(
        players=[
            {
                "hand": ["alchemist.red", "page.blue"],
                "houses": [{"colour": "red", "cards": ["page.red"]}],
            },
            {
                "houses": [
                    {
                        **RED_CASTLE,
                        "colour": "blue",
                        "cards": ["lord.blue", "page.blue", "knight.blue"],
                        "castle": "permanent",
                    }
                ]
            },
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "alchemist.red")
    # the only other house is a castle house; his own house holds him
    assert decision(state).kind == "action"
    assert state.graveyard == []


# ====================================================================== Лазутчица
def test_spy_looks_at_a_hand_privately_discards_an_order_and_draws() -> None:
    state = setup(
        players=[
            {"hand": ["spy.red"]},
            {"hand": ["ball", "lord.blue", "marriage"]},
            {"hand": ["page.green"]},
        ],
        deck=["page.orange"],
        orders=["infirmary", "ball"],
    )
    play(state, "lay", "spy.red")
    d = decision(state)
    assert d.seat == 0 and d.kind == "spy.target"
    assert sorted(d.options) == [("1",), ("2",)]
    events = play(state, "1")
    shown = of(events, "hand.shown")
    assert len(shown) == 1 and shown[0].to == (0,)
    assert sorted(shown[0].params["cards"]) == sorted(state.players[1].hand)
    looked = of(events, "hand.looked")
    assert len(looked) == 1 and looked[0].to is None and "cards" not in looked[0].params
    # the hand's contents reach nobody else
    for e in events:
        if e.to is None or 0 not in e.to:
            assert not set(state.players[1].hand) & set(map(str, e.params.values()))
    d = decision(state)
    assert d.kind == "spy.discard" and d.seat == 0
    assert sorted(kind(state, o[0]) for o in d.options if o != ("skip",)) == ["ball", "marriage"]
    play(state, "marriage")
    assert hand(state, 1) == ["ball", "lord.blue"]
    assert kinds(state, state.orders_discard) == ["marriage"]
    # in her own turn, outside a смута: she then takes the top order
    assert hand(state, 0) == ["infirmary"]
    assert kinds(state, state.orders) == ["ball"]
    assert state.current == 0 and state.actions_left == 2


def test_spy_may_decline_to_discard_and_still_draws() -> None:
    state = setup(
        players=[{"hand": ["spy.red"]}, {"hand": ["ball"]}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "spy.red")
    # one opponent with cards: the look is automatic, the discard is asked
    d = decision(state)
    assert d.kind == "spy.discard" and d.params["target"] == 1
    play(state, "skip")
    assert hand(state, 1) == ["ball"]
    assert hand(state, 0) == ["infirmary"]


def test_spy_finding_no_order_discards_nothing_and_draws() -> None:
    state = setup(
        players=[{"hand": ["spy.red"]}, {"hand": ["lord.blue", "page.green"]}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    events = play(state, "lay", "spy.red")
    assert len(of(events, "hand.shown")) == 1
    assert hand(state, 1) == ["lord.blue", "page.green"]
    assert hand(state, 0) == ["infirmary"]
    assert decision(state).kind == "action"


def test_spy_with_no_hand_to_look_at_still_draws() -> None:
    state = setup(
        players=[{"hand": ["spy.red"]}, {}, {}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    events = play(state, "lay", "spy.red")
    assert not of(events, "hand.shown")
    assert hand(state, 0) == ["infirmary"]


def test_spy_discard_is_captured_by_a_permanent_intrigue_castle_of_another_player() -> None:
    state = setup(
        players=[
            {"hand": ["spy.red"]},
            {"hand": ["ball"]},
            {"houses": [BLUE_INTRIGUE]},
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "spy.red")
    events = play(state, "ball")
    assert hand(state, 2) == ["ball"]
    assert state.orders_discard == []
    captured = of(events, "discard.captured")
    assert len(captured) == 1 and captured[0].params["owner"] == 2
    assert hand(state, 0) == ["infirmary"]


def test_spy_discard_is_captured_by_the_spys_own_intrigue_castle() -> None:
    state = setup(
        players=[
            {
                "hand": ["spy.red"],
                "houses": [BLUE_INTRIGUE],
            },
            {"hand": ["ball"]},
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "spy.red")
    play(state, "ball")
    assert hand(state, 0) == ["ball", "infirmary"]
    assert state.orders_discard == []


def test_spy_discard_is_not_captured_by_the_targets_own_castle_or_a_one_time_side() -> None:
    blue_castle = {"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}
    for side, owner in (("permanent", 1), ("one_time", 2)):
        players: list[dict[str, object]] = [{"hand": ["spy.red"]}, {"hand": ["ball"]}, {}]
        players[owner] = {**players[owner], "houses": [{**blue_castle, "castle": side}]}
        state = setup(players=players, deck=["page.orange"], orders=["infirmary"])
        play(state, "lay", "spy.red")
        play(state, "ball")
        assert kinds(state, state.orders_discard) == ["ball"], side
        assert hand(state, 1) == [] and hand(state, 2) == []


def test_spy_discard_goes_to_the_discard_when_the_intrigue_owner_holds_seven() -> None:
    seven = [
        "page.red",
        "page.blue",
        "page.green",
        "page.orange",
        "lord.red",
        "lord.green",
        "marriage",
    ]
    state = setup(
        players=[
            {"hand": ["spy.red"]},
            {"hand": ["ball"]},
            {
                "hand": seven,
                "houses": [BLUE_INTRIGUE],
            },
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "spy.red")
    play(state, "1")
    play(state, "ball")
    assert kinds(state, state.orders_discard) == ["ball"]
    assert len(state.players[2].hand) == 7


def test_spy_with_a_full_hand_does_not_draw() -> None:
    seven = ["page.red", "page.blue", "page.green", "page.orange", "lord.red", "lord.green", "ball"]
    state = setup(
        players=[{"hand": ["knight.red"]}, {"hand": seven}, {"hand": ["marriage"]}],
        deck=["new_era", "page.orange"],
        graveyard=["page.red", "spy.blue"],
        orders=["infirmary"],
    )
    play(state, "draw")
    # seat 1 (seven cards) receives the Лазутчица during the смута: look and discard only
    d = decision(state)
    assert d.seat == 1 and d.kind == "spy.target"
    play(state, "2")
    play(state, "marriage")
    assert hand(state, 2) == []
    assert kinds(state, state.orders) == ["infirmary"]
    assert len(state.players[1].hand) == 7


def test_spy_during_a_smuta_in_her_own_turn_only_looks_and_discards() -> None:
    state = setup(
        players=[{"hand": ["knight.red"]}, {"hand": ["ball"]}],
        deck=["new_era", "page.orange"],
        graveyard=["spy.red"],
        orders=["infirmary"],
    )
    play(state, "draw")
    d = decision(state)
    assert d.seat == 0 and d.kind == "spy.discard"
    play(state, "ball")
    assert kinds(state, state.orders_discard) == ["ball"]
    assert hand(state, 0) == ["knight.red"]
    assert kinds(state, state.orders) == ["infirmary"]
    # the смута ended the turn
    assert state.current == 1


# ====================================================================== Менестрель
def test_minstrel_looks_privately_and_lays_a_woman_whose_property_fires() -> None:
    state = setup(
        players=[
            {"hand": ["minstrel.red"], "houses": [{"colour": "red", "cards": ["page.red"]}]},
            {
                "hand": ["lady.blue", "page.blue", "ball"],
                "houses": [{"colour": "blue", "cards": ["knight.blue"]}],
            },
            {"hand": ["harlot.green"]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "minstrel.red")
    d = decision(state)
    assert d.kind == "minstrel.target" and sorted(d.options) == [("1",), ("2",)]
    events = play(state, "1")
    shown = of(events, "hand.shown")
    assert len(shown) == 1 and shown[0].to == (0,)
    d = decision(state)
    assert d.kind == "minstrel.lay"
    # only women: the Миледи, not the Паж nor the order
    assert [kind(state, o[0]) for o in d.options if o != ("skip",)] == ["lady.blue"]
    events = play(state, "lady.blue")
    events += play(state, "right")
    assert hand(state, 1) == ["ball", "page.blue"]
    took = of(events, "minstrel.took")
    assert len(took) == 1 and took[0].to is None
    # she lies in his player's blue house, at the end he chose, and she may take a blue man
    d = decision(state)
    assert d.kind == "lady.take" and d.seat == 0
    play(state, "1", "knight.blue")
    assert houses(state, 0) == [
        ("red", ["page.red", "minstrel.red"], None),
        ("blue", ["lady.blue", "knight.blue"], None),
    ]
    assert houses(state, 1) == []
    assert state.actions_left == 2


def test_minstrel_lays_a_harlot_into_his_own_houses() -> None:
    state = setup(
        players=[{"hand": ["minstrel.red"]}, {"hand": ["harlot.red"]}],
        deck=["page.orange"],
    )
    play(state, "lay", "minstrel.red")
    play(state, "harlot.red")
    assert houses(state, 0) == [("red", ["minstrel.red", "harlot.red"], None)]
    assert hand(state, 1) == []


def test_minstrel_may_decline_and_finds_nothing_in_a_hand_without_women() -> None:
    state = setup(
        players=[{"hand": ["minstrel.red", "page.red"]}, {"hand": ["spy.blue"]}],
        deck=["page.orange"],
    )
    play(state, "lay", "minstrel.red")
    assert decision(state).kind == "minstrel.lay"
    play(state, "skip")
    assert hand(state, 1) == ["spy.blue"]
    assert houses(state, 0) == [("red", ["minstrel.red"], None)]

    state = setup(
        players=[{"hand": ["minstrel.red", "page.red"]}, {"hand": ["lord.blue", "ball"]}],
        deck=["page.orange"],
    )
    events = play(state, "lay", "minstrel.red")
    assert len(of(events, "hand.shown")) == 1
    assert decision(state).kind == "action"
    assert hand(state, 1) == ["ball", "lord.blue"]


def test_minstrel_laying_a_spy_in_his_own_turn_lets_her_draw() -> None:
    state = setup(
        players=[{"hand": ["minstrel.red"]}, {"hand": ["spy.blue", "ball"]}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "lay", "minstrel.red")
    play(state, "spy.blue")
    play(state, "left")
    # the Лазутчица looks at the same (only) opponent and may discard the Бал
    d = decision(state)
    assert d.kind == "spy.discard"
    play(state, "ball")
    assert hand(state, 1) == []
    assert hand(state, 0) == ["infirmary"]
    assert houses(state, 0) == [("blue", ["spy.blue"], None), ("red", ["minstrel.red"], None)]


# ====================================================================== Шут
def test_jester_replays_a_smuta_from_the_discard_which_ends_the_turn() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "page.red"]}, {}, {}],
        deck=["page.orange", "page.green", "page.blue", "lord.red"],
        orders=["ball", "marriage", "infirmary"],
        smuta_discard=["grail", "feast"],
        prophet_stack=["inquisition", "prophet"],
    )
    play(state, "lay", "jester.red")
    d = decision(state)
    assert d.seat == 0 and d.kind == "jester.smuta"
    # only the смута discard is offered, never the Пророк stack
    assert sorted(kind(state, o[0]) for o in d.options if o != ("skip",)) == ["feast", "grail"]
    events = play(state, "feast")
    starts = of(events, "smuta.start")
    assert [(e.params["smuta"], e.params["initiator"], e.params["mode"]) for e in starts] == [
        ("feast", 0, "jester")
    ]
    # Великий Пир: seat 0, 1, 2, then 0 again take from the game deck
    assert hand(state, 0) == ["lord.red", "page.orange", "page.red"]
    assert hand(state, 1) == ["page.green"]
    assert hand(state, 2) == ["page.blue"]
    # the replayed смута goes back on the смута discard
    assert kinds(state, state.smuta_discard) == ["feast", "grail"]
    assert kinds(state, state.prophet_stack) == ["inquisition", "prophet"]
    # ... and it ended the turn, though only one action was spent
    assert state.current == 1
    assert not violations(state)


def test_jester_may_decline_and_the_turn_goes_on() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "page.red"]}, {}],
        deck=["page.orange"],
        orders=["ball"],
        smuta_discard=["grail"],
    )
    play(state, "lay", "jester.red")
    play(state, "skip")
    assert state.current == 0 and state.actions_left == 2
    assert kinds(state, state.smuta_discard) == ["grail"]
    assert hand(state, 1) == []


def test_jester_with_an_empty_discard_does_nothing() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "page.red"]}, {}],
        deck=["page.orange"],
        prophet_stack=["prophet"],
    )
    events = play(state, "lay", "jester.red")
    assert not of(events, "smuta.start")
    assert decision(state).kind == "action" and state.current == 0


def test_jester_does_nothing_during_a_smuta() -> None:
    state = setup(
        players=[{"hand": ["page.red"]}, {}],
        deck=["new_era", "page.orange"],
        graveyard=["jester.red"],
        orders=["ball"],
        smuta_discard=["grail"],
    )
    events = play(state, "draw")
    assert houses(state, 0) == [("red", ["jester.red"], None)]
    assert [e.params["smuta"] for e in of(events, "smuta.start")] == ["new_era"]
    assert kinds(state, state.smuta_discard) == ["new_era", "grail"]
    assert hand(state, 0) == ["page.red"] and hand(state, 1) == []
    assert state.current == 1


def test_jester_replaying_betrayal_restarts_the_turn() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "page.red", "page.blue"]}, {}],
        deck=["page.orange"],
        smuta_discard=["betrayal"],
    )
    play(state, "lay", "jester.red")
    play(state, "betrayal")
    # seat 1 took one of the two Пажи at random; seat 0 has a whole new turn
    assert len(hand(state, 1)) == 1
    assert sorted(hand(state, 0) + hand(state, 1)) == ["page.blue", "page.red"]
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0
    assert kinds(state, state.smuta_discard) == ["betrayal"]


def test_jester_with_a_permanent_power_castle_gets_a_new_turn() -> None:
    state = setup(
        players=[
            {
                "hand": ["jester.green", "page.green"],
                "houses": [{**RED_CASTLE, "castle": "permanent"}],
            },
            {},
        ],
        deck=["page.orange"],
        orders=["ball", "marriage"],
        smuta_discard=["grail"],
    )
    play(state, "lay", "jester.green", "0", "green", "right")
    events = play(state, "grail")
    assert hand(state, 0) == ["ball", "page.green"] and hand(state, 1) == ["marriage"]
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0


def test_jester_whose_replay_turns_the_power_castle_one_time_ends_the_turn() -> None:
    state = setup(
        players=[
            {
                "hand": ["jester.green", "page.green"],
                "houses": [{**RED_CASTLE, "castle": "permanent"}],
            },
            {},
        ],
        deck=["page.orange"],
        orders=["ball"],
        smuta_discard=["reformation"],
        actions_left=3,
    )
    play(state, "lay", "jester.green", "0", "green", "right")
    play(state, "reformation")
    # Реформация flipped the castle to its one-time side (the Бал is the only order, so
    # it is taken at once); the Замок Власти is no longer permanent: the turn ends
    assert houses(state, 0)[0][2] == "one_time"
    assert hand(state, 0) == ["ball", "page.green"]
    assert state.current == 1


# ====================================================================== Наёмник
def test_mercenary_takes_a_random_card_from_the_chosen_opponent() -> None:
    state = setup(
        players=[
            {"hand": ["mercenary.red"]},
            {"hand": ["ball"]},
            {"hand": ["lord.green", "page.green"]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "mercenary.red")
    d = decision(state)
    assert d.kind == "mercenary.target" and sorted(d.options) == [("1",), ("2",)]
    events = play(state, "1")
    assert hand(state, 0) == ["ball"] and hand(state, 1) == []
    public = of(events, "mercenary.took")
    private = of(events, "mercenary.took.private")
    assert len(public) == 1 and public[0].to is None and "card" not in public[0].params
    assert len(private) == 1 and sorted(private[0].to or ()) == [0, 1]
    assert kind(state, private[0].params["card"]) == "ball"


def test_mercenary_takes_one_of_the_cards_of_a_bigger_hand() -> None:
    state = setup(
        players=[{"hand": ["mercenary.red"]}, {"hand": ["lord.green", "page.green", "ball"]}],
        deck=["page.orange"],
    )
    play(state, "lay", "mercenary.red")
    assert len(state.players[0].hand) == 1 and len(state.players[1].hand) == 2
    assert sorted(hand(state, 0) + hand(state, 1)) == ["ball", "lord.green", "page.green"]


def test_mercenary_skips_empty_hands_and_asks_nothing_with_one_target() -> None:
    state = setup(
        players=[{"hand": ["mercenary.red"]}, {}, {"hand": ["ball"]}],
        deck=["page.orange"],
    )
    play(state, "lay", "mercenary.red")
    assert hand(state, 0) == ["ball"] and hand(state, 2) == []


def test_mercenary_with_a_full_hand_takes_nothing() -> None:
    seven = ["page.red", "page.blue", "page.green", "page.orange", "lord.red", "lord.green", "ball"]
    state = setup(
        players=[{"hand": ["knight.red"]}, {"hand": seven}],
        deck=["new_era", "page.orange"],
        graveyard=["page.red", "mercenary.blue"],
    )
    play(state, "draw")
    assert houses(state, 1) == [("blue", ["mercenary.blue"], None)]
    assert hand(state, 0) == ["knight.red"]
    assert len(state.players[1].hand) == 7


# ====================================================================== Священник
def test_priest_sends_a_harlot_or_a_plague_man_from_any_house_but_a_castle_house() -> None:
    state = setup(
        players=[
            {
                "hand": ["priest.red"],
                "houses": [{"colour": "green", "cards": ["page.green", "plague.green"]}],
            },
            {
                "houses": [
                    {"colour": "blue", "cards": ["lord.blue", "harlot.blue", "page.blue"]},
                    {
                        "colour": "red",
                        "cards": ["lord.red", "page.red", "harlot.red"],
                        "castle": "permanent",
                    },
                ]
            },
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "priest.red")
    d = decision(state)
    assert d.kind == "priest.kill"
    offered = sorted((o[0], kind(state, o[1])) for o in d.options if o != ("skip",))
    assert offered == [("0", "plague.green"), ("1", "harlot.blue")]
    play(state, "1", "harlot.blue")
    assert kinds(state, state.graveyard) == ["harlot.blue"]
    assert houses(state, 1)[0] == ("blue", ["lord.blue", "page.blue"], None)


def test_priest_may_decline_and_asks_nothing_without_a_target() -> None:
    state = setup(
        players=[
            {"hand": ["priest.red", "page.red"]},
            {"houses": [{"colour": "blue", "cards": ["harlot.blue"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "priest.red")
    play(state, "skip")
    assert houses(state, 1) == [("blue", ["harlot.blue"], None)]

    state = setup(
        players=[
            {"hand": ["priest.red", "page.red"]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["page.orange"],
    )
    play(state, "lay", "priest.red")
    assert decision(state).kind == "action"


# ====================================================================== who uses a property
def test_cards_moved_between_ones_own_houses_do_not_trigger() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage", "marriage"],
                "houses": [
                    {"colour": "red", "cards": ["page.red", "treasurer.red", "lady.red"]},
                    {"colour": "blue", "cards": ["page.blue"]},
                ],
            },
            {"hand": ["ball"], "houses": [{"colour": "red", "cards": ["knight.red"]}]},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    events = play(state, "play", "marriage", "treasurer.red", "blue")
    # the Казначей took no order
    assert hand(state, 0) == ["marriage"]
    assert kinds(state, state.orders) == ["ball"]
    events += play(state, "play", "marriage", "lady.red", "blue")
    # the Миледи takes no man
    assert decision(state).kind == "action"
    assert houses(state, 1) == [("red", ["knight.red"], None)]
    assert houses(state, 0) == [
        ("red", ["page.red"], None),
        ("blue", ["page.blue", "treasurer.red", "lady.red"], None),
    ]
    assert not of(events, "placed") and not of(events, "order.drawn")


def test_a_property_fires_for_the_player_who_receives_the_card() -> None:
    state = setup(
        players=[{"hand": ["knight.red"]}, {"hand": ["page.green"]}, {}],
        deck=["new_era", "page.orange"],
        graveyard=["page.red", "treasurer.blue", "mercenary.green"],
        orders=["ball", "marriage"],
    )
    # Новая Эпоха from seat 0: seat 0 lays the Паж, seat 1 the Казначей (seat 1 takes the
    # order), seat 2 the Наёмник (seat 2 takes a card from a hand)
    play(state, "draw")
    assert houses(state, 1) == [("blue", ["treasurer.blue"], None)]
    assert hand(state, 1) == ["ball", "page.green"]
    assert kinds(state, state.orders) == ["marriage"]
    d = decision(state)
    assert d.seat == 2 and d.kind == "mercenary.target"
    play(state, "0")
    assert hand(state, 2) == ["knight.red"] and hand(state, 0) == []
