"""🤴 Предательство (smuty.ru.txt; RULES.md §4, §6).

From the player on the initiator's left, clockwise, each opponent takes one
random card from the initiator's hand (if there is one and they have room);
then the initiator's turn starts again with fresh actions.
"""

from collections import Counter

from engine import Event
from engine.invariants import violations
from tests.engine.helpers import decision, hand, keys, kind, play, setup

SEVEN = ["page.red", "page.blue", "page.green", "page.orange", "knight.red", "knight.blue", "ball"]
POWER = {
    "colour": "red",
    "cards": ["lord.red", "page.red", "knight.red"],
    "castle": "permanent",
}


def takers(events: list[Event]) -> list[int]:
    return [e.params["seat"] for e in events if e.key == "betrayal.took"]


def test_example_for_six_players() -> None:
    """Пример для игры вшестером: у инициатора 3 карты; Б с полной рукой не берёт;
    Д уже ничего не забирает."""
    state = setup(
        players=[
            {"hand": ["lord.red", "lord.blue", "ball"]},
            {},  # А
            {"hand": SEVEN},  # Б: a full hand
            {},  # В
            {},  # Г
            {},  # Д
        ],
        deck=["betrayal", "page.red"],
        orders=["marriage"],
        actions_left=2,
        actions_taken=1,
    )
    events = play(state, "draw")
    assert takers(events) == [1, 3, 4]
    assert [e.params["seat"] for e in events if e.key == "betrayal.full_hand"] == [2]
    assert state.players[0].hand == []
    assert [len(state.players[s].hand) for s in (1, 3, 4, 5)] == [1, 1, 1, 0]
    assert len(state.players[2].hand) == 7
    taken = Counter(hand(state, 1) + hand(state, 3) + hand(state, 4))
    assert taken == Counter(["lord.red", "lord.blue", "ball"])
    # the initiator starts again: the action left over burns, three new ones
    assert state.current == 0
    assert state.actions_left == 3 and state.actions_taken == 0
    assert not violations(state)


def test_ruling_an_empty_hand_gives_nothing_but_the_smuta_counts_as_played() -> None:
    """Что происходит, если у инициатора нет карт на руке?"""
    state = setup(
        players=[{}, {}, {}],
        deck=["betrayal", "page.red", "page.blue"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert takers(events) == []
    assert [p.hand for p in state.players[1:]] == [[], []]
    assert [e.params["smuta"] for e in events if e.key == "smuta.end"] == ["betrayal"]
    assert [kind(state, c) for c in state.smuta_discard] == ["betrayal"]
    # the turn still starts again
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3


def test_ruling_the_turn_starts_again_with_one_to_three_actions() -> None:
    """Что означает «ваш ход начинается заново»?"""
    state = setup(
        players=[{"hand": ["lord.red", "page.green"]}, {}],
        deck=["betrayal", "page.blue", "page.orange", "knight.green", "knight.orange"],
        orders=["marriage"],
        actions_left=1,
        actions_taken=2,
    )
    turn_before = state.turn
    events = play(state, "draw")
    assert [e.key for e in events if e.key.startswith("turn.")] == ["turn.restart", "turn.start"]
    start = next(e for e in events if e.key == "turn.start")
    assert start.params["seat"] == 0 and start.params["actions"] == 3
    assert state.turn == turn_before + 1
    assert state.current == 0
    assert state.actions_left == 3 and state.actions_taken == 0
    # a new turn: at least one action before it may end...
    assert ("end",) not in decision(state).options
    # ...and exactly three more actions, then the turn passes
    for _ in range(3):
        assert state.current == 0
        play(state, "draw")
    assert state.current == 1


def test_ruling_in_the_new_turn_orders_and_draws_are_allowed_at_once() -> None:
    """Можно ли во время нового хода сразу играть приказы или добирать карты?"""
    state = setup(
        players=[{"hand": ["infirmary", "infirmary", "infirmary"]}, {}],
        deck=["betrayal", "page.blue", "page.green"],
        orders=["ball", "marriage"],
        graveyard=["knight.red"],
    )
    play(state, "draw")
    # seat 1 took one of the three Лазареты; the other two remain
    assert hand(state, 0) == ["infirmary", "infirmary"]
    options = decision(state).options
    assert ("draw",) in options and ("order",) in options
    assert [o for o in options if o[0] == "play"]
    play(state, "play", "infirmary")
    assert [(h.colour, [kind(state, c) for c in h.cards]) for h in state.players[0].houses] == [
        ("red", ["knight.red"])
    ]
    play(state, "order")
    assert hand(state, 0) == ["ball", "infirmary"]
    play(state, "draw")
    assert state.current == 1


def test_ruling_a_permanent_castle_of_power_adds_nothing() -> None:
    """Влияет ли на инициатора смуты наличие Красного Замка Власти с постоянным свойством?"""
    state = setup(
        players=[{"hand": ["lord.blue"], "houses": [POWER]}, {}],
        deck=["betrayal", "page.blue", "page.green", "page.orange", "knight.green"],
        orders=["marriage"],
        actions_left=1,
        actions_taken=2,
    )
    events = play(state, "draw")
    # one new turn, not two, and no more than three actions
    assert keys(events).count("turn.restart") == 1
    assert state.current == 0 and state.actions_left == 3
    for _ in range(3):
        assert state.current == 0
        play(state, "draw")
    assert state.current == 1


def test_a_full_hand_skips_and_the_next_opponent_takes() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {"hand": SEVEN}, {}],
        deck=["betrayal", "page.blue"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    assert takers(events) == [2]
    assert hand(state, 2) == ["lord.red"]
    assert len(state.players[1].hand) == 7


def test_once_the_hand_is_empty_the_rest_take_nothing() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {}, {}, {}],
        deck=["betrayal", "page.blue"],
        orders=["marriage"],
        current=0,
    )
    events = play(state, "draw")
    assert takers(events) == [1]
    assert hand(state, 1) == ["lord.red"]
    assert hand(state, 2) == [] and hand(state, 3) == []


def test_the_initiator_is_skipped_and_each_opponent_takes_once() -> None:
    state = setup(
        players=[{}, {}, {"hand": SEVEN[:5]}, {}],
        deck=["betrayal", "page.red"],
        orders=["marriage"],
        current=2,
    )
    events = play(state, "draw")
    # from the left of seat 2: seats 3, 0, 1 — one card each, one round only
    assert takers(events) == [3, 0, 1]
    assert len(state.players[2].hand) == 2
    assert state.current == 2 and state.actions_left == 3


def test_two_players() -> None:
    state = setup(
        players=[{"hand": ["lord.red", "page.blue"]}, {"hand": ["ball"]}],
        deck=["betrayal", "page.green"],
        orders=["marriage"],
        current=1,
    )
    # seat 1 is the initiator; its only opponent (seat 0) takes one card
    play(state, "draw")
    assert len(state.players[0].hand) == 3
    assert state.players[1].hand == []
    assert hand(state, 0) == ["ball", "lord.red", "page.blue"]
    assert state.current == 1 and state.actions_left == 3


def test_the_card_taken_is_random() -> None:
    seen = set()
    for seed in range(20):
        state = setup(
            players=[{"hand": ["lord.red", "page.blue", "ball", "knight.green"]}, {}],
            deck=["betrayal", "page.green"],
            orders=["marriage"],
            seed=seed,
        )
        play(state, "draw")
        [taken] = hand(state, 1)
        seen.add(taken)
    assert len(seen) >= 3


def test_only_the_two_players_see_which_card_moved() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {}, {}],
        deck=["betrayal", "page.green"],
        orders=["marriage"],
    )
    events = play(state, "draw")
    public = [e for e in events if e.key == "betrayal.took"]
    private = [e for e in events if e.key == "betrayal.took.private"]
    assert [(e.to, e.params) for e in public] == [(None, {"seat": 1, "source": 0})]
    assert len(private) == 1
    assert private[0].to == (1, 0)
    assert kind(state, private[0].params["card"]) == "lord.red"


def test_a_permanent_castle_of_trade_gives_the_restarted_turn_four_actions() -> None:
    trade = {
        "colour": "orange",
        "cards": ["lord.orange", "page.orange", "knight.orange"],
        "castle": "permanent",
    }
    state = setup(
        players=[{"houses": [trade]}, {}],
        deck=["betrayal", "page.red", "page.blue", "page.green", "knight.red", "knight.blue"],
        orders=["marriage"],
        actions_left=4,
    )
    play(state, "draw")
    assert state.current == 0 and state.actions_left == 4 and state.actions_taken == 0
    for _ in range(4):
        assert state.current == 0
        play(state, "draw")
    assert state.current == 1
