"""Two arena logs of the same line (the same seats, vs, players and seed) played by two
versions of a player, compared game by game — a paired before/after.

    python -m benchmarks.paired BEFORE.jsonl AFTER.jsonl

(several logs of one side, e.g. a line resumed elsewhere: joined by commas, A.jsonl,B.jsonl)

Only the games both logs hold count (matched on the game index `i`: the same deal,
the same seat). Budget-mode strong plays the same answers every run, so games in
which the change never altered a decision come out the same in both logs and cancel;
the difference of the win shares has a paired standard error (over the games) and so
has the difference of each habit count. Prints one JSON line, and a readable summary
on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from benchmarks.arena import Record, read_log, wilson
from engine.ai.search import _lead  # the mean of a - b over paired samples, and its SE


def _decisions(r: Record) -> int:
    return sum(len(v) for v in r["times"].values())


def compare(before: Sequence[Record], after: Sequence[Record]) -> dict[str, Any]:
    b = {r["i"]: r for r in before}
    a = {r["i"]: r for r in after}
    common = sorted(set(a) & set(b))
    n = len(common)
    out: dict[str, Any] = {"games": n}
    if n == 0:
        return out
    # a game whose score, share, habits and number of decisions all agree: most likely
    # played the same (no decision the change altered)
    out["games_alike"] = sum(
        a[i]["share"] == b[i]["share"]
        and a[i]["score"] == b[i]["score"]
        and a[i]["habits"] == b[i]["habits"]
        and _decisions(a[i]) == _decisions(b[i])
        for i in common
    )
    for name, records in (("before", b), ("after", a)):
        share = sum(records[i]["share"] for i in common) / n
        low, high = wilson(share, n)
        out[name] = {"win_share": round(share, 4), "ci95": [round(low, 4), round(high, 4)]}
    diff, se = _lead([a[i]["share"] for i in common], [b[i]["share"] for i in common], n)
    out["win_share_diff"] = {"after_minus_before": round(diff, 4), "se": round(se, 4)}
    habits: dict[str, Any] = {}
    for name in sorted(b[common[0]]["habits"]):
        xb = [float(b[i]["habits"].get(name, 0)) for i in common]
        xa = [float(a[i]["habits"].get(name, 0)) for i in common]
        habits[name] = {
            "before": round(sum(xb) / n, 3),
            "after": round(sum(xa) / n, 3),
            "diff_se": round(_lead(xa, xb, n)[1], 3),
        }
    out["habits_per_game"] = habits
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired", description=__doc__)
    parser.add_argument("before")
    parser.add_argument("after")
    args = parser.parse_args(argv)

    def records(paths: str) -> list[Record]:
        return [r for path in paths.split(",") for r in read_log(path)]

    out = compare(records(args.before), records(args.after))
    print(json.dumps(out))
    if out["games"]:
        d = out["win_share_diff"]
        print(
            f"{out['games']} games both played ({out['games_alike']} alike): "
            f"before {100 * out['before']['win_share']:.1f} %, "
            f"after {100 * out['after']['win_share']:.1f} %, "
            f"after - before {100 * d['after_minus_before']:+.1f} ± {100 * d['se']:.1f} points",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
