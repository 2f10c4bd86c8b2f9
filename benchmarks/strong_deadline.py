"""How long a strong decision takes with the bot's deadline, on a quiet or a busy machine.

    python -m benchmarks.strong_deadline --games 6 [--burners 2] [--seconds 0.5] [--seed 1]

Game i seats strong at seat i mod 4 and normal at the others. Strong answers as
the bot's computer seats do (`bot.service.thinking.think`: a deadline
`--seconds` after its search starts, `engine.ai.STRONG_SECONDS` by default); each
real decision's **wall-clock** time is taken (what a person at the table waits,
whatever else the machine does). `--burners N` starts N processes that only spin
(a busy machine: N = 2 keeps both cores of this one busy besides the game) and
stops them at the end. Prints one JSON line: the decisions' mean, median, p99 and
max in ms, the share over 1 s, and the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections.abc import Sequence

from bot.service.thinking import think
from engine import GameSetup, apply, new_game, pending
from engine.ai import STRONG_SECONDS, decide


def _spin(stop_at: float) -> None:
    while time.monotonic() < stop_at:
        pass


def measure(games: int, seed: int, seconds: float) -> list[float]:
    times: list[float] = []
    for i in range(games):
        seat = i % 4
        state, _ = new_game(GameSetup(players=4, seed=seed + i))
        while (d := pending(state)) is not None:
            if d.seat == seat:
                start = time.perf_counter()
                option = think(state, d, "strong", seconds)
                if len(d.options) > 1:
                    times.append((time.perf_counter() - start) * 1000)
            else:
                option = decide(state, d, "normal")
            apply(state, d.seat, d.id, option)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strong_deadline")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=STRONG_SECONDS)
    parser.add_argument("--burners", type=int, default=0)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    burners = [
        multiprocessing.Process(target=_spin, args=(time.monotonic() + 3600,), daemon=True)
        for _ in range(args.burners)
    ]
    for b in burners:
        b.start()
    try:
        times = measure(args.games, args.seed, args.seconds)
        load_after = os.getloadavg()
    finally:
        for b in burners:
            b.terminate()
            b.join()
    ordered = sorted(times)
    print(
        json.dumps(
            {
                "games": args.games,
                "seed": args.seed,
                "seconds": args.seconds,
                "burners": args.burners,
                "decisions": len(times),
                "mean_ms": round(sum(times) / len(times), 1),
                "p50_ms": round(ordered[len(ordered) // 2], 1),
                "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))], 1),
                "max_ms": round(ordered[-1], 1),
                "over_1s": sum(t > 1000 for t in times),
                "load_before": [round(x, 2) for x in load_before],
                "load_after": [round(x, 2) for x in load_after],
                "nice": os.nice(0),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
