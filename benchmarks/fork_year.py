"""The AOF rewrite's copy-on-write on a store the size of a year (issue 26).

    python -m benchmarks.fork_year [--port 6390] [--groups 805] [--seed-chats 5]
        [--games-per-chat 156] [--claims 38600] [--rates 10.7 50] [--slowed 20]

`benchmarks.memory` measured the fork's copy on an 11 MB dataset; this fills a
store to what the memory model says 256 MB holds for a year (~345 games a
day: 805 groups playing 3 games a week) and forks it there.

Starts ``redis-server --port <port> --dir <a temporary dir> --appendonly yes
--appendfsync everysec`` (its own server, its own directory; nothing else
writes to it) and fills it:

- `--seed-chats` group chats each play `--games-per-chat` whole games (156:
  a year at 3 a week) as the bot saves them (`benchmarks.memory.play`: the
  lobby, a save every ten commands, the finishing save that writes the
  history), their ratings drained — each chat's history, figures, players and
  its last game's record (kept a week) as a year leaves them;
- those chats' keys (and their players') copied with DUMP/RESTORE under other
  chat and user ids until there are `--groups` groups (the same bytes and
  encodings as played ones);
- `--claims` final update claims made by the store's own calls (an hour of
  claims at the busiest hour's rate: 10.7 updates a second × 3600).

Then, for each `--rates` (presses a second; 0: none), BGREWRITEAOF at full
speed while a writer presses as the bot does in `--live` of the year's chats, each playing
its next game (a claim, a one-command save, the claim made final; the game's
finishing save writes its history), and `INFO persistence` / `INFO memory`
are read once the child is done: `aof_last_cow_size` (what the child found
copied), `latest_fork_usec`, the child's time, `used_memory` and
`used_memory_rss` before and after. With `--slowed S`, one more rewrite at
the first rate above 0 with the child slowed (`rdb-key-save-delay`) to last about S
seconds: the copy per press on this dataset, for longer forks (a slower disk).

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import time
from typing import Any

from redis.asyncio import Redis

from benchmarks.memory import UPDATE_ID_BASE, held, own_redis, play, whole_game
from bot.service.ratings import Ratings
from bot.store.delivery import Delivery, lease_for
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.words.i18n import Translator
from engine import new_game

TAG = re.compile(rb"\{(-?\d+)\}")
SEED_CHAT = -1001000000000
USER_BASE = 7_000_000_000  # copied players get ids of Telegram's size


async def memory(client: Any) -> dict[str, float]:
    info = await client.info("memory")
    return {
        "held_mb": round((int(info["used_memory"]) - int(info["mem_clients_normal"])) / 1e6, 1),
        "used_memory_mb": round(int(info["used_memory"]) / 1e6, 1),
        "used_memory_dataset_mb": round(int(info["used_memory_dataset"]) / 1e6, 1),
        "used_memory_rss_mb": round(int(info["used_memory_rss"]) / 1e6, 1),
    }


async def persistence(client: Any) -> dict[str, Any]:
    return dict(await client.info("persistence"))


async def seed(client: Any, store: RedisStore, chats: int, games: int) -> None:
    ratings = Ratings(store, Translator())
    rng = random.Random(1)
    n = 0
    for g in range(games):
        for c in range(chats):
            n += 1
            await play(store, SEED_CHAT - c, n, 3, rng)
        if g % 10 == 9:
            await ratings.drain()
    await ratings.drain()


async def copy_groups(client: Any, chats: int, groups: int) -> int:
    """The seed chats' keys (theirs and their players') again under other ids,
    until there are `groups` groups; how many keys were made."""
    keys = [k async for k in client.scan_iter(match=b"smuta:*", count=1000)]
    tagged = [k for k in keys if TAG.search(k)]
    dumps = []
    for key in tagged:
        async with client.pipeline(transaction=False) as pipe:
            pipe.dump(key)
            pipe.pttl(key)
            value, ttl = await pipe.execute()
        dumps.append((key, value, max(0, int(ttl))))
    made = 0
    for k in range(1, -(-groups // chats)):

        def group(n: int, k: int = k) -> int:
            """The group (0…) a tagged id of copy `k` belongs to."""
            return (SEED_CHAT - n if n < 0 else n // 10) + k * chats

        def rename(match: re.Match[bytes], k: int = k) -> bytes:
            n = int(match.group(1))
            new = n - k * chats if n < 0 else USER_BASE + k * 100 + n
            return b"{" + str(new).encode() + b"}"

        async with client.pipeline(transaction=False) as pipe:
            for key, value, ttl in dumps:
                tag = TAG.search(key)
                assert tag is not None
                if group(int(tag.group(1))) >= groups:
                    continue  # past the last group
                pipe.restore(TAG.sub(rename, key), ttl, value, replace=True)
                made += 1
            await pipe.execute()
    return made


async def make_claims(store: RedisStore, n: int) -> None:
    for start in range(UPDATE_ID_BASE, UPDATE_ID_BASE + n, 500):
        deliveries = [Delivery(i) for i in range(start, min(start + 500, UPDATE_ID_BASE + n))]
        await asyncio.gather(*(store.first_delivery(d) for d in deliveries))
        await asyncio.gather(*(store.finish_delivery(d) for d in deliveries))


class Writer:
    """Presses as the bot makes them, at `rate` a second, spread over `live`
    of the year's chats, each playing its next whole game."""

    def __init__(self, store: RedisStore, chats: list[int], rate: float) -> None:
        self.store = store
        self.chats = chats
        self.rate = rate
        self.presses = 0
        self.stop = asyncio.Event()
        self.update = UPDATE_ID_BASE * 3
        self.seed = 10**6
        self.due = 0.0

    async def game(self, chat: int) -> None:
        lease = lease_for(8.0)
        existing = await self.store.load(chat)
        assert existing is not None
        last = max(existing.game_no, await self.store.last_game_no(chat))
        table = Table.model_validate(
            {
                **existing.model_dump(),
                "chat_id": chat,
                "game_no": last + 1,
                "status": "lobby",
                "state": None,
            }
        )
        assert await self.store.save(table)
        self.seed += 1
        setup, final, commands = whole_game(3, self.seed)
        table.setup, table.status = setup, "playing"
        table.state, _ = new_game(setup)
        for i, command in enumerate(commands):
            if self.stop.is_set():
                return
            await self.tick()
            self.update += 1
            delivery = Delivery(self.update, lease)
            await self.store.first_delivery(delivery)
            if i == len(commands) - 1:
                table.state, table.status = final, "finished"
            assert await self.store.save(table, [command])
            await self.store.finish_delivery(delivery)
            self.presses += 1

    async def tick(self) -> None:
        self.due = max(self.due + 1 / self.rate, time.perf_counter() - 1.0)
        await asyncio.sleep(max(0.0, self.due - time.perf_counter()))

    async def run(self) -> None:
        self.due = time.perf_counter()
        rng = random.Random(self.rate)
        while not self.stop.is_set():
            await self.game(rng.choice(self.chats))


async def rewrite(client: Any, writer: Writer | None) -> dict[str, Any]:
    before = await memory(client)
    task = asyncio.create_task(writer.run()) if writer is not None else None
    await asyncio.sleep(1.0)  # the writer at its pace before the fork
    presses0 = writer.presses if writer is not None else 0
    began = time.perf_counter()
    await client.execute_command("BGREWRITEAOF")
    peak_rss = 0
    while True:
        info = await persistence(client)
        if not int(info["aof_rewrite_in_progress"]) and not int(info["aof_rewrite_scheduled"]):
            break
        peak_rss = max(peak_rss, int((await client.info("memory"))["used_memory_rss"]))
        await asyncio.sleep(0.02)
    took = time.perf_counter() - began
    presses = (writer.presses if writer is not None else 0) - presses0
    if writer is not None and task is not None:
        writer.stop.set()
        await task
    info = await persistence(client)
    stats = await client.info("stats")
    copied = int(info["aof_last_cow_size"])
    return {
        "rate": writer.rate if writer is not None else 0,
        "child_seconds": round(took, 2),
        "presses_meanwhile": presses,
        "aof_last_cow_size_mb": round(copied / 1e6, 2),
        "cow_bytes_per_press": round(copied / presses) if presses else None,
        "latest_fork_ms": round(int(stats["latest_fork_usec"]) / 1000, 1),
        "aof_last_bgrewrite_status": info["aof_last_bgrewrite_status"],
        "before": before,
        "after": await memory(client),
        "keys": int(await client.dbsize()),
        "parent_rss_peak_mb": round(peak_rss / 1e6, 1),
    }


async def everything(url: str, args: argparse.Namespace) -> dict[str, Any]:
    client: Any = Redis.from_url(url)
    store = RedisStore(client, "smuta")
    figures: dict[str, Any] = {}
    try:
        empty = await held(client)
        t0 = time.perf_counter()
        await seed(client, store, args.seed_chats, args.games_per_chat)
        figures["seed"] = {
            "chats": args.seed_chats,
            "games_per_chat": args.games_per_chat,
            "held_mb": round((await held(client) - empty) / 1e6, 2),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        figures["copied_keys"] = await copy_groups(client, args.seed_chats, args.groups)
        await make_claims(store, args.claims)
        figures["groups"] = args.groups
        figures["claims"] = args.claims
        figures["keys"] = int(await client.dbsize())
        figures["held_mb"] = round((await held(client) - empty) / 1e6, 1)
        figures["filled"] = await memory(client)
        # the fill's own rewrite first (the AOF then holds the year as its base)
        figures["quiet"] = await rewrite(client, None)
        groups = [SEED_CHAT - i for i in range(args.groups)]
        live = random.Random(2).sample(groups, args.live)
        figures["rewrites"] = []
        for rate in args.rates:
            writer = Writer(store, live, rate) if rate > 0 else None
            figures["rewrites"].append(await rewrite(client, writer))
        if args.slowed:
            keys = int(await client.dbsize())
            delay = max(1, round(args.slowed * 1e6 / keys))
            await client.config_set("rdb-key-save-delay", str(delay))
            rate = next((r for r in args.rates if r > 0), 10.7)
            slowed = await rewrite(client, Writer(store, live, rate))
            slowed["rdb_key_save_delay_us"] = delay
            figures["slowed"] = slowed
            await client.config_set("rdb-key-save-delay", "0")
    finally:
        await client.aclose()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0: a free one")
    parser.add_argument("--groups", type=int, default=805)
    parser.add_argument("--seed-chats", type=int, default=5)
    parser.add_argument("--games-per-chat", type=int, default=156)
    parser.add_argument("--claims", type=int, default=38_600)
    parser.add_argument("--live", type=int, default=20, help="chats the writer plays in")
    parser.add_argument("--rates", type=float, nargs="+", default=[0, 10.7, 50.0])
    parser.add_argument("--slowed", type=float, default=20.0, help="0: no slowed rewrite")
    args = parser.parse_args()
    appending = ("--save", "", "--appendonly", "yes", "--appendfsync", "everysec")
    with own_redis(*appending, port=args.port) as url:
        figures = asyncio.run(everything(url, args))
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
