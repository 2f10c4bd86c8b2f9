"""People's deadlines behind the computers' searches (issue 17, item 7).

`python -m benchmarks.deadlines --searches 63 --workers 2`

A 4-player game is played at random to its end game (deck ≤ 15 cards, where
the strong level searches longest); `--searches` strong searches of that
position are handed to a real thinking pool of `--workers` processes, as
that many computer seats' timers would; then a person's deadline passes and
their move is thought — as before (in the pool, behind the searches: the
queue unbounded) and as now (in place, `urgent`; the queue bounded, the
searches beyond it played at normal in place). Prints, for each, how late
the person's move came (seconds after their deadline) and how long the
searches took to be handed over (what the in-place normal moves cost the
event loop), as one JSON line each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time

from bot.service.thinking import Thinker
from engine import Decision, GameSetup, GameState, apply, new_game, pending
from engine.ai import decide


def end_game(seed: int) -> tuple[GameState, Decision]:
    """A random game's first position with a deck of 15 cards or fewer and a
    choice of four options or more."""
    rng = random.Random(seed)
    state, _ = new_game(GameSetup(players=4, seed=seed))
    while True:
        decision = pending(state)
        assert decision is not None, "the game ended before its end game"
        if len(state.deck) <= 15 and len(decision.options) >= 4:
            return state, decision
        apply(state, decision.seat, decision.id, rng.choice(decision.options))


async def run(searches: int, workers: int, bounded: bool, seed: int) -> dict[str, object]:
    state, decision = end_game(seed)
    thinker = Thinker(workers, queue_limit=None if bounded else searches + 1)
    await thinker.decide(state, decision, "normal")  # the workers start (paid once)
    handed = time.perf_counter()
    queued = [
        asyncio.ensure_future(thinker.decide(state, decision, "strong")) for _ in range(searches)
    ]
    await asyncio.sleep(0)  # every search is handed over (or played in place)
    handed = time.perf_counter() - handed
    in_pool = thinker.queued
    deadline = time.perf_counter()  # a person's deadline passes now
    await thinker.decide(state, decision, "normal", urgent=bounded)
    late = time.perf_counter() - deadline
    started = time.perf_counter()
    await asyncio.gather(*queued)
    drained = time.perf_counter() - started
    thinker.close()
    return {
        "bounded": bounded,
        "searches": searches,
        "workers": workers,
        "in_pool": in_pool,
        "person_late_s": round(late, 3),
        "handing_over_s": round(handed, 3),
        "searches_done_s": round(drained + late, 2),
        "normal_in_place_ms": round(_normal_ms(state, decision), 2),
    }


def _normal_ms(state: GameState, decision: Decision, times: int = 20) -> float:
    started = time.perf_counter()
    for _ in range(times):
        decide(state, decision, "normal")
    return (time.perf_counter() - started) * 1000 / times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=63)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for bounded in (False, True):
        print(json.dumps(asyncio.run(run(args.searches, args.workers, bounded, args.seed))))


if __name__ == "__main__":
    main()
