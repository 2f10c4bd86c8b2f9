"""Hints (engine.ai.hint): the strong level's move within the caller's time (the
normal level's when it runs out), and a reason that is true in the position, with
true numbers, from what the seat sees."""

from __future__ import annotations

from engine import GameState
from engine.ai import decide
from engine.ai.hint import GENERIC, LATER, REASONS, Facts, concrete, hint
from engine.ai.search import search
from engine.cards import catalog_for
from engine.hidden import observe
from engine.scenario import resolve
from tests.engine.decisions import decisions
from tests.engine.helpers import decision, named, play, setup
from tests.engine.pairs import pairs


def never() -> bool:
    return False


def always() -> bool:
    return True


def reason_for(state: GameState, answer: list[str]) -> tuple[str, dict[str, int]] | None:
    """The concrete reason a hint would give for the pending decision's option `answer`."""
    d = decision(state)
    return concrete(Facts(observe(state, d.seat)), d, resolve(state, answer))


def test_a_hint_is_the_strong_levels_move_and_the_normal_levels_when_time_runs_out() -> None:
    reasons = set()
    for state, d in decisions()[::4]:
        h = hint(state, d)
        assert h.level == "strong" and h.option == decide(state, d, "strong")
        assert h.reason in REASONS and set(h.params) == set(REASONS[h.reason])
        assert all(isinstance(v, int) for v in h.params.values())
        reasons.add(h.reason)
        late = hint(state, d, always)
        assert late.option == decide(state, d, "normal")
        assert late.level == ("strong" if len(d.options) == 1 else "normal")
    assert len(reasons - GENERIC) >= 8  # the reasons tell different things apart


def test_the_search_says_whether_it_finished() -> None:
    # the end game: strong plays rollouts, which a stop cuts short
    state = setup(
        players=[
            {"hand": ["knight.red", "page.blue", "lord.green"], "houses": []},
            {"hand": ["page.green"], "houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        deck=["page.orange", "lord.orange", "knight.blue", "feast"],
    )
    d = decision(state)
    obs = observe(state, d.seat)
    option, finished = search(obs, d.kind, d.options, 5, stop=never)
    assert finished and option in d.options
    asked = 0

    def second_ask() -> bool:
        nonlocal asked
        asked += 1
        return asked > 1

    option, finished = search(obs, d.kind, d.options, 5, stop=second_ask)
    assert not finished and option in d.options


def test_a_hint_is_the_same_in_games_the_seat_cannot_tell_apart() -> None:
    for p in pairs()[::5]:
        assert hint(p.a, p.decision) == hint(p.b, p.decision)


def test_building_a_castle_is_explained_by_the_castles_points() -> None:
    state = setup(
        players=[
            {
                "hand": ["merchant.red", "page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}],
            },
            {"hand": ["ball"], "houses": [{"colour": "green", "cards": ["knight.green"]}]},
        ],
        deck=["page.green", "page.orange", "lord.blue"],
        orders=["marriage"],
    )
    h = hint(state, decision(state))
    assert h.option[0] == "build" and h.reason == "castle" and h.params == {"points": 3}


def test_a_card_laid_is_worth_its_own_points_not_a_margin() -> None:
    # the middle of the game: a Лорд brings 3 (and its house may get a castle), a Паж 1
    state = setup(
        players=[
            {"hand": ["lord.red", "page.blue", "knight.green"], "houses": []},
            {"hand": ["lord.blue"], "houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        deck=["page.orange", "lord.orange", "knight.orange", "feast"],
        orders=["marriage"],
    )
    assert reason_for(state, ["lay", "lord.red"]) == ("lay_lord", {"points": 3})
    assert reason_for(state, ["lay", "page.blue"]) == ("lay", {"points": 1})
    assert reason_for(state, ["lay", "knight.green"]) == ("lay", {"points": 2})
    # drawing brings no points: its reason counts the hand, truly
    assert reason_for(state, ["draw"]) == ("draw", {"n": 3})


def test_on_the_last_round_no_reason_speaks_of_later() -> None:
    # the game deck is empty and seat 1 still has its last turn: lay or throw away
    state = setup(
        players=[
            {"hand": ["knight.red", "lord.blue", "plague.green"]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        orders=["marriage"],
        final_turns=1,
    )
    d = decision(state)
    h = hint(state, d)
    assert named(state, h.option)[:2] in {("lay", "lord.blue"), ("lay", "knight.red")}
    assert h.reason == "lay" and h.params == {
        "points": 3 if "lord" in named(state, h.option)[1] else 2
    }
    assert reason_for(state, ["lay", "lord.blue"]) == ("lay", {"points": 3})  # no castle «later»
    facts = Facts(observe(state, d.seat))
    for option in d.options:
        found = concrete(facts, d, option)
        assert found is None or found[0] not in LATER


def test_ending_the_turn_is_explained_by_the_true_deck_and_its_smuty() -> None:
    state = setup(
        players=[
            {"hand": ["knight.red"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        deck=["fire", "page.orange", "pestilence", "lord.orange", "knight.blue"],
        smuta_discard=["poison"],
        actions_left=1,
        actions_taken=2,
    )
    assert reason_for(state, ["end"]) == ("end_risk", {"deck": 5, "smuty": 2})


def test_a_plague_carrier_planted_is_explained_only_while_pestilence_is_to_come() -> None:
    def position(**extra: object) -> GameState:
        return setup(
            players=[
                {"hand": ["plague.green", "page.red"], "houses": []},
                {"houses": [{"colour": "green", "cards": ["lord.green", "knight.green"]}]},
            ],
            **extra,
        )

    coming = position(deck=["pestilence", "page.orange", "knight.blue"])
    assert reason_for(coming, ["lay", "plague.green", "1"]) == ("plant_plague", {})
    out = position(deck=["page.orange", "knight.blue"], smuta_discard=["pestilence"])
    assert reason_for(out, ["lay", "plague.green", "1"]) == ("plant", {})


def test_a_card_taken_or_lost_is_worth_its_own_points() -> None:
    # Удачный Поход: take a card from an opponent's right house
    state = setup(
        players=[
            {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["page.blue"]}]},
            {
                "houses": [
                    {"colour": "green", "cards": ["page.green"]},
                    {"colour": "red", "cards": ["lord.red", "page.red"]},
                ]
            },
        ],
        deck=["campaign", "page.orange", "knight.orange"],
    )
    play(state, "draw")
    d = decision(state)
    assert d.kind == "campaign.take"
    facts = Facts(observe(state, d.seat))
    taken = {named(state, o)[1]: concrete(facts, d, o) for o in d.options}
    assert taken["lord.red"] == ("take", {"points": 3})
    assert taken["page.red"] == ("take", {"points": 1})


def test_reasons_never_contradict_the_move() -> None:
    # «cards in hand are moves later» is never the reason to give a card up, and no
    # reason about later is given once the game deck is empty
    for state, d in decisions()[::3]:
        h = hint(state, d)
        gives = d.kind == "action" and h.option[0] in ("lay", "discard", "play", "build")
        assert not (gives and h.reason == "hand"), (d.kind, h)
        if state.final_turns is not None:
            assert h.reason not in LATER, (d.kind, h)
        if h.reason in ("lay", "lay_lord", "lay_property", "lay_castle_ready"):
            assert h.option[0] == "lay"  # the laid card's own points
            assert h.params["points"] == catalog_for(state.rules)[h.option[1]].points > 0
