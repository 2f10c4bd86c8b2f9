"""Load: many games at once through the real dispatcher and real Redis.

    python -m benchmarks.bot_load --games 200 --players 4 [--seed 1] [--redis URL]

Scripted people (one per seat, no computer seats) press the buttons of their
prompts as a person would — menu level by level, a random button each time —
in all games at once, with a fake Telegram that answers instantly. Prints one
JSON line:

- `updates_per_sec`: button presses handled per second, all games together;
- `p50_ms`, `p99_ms`: time to handle one press;
- `redis_roundtrips_per_update`: network round trips to Redis while handling
  a press (a pipeline or a script is one);
- `group_messages_per_turn`: new messages the groups received per turn;
- `errors`: presses that failed or ended in the bot's error handler.

The driver's own reads (whose turn it is) are not counted as round trips.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import logging
import random
import statistics
import time
import uuid
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardMarkup, User
from redis.asyncio.connection import AbstractConnection

from bot.app import SystemClock, build_app
from bot.games import Defaults
from bot.keyboards import LobbyCb, PromptCb
from bot.store.redis import RedisStore
from engine import pending
from tests.bot.fake_telegram import FakeTelegram, Updates
from tests.bot.harness import InstantPace

IN_UPDATE: contextvars.ContextVar[bool] = contextvars.ContextVar("in_update", default=False)
ROUNDTRIPS = [0]


def count_roundtrips() -> None:
    original = AbstractConnection.send_packed_command

    async def counted(self: AbstractConnection, *args: Any, **kwargs: Any) -> None:
        if IN_UPDATE.get():
            ROUNDTRIPS[0] += 1
        await original(self, *args, **kwargs)

    AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]


class ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def main(games: int, players: int, seed: int, redis_url: str) -> dict[str, Any]:
    count_roundtrips()
    errors = ErrorCount()
    logging.getLogger("bot").addHandler(errors)
    logging.getLogger("aiogram").addHandler(errors)
    rng = random.Random(seed)
    prefix = f"smuta-bench:{uuid.uuid4().hex[:8]}"
    store = RedisStore.from_url(redis_url, prefix=prefix)
    tg = FakeTelegram()
    bot = Bot("42:BENCH", session=tg, default=DefaultBotProperties(parse_mode="HTML"))
    app = build_app(
        bot,
        store,
        Defaults(turn_timeout=3600, choice_timeout=3600),
        clock=SystemClock(),
        pace=InstantPace(),
    )
    updates = Updates()
    dp = app.dispatcher
    back_label = {app.games.tr.t(lang, "btn-back") for lang in ("ru", "en")}

    async def feed(update: Any) -> None:
        await dp.feed_update(bot, update)

    # ---- lobbies (not measured)
    tables: list[tuple[int, list[User]]] = []
    for g in range(games):
        chat = -(10**12) - g
        users = [
            User(id=1_000_000 + g * 10 + s, is_bot=False, first_name=f"P{g}-{s}")
            for s in range(players)
        ]
        for user in users:
            await feed(updates.message(user.id, user, "/start"))
        await feed(updates.message(chat, users[0], "/newgame"))
        lobby = max(mid for (c, mid) in tg.texts if c == chat)
        game_no = (await store.load(chat)).game_no  # type: ignore[union-attr]
        for user in users[1:]:
            await feed(
                updates.press(user, chat, lobby, LobbyCb(action="join", game=game_no).pack())
            )
        await feed(updates.press(users[0], chat, lobby, LobbyCb(action="go", game=game_no).pack()))
        tables.append((chat, users))

    # ---- play (measured)
    latencies: list[float] = []
    failures = [0]
    group_sends_before = sum(1 for r in tg.requests if isinstance(r, SendMessage) and r.chat_id < 0)  # type: ignore[operator]

    async def press(user: User, chat_id: int, message_id: int, data: str) -> None:
        token = IN_UPDATE.set(True)
        start = time.perf_counter()
        try:
            await feed(updates.press(user, chat_id, message_id, data))
        except Exception:
            failures[0] += 1
        finally:
            latencies.append((time.perf_counter() - start) * 1000)
            IN_UPDATE.reset(token)

    async def play(chat: int, users: list[User]) -> int:
        for _ in range(20_000):
            table, ids = await store.load_with_messages(chat)
            assert table is not None
            if table.status == "finished" or table.state is None:
                return table.state.turn if table.state else 0
            decision = pending(table.state)
            assert decision is not None
            user = users[decision.seat]
            message_id = ids.get(f"prompt:{decision.seat}")
            markup = tg.markups.get((user.id, message_id)) if message_id else None
            if not isinstance(markup, InlineKeyboardMarkup):
                await asyncio.sleep(0)
                continue
            buttons = [
                b.callback_data
                for row in markup.inline_keyboard
                for b in row
                if b.callback_data and b.text not in back_label
            ]
            data = rng.choice(buttons)
            assert PromptCb.unpack(data).decision == decision.id
            await press(user, user.id, message_id, data)  # type: ignore[arg-type]
        raise RuntimeError(f"game {chat} did not end")

    started = time.perf_counter()
    turns = await asyncio.gather(*(play(chat, users) for chat, users in tables))
    elapsed = time.perf_counter() - started
    group_sends = (
        sum(1 for r in tg.requests if isinstance(r, SendMessage) and r.chat_id < 0)  # type: ignore[operator]
        - group_sends_before
    )
    await store.close()
    cleanup = RedisStore.from_url(redis_url, prefix=prefix)
    keys = [k async for k in cleanup._r.scan_iter(match=f"{prefix}:*", count=1000)]
    if keys:
        await cleanup._r.delete(*keys)
    await cleanup.close()
    ordered = sorted(latencies)
    return {
        "games": games,
        "players": players,
        "updates": len(latencies),
        "updates_per_sec": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(ordered), 2),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 2),
        "redis_roundtrips_per_update": round(ROUNDTRIPS[0] / max(len(latencies), 1), 2),
        "group_messages_per_turn": round(group_sends / max(sum(turns), 1), 2),
        "turns": sum(turns),
        "errors": failures[0] + errors.count,
        "seconds": round(elapsed, 1),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Load benchmark of the bot (one process).")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    result = asyncio.run(main(args.games, args.players, args.seed, args.redis))
    print(json.dumps(result))
