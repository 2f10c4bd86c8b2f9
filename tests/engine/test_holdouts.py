"""The arena's hold-out opponents (benchmarks/holdouts): every kind of decision
answered legally, and honest — the same answer in games their seat cannot tell
apart (the pairs of tests/engine/test_honesty.py); and the arena's log and pause,
which let a long run on a shared machine stop, wait and resume."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from benchmarks.arena import arena, read_log, wait_while
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


def test_an_arena_stopped_and_run_again_with_its_log_gives_the_line_of_one_run(
    tmp_path: Path,
) -> None:
    log = tmp_path / "games.jsonl"
    whole = arena("normal", "rulebook", 4, 4, 5)
    arena("normal", "rulebook", 2, 4, 5, log=str(log))
    with log.open("a", encoding="utf-8") as f:
        f.write('{"i": 2, "share"')  # a record cut off by a kill
    resumed = arena("normal", "rulebook", 4, 4, 5, log=str(log))
    assert len(read_log(str(log))) == 4
    for name in ("games", "wins", "mean_points", "habits_per_game"):
        assert resumed[name] == whole[name], name
    # another line in the same log is kept apart
    assert arena("normal", "rulebook", 1, 4, 6, log=str(log))["games"] == 1


def test_an_arena_waits_while_its_pause_file_exists(tmp_path: Path) -> None:
    pause = tmp_path / "QUIET"
    pause.touch()
    waited: list[float] = []

    def later() -> None:
        time.sleep(0.3)
        pause.unlink()

    t = threading.Thread(target=later)
    t.start()
    waited.append(wait_while(str(pause), poll=0.05))
    t.join()
    assert waited[0] >= 0.25
    assert wait_while(str(pause), poll=0.05) == 0.0
