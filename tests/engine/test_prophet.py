"""🔮 Пророк (smuty.ru.txt; RULES.md §1 «Пророк stack», Шут; §6), and Шут's replay
of a смута from the смута discard, which never reaches the Пророк stack.

The initiator chooses a смута from the смута discard, resolves it fully as its
initiator, then it is laid on the Пророк; the two stay on the table out of
Шут's reach. With an empty discard, Пророк has no effect.
"""

from engine import Event, GameState
from engine.invariants import violations
from tests.engine.helpers import decision, draw_smuta, hand, houses, keys, kind, kinds, play, setup

POWER_ONE_TIME = {
    "colour": "red",
    "cards": ["lord.red", "page.red", "knight.red"],
    "castle": "one_time",
}


def started(events: list[Event]) -> list[tuple[str, int, str]]:
    return [
        (e.params["smuta"], e.params["initiator"], e.params["mode"])
        for e in events
        if e.key == "smuta.start"
    ]


def test_ruling_prophet_chooses_only_from_the_discard_and_an_empty_discard_does_nothing() -> None:
    """Можно ли выбрать любую смуту из оставшейся колоды смут?"""
    state = setup(
        players=[{"hand": ["lord.red"]}, {}],
        deck=["prophet", "grail", "feast", "page.red"],
        orders=["ball", "marriage"],
        smuta_discard=[],
    )
    events = play(state, "draw")
    # no смута has been played yet: Пророк has no effect, the смуты in the deck stay there
    assert started(events) == [("prophet", 0, "drawn")]
    assert "prophet.nothing" in keys(events)
    assert kinds(state, state.deck) == ["grail", "feast", "page.red"]
    assert hand(state, 0) == ["lord.red"]
    assert kinds(state, state.prophet_stack) == ["prophet"]
    assert state.smuta_discard == []
    # the turn is over
    assert state.current == 1
    assert not violations(state)


def test_ruling_prophet_offers_exactly_the_smuty_of_the_discard() -> None:
    """Можно ли выбрать любую смуту из оставшейся колоды смут?"""
    state = setup(
        players=[{"hand": ["lord.red"]}, {}],
        deck=["prophet", "betrayal", "page.red"],
        orders=["ball"],
        smuta_discard=["grail", "feast", "pestilence"],
    )
    play(state, "draw")
    d = decision(state)
    assert d.seat == 0 and d.kind == "prophet.smuta"
    # the choice is compulsory: no «skip»; Предательство in the deck is not offered
    assert sorted(kind(state, o[0]) for o in d.options) == ["feast", "grail", "pestilence"]


def test_ruling_the_replayed_smuta_lies_on_the_prophet_out_of_the_jesters_reach() -> None:
    """Зачем класть выбранную смуту поверх карты «Пророк»?"""
    state = setup(
        players=[{"hand": ["page.red"]}, {"hand": ["jester.red", "lord.blue"]}],
        deck=["prophet", "lord.red", "lord.green"],
        orders=["ball", "marriage", "infirmary", "ball"],
        smuta_discard=["grail", "feast"],
    )
    play(state, "draw")
    events = play(state, "grail")
    assert started(events) == [("grail", 0, "prophet")]
    assert hand(state, 0) == ["ball", "infirmary", "page.red"]
    assert hand(state, 1) == ["ball", "jester.red", "lord.blue", "marriage"]
    # Святой Грааль lies on the Пророк (top first), not in the смута discard
    assert kinds(state, state.prophet_stack) == ["grail", "prophet"]
    assert kinds(state, state.smuta_discard) == ["feast"]
    assert state.current == 1
    # Шут may replay only what is in the discard: Великий Пир, never the Грааль
    play(state, "lay", "jester.red")
    d = decision(state)
    assert d.seat == 1 and d.kind == "jester.smuta"
    assert [o if o == ("skip",) else kind(state, o[0]) for o in d.options] == ["feast", ("skip",)]
    assert not violations(state)


def test_ruling_prophet_cannot_choose_itself() -> None:
    """Можно ли с помощью Пророка выбрать снова саму карту Пророк?"""
    state = draw_prophet_over_grail_and_feast()
    d = decision(state)
    offered = [kind(state, o[0]) for o in d.options]
    assert "prophet" not in offered
    assert sorted(offered) == ["feast", "grail"]
    play(state, "feast")
    # the Пророк never enters the смута discard, so no later Пророк or Шут can pick it
    assert "prophet" not in kinds(state, state.smuta_discard)
    assert kinds(state, state.prophet_stack) == ["feast", "prophet"]


def test_example_prophet_replays_poison_with_the_drawer_as_initiator() -> None:
    """Пример: игрок тянет «Пророк» и выбирает «Отраву» из сброса; эффект «Отравы»
    разыгрывается как обычно."""
    state = setup(
        players=[
            {"hand": ["page.green", "lord.red"]},
            {"houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        ],
        deck=["prophet", "page.red"],
        orders=["ball"],
        smuta_discard=["poison", "drought", "inquisition"],
        current=0,
    )
    play(state, "draw")
    events = play(state, "poison")
    assert started(events)[-1] == ("poison", 0, "prophet")
    # Отрава goes round from the initiator: seat 0 is asked first
    assert decision(state).seat == 0


def test_a_single_smuta_in_the_discard_is_chosen_without_a_question() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {}],
        deck=["prophet", "page.red"],
        orders=["ball", "marriage"],
        smuta_discard=["grail"],
    )
    events = play(state, "draw")
    assert started(events) == [("prophet", 0, "drawn"), ("grail", 0, "prophet")]
    assert hand(state, 0) == ["ball", "lord.red"]
    assert hand(state, 1) == ["marriage"]
    assert kinds(state, state.prophet_stack) == ["grail", "prophet"]
    assert state.smuta_discard == []
    assert state.current == 1


def test_a_replayed_feast_starts_with_the_prophets_drawer_and_ends_the_turn() -> None:
    state = setup(
        players=[{"hand": ["lord.red"]}, {}, {}],
        deck=["prophet", "page.red", "page.blue", "page.green", "fire"],
        orders=["ball"],
        smuta_discard=["feast", "grail"],
        current=1,
    )
    play(state, "draw")
    events = play(state, "feast")
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [1, 2, 0]
    assert hand(state, 1) == ["page.red"]
    assert state.deck_top_open and kind(state, state.deck[0]) == "fire"
    assert state.current == 2 and state.actions_taken == 0


def test_a_full_hand_draws_a_face_up_prophet_and_is_skipped_by_the_replayed_feast() -> None:
    seven = ["page.red", "page.blue", "page.green", "page.orange", "healer.red", "ball", "ball"]
    state = setup(
        players=[{"hand": seven}, {}, {}],
        deck=["prophet", "lord.red", "lord.blue", "lord.green"],
        deck_top_open=True,
        orders=["marriage"],
        smuta_discard=["feast"],
    )
    events = play(state, "draw")
    assert started(events) == [("prophet", 0, "drawn"), ("feast", 0, "prophet")]
    assert [e.params["seat"] for e in events if e.key == "feast.took"] == [1, 2, 1]
    assert len(state.players[0].hand) == 7
    assert kinds(state, state.prophet_stack) == ["feast", "prophet"]
    assert state.current == 1


def test_a_replayed_betrayal_restarts_the_turn() -> None:
    state = setup(
        players=[{"hand": ["lord.red", "page.blue"]}, {}, {}],
        deck=["prophet", "page.red", "page.green"],
        orders=["ball"],
        smuta_discard=["betrayal", "grail"],
        actions_left=1,
        actions_taken=2,
    )
    play(state, "draw")
    events = play(state, "betrayal")
    assert [e.params["seat"] for e in events if e.key == "betrayal.took"] == [1, 2]
    assert state.players[0].hand == []
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3 and state.actions_taken == 0
    assert kinds(state, state.prophet_stack) == ["betrayal", "prophet"]


def test_a_replayed_reformation_that_turns_up_a_permanent_castle_of_power_restarts_the_turn() -> (
    None
):
    state = setup(
        players=[{"hand": ["lord.blue"], "houses": [POWER_ONE_TIME]}, {}],
        deck=["prophet", "page.blue"],
        orders=["ball"],
        smuta_discard=["reformation", "grail"],
    )
    play(state, "draw")
    events = play(state, "reformation")
    assert houses(state, 0)[0][2] == "permanent"
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3


def test_a_permanent_castle_of_power_restarts_the_turn_after_prophet() -> None:
    power = {**POWER_ONE_TIME, "castle": "permanent"}
    state = setup(
        players=[{"hand": ["lord.blue"], "houses": [power]}, {}],
        deck=["prophet", "page.blue"],
        orders=["ball", "marriage"],
        smuta_discard=[],
    )
    events = play(state, "draw")
    assert "prophet.nothing" in keys(events)
    assert keys(events).count("turn.restart") == 1
    assert state.current == 0 and state.actions_left == 3


def test_the_choice_is_public() -> None:
    state = draw_prophet_over_grail_and_feast()
    events = play(state, "grail")
    chose = [e for e in events if e.key == "prophet.chose"]
    assert [(e.to, e.params) for e in chose] == [(None, {"seat": 0, "smuta": "grail"})]


def test_six_players_a_replayed_grail_goes_round_from_the_drawer() -> None:
    state = setup(
        players=[{}, {}, {}, {"hand": ["lord.red"]}, {}, {}],
        deck=["prophet", "page.red"],
        orders=["ball", "marriage", "infirmary", "merchant.red", "merchant.blue", "merchant.green"],
        smuta_discard=["grail"],
        current=3,
    )
    events = play(state, "draw")
    assert [e.params["seat"] for e in events if e.key == "order.drawn"] == [3, 4, 5, 0, 1, 2]
    assert state.current == 4


def draw_prophet_over_grail_and_feast() -> GameState:
    """Seat 0 draws Пророк with Святой Грааль over Великий Пир in the смута discard."""
    state, _ = draw_smuta(
        "prophet",
        players=[{"hand": ["lord.red"]}, {}],
        deck=["prophet", "page.red"],
        orders=["ball", "marriage"],
        smuta_discard=["grail", "feast"],
    )
    return state


# ---------------------------------------------------------------- Шут and the Пророк stack
def test_jester_cannot_reach_the_prophet_stack_when_the_discard_is_empty() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "lord.blue"]}, {}],
        deck=["page.red"],
        orders=["ball"],
        smuta_discard=[],
        prophet_stack=["grail", "prophet"],
    )
    d_before = state.decision
    events = play(state, "lay", "jester.red")
    # nothing to replay: no question, no смута, the turn goes on
    assert "jester.replays" not in keys(events) and "smuta.start" not in keys(events)
    assert state.decision == d_before + 1
    assert decision(state).kind == "action" and state.current == 0 and state.actions_left == 2
    assert kinds(state, state.prophet_stack) == ["grail", "prophet"]


def test_jester_replays_a_smuta_from_the_discard_and_it_goes_back_there() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "lord.blue"]}, {}],
        deck=["page.red"],
        orders=["ball", "marriage", "infirmary"],
        smuta_discard=["grail", "feast"],
        prophet_stack=["poison", "prophet"],
    )
    play(state, "lay", "jester.red")
    offered = decision(state).options
    assert sorted(o[0] if o == ("skip",) else kind(state, o[0]) for o in offered) == [
        "feast",
        "grail",
        "skip",
    ]
    events = play(state, "grail")
    assert started(events) == [("grail", 0, "jester")]
    assert hand(state, 0) == ["ball", "infirmary", "lord.blue"]
    assert kinds(state, state.smuta_discard) == ["grail", "feast"]
    assert kinds(state, state.prophet_stack) == ["poison", "prophet"]
    # like a drawn смута, it ends the turn
    assert state.current == 1


def test_jester_may_decline() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "lord.blue"]}, {}],
        deck=["page.red"],
        orders=["ball"],
        smuta_discard=["grail"],
    )
    play(state, "lay", "jester.red")
    events = play(state, "skip")
    assert "smuta.start" not in keys(events)
    assert state.current == 0 and state.actions_left == 2


def test_jester_replaying_betrayal_restarts_the_turn() -> None:
    state = setup(
        players=[{"hand": ["jester.red", "lord.blue"]}, {}],
        deck=["page.red"],
        orders=["ball"],
        smuta_discard=["betrayal", "grail"],
    )
    play(state, "lay", "jester.red")
    events = play(state, "betrayal")
    assert hand(state, 1) == ["lord.blue"]
    assert "turn.restart" in keys(events)
    assert state.current == 0 and state.actions_left == 3
    assert kinds(state, state.smuta_discard) == ["betrayal", "grail"]
