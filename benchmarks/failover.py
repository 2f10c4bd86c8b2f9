"""What Sentinel failover and WAIT cost a press (issue 26, items 1–2).

    python -m benchmarks.failover recover [--runs 5]
    python -m benchmarks.failover wait [--presses 150] [--rounds 3] [--down 50]

Each run starts a primary, a replica and three sentinels of its own on free
loopback ports (real ``redis-server`` and ``redis-sentinel``,
`tests.bot.sentinels`: ``down-after-milliseconds`` 1000) and plays a group
game of three people through the real dispatcher (`tests.bot.harness`).

`recover`: a bot process on the sentinels (``from_sentinels``, timeouts 2 s —
`--timeout`; WAIT 1 100 ms) plays a few moves, then the primary is killed with SIGKILL and
the person whose turn it is presses the same button again every 50 ms until
one press is answered as made. Prints one JSON line a run: seconds from the
kill to that press (`answered_s`) and to the sentinels naming the replica
primary (`promoted_s`), the presses refused meanwhile; then the spread.
`--down-after`, `--failover-timeout`, `--timeout 5` and `--compose` give the
setting of deploy/docker-compose.ha.yml (5000, 30000, the bot's own store
timeouts, its Redis servers' AOF and maxmemory).

`wait`: the cost of acknowledged-means-replicated, one press at a time (each
answering a decision at once), on one group of servers, three stores side by
side in rounds (so the machine's load falls on each alike): `no_wait` — the
primary by URL, no WAIT (main before issue 26); `wait` — the same with
``WAIT 1 100`` in the save's round trip; `sentinel_wait` — the bot's own
setting with sentinels (their pool, WAIT). Then the replica is killed and
`--down` presses go through `no_wait` and `wait` again (`*_replica_down`):
each WAIT then runs out its 100 ms. Prints, per store, the press's
wall time (p50/p90/p99, ms), the Redis round trips a press (`press_roundtrips`'
count: a script or a pipeline is one), the WAITs the primary ran (its
commandstats) and the WAIT timeouts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
import uuid
from typing import Any

from aiogram.types import User
from redis.asyncio import Redis

from benchmarks.press_roundtrips import COUNTING, SENT, count_roundtrips
from bot.ops import metrics
from bot.store.redis import RedisStore
from engine import pending
from engine.ai.easy import choose
from tests.bot.harness import Harness, answer_data, people
from tests.bot.sentinels import (
    DOWN_AFTER_MS,
    FAILOVER_TIMEOUT_MS,
    MASTER,
    SentinelGroup,
    installed,
    started,
    stopped,
)

GROUP = -100_260_900


async def _ready_press(h: Harness, chat: int, users: list[User], salt: int) -> tuple[Any, ...]:
    """The pending decision's presser, its prompt and a whole option's button."""
    table = await h.table(chat)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
    message = (await h.store.messages(chat))[f"prompt:{decision.seat}"]
    data = answer_data(table, decision, choose(salt, decision))
    return user, message, data


async def _press(h: Harness, chat: int, users: list[User], salt: int) -> bool:
    """One answering press; whether it was answered as made (no alert)."""
    user, message, data = await _ready_press(h, chat, users, salt)
    since = len(h.tg.answers())
    await h.press(user, user.id, message, data)
    answered = h.tg.answers()[since:]
    return bool(answered) and not any(a.show_alert for a in answered)


async def recover_once(run: int, args: argparse.Namespace) -> dict[str, Any]:
    group = await started(args.down_after, args.failover_timeout, args.compose)
    store = RedisStore.from_sentinels(group.sentinels, MASTER, timeout=args.timeout, wait_ms=100)
    try:
        h = Harness(store)
        users = people("Анна", "Борис", "Вера")
        await h.open_game(GROUP, users[0], users[1:], seed=20261202 + run)
        for i in range(4):
            assert await _press(h, GROUP, users, i)
        user, message, data = await _ready_press(h, GROUP, users, 99)
        group.kill("primary")
        killed = time.monotonic()
        promoted: list[float] = []

        async def watch(g: SentinelGroup) -> None:
            await g.promoted(timeout=60.0)
            promoted.append(time.monotonic() - killed)

        watcher = asyncio.create_task(watch(group))
        refused = 0
        while True:
            since = len(h.tg.answers())
            await h.press(user, user.id, message, data)
            answered = h.tg.answers()[since:]
            if answered and not any(a.show_alert for a in answered):
                break
            refused += 1
            if time.monotonic() - killed > 60:
                raise SystemExit("no press was answered within 60 s of the kill")
            await asyncio.sleep(0.05)
        answered_s = time.monotonic() - killed
        await watcher
        return {
            "run": run,
            "answered_s": round(answered_s, 2),
            "promoted_s": round(promoted[0], 2),
            "refused_presses": refused,
        }
    finally:
        await store.close()
        stopped(group)


async def recover(runs: int, args: argparse.Namespace) -> None:
    settings = {
        "down_after_ms": args.down_after,
        "failover_timeout_ms": args.failover_timeout,
        "store_timeout_s": args.timeout,
        "compose_redis": args.compose,
    }
    print(json.dumps(settings), flush=True)
    results = []
    for run in range(runs):
        result = await recover_once(run, args)
        results.append(result)
        print(json.dumps(result), flush=True)
    answered = [r["answered_s"] for r in results]
    print(
        json.dumps(
            {
                "runs": runs,
                "answered_s": {
                    "min": min(answered),
                    "median": round(statistics.median(answered), 2),
                    "max": max(answered),
                },
                "promoted_s_median": round(statistics.median(r["promoted_s"] for r in results), 2),
            }
        ),
        flush=True,
    )


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def wait_cost(presses: int, rounds: int, down: int) -> None:
    group = await started()
    prefix = f"smuta-bench:{uuid.uuid4().hex}"
    url = f"redis://127.0.0.1:{group.primary_port}/0"
    stores = {
        "no_wait": RedisStore.from_url(url, prefix=prefix, wait_replicas=0),
        "wait": RedisStore.from_url(url, prefix=prefix, wait_replicas=1, wait_ms=100),
        "sentinel_wait": RedisStore.from_sentinels(
            group.sentinels, MASTER, prefix=prefix, wait_replicas=1, wait_ms=100
        ),
    }
    count_roundtrips()
    users = people("Анна", "Борис", "Вера")
    times: dict[str, list[float]] = {k: [] for k in stores}
    trips: dict[str, list[int]] = {k: [] for k in stores}
    timeouts: dict[str, float] = dict.fromkeys(stores, 0.0)
    rng = random.Random(1)
    waits: dict[str, int] = dict.fromkeys(stores, 0)
    primary = Redis(host="127.0.0.1", port=group.primary_port)

    async def wait_calls() -> int:
        stats = await primary.info("commandstats")
        return int(stats.get("cmdstat_wait", {}).get("calls", 0))

    try:
        harnesses = {k: Harness(s) for k, s in stores.items()}
        chats = {k: GROUP - 1 - i for i, k in enumerate(stores)}
        games = dict.fromkeys(stores, 0)

        async def play(name: str, store_of: str, count: int) -> None:
            """`count` presses through `store_of`'s process, counted as `name`'s."""
            h = harnesses[store_of]
            waited = await wait_calls()
            for _ in range(count):
                chat = chats[store_of]
                table = await h.store.load(chat)
                if table is None or table.status != "playing":
                    games[store_of] += 1
                    chats[store_of] -= 10
                    chat = chats[store_of]
                    await h.open_game(chat, users[0], users[1:], seed=games[store_of])
                user, message, data = await _ready_press(h, chat, users, rng.getrandbits(32))
                before = metrics.sample("smuta_redis_wait_timeouts_total")
                since = len(h.tg.answers())
                SENT[0] = 0
                COUNTING[0] = True
                began = time.perf_counter()
                await h.press(user, user.id, message, data)
                took = time.perf_counter() - began
                COUNTING[0] = False
                answered = h.tg.answers()[since:]
                assert answered and not any(a.show_alert for a in answered), answered
                times[name].append(took * 1000)
                trips[name].append(SENT[0])
                timeouts[name] += metrics.sample("smuta_redis_wait_timeouts_total") - before
            waits[name] += await wait_calls() - waited

        for _ in range(rounds):
            for name in stores:
                await play(name, name, presses // rounds)
        # the replica gone (killed; the sentinels keep the primary): each
        # save's WAIT runs out, the press is answered all the same
        group.kill("replica")
        for name in ("no_wait", "wait"):
            times[f"{name}_replica_down"], trips[f"{name}_replica_down"] = [], []
            timeouts[f"{name}_replica_down"], waits[f"{name}_replica_down"] = 0.0, 0
            await play(f"{name}_replica_down", name, down)
        for name in times:
            print(
                json.dumps(
                    {
                        "store": name,
                        "presses": len(times[name]),
                        "press_ms": {
                            "p50": _quantile(times[name], 0.5),
                            "p90": _quantile(times[name], 0.9),
                            "p99": _quantile(times[name], 0.99),
                            "mean": round(statistics.mean(times[name]), 2),
                        },
                        "roundtrips_per_press": round(statistics.mean(trips[name]), 2),
                        "wait_calls": waits[name],
                        "wait_timeouts": int(timeouts[name]),
                    }
                ),
                flush=True,
            )
    finally:
        for store in stores.values():
            await store.close()
        await primary.aclose()
        stopped(group)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    rec = sub.add_parser("recover", help="seconds from a killed primary to an answered press")
    rec.add_argument("--runs", type=int, default=5)
    rec.add_argument(
        "--down-after",
        type=int,
        default=DOWN_AFTER_MS,
        help="the sentinels' down-after-milliseconds (deploy/docker-compose.ha.yml: 5000)",
    )
    rec.add_argument(
        "--failover-timeout",
        type=int,
        default=FAILOVER_TIMEOUT_MS,
        help="the sentinels' failover-timeout (the compose file: 30000)",
    )
    rec.add_argument(
        "--timeout",
        type=float,
        default=2.0,
        help="the store's timeouts, s (the bot's own, bot.app.make_store: 5)",
    )
    rec.add_argument(
        "--compose",
        action="store_true",
        help="the Redis servers as the compose file runs them (AOF everysec, maxmemory 256mb)",
    )
    cost = sub.add_parser("wait", help="what WAIT costs a press, side by side")
    cost.add_argument("--presses", type=int, default=150)
    cost.add_argument("--rounds", type=int, default=3)
    cost.add_argument("--down", type=int, default=50, help="presses with the replica killed")
    args = parser.parse_args()
    if not installed():
        raise SystemExit("redis-server and redis-sentinel are needed")
    if args.what == "recover":
        asyncio.run(recover(args.runs, args))
    else:
        asyncio.run(wait_cost(args.presses, args.rounds, args.down))


if __name__ == "__main__":
    main()
