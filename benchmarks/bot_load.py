"""Load: many games at once through the real dispatcher and real Redis.

    python -m benchmarks.bot_load --games 200 --players 4 [--rate 300] [--seconds 60]
                                  [--seed 1] [--redis URL]
                                  [--computers N --level strong --workers W] [--where]
                                  [--reviews SECONDS] [--cluster]

`--games` groups play at once for `--seconds`, each starting a new game when
one ends, so the load stays the same throughout. Scripted people (one per
seat, no computer seats) play:
each waits for a prompt in their private chat, thinks, and presses one of its
buttons — menu level by level, a random button each time. Updates reach the
bot as Telegram delivers them to a webhook (raw JSON-like dicts, validated by
aiogram), and the bot's requests go to a stand-in Telegram session that
answers at once.

`--rate R` paces the people: each game's presses fall due at random moments
(a Poisson process with a mean gap of games / R seconds), so the presses of
all games together arrive at about R a second, as from many independent
chats — latency is then what a person waits at that load.
`--rate 0` drops the thinking: every game always has a press waiting, which
shows the most the process can do (and latency that is mostly queueing).

`--computers N --level L`: each game also seats N computers of level L. The
timers then run for real (a computer moves 0.2 s after its turn comes, as a
person would see it), the computers think in a pool of `--workers` processes
(as `python -m bot` runs them), and the people's latency is measured while
they think — the figure that shows the search stays off the event loop. Adds
`computer_moves`, `think_p50_ms`/`think_p99_ms` (one computer answer, pool
round trip included) and `loop_lag_p99_ms` (how late a 10 ms heartbeat on the
event loop woke up: a search on the loop would show here).

Prints one JSON line:

- `updates_per_sec`: updates (presses and the commands of new games) served
  per second, all games together;
- `p50_ms`, `p99_ms`: time from an update's arrival to the bot having handled
  it (its messages sent, its record saved);
- `redis_roundtrips_per_update`: network round trips to Redis while handling
  a press (a pipeline or a script is one); `--where` also prints them per
  update by store call and its caller;
- `group_messages_per_turn`: new messages the groups received per turn;
- `errors`: presses that failed or ended in the bot's error handler;
- `cpu_ms_per_update`: the process's CPU time (bot and scripted people
  together) per update fed (served or shed); `cpu_ms_per_served`: per update
  served;
- `shed_per_sec`, `shed_p99_ms`: presses shed past capacity (answered «🐢
  перегружен», `bot.handlers.admission`) and how long their answer took;
  `served_within_1s`: the share of updates served within a second. A shed
  press stays on the person's prompt, and they press again at their next turn
  to think.

`--cluster`: the store on a three-master Redis Cluster of its own on
loopback (`tests.bot.cluster`, Debian's redis-server), each master with a
replica, as ``REDIS_CLUSTER=1`` runs it (each save waiting for its master's
replica; `--cluster-replicas 0`: none, and no wait);
`redis_roundtrips_per_update` then counts a pipeline once a master it went
to (sends, not waits).

`--reviews S`: each finished game's reviews (issue 27) may take S CPU-seconds
(default 0: none). They are made after a game, never on an update's path —
in the bot in its worker process, here (no computers: no pool) in a thread of
this process, whose CPU the figures would then count per update; their own
cost, per game, is `benchmarks.review`'s.

The pace limiter runs on a make-believe clock: it still orders each chat's
messages, but its waits (Telegram's per-group limits, which people playing at
this rate would hit) are not slept, so the figures are the bot's own work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import itertools
import json
import logging
import random
import statistics
import time
import traceback
import uuid
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageReplyMarkup,
    EditMessageText,
    GetMe,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import Chat, InlineKeyboardMarkup, Message, User
from redis.asyncio.connection import AbstractConnection

from bot.app import SystemClock, build_app, freeze_startup_objects
from bot.service.games import Defaults
from bot.service.thinking import Thinker
from bot.store.redis import RedisStore
from bot.telegram.pace import Pace
from bot.words.keyboards import LobbyCb
from engine import Decision, GameState, pending
from engine.ai import LEVELS, Level
from engine.core import Option
from tests.bot.cluster import started, stopped
from tests.bot.fake_telegram import FakeTelegram

IN_UPDATE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_update", default=False)
ROUNDTRIPS = [0]
BOT_USER = User(id=42, is_bot=True, first_name="Смута", username="smuta_bench_bot")
NOW = datetime(2026, 11, 29, tzinfo=UTC)
EPOCH = int(NOW.timestamp())
DRAIN_SECONDS = 8.0  # as `bot.config.Settings.drain_seconds`


#: round trips by the store call that made them and its caller (`--where`)
WHERE: Counter[str] | None = None


def count_roundtrips() -> None:
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        if IN_UPDATE.get():
            ROUNDTRIPS[0] += 1
            if WHERE is not None:
                WHERE[caller()] += 1
        await original(self, *args, **kwargs)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]


def caller() -> str:
    """``<store call> < <its caller>``: the innermost frame in the store and
    the frame that called into it."""
    frames = [f for f in traceback.extract_stack() if "/bot/" in f.filename]
    store = [i for i, f in enumerate(frames) if "/bot/store/" in f.filename]
    if not store:
        return frames[-1].name if frames else "?"
    outer = store[0]
    # (the claim's wrapper, `claimed`, stands before every store call but the reads)
    inside = next((frames[i].name for i in store if frames[i].name != "claimed"), "?")
    by = frames[outer - 1] if outer > 0 else None
    return f"{inside} < {by.name} ({by.filename.rsplit('/', 1)[-1]})" if by else inside


class ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class NoWaitPace(Pace):
    """The real pace on a make-believe clock: order kept, waits not slept."""

    def __init__(self) -> None:
        self.t = 0.0

        async def sleep(seconds: float) -> None:
            self.t += seconds

        super().__init__(clock=lambda: self.t, sleep=sleep)


def is_lobby(markup: Any) -> bool:
    return isinstance(markup, InlineKeyboardMarkup) and any(
        (b.callback_data or "").startswith("lb:") for row in markup.inline_keyboard for b in row
    )


def message_sent(method: SendMessage, message_id: int) -> Message:
    """What Telegram answers to a sendMessage: the message, as sent."""
    assert isinstance(method.chat_id, int)
    return Message(
        message_id=message_id,
        date=NOW,
        chat=Chat(id=method.chat_id, type="private" if method.chat_id > 0 else "group"),
        from_user=BOT_USER,
        text=method.text,
    )


class BenchTelegram(FakeTelegram):
    """Answers the bot's requests at once and keeps, for each person, the
    message whose buttons they can press now (a prompt loses its buttons when
    it is answered). Unlike the tests' fake it records nothing else, so a long
    run does not grow."""

    def __init__(self) -> None:
        super().__init__()
        self.group_sends = 0
        self.keyboards: dict[int, tuple[int, InlineKeyboardMarkup]] = {}
        self.arrived: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.lobbies: dict[int, int] = {}  # group → its latest lobby message
        self.lobby_posted: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.overloaded: set[str] = set()  # the texts of a shed press's answer
        self.shed: set[str] = set()  # the presses (callback query ids) answered with one

    def _buttons(self, chat_id: int, message_id: int, markup: Any) -> None:
        if isinstance(markup, InlineKeyboardMarkup) and chat_id > 0:
            self.keyboards[chat_id] = (message_id, markup)
            self.arrived[chat_id].set()
        elif chat_id > 0 and self.keyboards.get(chat_id, (None,))[0] == message_id:
            del self.keyboards[chat_id]

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        if isinstance(method, GetMe):
            return BOT_USER
        if isinstance(method, AnswerCallbackQuery) and method.text in self.overloaded:
            self.shed.add(method.callback_query_id)
        if isinstance(method, SendMessage):
            assert isinstance(method.chat_id, int)
            message_id = next(self.message_ids)
            if method.chat_id < 0:
                self.group_sends += 1
                if is_lobby(method.reply_markup):
                    self.lobbies[method.chat_id] = message_id
                    self.lobby_posted[method.chat_id].set()
            self._buttons(method.chat_id, message_id, method.reply_markup)
            return message_sent(method, message_id)
        if isinstance(method, EditMessageText | EditMessageReplyMarkup):
            assert isinstance(method.chat_id, int) and method.message_id is not None
            self._buttons(method.chat_id, method.message_id, method.reply_markup)
        return True


class Updates:
    """Raw updates as Telegram posts them to a webhook."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)

    @staticmethod
    def _user(user: User) -> dict[str, Any]:
        return {"id": user.id, "is_bot": False, "first_name": user.first_name}

    @staticmethod
    def _chat(chat_id: int) -> dict[str, Any]:
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        return {"id": chat_id, "type": "supergroup", "title": f"Bench {chat_id}"}

    def message(self, chat_id: int, user: User, text: str) -> dict[str, Any]:
        entities = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        return {
            "update_id": next(self.ids),
            "message": {
                "message_id": next(self.ids),
                "date": EPOCH,
                "chat": self._chat(chat_id),
                "from": self._user(user),
                "text": text,
                "entities": entities,
            },
        }

    def press(self, user: User, chat_id: int, message_id: int, data: str) -> dict[str, Any]:
        return {
            "update_id": next(self.ids),
            "callback_query": {
                "id": str(next(self.ids)),
                "from": self._user(user),
                "chat_instance": "ci",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "date": EPOCH,
                    "chat": self._chat(chat_id),
                    "from": self._user(BOT_USER),
                },
            },
        }


async def main(
    games: int,
    players: int,
    rate: float,
    seconds: float,
    seed: int,
    redis_url: str,
    computers: int = 0,
    level: Level = "strong",
    workers: int | None = None,
    reviews: float = 0.0,
    cluster: bool = False,
    wait_replicas: int = 0,
) -> dict[str, Any]:
    """`cluster`: `redis_url` names a node of a Redis Cluster, whose saves
    wait for `wait_replicas` of their master's replicas."""
    count_roundtrips()
    errors = ErrorCount()
    logging.getLogger("bot").addHandler(errors)
    logging.getLogger("aiogram").addHandler(errors)
    rng = random.Random(seed)
    prefix = f"smuta-bench:{uuid.uuid4().hex[:8]}"
    store = (
        RedisStore.from_cluster(redis_url, prefix, wait_replicas=wait_replicas)
        if cluster
        else RedisStore.from_url(redis_url, prefix)
    )
    tg = BenchTelegram()
    bot = Bot("42:BENCH", session=tg, default=DefaultBotProperties(parse_mode="HTML"))
    thinker = TimedThinker(workers if computers else 0)
    app = build_app(
        bot,
        store,
        Defaults(turn_timeout=300, choice_timeout=120, computer_pause=0.2),
        clock=SystemClock(),
        pace=NoWaitPace(),
        thinker=thinker,
        review_cpu=reviews,
    )
    app.ticker.interval = 0.05
    updates = Updates()
    dp = app.dispatcher
    back_labels = {app.games.tr.t(lang, "btn-back") for lang in ("ru", "en")}
    tg.overloaded = {app.games.tr.t(lang, "overloaded") for lang in ("ru", "en")}

    async def feed(update: dict[str, Any]) -> None:
        await dp.feed_raw_update(bot, update)

    async def open_game(
        chat: int, users: list[User], feed: Callable[[dict[str, Any]], Awaitable[None]] = feed
    ) -> None:
        tg.lobby_posted[chat].clear()
        await feed(updates.message(chat, users[0], "/newgame"))
        await tg.lobby_posted[chat].wait()  # told through the group's outbox
        lobby = tg.lobbies[chat]
        table = await store.load(chat)
        assert table is not None
        for user in users[1:]:
            await feed(
                updates.press(user, chat, lobby, LobbyCb(action="join", game=table.game_no).pack())
            )
        for _ in range(computers):
            data = LobbyCb(action=f"bot_{level}", game=table.game_no).pack()
            await feed(updates.press(users[0], chat, lobby, data))
        await feed(
            updates.press(users[0], chat, lobby, LobbyCb(action="go", game=table.game_no).pack())
        )

    # ---- people and their first games (not measured)
    tables: list[tuple[int, list[User]]] = []
    for g in range(games):
        chat = -(10**12) - g
        users = [
            User(id=1_000_000 + g * 10 + s, is_bot=False, first_name=f"P{g}-{s}")
            for s in range(players)
        ]
        for user in users:
            await feed(updates.message(user.id, user, "/start"))
        await open_game(chat, users)
        tables.append((chat, users))

    freeze_startup_objects()  # as `python -m bot` does once it is up

    # ---- play (measured): every chat plays game after game until the time is up
    latencies: list[float] = []  # the updates served
    shed: list[float] = []  # the presses shed (answered «overloaded»)
    failures = [0]
    turns = [0]
    mean_think = games / rate if rate > 0 else 0.0
    stop_at = time.perf_counter() + seconds

    async def measured(update: dict[str, Any]) -> None:
        token = IN_UPDATE.set(True)
        start = time.perf_counter()
        try:
            await feed(update)
        except Exception:
            failures[0] += 1
        finally:
            took = (time.perf_counter() - start) * 1000
            press = update.get("callback_query")
            if press is not None and press["id"] in tg.shed:
                tg.shed.discard(press["id"])
                shed.append(took)
            else:
                latencies.append(took)
            IN_UPDATE.reset(token)

    async def think(due: list[float]) -> bool:
        """Wait until this game's next press is due; False once the time is up.
        Presses are due at the moments of a Poisson process of the game's own
        (mean gap games / rate), whether the bot was quick or slow with the last
        one, so the load offered does not drop when the bot slows down."""
        if mean_think:
            due[0] += rng.expovariate(1 / mean_think)
            await asyncio.sleep(max(0.0, min(due[0], stop_at) - time.perf_counter()))
        return time.perf_counter() < stop_at

    async def play(chat: int, users: list[User]) -> None:
        ids = [u.id for u in users]
        due = [time.perf_counter()]
        quiet_since = [time.perf_counter()]  # the last prompt that came
        while time.perf_counter() < stop_at:
            prompted = [u for u in users if u.id in tg.keyboards]
            if not prompted:
                table = await store.load(chat)
                if table is not None and table.status == "finished":
                    assert table.state is not None
                    turns[0] += table.state.turn
                    if not await think(due):
                        break
                    await open_game(chat, users, measured)  # the group plays again
                    quiet_since[0] = time.perf_counter()
                    continue
                # nobody holds buttons yet: wait for the next prompt (one that came
                # while the record was read is seen by the look after the clear)
                for i in ids:
                    tg.arrived[i].clear()
                if any(u.id in tg.keyboards for u in users):
                    continue
                waits = [asyncio.ensure_future(tg.arrived[i].wait()) for i in ids]
                # a second at a time: the computers may end the game with no prompt
                done, rest = await asyncio.wait(waits, timeout=1, return_when="FIRST_COMPLETED")
                for w in rest:
                    w.cancel()
                if done:
                    quiet_since[0] = time.perf_counter()
                elif time.perf_counter() - quiet_since[0] > 60:
                    table = await store.load(chat)
                    state = table.state if table is not None else None
                    raise RuntimeError(
                        f"game {chat} stalled: {table and table.status}, waiting for "
                        f"{state and pending(state)}, deadline {table and table.deadline}"
                    )
                continue
            user = prompted[0]
            message_id, markup = tg.keyboards[user.id]
            buttons = [
                b.callback_data
                for row in markup.inline_keyboard
                for b in row
                if b.callback_data and b.text not in back_labels
            ]
            if not await think(due):
                break
            await measured(updates.press(user, user.id, message_id, rng.choice(buttons)))
            quiet_since[0] = time.perf_counter()
        table = await store.load(chat)  # the turns of the game left running
        if table is not None and table.state is not None and table.status != "finished":
            turns[0] += table.state.turn

    lags: list[float] = []

    async def heartbeat() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.perf_counter() - before - 0.01) * 1000)

    ticking = asyncio.create_task(app.ticker.run()) if computers else None
    beating = asyncio.create_task(heartbeat())
    group_sends_before = tg.group_sends
    started = time.perf_counter()
    cpu_started = time.process_time()
    await asyncio.gather(*(play(chat, users) for chat, users in tables))
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    beating.cancel()
    if ticking is not None:
        app.ticker.stop()
        await ticking
    thinker.close()
    group_sends = tg.group_sends - group_sends_before
    # as a process stops: what the groups are still to be told, then the feed,
    # and only then the store (an outbox still at work would find it closed)
    await app.telling.drain(DRAIN_SECONDS)
    await app.close_feed()
    await store.close()
    if not cluster:  # (a cluster of its own goes whole)
        cleanup = RedisStore.from_url(redis_url, prefix=prefix)
        keys = [k async for k in cleanup._r.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await cleanup._r.delete(*keys)
        await cleanup.close()
    ordered = sorted(latencies)
    handled = len(latencies) + len(shed)
    return {
        "games": games,
        "players": players,
        "offered_per_sec": rate or None,
        "updates": len(latencies),
        "updates_per_sec": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
        "served_within_1s": round(sum(t <= 1000 for t in ordered) / max(len(ordered), 1), 4),
        "shed_per_sec": round(len(shed) / elapsed, 1),
        "shed_p99_ms": round(percentile(sorted(shed), 0.99), 2),
        "redis_roundtrips_per_update": round(ROUNDTRIPS[0] / max(handled, 1), 2),
        "group_messages_per_turn": round(group_sends / max(turns[0], 1), 2),
        "turns": turns[0],
        "errors": failures[0] + errors.count,
        "cpu_ms_per_update": round(cpu * 1000 / max(handled, 1), 2),
        "cpu_ms_per_served": round(cpu * 1000 / max(len(latencies), 1), 2),
        "seconds": round(elapsed, 1),
        **(thinker.figures() if computers else {}),
        "loop_lag_p99_ms": round(percentile(sorted(lags), 0.99), 1),
    }


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


class TimedThinker(Thinker):
    """The bot's thinker, timing each computer answer as the bot awaits it."""

    def __init__(self, workers: int | None) -> None:
        super().__init__(workers)
        self.times: list[float] = []

    async def decide(
        self, state: GameState, decision: Decision, level: Level, urgent: bool = False
    ) -> Option:
        start = time.perf_counter()
        try:
            return await super().decide(state, decision, level, urgent)
        finally:
            self.times.append((time.perf_counter() - start) * 1000)

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.times)
        return {
            "computer_moves": len(ordered),
            "think_p50_ms": round(percentile(ordered, 0.5), 1),
            "think_p99_ms": round(percentile(ordered, 0.99), 1),
        }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Load benchmark of the bot (one process).")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--rate", type=float, default=300.0, help="presses a second, all games (0: no thinking)"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--computers", type=int, default=0, help="computer seats a game")
    parser.add_argument("--level", choices=LEVELS, default="strong")
    parser.add_argument("--workers", type=int, default=None, help="thinking processes")
    parser.add_argument(
        "--where", action="store_true", help="also print the round trips by store call and caller"
    )
    parser.add_argument(
        "--reviews", type=float, default=0.0, help="CPU seconds a game's reviews may take (0: none)"
    )
    parser.add_argument("--cluster", action="store_true", help="on a 3-master cluster of its own")
    parser.add_argument(
        "--cluster-replicas", type=int, default=1, help="replicas a master (--cluster; 0: none)"
    )
    args = parser.parse_args()
    if args.where:
        WHERE = Counter()
    # a cluster of its own, gone after
    nodes = started(replicas=args.cluster_replicas) if args.cluster else None
    try:
        result = asyncio.run(
            main(
                args.games,
                args.players,
                args.rate,
                args.seconds,
                args.seed,
                args.redis if nodes is None else nodes.url,
                args.computers,
                args.level,
                args.workers,
                args.reviews,
                nodes is not None,
                args.cluster_replicas,
            )
        )
    finally:
        if nodes is not None:
            stopped(nodes)
    print(json.dumps(result))
    if WHERE is not None:
        for where, count in WHERE.most_common():
            print(f"{count / max(result['updates'], 1):6.2f}  {where}")
