"""The arena's hold-out opponents (benchmarks/holdouts): every kind of decision
answered legally, and honest — the same answer in games their seat cannot tell
apart (the pairs of tests/engine/test_honesty.py)."""

from __future__ import annotations

import pytest

from benchmarks.holdouts import HOLDOUTS
from tests.engine.decisions import _collect
from tests.engine.pairs import pairs


@pytest.mark.parametrize("name", sorted(HOLDOUTS))
def test_a_holdout_answers_every_kind_of_decision_with_a_legal_option(name: str) -> None:
    choose = HOLDOUTS[name]
    kinds = set()
    for state, decision in _collect(2):
        assert choose(state, decision) in decision.options
        kinds.add(decision.kind)
    assert len(kinds) >= 20


@pytest.mark.parametrize("name", sorted(HOLDOUTS))
def test_a_holdout_chooses_the_same_in_games_its_seat_cannot_tell_apart(name: str) -> None:
    choose = HOLDOUTS[name]
    for p in pairs()[::3]:
        assert choose(p.a, p.decision) == choose(p.b, p.decision), p.how
