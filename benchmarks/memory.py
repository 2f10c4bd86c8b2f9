"""What a year of play costs Redis (issue 17): `used_memory` per finished game
and per chat, on a Redis of its own.

    python -m benchmarks.memory --games 600 --chats 200 [--players 3]
    python -m benchmarks.memory --games 200 --chats 1     # one chat's full history

Starts a ``redis-server`` on a free port (nothing else writes to it; no
persistence), then plays `--games` whole games of people over `--chats` group
chats (their games round-robin, each game's seats drawn from its chat's six
regulars) through `RedisStore` as the bot saves them: the lobby, the moves (ten
commands a save), the finishing save that writes the history, and the rating
of every game (`Ratings.drain`). The games are the engine's own, played by its
policy to the end: a 3-player game is ~225 commands.

Prints one JSON line:

- `kept_per_game`: what one more game keeps for good — the games are played
  in two halves, the records (kept `FINISHED_TTL`, a week) let go after each;
  the growth of `used_memory` over the second half, per game;
- `kept_per_chat`: what the first half keeps beyond its games, per chat (its
  players' figures, their sets, the history's own key);
- `kept_total`, `with_records_total`: `used_memory` less the empty server's,
  at the end, without and with the last week's records;
- `history_bytes_per_game`: the history's own bytes for one game (record,
  packed log, number, index entry), the figure `GAME_BUDGET` bounds.

Then what the year model of issue 17 left out (issue 26, item 7):

- `claims`: the update claims and leases (`bot.store.delivery`), made by the
  store's own calls for `--claims` update ids of Telegram's size: the bytes a
  final claim keeps (`UPDATE_TTL`, an hour) and a lease (while handled), and
  so the MB every sustained update a second keeps (an hour of claims);
- `updates_per_game`: how many updates one whole game of `--players` people
  is, through the real dispatcher (`benchmarks.chat_volume`: each person
  presses level by level through the prompt's menus; lobby and /start too);
- `fork`: the copy-on-write of a BGSAVE and of an AOF rewrite (Redis forks;
  the pages the parent writes while the child runs are copied), measured on
  this dataset while a writer presses as the bot does (a claim, a save of
  one command, the claim made final) at `--press-rate` presses a second, the
  child slowed (`rdb-key-save-delay`) to last `--fork-seconds`; and the
  dataset's save throughput unslowed, so how long a fork of `--budget-mb`
  lasts;
- `year`: the most games a day (each group playing `--games-a-week`) whose
  year fits `--budget-mb` with the claims of the busiest hour (`--peak` times
  the day's mean rate) and the fork's headroom (`--cow-margin` times the
  measured copy-on-write, scaled to a fork of the whole budget at that hour's
  rate) — see README "Memory".

Games at own pace (issue 40) spend their days waiting on a deadline, each
keeping its running record and command log: what one costs and how many a
budget holds beside the histories is `benchmarks.waiting`'s model (same
budget, same fork headroom; README "Memory", "Games at own pace, waiting").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from redis.asyncio import Redis

from bot.service.ratings import Ratings
from bot.store import UPDATE_TTL
from bot.store.delivery import Delivery, lease_for
from bot.store.models import Seat, Table
from bot.store.redis import RedisStore
from bot.words.i18n import Translator
from engine import Command, GameSetup, apply, new_game, pending
from engine.ai.easy import choose

NAMES = ["Анна Каренина", "Борис Годунов", "Вера Павлова", "Глеб Жеглов", "Дина Рубина", "Егор"]
TITLE = "Смута по пятницам"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def own_redis(*flags: str, port: int = 0) -> Iterator[str]:
    """A ``redis-server`` of this benchmark's own on ``port`` (0: a free one), in a
    temporary directory, started with ``flags``; yields its URL once it accepts
    connections and stops it on the way out."""
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server is not installed")
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix=f"r{port}-") as workdir:
        command = [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", workdir, *flags]
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait()


def whole_game(players: int, seed: int) -> tuple[GameSetup, Any, list[Command]]:
    setup = GameSetup(players=players, seed=seed)
    state, _ = new_game(setup)
    commands: list[Command] = []
    while (decision := pending(state)) is not None:
        option = choose(seed + len(commands), decision)
        apply(state, decision.seat, decision.id, option)
        commands.append(Command(seat=decision.seat, decision=decision.id, option=option))
    return setup, state, commands


async def play(store: RedisStore, chat: int, seed: int, players: int, rng: random.Random) -> None:
    """One whole game in `chat`, saved as the bot saves it."""
    regulars = [(abs(chat) % 10**6) * 10 + i for i in range(6)]
    people = rng.sample(range(6), players)
    existing = await store.load(chat)
    last = max(existing.game_no if existing else 0, await store.last_game_no(chat))
    table = Table(
        chat_id=chat,
        game_no=last + 1,
        title=TITLE,
        creator_id=regulars[people[0]],
        seats=[Seat(user_id=regulars[i], name=NAMES[i]) for i in people],
        version=existing.version if existing else 0,
    )
    assert await store.save(table)
    setup, state, commands = whole_game(players, seed)
    table.setup, table.status = setup, "playing"
    table.state, _ = new_game(setup)
    for i in range(0, len(commands) - 1, 10):
        assert await store.save(table, commands[i : min(i + 10, len(commands) - 1)])
    table.state, table.status = state, "finished"
    assert await store.save(table, commands[-1:])


async def used(client: Any) -> int:
    info = await client.info("memory")
    return int(info["used_memory"])


async def held(client: Any) -> int:
    """`used_memory` less the clients' buffers (which grow and shrink with
    the connections in use, not with what is kept)."""
    info = await client.info("memory")
    return int(info["used_memory"]) - int(info["mem_clients_normal"])


async def forget_records(client: Any, store: RedisStore, chats: list[int]) -> None:
    """The records' week passes (lobbies, games, finished records expire, and
    the marks of the games queued for their ratings: `QUEUED_MARK`, a week)."""
    for chat in chats:
        await client.delete(store._table_key(chat), store._log_key(chat), store._msgs_key(chat))
    marks = [key async for key in client.scan_iter(match=store._queued_key("*"))]
    if marks:
        await client.delete(*marks)


async def measure(client: Any, games: int, chats: int, players: int) -> dict[str, Any]:
    """Two halves of the games; each half's finished records then expire. What
    the second half adds is per game; what the first leaves beyond its games
    is per chat (profiles of figures, sets, the history's own keys)."""
    store = RedisStore(client, "smuta")
    ratings = Ratings(store, Translator())
    await play(store, -1, 0, players, random.Random(0))  # the scripts loaded, then forgotten
    await client.flushall()
    empty = await used(client)
    rng = random.Random(1)
    chat_ids = [-1001000000000 - i for i in range(chats)]
    half = games // 2
    kept: list[int] = []
    with_records = 0
    for start, stop in ((0, half), (half, games)):
        for n in range(start, stop):
            await play(store, chat_ids[n % chats], n + 1, players, rng)
            if n % 50 == 49:
                await ratings.drain()
        await ratings.drain()
        with_records = await used(client) - empty
        await forget_records(client, store, chat_ids)
        kept.append(await used(client) - empty)
    per_game = (kept[1] - kept[0]) / (games - half)
    per_chat = (kept[0] - per_game * half) / chats
    history_bytes = 0
    for chat in chat_ids[: min(chats, 20)]:
        fields = await client.hgetall(store._history_key(chat))
        games_kept = sum(1 for f in fields if f.startswith(b"r:"))
        size = sum(len(f) + len(v) for f, v in fields.items() if f != b"last")
        index_entry = len(str(games)) + len(f"{chat}:{games}")
        history_bytes = max(history_bytes, size // max(1, games_kept) + index_entry)
    return {
        "games": games,
        "chats": chats,
        "players": players,
        "kept_per_game": round(per_game),
        "kept_per_chat": round(per_chat),
        "kept_total": kept[1],
        "with_records_total": with_records,
        "record_per_chat": round((with_records - kept[1]) / chats),
        "history_bytes_per_game": history_bytes,
    }


#: Telegram's update ids are 9–10 digits
UPDATE_ID_BASE = 700_000_000


async def claims(client: Any, store: RedisStore, n: int) -> dict[str, Any]:
    """Bytes of `n` final claims of each kind, then of `n` leases, each made
    as the bot makes them (`first_delivery`, then made final): by the save the
    update made (``done:<token>``, most updates: every move), or once handled
    (``done``: a command that saved nothing). The model counts the larger."""
    lease = lease_for(8.0)

    async def batch(first: int, final: str | None) -> None:
        for start in range(first, first + n, 200):
            deliveries = [Delivery(i, lease) for i in range(start, min(start + 200, first + n))]
            await asyncio.gather(*(store.first_delivery(d) for d in deliveries))
            if final is not None:
                await asyncio.gather(*(store._delivered(d, final) for d in deliveries))

    # the pool's connections opened (and their buffers counted) before measuring
    await batch(UPDATE_ID_BASE - n, final="done")
    await client.delete(*(store._update_key(i) for i in range(UPDATE_ID_BASE - n, UPDATE_ID_BASE)))
    before = await held(client)
    await batch(UPDATE_ID_BASE, final="done")
    done = await held(client)
    await batch(UPDATE_ID_BASE + n, final="saved")
    saved = await held(client)
    await batch(UPDATE_ID_BASE + 2 * n, final=None)
    leased = await held(client)
    for start in range(UPDATE_ID_BASE + 2 * n, UPDATE_ID_BASE + 3 * n, 1000):  # leases run out
        await client.delete(*(store._update_key(i) for i in range(start, start + 1000)))
    per_done = (done - before) / n
    per_saved = (saved - done) / n
    per_claim = max(per_done, per_saved)
    return {
        "n": n,
        "bytes_per_claim": round(per_claim),
        "bytes_per_saved_claim": round(per_saved),
        "bytes_per_done_claim": round(per_done),
        "bytes_per_lease": round((leased - saved) / n),
        "mb_per_update_per_sec": round(per_claim * UPDATE_TTL / 1e6, 3),
    }


async def updates_per_game(players: int, seeds: list[int]) -> dict[str, Any]:
    """Updates a whole game of people is, through the real dispatcher."""
    from benchmarks.chat_volume import play_game
    from tests.bot.fake_telegram import UPDATE_IDS

    counts, decisions = [], []
    for seed in seeds:
        first = next(UPDATE_IDS)
        _, volume = await play_game(players, seed)
        counts.append(next(UPDATE_IDS) - first - 1)
        decisions.append(volume.decisions)
    return {
        "games": len(seeds),
        "updates": round(sum(counts) / len(counts)),
        "decisions": round(sum(decisions) / len(decisions)),
    }


async def persistence(client: Any) -> dict[str, Any]:
    return dict(await client.info("persistence"))


async def forked(client: Any, start: str, busy: str) -> float:
    """Starts a fork (`BGSAVE` or `BGREWRITEAOF`); seconds until its child is done."""
    began = time.perf_counter()
    await client.execute_command(start)
    await asyncio.sleep(0.01)
    while int((await persistence(client))[busy]):
        await asyncio.sleep(0.01)
    return time.perf_counter() - began


async def fork(
    client: Any, store: RedisStore, players: int, rate: float, seconds: float, budget_mb: float
) -> dict[str, Any]:
    """Copy-on-write of a BGSAVE and an AOF rewrite while a writer presses at
    `rate` a second, each child slowed to last about `seconds`."""
    dataset = await held(client)
    keys = int(await client.dbsize())
    save_s = await forked(client, "BGSAVE", "rdb_bgsave_in_progress")
    throughput = dataset / save_s  # bytes a second, unslowed (this dataset's mix)
    await client.config_set("rdb-key-save-delay", str(max(1, round(seconds * 1e6 / keys))))
    presses = 0
    stop = asyncio.Event()
    chat, seed, update = -1009000000000, 10**6, UPDATE_ID_BASE * 2  # fresh chats and ids

    async def writer() -> None:
        nonlocal presses, chat, seed, update
        lease = lease_for(8.0)
        pace = 1 / rate
        due = time.perf_counter()
        while not stop.is_set():
            table = Table(chat_id=chat, game_no=1, title=TITLE, creator_id=1, seats=[], version=0)
            table.seats = [Seat(user_id=chat * -10 + i, name=NAMES[i]) for i in range(players)]
            assert await store.save(table)
            setup, _, commands = whole_game(players, seed)
            table.setup, table.status = setup, "playing"
            table.state, _ = new_game(setup)
            for command in commands:
                if stop.is_set():
                    break
                due += pace
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                update += 1
                delivery = Delivery(update, lease)
                await store.first_delivery(delivery)
                assert await store.save(table, [command])
                await store.finish_delivery(delivery)
                presses += 1
            chat -= 1
            seed += 1

    figures: dict[str, Any] = {"held_mb": round(dataset / 1e6, 2), "keys": keys}
    for name, start, busy, cow in (
        ("bgsave", "BGSAVE", "rdb_bgsave_in_progress", "rdb_last_cow_size"),
        ("aof_rewrite", "BGREWRITEAOF", "aof_rewrite_in_progress", "aof_last_cow_size"),
    ):
        stop.clear()
        presses = 0
        task = asyncio.create_task(writer())
        took = await forked(client, start, busy)
        stop.set()
        await task
        copied = int((await persistence(client))[cow])
        figures[name] = {
            "child_seconds": round(took, 2),
            "presses": presses,
            "cow_mb": round(copied / 1e6, 2),
            "cow_bytes_per_press": round(copied / max(1, presses)),
        }
    await client.config_set("rdb-key-save-delay", "0")
    worst = max(
        figures["bgsave"]["cow_bytes_per_press"], figures["aof_rewrite"]["cow_bytes_per_press"]
    )
    figures["save_mb_per_sec"] = round(throughput / 1e6, 1)
    figures["budget_fork_seconds"] = round(budget_mb * 1e6 / throughput, 2)
    figures["cow_bytes_per_press"] = worst
    info = await client.info("memory")
    figures["used_memory_mb"] = round(int(info["used_memory"]) / 1e6, 2)
    figures["used_memory_rss_mb"] = round(int(info["used_memory_rss"]) / 1e6, 2)
    return figures


def year(
    figures: dict[str, Any],
    budget_mb: float,
    a_week: float,
    peak: float,
    margin: float,
) -> dict[str, Any]:
    """The most games a day whose year fits `budget_mb` (and what fills it)."""
    per_game = figures["kept_per_game"]
    per_chat = figures["kept_per_chat"]
    record = figures["record_per_chat"]
    updates = figures["updates_per_game"]["updates"]
    claim = figures["claims"]["bytes_per_claim"]
    cow = figures["fork"]["cow_bytes_per_press"]
    fork_s = figures["fork"]["budget_fork_seconds"]

    def parts(per_day: float) -> dict[str, float]:
        groups = per_day * 7 / a_week
        peak_rate = per_day * updates / 86400 * peak
        return {
            "history_mb": (per_day * 365 * per_game + groups * per_chat) / 1e6,
            "records_mb": groups * record / 1e6,
            "claims_mb": peak_rate * UPDATE_TTL * claim / 1e6,
            "fork_headroom_mb": min(budget_mb, margin * peak_rate * fork_s * cow / 1e6),
        }

    low, high = 0.0, 1e6
    while high - low > 0.5:
        mid = (low + high) / 2
        if sum(parts(mid).values()) <= budget_mb:
            low = mid
        else:
            high = mid
    per_day = int(low)
    out = {k: round(v, 1) for k, v in parts(per_day).items()}
    return {
        "budget_mb": budget_mb,
        "games_per_day": per_day,
        "groups": int(per_day * 7 / a_week),
        "games_a_week_per_group": a_week,
        "mean_updates_per_sec": round(per_day * updates / 86400, 2),
        "peak_updates_per_sec": round(per_day * updates / 86400 * peak, 2),
        **out,
    }


async def everything(url: str, args: argparse.Namespace) -> dict[str, Any]:
    client: Any = Redis.from_url(url)
    store = RedisStore(client, "smuta")
    try:
        figures = await measure(client, args.games, args.chats, args.players)
        figures["claims"] = await claims(client, store, args.claims)
        figures["fork"] = await fork(
            client, store, args.players, args.press_rate, args.fork_seconds, args.budget_mb
        )
    finally:
        await client.aclose()
    figures["updates_per_game"] = await updates_per_game(args.players, args.update_seeds)
    figures["year"] = year(figures, args.budget_mb, args.games_a_week, args.peak, args.cow_margin)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--claims", type=int, default=20000)
    parser.add_argument("--update-seeds", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--press-rate", type=float, default=20.0)
    parser.add_argument("--fork-seconds", type=float, default=5.0)
    parser.add_argument("--budget-mb", type=float, default=256.0)
    parser.add_argument("--games-a-week", type=float, default=3.0)
    parser.add_argument("--peak", type=float, default=4.0)
    parser.add_argument("--cow-margin", type=float, default=2.0)
    args = parser.parse_args()
    with own_redis("--save", "", "--appendonly", "no") as url:
        figures = asyncio.run(everything(url, args))
    print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
