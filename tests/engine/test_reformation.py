"""🏰 Реформация (smuty.ru.txt; RULES.md §1 castles, §6).

From the initiator, clockwise, each castle owner flips all their castles, left
to right. The new side works at once; a one-time side fires at once. Whether
the initiator plays again is decided by the Замок Власти side they hold when
the смута ends.
"""

from engine import Event
from engine.invariants import violations
from tests.engine.helpers import decision, hand, houses, keys, kind, kinds, play, setup

LORDS = {
    "red": ["lord.red", "page.red", "knight.red"],
    "blue": ["lord.blue", "page.blue", "knight.blue"],
    "green": ["lord.green", "page.green", "knight.green"],
    "orange": ["lord.orange", "page.orange", "knight.orange"],
}


def castle(colour: str, side: str) -> dict[str, object]:
    return {"colour": colour, "cards": LORDS[colour], "castle": side}


def flips(events: list[Event]) -> list[tuple[int, str, str]]:
    return [
        (e.params["seat"], e.params["colour"], e.params["side"])
        for e in events
        if e.key == "castle.flipped"
    ]


def test_example_power_turned_to_its_one_time_side_takes_any_order() -> None:
    """Пример: замок Власти с постоянным свойством переворачивается — и сразу
    срабатывает разовое свойство: взять любой приказ из колоды приказов."""
    state = setup(
        players=[{"hand": ["page.blue"], "houses": [castle("red", "permanent")]}, {}],
        deck=["reformation", "page.green"],
        orders=["ball", "marriage", "infirmary", "merchant.green", "ball"],
    )
    events = play(state, "draw")
    assert flips(events) == [(0, "red", "one_time")]
    d = decision(state)
    assert d.seat == 0 and d.kind == "power.order"
    # one choice per kind of order in the deck
    assert sorted(kind(state, o[0]) for o in d.options) == [
        "ball",
        "infirmary",
        "marriage",
        "merchant.green",
    ]
    play(state, "merchant.green")
    assert hand(state, 0) == ["merchant.green", "page.blue"]
    assert sorted(kinds(state, state.orders)) == ["ball", "ball", "infirmary", "marriage"]
    # the permanent side is gone: the turn ends
    assert state.current == 1
    assert not violations(state)


def test_ruling_a_one_time_side_fires_at_the_moment_of_the_flip() -> None:
    """Если замок переворачивается на сторону с разовым свойством, это свойство срабатывает сразу?"""  # noqa: E501
    state = setup(
        players=[
            {"hand": ["page.red"], "houses": [castle("orange", "permanent")]},
            {"houses": [castle("blue", "permanent")]},
        ],
        deck=["reformation", "page.green"],
        orders=["ball", "marriage", "infirmary"],
    )
    events = play(state, "draw")
    # seat 0's Замок Торговли turns up its one-time side and takes the top two
    # orders before seat 1 even flips
    order = [e.key for e in events if e.key in ("castle.flipped", "order.drawn", "castle.one_time")]
    assert order == [
        "castle.flipped",
        "castle.one_time",
        "order.drawn",
        "order.drawn",
        "castle.flipped",
        "castle.one_time",
    ]
    assert hand(state, 0) == ["ball", "marriage", "page.red"]
    # seat 1's Замок Интриг turns one-time: it looks at seat 0's hand (the only
    # hand) and takes an order from it, at once
    d = decision(state)
    assert d.seat == 1 and d.kind == "intrigue.take"
    play(state, "marriage")
    assert hand(state, 1) == ["marriage"]
    assert hand(state, 0) == ["ball", "page.red"]
    assert state.orders and kinds(state, state.orders) == ["infirmary"]


def test_ruling_players_without_castles_are_skipped() -> None:
    """Что если у меня нет замков?"""
    state = setup(
        players=[
            {"hand": ["page.red"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
            {"houses": [castle("green", "permanent")]},
            {"houses": [{"colour": "red", "cards": ["lord.red", "page.green"]}]},
        ],
        deck=["reformation", "page.orange"],
        orders=["ball"],
    )
    events = play(state, "draw")
    assert flips(events) == [(1, "green", "one_time")]
    assert houses(state, 0) == [("blue", ["lord.blue"], None)]
    assert houses(state, 2) == [("red", ["lord.red", "page.green"], None)]
    assert state.current == 1


def test_nobody_holds_a_castle_the_smuta_does_nothing_and_ends_the_turn() -> None:
    state = setup(
        players=[{"hand": ["page.red"]}, {}],
        deck=["reformation", "page.orange"],
        orders=["ball"],
    )
    events = play(state, "draw")
    assert flips(events) == []
    assert kinds(state, state.smuta_discard) == ["reformation"]
    assert sorted(state.castles) == ["blue", "green", "orange", "red"]
    assert state.current == 1


def test_ruling_gaining_a_permanent_castle_of_power_restarts_the_turn() -> None:
    """Я взял эту смуту. Если у меня было разовое свойство Замка Власти, а теперь стало постоянное, я заново хожу?"""  # noqa: E501
    state = setup(
        players=[{"hand": ["page.blue"], "houses": [castle("red", "one_time")]}, {}],
        deck=["reformation", "page.green", "page.orange", "knight.green", "knight.orange"],
        orders=["ball"],
        actions_left=1,
        actions_taken=2,
    )
    events = play(state, "draw")
    assert flips(events) == [(0, "red", "permanent")]
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0


def test_ruling_losing_the_permanent_castle_of_power_ends_the_turn() -> None:
    """Я взял эту смуту. Если у меня было разовое свойство Замка Власти, а теперь стало постоянное, я заново хожу?

    — «Если наоборот вы теряете постоянное свойство (и оно становится разовым), ход
    завершится после розыгрыша смуты.»"""  # noqa: E501
    state = setup(
        players=[{"hand": ["page.blue"], "houses": [castle("red", "permanent")]}, {}],
        deck=["reformation", "page.green"],
        orders=["ball"],
    )
    events = play(state, "draw")
    # the one-time side fires (the only order is taken at once), then the turn ends
    assert flips(events) == [(0, "red", "one_time")]
    assert hand(state, 0) == ["ball", "page.blue"]
    assert "turn.restart" not in keys(events)
    assert state.current == 1


def test_another_players_castle_of_power_turning_permanent_gives_the_initiator_nothing() -> None:
    state = setup(
        players=[{"hand": ["page.blue"]}, {"houses": [castle("red", "one_time")]}],
        deck=["reformation", "page.green"],
        orders=["ball"],
    )
    events = play(state, "draw")
    assert flips(events) == [(1, "red", "permanent")]
    assert "turn.restart" not in keys(events)
    assert state.current == 1 and state.actions_left == 3


def test_ruling_castles_are_flipped_not_discarded() -> None:
    """Замки формально скидываются в начале смуты, а потом заново выстраиваются другой стороной?"""
    state = setup(
        players=[
            {"hand": ["page.red"], "houses": [castle("blue", "one_time")]},
            {"houses": [castle("green", "one_time"), castle("orange", "permanent")]},
        ],
        deck=["reformation", "page.orange"],
        orders=["ball"],
        graveyard=[],
    )
    supply_before = list(state.castles)
    events = play(state, "draw")
    assert state.castles == supply_before == ["red"]
    assert not [
        k for k in keys(events) if k.startswith("castle.returned") or k == "castles.returned"
    ]
    assert houses(state, 0) == [("blue", LORDS["blue"], "permanent")]
    assert houses(state, 1) == [
        ("green", LORDS["green"], "permanent"),
        ("orange", LORDS["orange"], "one_time"),
    ]
    assert not violations(state)


def test_owners_flip_in_turn_from_the_initiator_each_row_left_to_right() -> None:
    state = setup(
        players=[
            {"houses": [castle("red", "permanent")]},
            {"hand": ["page.red"], "houses": [castle("orange", "permanent")]},
            {"houses": [castle("blue", "one_time"), castle("green", "one_time")]},
        ],
        deck=["reformation", "page.orange"],
        orders=["ball", "marriage", "infirmary"],
        current=1,
    )
    events = play(state, "draw")
    # seat 1 (the initiator) first: Торговли takes ball and marriage
    assert hand(state, 1) == ["ball", "marriage", "page.red"]
    # seat 2 next, left to right; then seat 0's Власти waits for its choice...
    assert flips(events) == [
        (1, "orange", "one_time"),
        (2, "blue", "permanent"),
        (2, "green", "permanent"),
        (0, "red", "one_time"),
    ]
    # ...but with one order left, seat 0 takes it without a question
    assert hand(state, 0) == ["infirmary"]
    assert state.orders == []
    assert state.current == 2


def test_the_new_permanent_side_works_at_once_within_the_same_smuta() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.red"],
                "houses": [castle("blue", "one_time"), castle("green", "permanent")],
            },
            {"hand": ["ball", "lord.red"]},
        ],
        deck=["reformation", "page.orange"],
        orders=["marriage"],
        graveyard=["spy.orange"],
    )
    events = play(state, "draw")
    # left first: Интриг turns permanent; then Знаний turns one-time and brings
    # back the Лазутчица, who looks at seat 1's hand
    assert flips(events) == [(0, "blue", "permanent"), (0, "green", "one_time")]
    d = decision(state)
    assert d.seat == 0 and d.kind == "house_end"
    play(state, "right")
    d = decision(state)
    assert d.kind == "spy.discard"
    events = play(state, "ball")
    # the discarded order is captured at once by the new permanent Замок Интриг
    assert "discard.captured" in keys(events)
    assert hand(state, 0) == ["ball", "page.red"]
    assert hand(state, 1) == ["lord.red"]
    assert state.orders_discard == []
    # during a смута Лазутчица only looks and discards: no order drawn
    assert kinds(state, state.orders) == ["marriage"]
    assert houses(state, 0)[-1] == ("orange", ["spy.orange"], None)


def test_a_jester_resurrected_by_the_flip_does_not_replay_a_smuta() -> None:
    state = setup(
        players=[{"hand": ["page.red"], "houses": [castle("green", "permanent")]}, {}],
        deck=["reformation", "page.orange"],
        orders=["ball"],
        graveyard=["jester.green"],
        smuta_discard=["grail"],
    )
    events = play(state, "draw")
    assert houses(state, 0) == [("green", [*LORDS["green"], "jester.green"], "one_time")]
    assert "jester.replays" not in keys(events)
    assert kinds(state, state.smuta_discard) == ["reformation", "grail"]
    assert state.current == 1


def test_a_full_hand_gains_nothing_from_a_one_time_side() -> None:
    seven = ["page.red", "page.blue", "page.green", "page.orange", "healer.blue", "ball", "ball"]
    state = setup(
        players=[{}, {"hand": seven, "houses": [castle("red", "permanent")]}],
        deck=["reformation", "healer.red"],
        orders=["marriage", "infirmary"],
        current=0,
    )
    events = play(state, "draw")
    assert flips(events) == [(1, "red", "one_time")]
    assert len(state.players[1].hand) == 7
    assert kinds(state, state.orders) == ["marriage", "infirmary"]


def test_two_castles_of_power_and_trade_turning_permanent_restart_with_four_actions() -> None:
    state = setup(
        players=[
            {
                "hand": ["page.blue"],
                "houses": [castle("red", "one_time"), castle("orange", "one_time")],
            },
            {},
        ],
        deck=["reformation", "page.green", "page.orange", "healer.green", "healer.orange"],
        orders=["ball"],
    )
    events = play(state, "draw")
    assert flips(events) == [(0, "red", "permanent"), (0, "orange", "permanent")]
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 4
    for _ in range(4):
        assert state.current == 0
        play(state, "draw")
    assert state.current == 1


def test_six_players() -> None:
    players: list[dict[str, object]] = [{} for _ in range(6)]
    players[5] = {"hand": ["page.blue"]}
    players[1] = {"houses": [castle("orange", "permanent")]}
    players[3] = {"houses": [castle("green", "one_time")]}
    players[4] = {"houses": [castle("blue", "one_time")]}
    state = setup(
        players=players,
        deck=["reformation", "page.green"],
        orders=["ball", "marriage"],
        current=5,
    )
    events = play(state, "draw")
    # from seat 5: 5 has none, then 0 (none), 1, 2 (none), 3, 4
    assert flips(events) == [
        (1, "orange", "one_time"),
        (3, "green", "permanent"),
        (4, "blue", "permanent"),
    ]
    assert hand(state, 1) == ["ball", "marriage"]
    assert state.current == 0
