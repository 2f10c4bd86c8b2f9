"""Engine speed figures for BENCHMARKS.md (one process, one core).

    python benchmarks/engine_speed.py [--games 200] [--seed 1]

Prints one JSON line:
- `game_ms_median` / `game_ms_p90`: a complete 4-player game, computer seats;
- `roundtrip_ms_median` / `roundtrip_ms_p99`: load a mid-game 6-player state from
  JSON, apply one answer, save it to JSON;
- `max_state_bytes_6p`: the largest saved state at any decision of 6-player games.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine import GameSetup, GameState, apply, new_game, pending
from engine.policy import choose


def play_to_end(state: GameState) -> None:
    while (d := pending(state)) is not None:
        apply(state, d.seat, d.id, choose(state.seed, d))


def game_times(games: int, seed: int) -> list[float]:
    times = []
    for i in range(games):
        start = time.perf_counter()
        state, _ = new_game(GameSetup(players=4, seed=seed + i))
        play_to_end(state)
        times.append((time.perf_counter() - start) * 1000)
    return times


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
    games = game_times(args.games, args.seed)
    saved, biggest = mid_game_states(max(args.games // 4, 10), args.seed)
    trips = roundtrip_times(saved)
    print(
        json.dumps(
            {
                "games": args.games,
                "game_ms_median": round(statistics.median(games), 2),
                "game_ms_p90": round(percentile(games, 0.9), 2),
                "games_per_sec": round(1000 / statistics.mean(games), 1),
                "roundtrips": len(trips),
                "roundtrip_ms_median": round(statistics.median(trips), 3),
                "roundtrip_ms_p99": round(percentile(trips, 0.99), 3),
                "max_state_bytes_6p": biggest,
            }
        )
    )


if __name__ == "__main__":
    main()
