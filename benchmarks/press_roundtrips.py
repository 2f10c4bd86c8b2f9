"""Redis round trips of one press that answers a decision, counted exactly.

    python -m benchmarks.press_roundtrips [--presses 200] [--seed 1] [--redis URL] [--cluster]

Four people play one game through the real dispatcher and a real Redis store
(`tests.bot.harness`); each press answers the pending decision with a whole
option at once (the last menu level's button). Counted, per press: every
command or pipeline the bot sends Redis while the press is handled and told
(the record and message ids read, the compare-and-set save, the message ids
kept) — a script or a pipeline is one. Prints one JSON line with the mean and
the spread, and the milliseconds a press takes through the harness (handled
and told; loopback Redis, Telegram faked).

`--cluster`: on a three-master Redis Cluster of its own on loopback
(`tests.bot.cluster`, Debian's redis-server). A pipeline whose commands lie
on several masters is sent to each at once: counted once a master it went to
(sends, not waits).
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

from redis.asyncio.connection import AbstractConnection

from bot.store.redis import RedisStore
from engine.ai.easy import choose
from tests.bot.cluster import started, stopped
from tests.bot.harness import Harness, answer_data, people

GROUP = -100321
COUNTING = [False]
SENT = [0]


def count_roundtrips() -> None:
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        if COUNTING[0]:
            SENT[0] += 1
        await original(self, *args, **kwargs)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]


async def forget_prefix(redis_url: str, prefix: str) -> None:
    """Delete a benchmark's keys (all under its own prefix)."""
    cleanup = RedisStore.from_url(redis_url, prefix=prefix)
    keys = [k async for k in cleanup._r.scan_iter(match=f"{prefix}:*", count=1000)]
    if keys:
        await cleanup._r.delete(*keys)
    await cleanup.close()


async def main(presses: int, seed: int, redis_url: str, cluster: bool = False) -> dict[str, Any]:
    prefix = f"smuta-bench:{uuid.uuid4().hex}"
    nodes = started() if cluster else None
    store = (
        RedisStore.from_url(redis_url, prefix=prefix)
        if nodes is None
        else RedisStore.from_cluster(nodes.url, prefix=prefix)
    )
    h = Harness(store)
    users = people("Анна", "Борис", "Вера", "Глеб")
    count_roundtrips()
    per_press: list[int] = []
    took: list[float] = []
    rng = random.Random(seed)
    game = 0
    while len(per_press) < presses:
        game += 1
        chat = GROUP - game
        await h.open_game(chat, users[0], users[1:], seed=seed + game)
        while len(per_press) < presses:
            table = await h.table(chat)
            if table.status != "playing" or table.state is None:
                break
            decision = await h.decision(chat)
            if decision is None:
                break
            user = users[decision.seat]
            prompt = (await store.messages(chat)).get(f"prompt:{decision.seat}")
            if prompt is None:
                break
            data = answer_data(table, decision, choose(rng.getrandbits(32), decision))
            SENT[0] = 0
            COUNTING[0] = True
            start = time.perf_counter()
            await h.press(user, user.id, prompt, data)
            took.append(time.perf_counter() - start)
            COUNTING[0] = False
            per_press.append(SENT[0])
    await store.close()
    if nodes is None:
        await forget_prefix(redis_url, prefix)
    else:
        stopped(nodes)
    return {
        "store": "cluster of 3" if cluster else "one node",
        "presses": len(per_press),
        "games": game,
        "roundtrips_per_press": round(statistics.mean(per_press), 2),
        "ms_per_press_median": round(1000 * statistics.median(took), 2),
        "min": min(per_press),
        "max": max(per_press),
        "counts": {str(k): per_press.count(k) for k in sorted(set(per_press))},
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Redis round trips of an answering press.")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--cluster", action="store_true", help="on a 3-master cluster of its own")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.presses, args.seed, args.redis, args.cluster))))
