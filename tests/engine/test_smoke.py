"""The turn skeleton: a position builds, the first decision is the current player's action."""

from tests.engine.helpers import decision, hand, houses, play, setup


def test_laying_a_card_creates_a_house_and_uses_an_action() -> None:
    state = setup(players=[{"hand": ["lord.red", "page.blue"]}, {}], deck=["page.green"])
    play(state, "lay", "lord.red")
    assert houses(state, 0) == [("red", ["lord.red"], None)]
    assert hand(state, 0) == ["page.blue"]
    assert state.actions_left == 2


def test_a_turn_must_have_at_least_one_action() -> None:
    state = setup(players=[{"hand": ["lord.red"]}, {}])
    assert ("end",) not in decision(state).options
    play(state, "discard", "lord.red")
    # nothing is left to do, so the turn passes on by itself
    assert state.current == 1
