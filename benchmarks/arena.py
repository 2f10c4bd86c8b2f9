"""Computer players against each other: win share with a 95 % interval, time per decision.

    python -m benchmarks.arena --seat normal --vs easy --games 500 [--players 4] [--seed 1]

The players are the levels of `engine.ai` (easy, normal, strong) and `greedy`, a
one-ply greedy player written apart from them (`benchmarks.greedy`).

Game i seats the tested level at seat i mod players (so it sits everywhere in
turn) and the other level at every other seat; the first player is drawn by the
game as usual. A win shared by k players counts 1/k to each. The interval is
Wilson's score interval for the win share over the games played (a shared win
counts as its fraction). Times are per decision (only real decisions: the engine
answers a forced one itself), the CPU time of the deciding process
(`time.process_time`: one core's work, steadier than the wall clock on a shared
machine); `--workers N` plays games in N processes.

Long runs on a shared machine:

- `--log FILE` appends one JSON line per finished game (its index, the tested
  seat's share and score, habit counts, decision times) and flushes it, so a run
  stopped at any point still gives its figure: `--summarize FILE` prints the line
  over the games logged. Run again with the same `--log`, games already logged are
  not played again (a stopped run resumes);
- `--pause-while PATH` (default: the environment's `ARENA_PAUSE_FILE`): before each
  game a worker waits while PATH exists (another benchmark's quiet window).

Prints one JSON line per run, and a readable summary on stderr.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from typing import Any, cast

from benchmarks import greedy
from benchmarks.holdouts import HOLDOUTS
from engine import Decision, GameSetup, GameState, apply, new_game, pending
from engine.ai import LEVELS, Level, decide
from engine.cards import catalog_for
from engine.core import Option

PLAYERS = (*LEVELS, "greedy", *HOLDOUTS)


def answer(player: str, state: GameState, decision: Decision) -> Option:
    if player == "greedy":
        return greedy.choose(state, decision)
    holdout = HOLDOUTS.get(player)
    if holdout is not None:
        return holdout(state, decision)
    return decide(state, decision, cast(Level, player))


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % score interval for a proportion `share` observed over `n` trials."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denom
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def unlaid_end(state: GameState, decision: Decision, option: Option) -> bool:
    """Ending one's last turn (the game deck is empty: no turn of the seat's comes
    again) with a scoring house card that could still be laid into one's own row —
    laying it would have lost nothing, and it scores nothing in hand."""
    if option != ("end",) or decision.kind != "action" or state.final_turns is None:
        return False
    cards = catalog_for(state.rules).cards
    me = str(decision.seat)
    return any(o[0] == "lay" and o[2] == me and cards[o[1]].points > 0 for o in decision.options)


def lay_left(state: GameState, decision: Decision, option: Option) -> bool:
    """Ending a turn, any turn, with a scoring house card that could be laid into
    one's own row (mid-game this may be a plan: a card kept for a house to come)."""
    if option != ("end",) or decision.kind != "action":
        return False
    cards = catalog_for(state.rules).cards
    me = str(decision.seat)
    return any(o[0] == "lay" and o[2] == me and cards[o[1]].points > 0 for o in decision.options)


#: habits counted per seat: discards (any card thrown away by a turn action), last
#: turns ended with a scoring card layable (`unlaid_end`), and any turn so ended
#: (`lay_left`)
HABITS = ("discards", "unlaid_ends", "ends_with_lay")


def play_game(
    players: int, seed: int, levels: Sequence[str]
) -> tuple[list[float], list[int], dict[str, list[float]], list[dict[str, int]]]:
    """One game: (win share per seat, scores, decision times in ms per level,
    habit counts per seat)."""
    state, _ = new_game(GameSetup(players=players, seed=seed, computer=tuple(range(players))))
    times: dict[str, list[float]] = {}
    habits = [dict.fromkeys(HABITS, 0) for _ in range(players)]
    while (d := pending(state)) is not None:
        level = levels[d.seat]
        start = time.process_time()
        option = answer(level, state, d)
        times.setdefault(level, []).append((time.process_time() - start) * 1000)
        if d.kind == "action" and option[0] == "discard":
            habits[d.seat]["discards"] += 1
        if unlaid_end(state, d, option):
            habits[d.seat]["unlaid_ends"] += 1
        if lay_left(state, d, option):
            habits[d.seat]["ends_with_lay"] += 1
        apply(state, d.seat, d.id, option)
    result = state.result
    assert result is not None
    shares = [0.0] * players
    for w in result.winners:
        shares[w] = 1.0 / len(result.winners)
    return shares, list(result.scores), times, habits


Job = tuple[int, int, int, str, str, dict[str, Any] | None, str | None]
#: one game's record, as logged: "i", "share", "score", "habits", "times" (ms per level)
Record = dict[str, Any]


def wait_while(path: str | None, poll: float = 5.0) -> float:
    """Sleep while the file `path` exists (a quiet window another run asked for);
    the seconds waited."""
    waited = 0.0
    while path and os.path.exists(path):
        time.sleep(poll)
        waited += poll
    return waited


def _configure(strong: dict[str, Any] | None) -> None:
    """Experiments: play `strong` with another configuration (fields of StrongConfig;
    `weights` a dict of Weights fields over strong's own)."""
    if strong is None:
        return
    from engine.ai import search as ai_strong

    fields = dict(strong)
    weights = fields.pop("weights", None)
    w = ai_strong.STRONG.weights
    if weights is not None:
        w = dataclasses.replace(w, **weights)
    ai_strong.STRONG = dataclasses.replace(ai_strong.STRONG, weights=w, **fields)


def _one(args: Job) -> Record:
    """One arena game (after any quiet window): the tested seat's win share and
    score, the decision times, and the habit counts: the tested seat's, and the
    mean of the other seats'."""
    players, seed, i, seat_level, vs_level, strong, pause = args
    wait_while(pause)
    _configure(strong)
    seat = i % players
    levels = [vs_level] * players
    levels[seat] = seat_level
    shares, scores, times, habits = play_game(players, seed + i, levels)
    counts: dict[str, float] = {}
    for name in HABITS:
        counts[f"seat_{name}"] = habits[seat][name]
        others = [h[name] for s, h in enumerate(habits) if s != seat]
        counts[f"vs_{name}"] = sum(others) / len(others)
    return {
        "i": i,
        "share": shares[seat],
        "score": scores[seat],
        "habits": counts,
        "times": {lv: [round(t, 3) for t in ts] for lv, ts in times.items()},
        "load": round(os.getloadavg()[0], 2),
    }


def _played(jobs: list[Job], workers: int) -> Iterable[Record]:
    """The games' records as they finish (in `workers` processes, or in this one)."""
    if workers <= 1:
        yield from map(_one, jobs)
        return
    with ProcessPoolExecutor(workers) as pool:
        futures: list[Future[Record]] = [pool.submit(_one, job) for job in jobs]
        try:
            for f in as_completed(futures):
                yield f.result()
        finally:
            for f in futures:
                f.cancel()


def line_key(
    seat_level: str, vs_level: str, players: int, seed: int, strong: dict[str, Any] | None
) -> str:
    """What a logged game belongs to: a log may hold several lines."""
    return json.dumps([seat_level, vs_level, players, seed, strong], sort_keys=True)


def read_log(path: str, key: str | None = None) -> list[Record]:
    """The records of a `--log` file, those of line `key` if given (a last line cut
    off by a kill is skipped; a game logged twice counts once)."""
    records: dict[int, Record] = {}
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if key is None or r.get("line") == key:
                records.setdefault(r["i"], r)
    return list(records.values())


def arena(
    seat_level: str,
    vs_level: str,
    games: int,
    players: int,
    seed: int,
    workers: int = 1,
    progress: int = 0,
    strong: dict[str, Any] | None = None,
    log: str | None = None,
    pause: str | None = None,
    start: int = 0,
) -> dict[str, Any]:
    """Games `start` … `start + games - 1` (game i: seed `seed + i`); with `log`,
    games already in it are not played again and every new one is appended."""
    started = time.perf_counter()
    key = line_key(seat_level, vs_level, players, seed, strong)
    records = [r for r in read_log(log, key) if start <= r["i"] < start + games] if log else []
    done = {r["i"] for r in records}
    jobs: list[Job] = [
        (players, seed, i, seat_level, vs_level, strong, pause)
        for i in range(start, start + games)
        if i not in done
    ]
    out = open(log, "a+", encoding="utf-8") if log else None  # noqa: SIM115
    if out is not None and out.tell() > 0:
        out.seek(out.tell() - 1)
        if out.read(1) != "\n":
            out.write("\n")  # a record cut off by a kill stays on a line of its own
    try:
        for record in _played(jobs, workers):
            record["line"] = key
            records.append(record)
            if out is not None:
                out.write(json.dumps(record) + "\n")
                out.flush()
            n = len(records)
            if progress and n % progress == 0:
                wins = sum(r["share"] for r in records)
                low, high = wilson(wins / n, n)
                print(
                    f"  {n} games: {seat_level} won {wins:.1f} = {100 * wins / n:.1f} % "
                    f"({100 * low:.1f}-{100 * high:.1f})",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if out is not None:
            out.close()
    line = summarize(records, seat_level, vs_level, players, seed, strong)
    line["workers"] = workers
    line["seconds"] = round(time.perf_counter() - started, 1)
    return line


def summarize(
    records: Sequence[Record],
    seat_level: str,
    vs_level: str,
    players: int,
    seed: int,
    strong: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The arena line over the games' records."""
    games = len(records)
    wins = sum(r["share"] for r in records)
    points = sum(r["score"] for r in records)
    habits: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    for r in records:
        for name, c in r["habits"].items():
            habits[name] = habits.get(name, 0.0) + c
        for level, values in r["times"].items():
            times.setdefault(level, []).extend(values)
    share = wins / games if games else 0.0
    low, high = wilson(share, games)
    per_level = {
        level: {
            "decisions": len(values),
            "mean_ms": round(sum(values) / len(values), 3),
            "p99_ms": round(sorted(values)[int(0.99 * (len(values) - 1))], 3),
            "max_ms": round(max(values), 3),
        }
        for level, values in sorted(times.items())
    }
    return {
        "seat": seat_level,
        "vs": vs_level,
        "players": players,
        "games": games,
        "seed": seed,
        "wins": round(wins, 2),
        "win_share": round(share, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / players, 4),
        "mean_points": round(points / games, 2) if games else 0.0,
        "time": per_level,
        # a game, on average: the tested seat's, and one other seat's
        "habits_per_game": {
            name: round(c / max(games, 1), 3) for name, c in sorted(habits.items())
        },
        "strong_config": strong,
        "first_game": min((r["i"] for r in records), default=None),
        "last_game": max((r["i"] for r in records), default=None),
        "load_max": max((r.get("load", 0.0) for r in records), default=0.0),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.arena", description=__doc__)
    parser.add_argument("--seat", choices=PLAYERS, default="normal")
    parser.add_argument("--vs", choices=PLAYERS, default="easy")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--progress", type=int, default=0, help="report every N games")
    parser.add_argument(
        "--strong",
        type=json.loads,
        default=None,
        help='experiments: strong\'s configuration, e.g. \'{"worlds": 0, "weights": {...}}\'',
    )
    parser.add_argument("--start", type=int, default=0, help="the first game's index")
    parser.add_argument("--log", default=None, help="append each game's record here; resume")
    parser.add_argument(
        "--pause-while",
        default=os.environ.get("ARENA_PAUSE_FILE"),
        help="wait before each game while this file exists (default: $ARENA_PAUSE_FILE)",
    )
    parser.add_argument(
        "--summarize", action="store_true", help="only print the line over the games in --log"
    )
    args = parser.parse_args(argv)
    if args.summarize:
        if not args.log:
            parser.error("--summarize needs --log")
        key = line_key(args.seat, args.vs, args.players, args.seed, args.strong)
        records = read_log(args.log, key)
        out = summarize(records, args.seat, args.vs, args.players, args.seed, args.strong)
        args.games = len(records)
    else:
        out = arena(
            args.seat,
            args.vs,
            args.games,
            args.players,
            args.seed,
            args.workers,
            args.progress,
            args.strong,
            args.log,
            args.pause_while,
            args.start,
        )
    print(json.dumps(out))
    low, high = out["ci95"]
    print(
        f"{args.seat} as one seat vs {args.players - 1} x {args.vs}: "
        f"wins {100 * out['win_share']:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %) "
        f"of {out['games']} games; "
        + "; ".join(
            f"{lv} {t['mean_ms']} ms mean, {t['max_ms']} ms max per decision"
            for lv, t in out["time"].items()
        ),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
