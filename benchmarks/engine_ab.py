"""Two engine trees, one against the other, on a machine others are using too.

    python -m benchmarks.engine_ab OLD_TREE NEW_TREE [--games 100] [--rounds 2] [--reps 3]

Each tree is a directory holding an `engine/` package (e.g. `git archive <commit>
engine | tar -x -C /tmp/old`). A complete random 4-player game through the
public API (`new_game`, `pending`, `apply`, `engine.ai.easy.choose`) is played
for each of `--games` seeds, `--reps` times in a row in a fresh process pinned
to one core, and the fastest time of each seed is kept over all rounds; the two
trees take turns, round by round. Other work on the machine only ever slows a
run down, so the fastest of several runs is the figure least touched by it.
Prints one JSON line: each tree's mean and median of those fastest times (ms)
and the ratio of the means.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Sequence

GAME = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from engine import GameSetup, new_game, pending, apply
from engine.ai.easy import choose

def game(seed):
    start = time.perf_counter()
    state, _ = new_game(GameSetup(players=4, seed=seed))
    while (d := pending(state)) is not None:
        apply(state, d.seat, d.id, choose(state.seed, d))
    return (time.perf_counter() - start) * 1000

games, reps = int(sys.argv[2]), int(sys.argv[3])
game(10_000)  # imports and caches warm
print(json.dumps([min(game(1 + i) for _ in range(reps)) for i in range(games)]))
"""


def fastest(tree: str, games: int, reps: int, core: str) -> list[float]:
    out = subprocess.run(
        ["taskset", "-c", core, sys.executable, "-c", GAME, tree, str(games), str(reps)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    times: list[float] = json.loads(out)
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine_ab", description=__doc__)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--core", default="0")
    args = parser.parse_args(argv)
    best: dict[str, list[float]] = {args.old: [], args.new: []}
    for _ in range(args.rounds):
        for tree in (args.old, args.new):
            times = fastest(tree, args.games, args.reps, args.core)
            kept = best[tree]
            best[tree] = [min(a, b) for a, b in zip(kept, times, strict=True)] if kept else times
    figures = {
        f"{name}_ms": {
            "mean": round(statistics.mean(best[tree]), 2),
            "median": round(statistics.median(best[tree]), 2),
        }
        for name, tree in (("old", args.old), ("new", args.new))
    }
    ratio = statistics.mean(best[args.old]) / statistics.mean(best[args.new])
    print(json.dumps({**vars(args), **figures, "old_over_new": round(ratio, 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
