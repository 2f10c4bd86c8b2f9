"""What a person waits for: press → answer → next prompt, whole games, real pace.

    python -m benchmarks.press_latency --games 20 --players 4 --seconds 120
                                       [--rtt 40] [--think 2] [--seed 1] [--redis URL]

`--games` groups of `--players` scripted people play whole games (game after
game) through the real dispatcher and store; updates reach the dispatcher as
polling hands them over (a task each). The bot's requests go to a Telegram
stand-in that

- takes `--rtt` milliseconds (±50 %) to answer each request, as the Bot API
  does from a server nearby;
- holds groups to Telegram's limits: a request to a group less than a second
  after the last one, or a 21st new message within a minute, is answered 429
  (`retry_after` as Telegram would say) — counted in `too_many_requests`.

The bot runs its real outbound pace on the real clock. Each person waits for
their prompt, thinks (`--think` seconds on average, exponential), and presses
a button of it at random, menu level by level. Measured per press:

- `answer_ms`: press → the callback answered (the button stops spinning);
- `prompt_ms`: for a press that answers a decision, press → the next person
  to decide has their new prompt (the same person included, for the next
  action of their turn); presses whose next decider is nobody (the game
  ended) are left out;
- `menu_ms`: for a press that opens a menu level, press → that level shown.

And for the groups: `group_requests_per_turn` (sends and edits a group got
per turn), `peak_group_requests_per_minute` and
`peak_group_new_messages_per_minute` (the most any group got in any sliding
minute), and `too_many_requests` (should be 0: the pace keeps to the limits).

Prints one JSON line with p50/p90/p99 of each latency.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import logging
import random
import statistics
import time
import uuid
from collections import defaultdict, deque
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    GetMe,
    SendMessage,
    TelegramMethod,
)
from aiogram.types import ChatMemberMember, InlineKeyboardMarkup, User

from benchmarks.bot_load import BOT_USER, ErrorCount, Updates, is_lobby, message_sent
from bot.app import SystemClock, build_app
from bot.service.games import Defaults
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.words.keyboards import LobbyCb
from engine import pending
from tests.bot.fake_telegram import FakeTelegram

GROUP_GAP = 1.0  # Telegram: about one request a second to a group
GROUP_PER_MINUTE = 20  # Telegram: new messages a minute to a group


def is_prompt(markup: Any) -> bool:
    return isinstance(markup, InlineKeyboardMarkup) and any(
        (b.callback_data or "").startswith("p:") for row in markup.inline_keyboard for b in row
    )


class PacedTelegram(FakeTelegram):
    """A Telegram that takes its time and holds groups to their limits; it
    keeps, for each person, the message whose buttons they can press."""

    def __init__(self, rtt: float, rng: random.Random) -> None:
        super().__init__()
        self.rtt = rtt
        self.rng = rng
        self.keyboards: dict[int, tuple[int, InlineKeyboardMarkup]] = {}
        self.changed: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.lobbies: dict[int, int] = {}
        self.lobby_posted: defaultdict[int, asyncio.Event] = defaultdict(asyncio.Event)
        self.answered: dict[str, float] = {}  # callback id → when its answer arrived
        self.prompted: defaultdict[int, list[float]] = defaultdict(list)  # user → prompt moments
        self.group_requests: defaultdict[int, list[tuple[float, bool]]] = defaultdict(list)
        self.too_many = 0
        self._last: dict[int, float] = {}
        self._minute: defaultdict[int, deque[float]] = defaultdict(deque)

    def _limit(self, chat_id: int, new_message: bool, now: float) -> float | None:
        """Seconds Telegram would ask to wait, or None when the request may go."""
        last = self._last.get(chat_id)
        if last is not None and now - last < GROUP_GAP * 0.95:
            return GROUP_GAP - (now - last)
        sends = self._minute[chat_id]
        while sends and sends[0] <= now - 60.0:
            sends.popleft()
        if new_message and len(sends) >= GROUP_PER_MINUTE:
            return sends[0] + 60.0 - now
        return None

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        await asyncio.sleep(self.rtt * self.rng.uniform(0.5, 1.5) / 2)  # there
        now = time.perf_counter()
        chat_id = getattr(method, "chat_id", None)
        if isinstance(method, GetMe):
            result: Any = BOT_USER
        elif isinstance(method, GetChatMember):
            result = ChatMemberMember(user=User(id=method.user_id, is_bot=False, first_name="x"))
        elif isinstance(method, AnswerCallbackQuery):
            self.answered[method.callback_query_id] = now
            result = True
        else:
            if isinstance(chat_id, int) and chat_id < 0:
                new = isinstance(method, SendMessage)
                wait = self._limit(chat_id, new, now)
                if wait is not None:
                    self.too_many += 1
                    raise TelegramRetryAfter(
                        method=method, message="Too Many Requests", retry_after=max(1, round(wait))
                    )
                self._last[chat_id] = now
                if new:
                    self._minute[chat_id].append(now)
                self.group_requests[chat_id].append((now, new))
            result = self._carry_out(method, now)
        await asyncio.sleep(self.rtt * self.rng.uniform(0.5, 1.5) / 2)  # and back
        return result

    def _carry_out(self, method: TelegramMethod[Any], now: float) -> Any:
        if isinstance(method, SendMessage):
            assert isinstance(method.chat_id, int)
            message_id = next(self.message_ids)
            markup = method.reply_markup
            if method.chat_id < 0 and is_lobby(markup):
                self.lobbies[method.chat_id] = message_id
                self.lobby_posted[method.chat_id].set()
            self._buttons(method.chat_id, message_id, markup, now, sent=True)
            return message_sent(method, message_id)
        if isinstance(method, EditMessageText | EditMessageReplyMarkup):
            assert isinstance(method.chat_id, int) and method.message_id is not None
            self._buttons(method.chat_id, method.message_id, method.reply_markup, now, sent=False)
        return True

    def _buttons(self, chat_id: int, message_id: int, markup: Any, now: float, sent: bool) -> None:
        if chat_id < 0:
            return
        if is_prompt(markup):
            self.keyboards[chat_id] = (message_id, markup)
            if sent:
                self.prompted[chat_id].append(now)
            self.changed[chat_id].set()
        elif self.keyboards.get(chat_id, (None,))[0] == message_id:
            del self.keyboards[chat_id]
            self.changed[chat_id].set()


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"p50": round(statistics.median(ordered), 1), "p90": at(0.9), "p99": at(0.99)}


def peak_per_minute(moments: list[float]) -> int:
    moments = sorted(moments)
    return max(
        (bisect.bisect_left(moments, t + 60.0) - i for i, t in enumerate(moments)), default=0
    )


async def main(
    games: int,
    players: int,
    seconds: float,
    rtt_ms: float,
    think: float,
    seed: int,
    redis_url: str | None,
) -> dict[str, Any]:
    errors = ErrorCount()
    logging.getLogger("bot").addHandler(errors)
    logging.getLogger("aiogram").addHandler(errors)
    rng = random.Random(seed)
    prefix = f"smuta-bench:{uuid.uuid4().hex[:8]}"
    store: Store
    if redis_url:
        from bot.store.redis import RedisStore

        store = RedisStore.from_url(redis_url, prefix=prefix)
    else:
        store = MemoryStore()
    tg = PacedTelegram(rtt_ms / 1000, random.Random(seed + 1))
    bot = Bot("42:BENCH", session=tg, default=DefaultBotProperties(parse_mode="HTML"))
    app = build_app(bot, store, Defaults(turn_timeout=300, choice_timeout=120), SystemClock())
    ticker = asyncio.create_task(app.ticker.run())
    updates = Updates()
    dp = app.dispatcher
    back_labels = {app.games.tr.t(lang, "btn-back") for lang in ("ru", "en")}
    handling: set[asyncio.Task[Any]] = set()

    def deliver(update: dict[str, Any]) -> None:
        """As polling does: the update is handed to a task of its own."""
        task = asyncio.create_task(dp.feed_raw_update(bot, update))
        handling.add(task)
        task.add_done_callback(handling.discard)

    async def open_game(chat: int, users: list[User]) -> None:
        tg.lobby_posted[chat].clear()
        deliver(updates.message(chat, users[0], "/newgame"))
        await asyncio.wait_for(tg.lobby_posted[chat].wait(), 120)
        lobby = tg.lobbies[chat]
        table = await store.load(chat)
        assert table is not None
        # one after another (not measured): the code before `ChatOrder` raced them
        for user in users[1:]:
            join = LobbyCb(action="join", game=table.game_no).pack()
            await dp.feed_raw_update(bot, updates.press(user, chat, lobby, join))
        go = LobbyCb(action="go", game=table.game_no).pack()
        await dp.feed_raw_update(bot, updates.press(users[0], chat, lobby, go))

    answer_ms: list[float] = []
    prompt_ms: list[float] = []
    menu_ms: list[float] = []
    turns = [0]
    stop_at = time.perf_counter() + seconds

    async def press(chat: int, users: list[User], user: User) -> None:
        """One press of a random button of `user`'s prompt, measured."""
        message_id, markup = tg.keyboards[user.id]
        buttons = [
            b.callback_data
            for row in markup.inline_keyboard
            for b in row
            if b.callback_data and b.text not in back_labels
        ]
        update = updates.press(user, user.id, message_id, rng.choice(buttons))
        query_id = update["callback_query"]["id"]
        before = await store.load(chat)
        assert before is not None
        since = {u.id: len(tg.prompted[u.id]) for u in users}
        start = time.perf_counter()
        deliver(update)
        while query_id not in tg.answered:
            await asyncio.sleep(0.005)
        answer_ms.append((tg.answered[query_id] - start) * 1000)
        # what came of it: a menu level (the same message, new buttons) or an answer
        deadline = start + 30
        while time.perf_counter() < deadline:
            after = await store.load(chat)
            assert after is not None
            if after.version != before.version:
                if after.state is None or after.status != "playing":
                    return  # the game ended: nobody is prompted next
                decision = pending(after.state)
                if decision is None:
                    return
                user_id = after.seats[decision.seat].user_id
                assert user_id is not None
                while len(tg.prompted[user_id]) == since[user_id]:
                    if time.perf_counter() > deadline:
                        raise RuntimeError(f"no prompt for {user_id} after a press in {chat}")
                    await asyncio.sleep(0.005)
                prompt_ms.append((tg.prompted[user_id][since[user_id]] - start) * 1000)
                return
            shown = tg.keyboards.get(user.id)
            if shown is not None and shown[1] is not markup:
                menu_ms.append((time.perf_counter() - start) * 1000)
                return
            await asyncio.sleep(0.005)
        raise RuntimeError(f"a press in {chat} came to nothing")

    async def play(chat: int, users: list[User]) -> None:
        await open_game(chat, users)
        while time.perf_counter() < stop_at:
            prompted = [u for u in users if u.id in tg.keyboards]
            if not prompted:
                table = await store.load(chat)
                if table is not None and table.status == "finished":
                    assert table.state is not None
                    turns[0] += table.state.turn
                    await open_game(chat, users)
                    continue
                for u in users:
                    tg.changed[u.id].clear()
                waits = [asyncio.ensure_future(tg.changed[u.id].wait()) for u in users]
                done, rest = await asyncio.wait(waits, timeout=30, return_when="FIRST_COMPLETED")
                for w in rest:
                    w.cancel()
                if not done:
                    raise RuntimeError(f"game {chat} stalled")
                continue
            await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
            if time.perf_counter() >= stop_at:
                break
            if prompted[0].id in tg.keyboards:
                await press(chat, users, prompted[0])
        table = await store.load(chat)
        if table is not None and table.state is not None and table.status != "finished":
            turns[0] += table.state.turn

    tables = []
    for g in range(games):
        chat = -(10**12) - g
        users = [
            User(id=1_000_000 + g * 10 + s, is_bot=False, first_name=f"P{g}-{s}")
            for s in range(players)
        ]
        for user in users:
            deliver(updates.message(user.id, user, "/start"))
        tables.append((chat, users))
    await asyncio.sleep(0.5)
    started = time.perf_counter()
    await asyncio.gather(*(play(chat, users) for chat, users in tables))
    elapsed = time.perf_counter() - started
    app.ticker.stop()
    await ticker
    if handling:
        await asyncio.wait(handling, timeout=10)
    # (the code before outboxes had none; before bot.telling, they were the service's)
    telling = getattr(app, "telling", app.games)
    outboxes = getattr(telling, "outboxes", None)
    if outboxes is not None:
        await outboxes.drain(5)
    group_moments = [t for reqs in tg.group_requests.values() for t, _ in reqs]
    result = {
        "games": games,
        "players": players,
        "rtt_ms": rtt_ms,
        "think_s": think,
        "seconds": round(elapsed, 1),
        "presses": len(answer_ms),
        "answer_ms": percentiles(answer_ms),
        "prompt_ms": percentiles(prompt_ms),
        "menu_ms": percentiles(menu_ms),
        "turns": turns[0],
        "group_requests_per_turn": round(len(group_moments) / max(turns[0], 1), 2),
        "peak_group_requests_per_minute": max(
            (peak_per_minute([t for t, _ in reqs]) for reqs in tg.group_requests.values()),
            default=0,
        ),
        "peak_group_new_messages_per_minute": max(
            (peak_per_minute([t for t, new in reqs if new]) for reqs in tg.group_requests.values()),
            default=0,
        ),
        "too_many_requests": tg.too_many,
        "errors": errors.count,
    }
    if redis_url:
        from bot.store.redis import RedisStore

        assert isinstance(store, RedisStore)
        keys = [k async for k in store._r.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await store._r.delete(*keys)
    await store.close()
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="What a person waits for (one process).")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--rtt", type=float, default=40.0, help="Bot API round trip, ms")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a press")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/0", help="Redis URL; '' for the embedded store"
    )
    args = parser.parse_args()
    print(
        json.dumps(
            asyncio.run(
                main(
                    args.games,
                    args.players,
                    args.seconds,
                    args.rtt,
                    args.think,
                    args.seed,
                    args.redis or None,
                )
            )
        )
    )
