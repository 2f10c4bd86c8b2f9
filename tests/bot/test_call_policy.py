"""One policy for every Telegram call, and timers that do not wait for each other.

- A router's own reply (/rules, /help, /card — not only the game service's
  messages) waits for its slot in the pace and is retried on 429 (after
  `retry_after`) and on 5xx.
- When Telegram answers 429 to every try, the policy gives up after its tries:
  no extra call outside the pace, no raw `TelegramRetryAfter` reaching the
  error handler — the send is logged as undelivered and the bot goes on.
- A chat whose requests hang (its pace, flood control) does not make another
  chat's timer late: while one game's timeout is stuck telling its players,
  the ticker goes on ticking and fires the other game's deadline on time.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from aiogram import Bot
from aiogram.methods import EditMessageText, SendMessage, TelegramMethod

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.telling.timers import Ticker
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.harness import Harness, people, until

GROUP = -100600
OTHER = -100601


class Waits:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(0)


async def test_a_routers_reply_is_paced_and_retried(store: Store) -> None:
    h = Harness(store)
    waits = Waits()
    h.app.policy.sleep = waits
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    # two 429s to the group, then a 5xx: /rules still arrives, once
    h.tg.flood[GROUP] = 2
    await h.say(GROUP, anna, "/rules")
    rules = list(h.tg.sent(GROUP))
    assert len(rules) == 3 and rules[0].text == rules[-1].text, "tried three times"
    assert waits.waits == [1, 1], "each 429's retry_after was waited out"
    group = [moment for chat, moment, _new in h.pace.booked if chat == GROUP]
    assert len(group) == 3, "every try took its slot in the group's pace"
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(group))
    # a 5xx on a private reply: retried after a pause
    before = len(h.tg.sent(anna.id))
    h.tg.server_errors = 1
    await h.say(anna.id, anna, "/help")
    assert len(h.tg.sent(anna.id)) - before == 2 and waits.waits[-1] == 0.5


class AlwaysFlooded(FakeTelegram):
    """Every send to `flooded` is answered 429, however often it is tried."""

    def __init__(self, flooded: int) -> None:
        super().__init__()
        self.flooded = flooded

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        if isinstance(method, SendMessage) and method.chat_id == self.flooded:
            self.flood[self.flooded] = 1
        return await super().make_request(bot, method, timeout)


async def test_endless_flood_control_gives_up_inside_the_pace_and_raises_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    tg = AlwaysFlooded(GROUP)
    h = Harness(MemoryStore(), tg=tg)
    h.app.policy.sleep = Waits()
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/help")
    tried = list(tg.sent(GROUP))
    assert len(tried) == h.app.policy.attempts, "as many tries as the policy allows, no more"
    group = [m for chat, m, _new in h.pace.booked if chat == GROUP]
    assert len(group) == len(tried), "no try went past the pace"
    internal = h.tr.t(h.defaults.lang, "err-internal")
    assert all(getattr(r, "text", None) != internal for r in tg.requests)
    assert "gave up sending to group" in caplog.text
    escaped = [r for r in caplog.records if r.levelname == "ERROR"]
    assert not escaped, f"an error escaped: {[r.getMessage() for r in escaped]}"
    # and the bot goes on: a private command is answered
    await h.say(anna.id, anna, "/help")
    assert tg.sent(anna.id)[-1].text == h.tr.t("ru", "help-private")


class HeldChats(FakeTelegram):
    """Requests to the chats in `hold` hang until `release` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.hold: set[int] = set()
        self.held = asyncio.Event()
        self.release = asyncio.Event()
        self.prompted = asyncio.Event()  # a prompt went to someone not held (or was edited)
        self.watch: set[int] = set()

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        chat_id = getattr(method, "chat_id", None)
        if chat_id in self.hold:
            self.held.set()
            await self.release.wait()
        result = await super().make_request(bot, method, timeout)
        if chat_id in self.watch and isinstance(method, SendMessage | EditMessageText):
            self.prompted.set()  # a new prompt, or the next one in the same message
        return result


async def test_one_chat_that_hangs_does_not_make_another_chats_timer_late(store: Store) -> None:
    tg = HeldChats()
    h = Harness(store, tg=tg)
    anna, boris, vera, gleb = people("Анна", "Борис", "Вера", "Глеб")
    await h.open_game(GROUP, anna, [boris], seed=5)
    await h.open_game(OTHER, vera, [gleb], seed=7)
    a, b = await h.table(GROUP), await h.table(OTHER)
    assert a.deadline is not None and b.deadline is not None
    # the first game's deadline falls due first; the second's a minute later
    h.clock.advance(a.deadline - h.clock.now() + 1)
    b_due = b.deadline + 60
    b.deadline = b_due
    b.reminder = None
    assert await store.save(b)
    b = await h.table(OTHER)

    # everything to the first game's people and group hangs from now on
    tg.hold |= {GROUP, anna.id, boris.id}
    tg.watch |= {vera.id, gleb.id}
    ticker = Ticker(h.app.games, h.app.telling.carrier, interval=0.01)
    runner = asyncio.create_task(ticker.run())
    try:
        await asyncio.wait_for(tg.held.wait(), 30)  # the first game's timeout is stuck telling
        # (the other game's save looked at meanwhile, `Store.checks`: owing nothing, done)
        await until(lambda: ticker.firing() == 1)
        h.clock.advance(b_due - h.clock.now() + 1)  # now the second game's deadline passes
        await asyncio.wait_for(tg.prompted.wait(), 30)
        moved = await h.table(OTHER)
        assert moved.version > b.version, "the second game's deadline fired"
        assert ticker.firing() >= 1, "the first game is still stuck all this while"
    finally:
        tg.release.set()
        ticker.stop()
        await asyncio.wait_for(runner, 30)
    await h.settle()
