"""Deadlines: any bot process may fire any game's timer; a restart loses none.

The timers live in the store (a sorted set in Redis). `Ticker.tick` starts
firing every chat whose timer is due, each chat in a task of its own, and does
not wait for them: one chat whose messages wait (for flood control, say)
never makes another chat's timeout or computer move late. A chat still firing
is not fired again. `Ticker.run` ticks forever. Firing twice (two processes)
is harmless: the service answers a decision only while it is still pending and
past its deadline, and the compare-and-set save lets one process win.

The ticker is, beside the courier, the one that carries out what the service
decided: a timer's move, reminder or catch-up comes back as effects
(`Games.on_timer`), sent by its carrier (`Carrier.carry_out`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time

from bot.ops.outages import OutageLog
from bot.service.games import Conflict, Games
from bot.store import StoreFull, StoreUnavailable
from bot.telling.carrying import Carrier

log = logging.getLogger(__name__)

#: seconds between two looks for finished games a cut left unpublished
PUBLISH_EVERY = 30.0
#: due timers a tick starts at most, beyond those still firing
DUE_BATCH = 100


class Ticker:
    def __init__(
        self, games: Games, carrier: Carrier, interval: float = 0.5, parallel: int = 64
    ) -> None:
        self.games = games
        self.carrier = carrier  # what a timer did is carried out by it
        self.interval = interval
        self._slots = asyncio.Semaphore(parallel)
        self._stopping = asyncio.Event()
        self._firing: dict[int, asyncio.Task[None]] = {}
        self._publish_at = 0.0  # time.monotonic() of the next look for unpublished games
        self.last_beat: float | None = None  # time.monotonic() of run()'s last turn (/readyz)
        # a store that is full or away fails every due timer every tick: told once a minute
        self.outage = OutageLog(log, "timers")

    async def tick(self) -> int:
        """Start firing every due timer (not one still firing), up to
        `DUE_BATCH` new ones; how many were due. Then, once in `PUBLISH_EVERY`
        seconds, `sweep`.

        The chats still firing are asked for beyond the batch: they are due
        until their fire saves, the earliest of all, and would otherwise fill
        the batch — a tick would start only what the last one finished
        (measured: 1,000 timeouts due at once took 20 ticks to start rather
        than 10, `benchmarks.waiting`)."""
        store, now = self.games.store, self.games.clock.now()
        due = await store.due(now, DUE_BATCH + len(self._firing))
        checks = await store.checks(now)
        for chat_id in due:
            self._start(chat_id)
        for chat_id in checks:  # (a chat whose timer fires is not looked at too)
            self._start(chat_id, check=True)
        if time.monotonic() >= self._publish_at:
            self._publish_at = time.monotonic() + PUBLISH_EVERY
            await self.sweep(now)
        return len(due)

    async def sweep(self, now: float) -> None:
        """What no timer comes back to, each looked after by one process (a
        claim for `PUBLISH_EVERY`): the finished games whose publishing a cut
        left undone, and the practice games without a clock that Redis rolled
        back — fired here as a timer would be (`Games.on_timer` catches an
        adrift record up: its prompt sent again with buttons)."""
        store = self.games.store
        try:
            if await store.once_within("publish", now, int(PUBLISH_EVERY)):
                await store.publish_finished()
            if await store.once_within("untimed", now, int(PUBLISH_EVERY)):
                for chat_id in await store.untimed_adrift():
                    self._start(chat_id)
        except StoreUnavailable:
            pass  # looked for again in a while; an outage is told by the timers' own firing
        except Exception:
            log.exception("the sweep after cuts and rollbacks failed")

    def _start(self, chat_id: int, check: bool = False) -> None:
        """Fire the chat's timer in a task of its own, unless it is firing;
        `check`: its last save's telling is looked at instead (`Games.on_check`)."""
        if chat_id in self._firing:
            return
        task = asyncio.create_task(self._fire(chat_id, check), name=f"timer {chat_id}")
        self._firing[chat_id] = task
        task.add_done_callback(functools.partial(self._fired, chat_id))

    def _fired(self, chat_id: int, task: asyncio.Task[None]) -> None:
        # (by its chat: a look through every timer firing would cost each
        # of a thousand fired at once a thousand steps)
        if self._firing.get(chat_id) is task:
            del self._firing[chat_id]

    async def settled(self) -> None:
        """Until every timer started has fired."""
        while self._firing:
            await asyncio.gather(*self._firing.values(), return_exceptions=True)

    def firing(self) -> int:
        return len(self._firing)

    async def _fire(self, chat_id: int, check: bool = False) -> None:
        async with self._slots:
            try:
                if check:
                    told = await self.games.on_check(chat_id)
                else:
                    told = await self.games.on_timer(chat_id)
                await self.carrier.carry_out(told)
            except Conflict:
                log.info("timer of %s lost a race; it fires again next tick", chat_id)
            except StoreUnavailable as e:
                # it fires again each tick until the store takes the move: play
                # resumes by itself once there is room (or a connection) again
                level = logging.ERROR if isinstance(e, StoreFull) else logging.WARNING
                self.outage.failed(f"{_kind(e)} ({e}); due timers fire again each tick", level)
            except Exception:
                log.exception("timer of %s failed", chat_id)
            else:
                self.outage.ok()

    async def run(self) -> None:
        """Tick until `stop`; timers already firing finish first (their moves
        are told, not cut off), and what is due later waits for the next process."""
        # (a cancellation the Redis client drops is raised by the store itself:
        # `bot.store.redis.cancelled_meanwhile`)
        while not self._stopping.is_set():
            self.last_beat = time.monotonic()  # read by bot.ops.health (/readyz)
            try:
                await self.tick()
            except StoreUnavailable:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # the outage is the loop's own cancel, told by a store as a
                    # timeout: going on would hang whoever awaits the loop
                    raise asyncio.CancelledError() from None
                self.outage.failed("store unavailable")
            with contextlib.suppress(TimeoutError):  # the interval, or stop
                async with asyncio.timeout(self.interval):
                    await self._stopping.wait()
        await self.settled()

    def stop(self) -> None:
        self._stopping.set()


def _kind(error: StoreUnavailable) -> str:
    return "store full" if isinstance(error, StoreFull) else "store unavailable"
