"""Play many games with computer seats and print one JSON line of figures.

    python -m engine.simulate --players 4 --games 1000 --seed 1 [--check]

`--check` also verifies every invariant and the JSON round trip after every
answer (slow). `max_state_bytes` is the largest saved state seen at any
decision; the time spent measuring it is left out of the speed figures.
"""

from __future__ import annotations

import argparse
import json
import time
import traceback
from collections.abc import Sequence
from typing import Any

from engine.ai.easy import choose
from engine.api import GameSetup, apply, new_game, pending
from engine.invariants import violations
from engine.state import GameState


def play_one(setup: GameSetup, check: bool, sizes: bool) -> tuple[GameState, int, int, float]:
    """Play a game to the end: (state, decisions, max state bytes, seconds spent sizing)."""
    state, _ = new_game(setup)
    decisions = 0
    biggest = 0
    sizing = 0.0
    while (decision := pending(state)) is not None:
        if sizes:
            t = time.perf_counter()
            text = state.to_json()
            biggest = max(biggest, len(text.encode()))
            sizing += time.perf_counter() - t
        apply(state, decision.seat, decision.id, choose(state.seed, decision))
        decisions += 1
        if check:
            problems = violations(state)
            if problems:
                raise AssertionError("; ".join(problems))
            if GameState.from_json(state.to_json()) != state:
                raise AssertionError("JSON round trip differs")
    return state, decisions, biggest, sizing


def simulate(players: int, games: int, seed: int, check: bool = False) -> dict[str, Any]:
    errors = 0
    error_seeds: list[int] = []
    decisions = 0
    turns = 0
    biggest = 0
    sizing = 0.0
    wins = [0.0] * players
    points = [0] * players
    aborted = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        try:
            state, d, b, t = play_one(GameSetup(players=players, seed=game_seed), check, True)
        except Exception:
            errors += 1
            if len(error_seeds) < 10:
                error_seeds.append(game_seed)
                traceback.print_exc()
            continue
        decisions += d
        biggest = max(biggest, b)
        sizing += t
        turns += state.turn
        result = state.result
        assert result is not None
        aborted += result.aborted
        for w in result.winners:
            wins[w] += 1 / len(result.winners)
        for seat, score in enumerate(result.scores):
            points[seat] += score
    elapsed = max(time.perf_counter() - start - sizing, 1e-9)
    played = max(games - errors, 1)
    return {
        "games": games,
        "players": players,
        "errors": errors,
        "error_seeds": error_seeds,
        "aborted": aborted,
        "games_per_sec": round(games / elapsed, 2),
        "ms_per_game": round(1000 * elapsed / games, 3),
        "decisions_per_sec": round(decisions / elapsed, 1),
        "avg_turns": round(turns / played, 2),
        "avg_decisions": round(decisions / played, 2),
        "wins_by_seat": [round(w, 2) for w in wins],
        "mean_points": [round(p / played, 2) for p in points],
        "max_state_bytes": biggest,
        "checked": check,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.simulate", description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="check invariants after every answer")
    args = parser.parse_args(argv)
    print(json.dumps(simulate(args.players, args.games, args.seed, args.check)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
