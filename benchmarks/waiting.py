"""Games at own pace waiting on their deadlines (issue 40, item 4): what
100,000 of them cost Redis, and what the ticker costs beside them.

    python -m benchmarks.waiting --games 100000 [--distinct 300] [--due 1000]
                                 [--idle-seconds 20]

Starts a ``redis-server`` of its own (no persistence, nothing else writes to
it), then:

1. **Plays** `--distinct` group games of 3–4 people (seeded, each seed its
   own) through the real dispatcher on the tests' fake Telegram
   (`tests.bot.harness`) over `RedisStore`, each with a turn of 1 h, 8 h or
   24 h (`Table.turn_timeout` = `choice_timeout` ∈ {3600, 28800, 86400}),
   every person pressing a random button of their prompt level by level, to
   a point between a quarter and seven eighths of the game deck drawn: each
   then waits on its person's deadline.
2. **Copies** them to `--games` waiting games on an emptied Redis: each the
   record, command log and message ids of one of those played, saved under
   a chat id and people of its own through `RedisStore` itself (`save` with
   the whole log, `set_messages`, `link_user` for each person), so the keys,
   their times to live, the deadlines index and the people's links are what
   the bot writes. Each copy's deadline (and reminder, `updated_at`) is moved
   to a moment of its own within its turn, so the deadlines are spread as a
   population's would be; `--due` of them fall in one second a little ahead,
   every other one at least five minutes later.
3. **Idles** a real `Ticker` (`bot.app.build_app` over the store, its own
   `run` loop, its default 0.5 s interval) on a clock before every deadline
   for `--idle-seconds`: this process's CPU (`time.process_time`) per wall
   second, and Redis's own (``INFO cpu``) — with the ticker, and for as long
   before it started, without.
4. **Fires** the `--due`: the clock moved past their second, the ticker (still
   its own loop) finds them, times each one out through the real service —
   the person's move played by the computer (`Games.on_timer`; a person's
   timed-out move is thought in place, at the normal level, whatever
   `computer_workers` says: the ticker's `Thinker` is the bot's default) and
   its effects carried out (`Carrier.carry_out`, the group's outbox: the
   answered prompt, the next person's prompt, the group's table) to a fake
   Telegram that answers at once, on a pace whose waits are not slept (its
   order kept: `benchmarks.bot_load`'s). Measures until the ticker has
   started them all, and until all are fired and told.

Prints one JSON line:

- `memory_per_waiting_game`: `bytes`, the growth of `used_memory` (less the
  clients' buffers) a game, and `total_mb`; `by_key`, each key's `MEMORY
  USAGE` (the mean over 200 games); `budget`, how many waiting games
  `--budget-mb` of `maxmemory` holds, less the empty server's own and the
  fork's headroom (`--fork-mb`, README "Memory"), and the `maxmemory` (and,
  × 1.25, the host memory) `--games` of them need;
- `ticker_cpu_per_second_idle`: this process's CPU seconds a wall second
  (`bot_cpu_per_second`), Redis's with the ticker and without, the ticks'
  wall time;
- `fire_due`: `seconds_to_start_all` (the clock moved → the ticker has
  started every due chat's fire), `seconds_to_fire_all` (→ all fired and
  told), how many were timed out and saved, CPU a game, the Telegram
  requests they made and how long Telegram's 30 a second would spread them.

Copies, not 100,000 played games: `distinct_records` says how many were
played (`record_stored_bytes_mean`, `log_commands_mean`: theirs). Nothing of
a hand, the deck or a seed is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import TelegramMethod
from redis.asyncio import Redis

from benchmarks.bot_load import BenchTelegram, NoWaitPace
from benchmarks.memory import held, own_redis
from bot.app import build_app, freeze_startup_objects
from bot.service.games import Defaults
from bot.service.thinking import Thinker
from bot.store.models import Table
from bot.store.packing import pack_log
from bot.store.redis import RedisStore
from bot.words.i18n import Translator
from engine import Command, pending
from tests.bot.fake_telegram import person
from tests.bot.harness import FakeClock, Harness

#: a turn at own pace (issue 40): an hour, eight hours, a day
OWN_PACE = (3600, 28800, 86400)
NAMES = ["Анна Каренина", "Борис Годунов", "Вера Павлова", "Глеб Жеглов"]
#: the clock's start (the harness's own): every deadline is after it
T0 = 1_800_000_000.0
#: the due deadlines fall within [DUE_AT, DUE_AT + 1); every other one after LATER_AT
DUE_AT = T0 + 120.0
LATER_AT = T0 + 420.0
FIRST_CHAT = -1_004_000_000_000
FIRST_USER = 5_000_000_000


@dataclass
class Played:
    """A game played part way: its record, command log and message ids."""

    table: Table
    log: list[Command]
    ids: dict[str, int]


async def play_one(
    h: Harness, chat: int, seed: int, first_user: int, left: float | None = None
) -> Played:
    """A group game of 3–4 people at own pace, played to a point of its own:
    until `left` of the game deck is left (None: a share drawn from the seed)."""
    rng = random.Random(seed)
    players = rng.choice((3, 4))
    timeout = rng.choice(OWN_PACE)
    h.defaults.turn_timeout = h.defaults.choice_timeout = timeout  # what the lobby gives it
    users = [person(first_user + i, NAMES[i]) for i in range(players)]
    table = await h.open_game(chat, users[0], users[1:], seed=seed)
    assert table.state is not None and table.turn_timeout == timeout
    dealt = len(table.state.deck)
    share = rng.uniform(0.125, 0.75)
    stop = dealt * (share if left is None else left)  # the deck left when it waits
    while table.status == "playing" and table.state is not None and len(table.state.deck) > stop:
        decision = pending(table.state)
        assert decision is not None
        user = next(u for u in users if table.seat_of(u.id) == decision.seat)
        await h.answer(user, chat, decision.options[rng.randrange(len(decision.options))])
        table = await h.table(chat)
        h.tg.requests.clear()  # (what was sent is not needed: kept small)
    assert table.status == "playing" and table.deadline is not None
    return Played(table, await h.store.log(chat), await h.store.messages(chat))


async def play_sources(url: str, distinct: int) -> list[Played]:
    store = RedisStore.from_url(url)
    h = Harness(store, clock=FakeClock(T0))
    played = []
    try:
        for n in range(distinct):
            chat = FIRST_CHAT + 10**9 + n  # (out of the copies' way)
            played.append(await play_one(h, chat, 1000 + n, FIRST_USER + 10**9 + n * 10))
    finally:
        await store.close()
    return played


def copy_of(source: Played, chat: int, first_user: int, deadline: float) -> Played:
    """`source` as the game of `chat`, its people `first_user` on, waiting
    until `deadline` (its reminder, `updated_at` and `created_at` moved with it)."""
    t = Table.from_json(source.table.to_stored())
    users = {s.user_id: first_user + i for i, s in enumerate(t.seats) if s.user_id is not None}
    t.chat_id, t.version = chat, 0
    t.creator_id = users.get(t.creator_id, t.creator_id)
    t.invited = [users.get(u, u) for u in t.invited]
    for seat in t.seats:
        if seat.user_id is not None:
            seat.user_id = users[seat.user_id]
    assert t.deadline is not None
    shift = deadline - t.deadline
    t.deadline = deadline
    if t.reminder is not None:
        t.reminder += shift
    t.updated_at += shift
    t.created_at += shift
    ids = dict(source.ids)
    for old, new in users.items():  # (a person's own mark, when one is kept)
        if f"unreachable:{old}" in ids:
            ids[f"unreachable:{new}"] = ids.pop(f"unreachable:{old}")
    return Played(t, source.log, ids)


async def save_copy(store: RedisStore, game: Played) -> None:
    """One waiting game written as the bot writes it: the record with its
    whole log (and the timers' index), its message ids, its people's links."""
    t = game.table
    assert await store.save(t, game.log)
    await store.set_messages(t.chat_id, dict(game.ids))
    for seat in t.seats:
        if seat.user_id is not None:
            await store.link_user(seat.user_id, t.chat_id)


def deadlines(games: int, due: int, timeouts: list[int], rng: random.Random) -> list[float]:
    """Each copy's deadline: `due` of them (drawn at random, so they are
    copies of every record played alike) within a second at `DUE_AT`, the
    others anywhere in their turn after `LATER_AT`."""
    falling = set(rng.sample(range(games), due))
    return [
        DUE_AT + rng.random()
        if i in falling
        else LATER_AT + rng.random() * (timeouts[i] - (LATER_AT - T0))
        for i in range(games)
    ]


async def fill(
    client: Any, url: str, sources: list[Played], games: int, due: int
) -> dict[str, Any]:
    store = RedisStore.from_url(url)
    rng = random.Random(7)
    try:
        await client.flushall()  # (the scripts stay loaded)
        await client.config_set("maxmemory", "0")
        # the pool's connections opened, and the scripts loaded, before the measure
        warm = copy_of(sources[0], FIRST_CHAT - 1, FIRST_USER - 10, LATER_AT)
        await asyncio.gather(*(save_copy(store, warm) for _ in range(1)))
        await client.flushall()
        before = await held(client)
        picks = [sources[i % len(sources)] for i in range(games)]
        when = deadlines(games, due, [p.table.turn_timeout for p in picks], rng)
        started = time.perf_counter()
        batch = 256
        for start in range(0, games, batch):
            await asyncio.gather(
                *(
                    save_copy(
                        store, copy_of(picks[i], FIRST_CHAT - i, FIRST_USER + i * 10, when[i])
                    )
                    for i in range(start, min(start + batch, games))
                )
            )
        took = time.perf_counter() - started
        after = await held(client)
        info = await client.info("memory")
        keys = int(await client.dbsize())
        sample = await key_sizes(client, store, games)
    finally:
        await store.close()
    due_chats = [FIRST_CHAT - i for i in range(games) if when[i] < LATER_AT]
    sources_due = len({id(picks[FIRST_CHAT - chat]) for chat in due_chats})
    return {
        "empty_mb": round(before / 1e6, 2),
        "bytes": round((after - before) / games),
        "total_mb": round((after - before) / 1e6, 2),
        "used_memory_mb": round(int(info["used_memory"]) / 1e6, 2),
        "used_memory_rss_mb": round(int(info["used_memory_rss"]) / 1e6, 2),
        "keys": keys,
        "by_key": sample,
        "fill_seconds": round(took, 1),
        "_due_chats": due_chats,
        "_due_records": sources_due,
    }


async def key_sizes(client: Any, store: RedisStore, games: int) -> dict[str, Any]:
    """`MEMORY USAGE` of each of a game's keys, the mean over 200 games (a
    person's link: the first seat's), and of the whole deadlines index."""
    chats = [FIRST_CHAT - i for i in range(0, games, max(1, games // 200))]
    sizes: dict[str, list[int]] = {
        "table": [],
        "log": [],
        "msgs": [],
        "history_last": [],  # the chat's game numbers' counter (kept for good)
        "user_tables": [],
    }
    stored: list[int] = []
    for chat in chats:
        sizes["table"].append(int(await client.memory_usage(store._table_key(chat))))
        sizes["log"].append(int(await client.memory_usage(store._log_key(chat))))
        sizes["msgs"].append(int(await client.memory_usage(store._msgs_key(chat))))
        sizes["history_last"].append(int(await client.memory_usage(store._history_key(chat))))
        stored.append(len(await client.hget(store._table_key(chat), "data")))
        n = FIRST_CHAT - chat
        sizes["user_tables"].append(
            int(await client.memory_usage(store._user_tables_key(FIRST_USER + n * 10)))
        )
    out: dict[str, Any] = {k: round(statistics.fmean(v)) for k, v in sizes.items()}
    out["record_stored_bytes"] = round(statistics.fmean(stored))
    out["deadlines_zset"] = int(await client.memory_usage(store._deadlines_key, samples=0))
    return out


async def redis_cpu(client: Any) -> float:
    """Redis's own CPU seconds so far (system and user, its main thread and all)."""
    info = await client.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


class CountingTelegram(BenchTelegram):
    """`BenchTelegram` (answers at once, keeps only the buttons people hold),
    counting the requests by method."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        self.calls[type(method).__name__] += 1
        return await super().make_request(bot, method, timeout)


async def ticking(
    client: Any, url: str, due_chats: list[int], idle_seconds: float
) -> dict[str, Any]:
    """A bot process's ticker over the filled store: idle, then the due fired."""
    store = RedisStore.from_url(url)
    tg = CountingTelegram()
    bot = Bot("42:BENCH", session=tg, default=DefaultBotProperties(parse_mode="HTML"))
    clock = FakeClock(T0)
    thinker = Thinker()  # the bot's default (`computer_workers` None: a worker a core)
    app = build_app(
        bot,
        store,
        Defaults(turn_timeout=OWN_PACE[0], choice_timeout=OWN_PACE[0]),
        clock=clock,
        tr=Translator(),
        pace=NoWaitPace(),
        thinker=thinker,
    )
    ticker = app.ticker
    freeze_startup_objects()  # as `python -m bot` does once it is up

    # each tick timed; each chat's first start noted
    ticks: list[tuple[float, float, int]] = []  # (began, took, due)
    real_tick = ticker.tick

    async def tick() -> int:
        began = time.perf_counter()
        due = await real_tick()
        ticks.append((began, time.perf_counter() - began, due))
        return due

    started: dict[int, float] = {}
    real_start = ticker._start

    def start(chat_id: int) -> None:
        if chat_id not in started:
            started[chat_id] = time.perf_counter()
        real_start(chat_id)

    ticker.tick = tick  # type: ignore[method-assign]
    ticker._start = start  # type: ignore[method-assign]

    out: dict[str, Any] = {"ticker_interval": ticker.interval, "thinker_workers": thinker.workers}
    try:
        # Redis alone, as long, before the ticker runs
        r0, w0 = await redis_cpu(client), time.perf_counter()
        await asyncio.sleep(idle_seconds)
        redis_alone = (await redis_cpu(client) - r0) / (time.perf_counter() - w0)

        run = asyncio.create_task(ticker.run())
        await asyncio.sleep(2.0)  # its first tick (and sweep) behind it
        before = len(ticks)
        p0, r0, w0 = time.process_time(), await redis_cpu(client), time.perf_counter()
        await asyncio.sleep(idle_seconds)
        wall = time.perf_counter() - w0
        cpu, redis = time.process_time() - p0, await redis_cpu(client) - r0
        idle = ticks[before:]
        assert not started, "something fell due while idle"
        out["idle"] = {
            "seconds": round(wall, 1),
            "bot_cpu_per_second": round(cpu / wall, 5),
            "redis_cpu_per_second": round(redis / wall, 5),
            "redis_cpu_per_second_without_ticker": round(redis_alone, 5),
            "ticks": len(idle),
            "tick_ms_mean": round(statistics.fmean(t for _, t, _ in idle) * 1000, 3),
            "tick_ms_max": round(max(t for _, t, _ in idle) * 1000, 3),
        }

        # the due fall due at once: the clock moved past their second
        want = set(due_chats)
        p0, r0 = time.process_time(), await redis_cpu(client)
        tg.calls.clear()
        first_tick = len(ticks)
        moved = time.perf_counter()
        clock.t = DUE_AT + 1.5
        while not want <= started.keys():
            await asyncio.sleep(0.002)
        all_started = time.perf_counter()
        while ticker.firing() or not want <= started.keys():
            await ticker.settled()
        await app.telling.idle()
        done = time.perf_counter()
        cpu, redis = time.process_time() - p0, await redis_cpu(client) - r0
        ticker.stop()
        await run
        fired = [t for t in ticks[first_tick:] if t[2]]
        moved_on = 0
        for chat in due_chats:
            table = await store.load(chat)
            if table is not None and table.version == 2 and (table.deadline or 0) > clock.now():
                moved_on += 1
        n = len(due_chats)
        out["fire_due"] = {
            "due": n,
            "seconds_to_start_all": round(all_started - moved, 3),
            "seconds_to_fire_all": round(done - moved, 3),
            "timed_out_and_saved": moved_on,
            "others_started": len(started.keys() - want),
            "ticks_finding_due": len(fired),
            "bot_cpu_ms_per_game": round(cpu / n * 1000, 2),
            "redis_cpu_ms_per_game": round(redis / n * 1000, 3),
            "telegram_requests": dict(tg.calls),
            "telegram_seconds_at_30_per_second": round(sum(tg.calls.values()) / 30, 1),
        }
    finally:
        ticker.stop()
        thinker.close()
        await store.close()
    return out


def budget(memory: dict[str, Any], games: int, budget_mb: float, fork_mb: float) -> dict[str, Any]:
    """How many waiting games `budget_mb` of `maxmemory` holds (README
    "Memory"): less the empty server's own and the fork's headroom, counted
    within it; and the `maxmemory` (and host memory, × 1.25) `games` need."""
    room = (budget_mb - fork_mb - memory["empty_mb"]) * 1e6
    need = (games * memory["bytes"]) / 1e6 + fork_mb + memory["empty_mb"]
    return {
        "budget_mb": budget_mb,
        "fork_headroom_mb": fork_mb,
        "waiting_games": int(room // memory["bytes"]),
        "maxmemory_mb_for_games": round(need),
        "host_mb_for_games": round(need * 1.25),
    }


async def everything(args: argparse.Namespace, url: str) -> dict[str, Any]:
    client: Any = Redis.from_url(url)
    try:
        played = time.perf_counter()
        sources = await play_sources(url, args.distinct)
        played = time.perf_counter() - played
        memory = await fill(client, url, sources, args.games, min(args.due, args.games))
        due_chats = memory.pop("_due_chats")
        due_records = memory.pop("_due_records")
        ticker = await ticking(client, url, due_chats, args.idle_seconds)
        memory["budget"] = budget(memory, args.games, args.budget_mb, args.fork_mb)
    finally:
        await client.aclose()
    records = [len(s.table.to_stored()) for s in sources]
    logs = [[c.model_dump_json() for c in s.log] for s in sources]
    return {
        "games": args.games,
        "distinct_records": args.distinct,
        "copies": "each game is a copy of a record played, under a chat and people of its own",
        "players": dict(Counter(len(s.table.seats) for s in sources)),
        "turn_timeouts": dict(Counter(s.table.turn_timeout for s in sources)),
        "played_seconds": round(played, 1),
        "record_stored_bytes_mean": round(statistics.fmean(records)),
        "log_commands_mean": round(statistics.fmean(len(s.log) for s in sources)),
        # the running game's log as the store keeps it (JSON lines), and as
        # the history packs a finished game's (`bot.store.packing`)
        "log_json_bytes_mean": round(statistics.fmean(sum(map(len, lines)) for lines in logs)),
        "log_packed_bytes_mean": round(statistics.fmean(len(pack_log(lines)) for lines in logs)),
        "memory_per_waiting_game": memory,
        "ticker_cpu_per_second_idle": ticker.pop("idle"),
        "fire_due": {**ticker.pop("fire_due"), "distinct_records": due_records},
        **ticker,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=200)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--budget-mb", type=float, default=256.0)  # docker-compose's maxmemory
    # the fork's copy, counted within the budget (BENCHMARKS.md "The fork on a year's store")
    parser.add_argument("--fork-mb", type=float, default=4.4)
    args = parser.parse_args()
    with own_redis("--save", "", "--appendonly", "no") as url:
        figures = asyncio.run(everything(args, url))
    print(json.dumps(figures, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
