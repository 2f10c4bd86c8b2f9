"""Castles (RULES.md §1 castle table, §4.5, §5, §7): building, the side chosen,
each one-time side, each permanent side, and castle points at the end."""

from engine import Event, GameState
from engine.invariants import violations
from tests.engine.helpers import decision, hand, houses, keys, kind, kinds, play, setup

LORDS = {
    "red": ["lord.red", "page.red", "knight.red"],
    "blue": ["lord.blue", "page.blue", "knight.blue"],
    "green": ["lord.green", "page.green", "knight.green"],
    "orange": ["lord.orange", "page.orange", "knight.orange"],
}
SEVEN = ["page.red", "page.blue", "page.green", "page.orange", "healer.red", "healer.blue", "ball"]


def house(
    colour: str, side: str | None = None, cards: list[str] | None = None
) -> dict[str, object]:
    return {"colour": colour, "cards": LORDS[colour] if cards is None else cards, "castle": side}


def builds(options: tuple[tuple[str, ...], ...]) -> list[tuple[str, ...]]:
    return [o for o in options if o[0] == "build"]


def build_sides(state: GameState, options: tuple[tuple[str, ...], ...]) -> list[tuple[str, str]]:
    return [(kind(state, o[1]), o[2]) for o in builds(options)]


# ------------------------------------------------------------------ building
def test_a_house_with_a_lord_and_three_cards_and_a_merchant_may_build_either_side() -> None:
    state = setup(
        players=[{"hand": ["merchant.red", "merchant.blue"], "houses": [house("red")]}, {}],
        deck=["page.green"],
        orders=["ball"],
    )
    # both sides of the red castle; the blue Купец has no blue house to build on
    assert build_sides(state, decision(state).options) == [
        ("merchant.red", "permanent"),
        ("merchant.red", "one_time"),
    ]


def test_no_lord_no_castle() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red"],
                "houses": [house("red", cards=["page.red", "knight.red", "healer.red"])],
            },
            {},
        ],
        deck=["page.green"],
        orders=["ball"],
    )
    assert builds(decision(state).options) == []


def test_two_cards_are_not_enough() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.red"], "houses": [house("red", cards=["lord.red", "page.red"])]},
            {},
        ],
        deck=["page.green"],
        orders=["ball"],
    )
    assert builds(decision(state).options) == []


def test_a_lord_of_another_colour_will_do() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red"],
                "houses": [house("red", cards=["page.red", "knight.red", "lord.blue"])],
            },
            {},
        ],
        deck=["page.green"],
        orders=["ball"],
    )
    assert build_sides(state, decision(state).options) == [
        ("merchant.red", "permanent"),
        ("merchant.red", "one_time"),
    ]


def test_the_merchant_must_be_of_the_houses_colour() -> None:
    state = setup(
        players=[{"hand": ["merchant.blue", "merchant.green"], "houses": [house("red")]}, {}],
        deck=["page.green"],
        orders=["ball"],
    )
    assert builds(decision(state).options) == []


def test_the_castle_must_be_in_the_supply() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.red"], "houses": [house("red")]},
            {
                "houses": [
                    house("red", "permanent", ["lord.red", "page.red", "healer.red"]),
                ]
            },
        ],
        deck=["page.green"],
        orders=["ball"],
    )
    # seat 1 holds the only red castle
    assert "red" not in state.castles
    assert builds(decision(state).options) == []


def test_a_house_that_has_its_castle_takes_no_second_one() -> None:
    state = setup(
        players=[{"hand": ["merchant.red"], "houses": [house("red", "one_time")]}, {}],
        deck=["page.green"],
        orders=["ball"],
    )
    assert builds(decision(state).options) == []


def test_building_uses_an_action_spends_the_merchant_and_takes_the_castle() -> None:
    state = setup(
        players=[{"hand": ["merchant.red", "page.green"], "houses": [house("red")]}, {}],
        deck=["page.blue"],
        orders=["ball"],
    )
    events = play(state, "build", "merchant.red", "permanent")
    assert houses(state, 0) == [("red", LORDS["red"], "permanent")]
    assert "red" not in state.castles
    assert kinds(state, state.orders_discard) == ["merchant.red"]
    assert hand(state, 0) == ["page.green"]
    assert state.actions_left == 2 and state.actions_taken == 1
    built = [e for e in events if e.key == "castle.built"]
    assert [(e.to, e.params) for e in built] == [
        (None, {"seat": 0, "colour": "red", "side": "permanent"})
    ]
    # the permanent side has no one-time effect
    assert "castle.one_time" not in keys(events)
    assert not violations(state)


def test_spending_the_merchant_is_not_a_discard_an_intrigue_castle_does_not_take_it() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.red", "page.green"], "houses": [house("red")]},
            {"houses": [house("blue", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    events = play(state, "build", "merchant.red", "permanent")
    assert "discard.captured" not in keys(events)
    assert hand(state, 1) == []
    assert kinds(state, state.orders_discard) == ["merchant.red"]


def test_a_player_may_hold_several_castles() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.blue", "page.green"],
                "houses": [house("red", "one_time"), house("blue")],
            },
            {},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    play(state, "build", "merchant.blue", "permanent")
    assert [h[2] for h in houses(state, 0)] == ["one_time", "permanent"]
    assert sorted(state.castles) == ["green", "orange"]


def test_requirements_are_checked_only_when_building() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red", "marriage"],
                "houses": [house("red"), house("blue", cards=["page.blue"])],
            },
            {},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    play(state, "build", "merchant.red", "permanent")
    lord = next(c for c in state.players[0].houses[0].cards if kind(state, c) == "lord.red")
    # the owner's Брачный союз may move the Лорд out of the castle house
    play(state, "play", "marriage", lord, "blue")
    assert houses(state, 0) == [
        ("red", ["page.red", "knight.red"], "permanent"),
        ("blue", ["page.blue", "lord.red"], None),
    ]


def test_a_castle_whose_house_empties_returns_to_the_supply() -> None:
    state = setup(
        players=[
            {
                "hand": ["marriage", "marriage", "marriage"],
                "houses": [house("red", "permanent"), house("blue", cards=["page.blue"])],
            },
            {},
        ],
        deck=["page.orange"],
        orders=["ball"],
    )
    events: list[Event] = []
    for _ in range(3):
        card = state.players[0].houses[0].cards[0]
        events += play(state, "play", "marriage", card, "blue")
    assert houses(state, 0) == [("blue", ["page.blue", *LORDS["red"]], None)]
    assert "red" in state.castles
    assert "castle.returned" in keys(events)
    assert not violations(state)


# ------------------------------------------------------------------ one-time sides
def test_power_one_time_takes_any_order_of_the_deck() -> None:
    state = setup(
        players=[{"hand": ["merchant.red", "page.green"], "houses": [house("red")]}, {}],
        deck=["page.orange"],
        orders=["ball", "marriage", "ball", "infirmary", "merchant.blue", "marriage"],
    )
    events = play(state, "build", "merchant.red", "one_time")
    assert "castle.one_time" in keys(events)
    d = decision(state)
    assert d.seat == 0 and d.kind == "power.order"
    # one option per kind, wherever it lies in the deck
    assert sorted(kind(state, o[0]) for o in d.options) == [
        "ball",
        "infirmary",
        "marriage",
        "merchant.blue",
    ]
    events = play(state, "infirmary")
    assert hand(state, 0) == ["infirmary", "page.green"]
    assert sorted(kinds(state, state.orders)) == [
        "ball",
        "ball",
        "marriage",
        "marriage",
        "merchant.blue",
    ]
    public = [e for e in events if e.key == "power.took"]
    private = [e for e in events if e.key == "power.took.private"]
    assert [e.to for e in public] == [None] and "card" not in public[0].params
    assert [(e.to, kind(state, e.params["card"])) for e in private] == [((0,), "infirmary")]
    assert state.actions_left == 2 and state.current == 0


def test_power_one_time_shuffles_the_orders_deck_afterwards() -> None:
    orders = [
        "ball",
        "marriage",
        "infirmary",
        "merchant.blue",
        "merchant.green",
        "ball",
        "marriage",
    ]
    orders += ["infirmary", "merchant.orange", "ball"]
    reordered = 0
    for seed in range(6):
        state = setup(
            players=[{"hand": ["merchant.red", "page.green"], "houses": [house("red")]}, {}],
            deck=["page.orange"],
            orders=orders,
            seed=seed,
        )
        before = list(state.orders)
        play(state, "build", "merchant.red", "one_time")
        taken = next(o[0] for o in decision(state).options if kind(state, o[0]) == "merchant.green")
        play(state, taken)
        rest = [c for c in before if c != taken]
        assert sorted(state.orders) == sorted(rest)
        reordered += state.orders != rest
    assert reordered >= 5


def test_power_one_time_with_an_empty_orders_deck_does_nothing() -> None:
    state = setup(
        players=[{"hand": ["merchant.red", "page.green"], "houses": [house("red")]}, {}],
        deck=["page.orange"],
        orders=[],
    )
    d_before = state.decision
    play(state, "build", "merchant.red", "one_time")
    assert state.decision == d_before + 1 and decision(state).kind == "action"
    assert hand(state, 0) == ["page.green"]


def test_intrigue_one_time_looks_at_a_hand_and_takes_an_order() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.blue", "page.green"], "houses": [house("blue")]},
            {"hand": ["lord.red", "ball", "marriage"]},
            {},
            {"hand": ["page.red"]},
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    play(state, "build", "merchant.blue", "one_time")
    d = decision(state)
    # only opponents who hold cards may be looked at
    assert d.seat == 0 and d.kind == "intrigue.target" and d.options == (("1",), ("3",))
    events = play(state, "1")
    shown = [e for e in events if e.key == "hand.shown"]
    assert [(e.to, kinds(state, e.params["cards"])) for e in shown] == [
        ((0,), ["lord.red", "ball", "marriage"])
    ]
    looked = [e for e in events if e.key == "hand.looked"]
    assert [e.to for e in looked] == [None] and "cards" not in looked[0].params
    d = decision(state)
    # orders only, and taking one is compulsory
    assert d.kind == "intrigue.take"
    assert sorted(kind(state, o[0]) for o in d.options) == ["ball", "marriage"]
    events = play(state, "marriage")
    assert hand(state, 0) == ["marriage", "page.green"]
    assert hand(state, 1) == ["ball", "lord.red"]
    # which order changed hands is known only to the two players
    took = [e for e in events if e.key == "intrigue.took"]
    assert [(e.to, e.params) for e in took] == [(None, {"seat": 0, "source": 1})]
    private = [e for e in events if e.key == "intrigue.took.private"]
    assert [(e.to, kind(state, e.params["card"])) for e in private] == [((0, 1), "marriage")]


def test_intrigue_one_time_finds_no_order_and_takes_nothing() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.blue", "page.green"], "houses": [house("blue")]},
            {"hand": ["lord.red", "page.red"]},
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    events = play(state, "build", "merchant.blue", "one_time")
    # the single hand is looked at without a question; it holds no order
    assert "hand.looked" in keys(events)
    assert decision(state).kind == "action"
    assert hand(state, 0) == ["page.green"] and hand(state, 1) == ["lord.red", "page.red"]


def test_intrigue_one_time_with_no_hands_to_look_at_does_nothing() -> None:
    state = setup(
        players=[{"hand": ["merchant.blue", "page.green"], "houses": [house("blue")]}, {}],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    events = play(state, "build", "merchant.blue", "one_time")
    assert "hand.looked" not in keys(events)
    assert decision(state).kind == "action" and state.actions_left == 2


def test_knowledge_one_time_resurrects_the_top_of_the_graveyard() -> None:
    state = setup(
        players=[{"hand": ["merchant.green", "page.red"], "houses": [house("green")]}, {}],
        deck=["page.orange"],
        orders=["infirmary", "ball"],
        graveyard=["treasurer.green", "knight.red"],
    )
    events = play(state, "build", "merchant.green", "one_time")
    assert houses(state, 0) == [("green", [*LORDS["green"], "treasurer.green"], "one_time")]
    assert kinds(state, state.graveyard) == ["knight.red"]
    # the Казначей's on-appearing property fires: the top order
    assert "resurrected" in keys(events)
    assert hand(state, 0) == ["infirmary", "page.red"]


def test_knowledge_one_time_plants_a_plague_in_any_row_but_no_opponents_castle() -> None:
    state = setup(
        players=[
            {"hand": ["merchant.green", "page.red"], "houses": [house("green")]},
            {"houses": [house("red", "permanent")]},
            {"houses": [{"colour": "blue", "cards": ["page.blue"]}]},
        ],
        deck=["page.orange"],
        orders=["ball"],
        graveyard=["plague.red"],
    )
    play(state, "build", "merchant.green", "one_time")
    d = decision(state)
    assert d.kind == "plant_row"
    # seat 1's red house has a castle: the red Чумовой cannot go there
    assert d.options == (("0",), ("2",))
    play(state, "2")
    d = decision(state)
    assert d.seat == 2 and d.kind == "house_end"
    play(state, "left")
    assert houses(state, 2) == [("red", ["plague.red"], None), ("blue", ["page.blue"], None)]


def test_knowledge_one_time_brings_back_a_jester_who_may_replay_in_the_builders_turn() -> None:
    state = setup(
        players=[{"hand": ["merchant.green", "page.red"], "houses": [house("green")]}, {}],
        deck=["page.orange"],
        orders=["ball", "marriage"],
        graveyard=["jester.green"],
        smuta_discard=["grail"],
        prophet_stack=["feast", "prophet"],
    )
    play(state, "build", "merchant.green", "one_time")
    d = decision(state)
    assert d.kind == "jester.smuta"
    assert [o if o == ("skip",) else kind(state, o[0]) for o in d.options] == [
        "grail",
        ("skip",),
    ]


def test_knowledge_one_time_with_an_empty_graveyard_does_nothing() -> None:
    state = setup(
        players=[{"hand": ["merchant.green", "page.red"], "houses": [house("green")]}, {}],
        deck=["page.orange"],
        orders=["ball"],
    )
    events = play(state, "build", "merchant.green", "one_time")
    assert "resurrected" not in keys(events)
    assert houses(state, 0) == [("green", LORDS["green"], "one_time")]


def test_trade_one_time_takes_the_top_two_orders() -> None:
    state = setup(
        players=[{"hand": ["merchant.orange", "page.red"], "houses": [house("orange")]}, {}],
        deck=["page.blue"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "build", "merchant.orange", "one_time")
    assert hand(state, 0) == ["ball", "marriage", "page.red"]
    assert kinds(state, state.orders) == ["infirmary"]
    private = [e for e in events if e.key == "order.drawn.private"]
    assert all(e.to == (0,) for e in private) and len(private) == 2


def test_trade_one_time_with_one_order_left_takes_one() -> None:
    state = setup(
        players=[{"hand": ["merchant.orange", "page.red"], "houses": [house("orange")]}, {}],
        deck=["page.blue"],
        orders=["ball"],
    )
    play(state, "build", "merchant.orange", "one_time")
    assert hand(state, 0) == ["ball", "page.red"]
    assert state.orders == []


def test_trade_one_time_stops_at_the_hand_limit() -> None:
    six = ["page.red", "page.blue", "page.green", "healer.red", "healer.blue", "merchant.orange"]
    state = setup(
        players=[{"hand": six, "houses": [house("orange")]}, {}],
        deck=["page.blue"],
        orders=["ball", "marriage", "infirmary"],
    )
    # 6 cards, the Купец is spent (5), two orders come in (7)
    play(state, "build", "merchant.orange", "one_time")
    assert len(state.players[0].hand) == 7
    assert kinds(state, state.orders) == ["infirmary"]


# ------------------------------------------------------------------ permanent sides
def test_power_permanent_gives_a_new_turn_after_a_smuta_you_drew() -> None:
    state = setup(
        players=[{"hand": ["page.green"], "houses": [house("red", "permanent")]}, {}],
        deck=["grail", "page.blue", "page.orange"],
        orders=["ball", "marriage"],
        actions_left=2,
        actions_taken=1,
    )
    events = play(state, "draw")
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0


def test_power_permanent_does_nothing_when_someone_else_draws_the_smuta() -> None:
    state = setup(
        players=[{"houses": [house("red", "permanent")]}, {"hand": ["page.green"]}],
        deck=["grail", "page.blue"],
        orders=["ball", "marriage"],
        current=1,
    )
    events = play(state, "draw")
    assert "turn.restart" not in keys(events)
    assert state.current == 0 and state.actions_left == 3


def test_power_permanent_gives_a_new_turn_after_a_smuta_replayed_by_the_jester() -> None:
    state = setup(
        players=[
            {"hand": ["jester.red", "page.green"], "houses": [house("red", "permanent")]},
            {},
        ],
        deck=["page.blue"],
        orders=["ball"],
        smuta_discard=["grail"],
    )
    play(state, "lay", "jester.red")
    events = play(state, "grail")
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3


def test_a_disaster_that_takes_the_castle_of_power_away_gives_no_new_turn() -> None:
    state = setup(
        players=[{"hand": ["page.green"], "houses": [house("red", "permanent")]}, {}],
        deck=["drought", "page.blue"],
        orders=["ball"],
    )
    events = play(state, "draw")
    assert "turn.restart" not in keys(events)
    assert state.current == 1
    assert "red" in state.castles


def test_intrigue_permanent_captures_an_order_discarded_by_another_player() -> None:
    state = setup(
        players=[
            {"hand": ["ball", "page.green"]},
            {"houses": [house("blue", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["marriage"],
    )
    events = play(state, "discard", "ball")
    captured = [e for e in events if e.key == "discard.captured"]
    assert len(captured) == 1 and captured[0].params["owner"] == 1
    assert hand(state, 1) == ["ball"]
    assert state.orders_discard == []
    # a house card is not the Интриг castle's business
    play(state, "discard", "page.green")
    assert hand(state, 1) == ["ball"]
    assert kinds(state, state.graveyard) == ["page.green"]


def test_intrigue_permanent_does_not_capture_its_owners_own_discard() -> None:
    state = setup(
        players=[{"hand": ["ball", "page.green"], "houses": [house("blue", "permanent")]}, {}],
        deck=["page.orange"],
        orders=["marriage"],
    )
    play(state, "discard", "ball")
    assert hand(state, 0) == ["page.green"]
    assert kinds(state, state.orders_discard) == ["ball"]


def test_intrigue_permanent_with_a_full_hand_lets_the_order_go_to_the_discard() -> None:
    state = setup(
        players=[
            {"hand": ["marriage", "page.green"]},
            {"hand": SEVEN, "houses": [house("blue", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["infirmary"],
    )
    events = play(state, "discard", "marriage")
    assert "discard.captured" not in keys(events)
    assert kinds(state, state.orders_discard) == ["marriage"]
    assert len(state.players[1].hand) == 7


def test_intrigue_one_time_side_captures_nothing() -> None:
    state = setup(
        players=[{"hand": ["ball", "page.green"]}, {"houses": [house("blue", "one_time")]}],
        deck=["page.orange"],
        orders=["marriage"],
    )
    play(state, "discard", "ball")
    assert hand(state, 1) == []
    assert kinds(state, state.orders_discard) == ["ball"]


def test_knowledge_permanent_captures_a_house_card_discarded_by_another_player() -> None:
    state = setup(
        players=[
            {"hand": ["ball", "page.red"]},
            {},
            {"houses": [house("green", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["marriage"],
    )
    events = play(state, "discard", "page.red")
    captured = [e for e in events if e.key == "discard.captured"]
    assert [(e.params["owner"], e.params["castle"]) for e in captured] == [(2, "green")]
    assert hand(state, 2) == ["page.red"]
    assert state.graveyard == []
    # an order is not the Знаний castle's business
    play(state, "discard", "ball")
    assert hand(state, 2) == ["page.red"]
    assert kinds(state, state.orders_discard) == ["ball"]


def test_knowledge_permanent_does_not_capture_its_owners_own_discard() -> None:
    state = setup(
        players=[{"hand": ["ball", "page.red"], "houses": [house("green", "permanent")]}, {}],
        deck=["page.orange"],
        orders=["marriage"],
    )
    play(state, "discard", "page.red")
    assert hand(state, 0) == ["ball"]
    assert kinds(state, state.graveyard) == ["page.red"]


def test_knowledge_permanent_with_a_full_hand_lets_the_card_go_to_the_graveyard() -> None:
    state = setup(
        players=[
            {"hand": ["ball", "lord.red"]},
            {"hand": SEVEN, "houses": [house("green", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["marriage"],
    )
    play(state, "discard", "lord.red")
    assert kinds(state, state.graveyard) == ["lord.red"]
    assert len(state.players[1].hand) == 7


def test_a_spys_discard_is_captured_by_a_third_players_intrigue_castle() -> None:
    state = setup(
        players=[
            {"hand": ["spy.red", "page.green"]},
            {"hand": ["ball", "lord.blue"]},
            {"houses": [house("blue", "permanent")]},
        ],
        deck=["page.orange"],
        orders=["marriage", "infirmary"],
    )
    # seat 1 holds the only hand to look at: it is chosen without a question
    play(state, "lay", "spy.red")
    play(state, "ball")
    assert hand(state, 2) == ["ball"]
    assert hand(state, 1) == ["lord.blue"]
    # outside a смута, in her owner's turn, the Лазутчица also draws an order
    assert hand(state, 0) == ["marriage", "page.green"]


def test_trade_permanent_gives_four_actions_a_turn() -> None:
    state = setup(
        players=[
            {"hand": ["page.green"]},
            {"hand": ["page.red"], "houses": [house("orange", "permanent")]},
        ],
        deck=["page.blue", "knight.green", "healer.green", "healer.blue", "healer.orange"],
        orders=["ball"],
    )
    play(state, "lay", "page.green")
    play(state, "end")
    assert state.current == 1 and state.actions_left == 4
    for _ in range(4):
        assert state.current == 1
        play(state, "draw")
    assert state.current == 0 and state.actions_left == 3


def test_trade_one_time_gives_three_actions() -> None:
    state = setup(
        players=[
            {"hand": ["page.green"]},
            {"hand": ["page.red"], "houses": [house("orange", "one_time")]},
        ],
        deck=["page.blue"],
        orders=["ball"],
    )
    play(state, "lay", "page.green")
    play(state, "end")
    assert state.current == 1 and state.actions_left == 3


def test_trade_permanent_restarted_turns_have_four_actions_too() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.green"],
                "houses": [house("orange", "permanent"), house("red", "permanent")],
            },
            {},
        ],
        deck=["grail", "page.blue"],
        orders=["ball"],
        actions_left=1,
        actions_taken=3,
    )
    events = play(state, "draw")
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 4


# ------------------------------------------------------------------ points at the end
def _finish(state: GameState) -> None:
    # the last action of the last turn: nothing is left to do, so the game ends
    play(state, "lay")


def test_each_castle_scores_three_points_and_breaks_a_tie() -> None:
    state = setup(
        players=[
            {"hand": ["page.green"], "houses": [house("red", "permanent")]},
            {
                "houses": [
                    {
                        "colour": "blue",
                        "cards": ["lord.blue", "lady.blue", "knight.blue", "page.blue"],
                    }
                ]
            },
        ],
        deck=[],
        orders=[],
        final_turns=0,
    )
    _finish(state)
    assert state.result is not None
    # seat 0: Лорд 3 + Паж 1 + Рыцарь 2 + Паж 1 + castle 3 = 10; seat 1: 3 + 3 + 2 + 1 = 9
    assert state.result.scores == [10, 9]
    assert state.result.castles == [1, 0]
    assert state.result.winners == [0]


def test_equal_points_go_to_the_player_with_more_castles() -> None:
    state = setup(
        players=[
            {"hand": ["page.green"], "houses": [house("red", "one_time")]},
            {
                "houses": [
                    {
                        "colour": "blue",
                        "cards": [
                            "lord.blue",
                            "lady.blue",
                            "knight.blue",
                            "page.blue",
                            "page.blue",
                        ],
                    }
                ]
            },
        ],
        deck=[],
        orders=[],
        final_turns=0,
    )
    _finish(state)
    assert state.result is not None
    assert state.result.scores == [10, 10]
    assert state.result.winners == [0]


def test_castle_points_come_from_the_rules() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.green"],
                "houses": [house("red", "permanent"), house("blue", "one_time")],
            },
            {},
        ],
        deck=[],
        orders=[],
        final_turns=0,
        rules={"castle_points": 5},
    )
    _finish(state)
    assert state.result is not None
    # cards: 6 + 6 + 1; castles: 2 × 5
    assert state.result.scores == [23, 0]


def test_points_events_are_public() -> None:
    state = setup(
        players=[{"hand": ["page.green"], "houses": [house("red", "permanent")]}, {}],
        deck=[],
        orders=[],
        final_turns=0,
    )
    events: list[Event] = play(state, "lay")
    over = [e for e in events if e.key == "game.over"]
    assert len(over) == 1 and over[0].to is None
    assert over[0].params["scores"] == [10, 0] and over[0].params["castles"] == [1, 0]
