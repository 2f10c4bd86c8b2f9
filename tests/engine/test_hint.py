"""Hints (engine.ai.hint): the normal level's choice, a reason from its own count,
nothing the seat cannot see."""

from __future__ import annotations

from engine.ai import decide
from engine.ai.hint import REASONS, hint
from tests.engine.helpers import decision, named, setup
from tests.engine.test_ai import decisions
from tests.engine.test_honesty import pairs


def test_a_hint_is_what_the_normal_level_would_choose_with_a_known_reason() -> None:
    reasons = set()
    for state, d in decisions()[::2]:
        h = hint(state, d)
        assert h.option == decide(state, d, "normal")
        assert h.reason in REASONS and set(h.params) == set(REASONS[h.reason])
        assert all(isinstance(v, int) for v in h.params.values())
        reasons.add(h.reason)
    assert len(reasons) >= 4  # the reasons tell different things apart


def test_a_hint_is_the_same_in_games_the_seat_cannot_tell_apart() -> None:
    for p in pairs()[::5]:
        assert hint(p.a, p.decision) == hint(p.b, p.decision)


def test_building_a_castle_is_explained_by_the_castle() -> None:
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


def test_laying_points_is_explained_by_the_points() -> None:
    # the game deck is empty and seat 1 still has its last turn: lay or throw away
    state = setup(
        players=[
            {"hand": ["knight.red"]},
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        final_turns=1,
    )
    h = hint(state, decision(state))
    assert named(state, h.option)[:2] == ("lay", "knight.red")
    assert h.reason == "points" and h.params == {"points": 2}
