"""Engine speed figures for BENCHMARKS.md (one process, one core).

    python benchmarks/engine_speed.py [--games 200] [--seed 1]

Prints one JSON line:
- `game_ms_median` / `game_ms_p90`: a complete 4-player game, computer seats;
- `roundtrip_ms_median` / `roundtrip_ms_p99`: load a mid-game 6-player state from
  JSON, apply one answer, save it to JSON;
- `max_state_bytes_6p`: the largest saved state at any decision of 6-player games;
- `game_cpu_ms_median`: the same games' CPU time (`time.process_time`), steadier
  than the wall clock on a machine shared with other work;
- `decisions_per_sec`: decisions answered per second of those games;
- `legal_actions_per_decision`: how often a turn's legal actions are worked out
  per decision (2.9 before the pending question was kept);
- `playout_ms_median`: a complete 4-player game by the trusted quiet `step`
  (what look-ahead uses: no checks, no events);
- `copy_us` / `model_copy_deep_us` / `redeal_us`: a fast deep copy of a mid-game
  4-player state (`engine.hidden.copy_state`), pydantic's deep copy of it, and a
  copy with everything one seat cannot see re-dealt (`engine.hidden.redeal`).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import timeit

from engine import GameSetup, GameState, apply, new_game, pending, turn
from engine.ai.easy import choose
from engine.api import step
from engine.hidden import copy_state, redeal


def play_to_end(state: GameState) -> None:
    while (d := pending(state)) is not None:
        apply(state, d.seat, d.id, choose(state.seed, d))


def game_times(games: int, seed: int) -> tuple[list[float], list[float], int]:
    """Wall and CPU ms of each complete game through the public API, and decisions."""
    times = []
    cpu = []
    decisions = 0
    for i in range(games):
        start, start_cpu = time.perf_counter(), time.process_time()
        state, _ = new_game(GameSetup(players=4, seed=seed + i))
        play_to_end(state)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        decisions += state.decision
    return times, cpu, decisions


def legal_actions_per_decision(games: int, seed: int) -> float:
    calls = 0
    original = turn.legal_actions

    def counted(*args: object) -> object:
        nonlocal calls
        calls += 1
        return original(*args)  # type: ignore[arg-type]

    turn.legal_actions = counted  # type: ignore[assignment]
    try:
        decisions = 0
        for i in range(games):
            state, _ = new_game(GameSetup(players=4, seed=seed + i))
            play_to_end(state)
            decisions += state.decision
    finally:
        turn.legal_actions = original
    return calls / decisions


def playout_times(games: int, seed: int) -> list[float]:
    times = []
    for i in range(games):
        start = time.process_time()
        state, _ = new_game(GameSetup(players=4, seed=seed + i))
        while (d := pending(state)) is not None:
            step(state, choose(state.seed, d))
        times.append((time.process_time() - start) * 1000)
    return times


def copy_figures(seed: int) -> dict[str, float]:
    """Microseconds to copy / deep-copy / re-deal mid-game 4-player states."""
    states = []
    for i in range(20):
        state, _ = new_game(GameSetup(players=4, seed=seed + i))
        n = 0
        while (d := pending(state)) is not None:
            if n % 40 == 20:
                states.append(copy_state(state))
            apply(state, d.seat, d.id, choose(state.seed, d))
            n += 1

    def best(fn: object, number: int) -> float:
        runs = timeit.repeat(fn, number=number, repeat=5)  # type: ignore[arg-type]
        return round(min(runs) / (number * len(states)) * 1e6, 1)

    seats = [pending(s) for s in states]
    return {
        "states": len(states),
        "copy_us": best(lambda: [copy_state(s) for s in states], 20),
        "model_copy_deep_us": best(lambda: [s.model_copy(deep=True) for s in states], 2),
        "redeal_us": best(
            lambda: [redeal(s, d.seat if d else 0, 7) for s, d in zip(states, seats, strict=True)],
            10,
        ),
    }


def mid_game_states(games: int, seed: int) -> tuple[list[str], int]:
    """Saved 6-player states from the middle of games, and the largest state seen."""
    saved: list[str] = []
    biggest = 0
    for i in range(games):
        state, _ = new_game(GameSetup(players=6, seed=seed + i))
        texts = []
        while (d := pending(state)) is not None:
            text = state.to_json()
            biggest = max(biggest, len(text.encode()))
            texts.append(text)
            apply(state, d.seat, d.id, choose(state.seed, d))
        saved.extend(texts[len(texts) // 3 : 2 * len(texts) // 3 : 7])
    return saved, biggest


def roundtrip_times(saved: list[str]) -> list[float]:
    times = []
    for text in saved:
        start = time.perf_counter()
        state = GameState.from_json(text)
        d = pending(state)
        assert d is not None
        apply(state, d.seat, d.id, choose(state.seed, d))
        state.to_json()
        times.append((time.perf_counter() - start) * 1000)
    return times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games, cpu, decisions = game_times(args.games, args.seed)
    saved, biggest = mid_game_states(max(args.games // 4, 10), args.seed)
    trips = roundtrip_times(saved)
    playouts = playout_times(args.games, args.seed)
    print(
        json.dumps(
            {
                "games": args.games,
                "game_ms_median": round(statistics.median(games), 2),
                "game_ms_p90": round(percentile(games, 0.9), 2),
                "game_cpu_ms_median": round(statistics.median(cpu), 2),
                "games_per_sec": round(1000 / statistics.mean(games), 1),
                "decisions_per_sec": round(decisions / (sum(games) / 1000)),
                "legal_actions_per_decision": round(
                    legal_actions_per_decision(max(args.games // 10, 5), args.seed), 2
                ),
                "playout_ms_median": round(statistics.median(playouts), 2),
                **copy_figures(args.seed),
                "roundtrips": len(trips),
                "roundtrip_ms_median": round(statistics.median(trips), 3),
                "roundtrip_ms_p99": round(percentile(trips, 0.99), 3),
                "max_state_bytes_6p": biggest,
            }
        )
    )


if __name__ == "__main__":
    main()
