"""Deadlines: any bot process may fire any game's timer; a restart loses none.

The timers live in the store (a sorted set in Redis). `Ticker.tick` handles
every chat whose timer is due; `Ticker.run` ticks forever. Firing twice is
harmless: the service answers a decision only while it is still pending and
past its deadline, and the compare-and-set save lets one process win.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time  # ops: last_beat

from bot.games import Conflict, Games
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)


class Ticker:
    def __init__(self, games: Games, interval: float = 0.5, parallel: int = 64) -> None:
        self.games = games
        self.interval = interval
        self._slots = asyncio.Semaphore(parallel)
        self._stopping = asyncio.Event()
        self.last_beat: float | None = None  # ops: monotonic time of run()'s last turn (/readyz)

    async def tick(self) -> int:
        """Fire every due timer once, chats side by side (one chat waiting for
        its pace does not hold up the others); returns how many were due."""
        due = await self.games.store.due(self.games.clock.now())
        await asyncio.gather(*(self._fire(chat_id) for chat_id in due))
        return len(due)

    async def _fire(self, chat_id: int) -> None:
        async with self._slots:
            try:
                await self.games.on_timer(chat_id)
            except Conflict:
                log.info("timer of %s lost a race; it fires again next tick", chat_id)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("timer of %s failed", chat_id)

    async def run(self) -> None:
        """Tick until `stop`; a tick under way finishes first (its moves are
        told, not cut off), and what is due later waits for the next process."""
        while not self._stopping.is_set():
            self.last_beat = time.monotonic()  # ops: read by bot.health
            try:
                await self.tick()
            except StoreUnavailable:
                log.warning("store unavailable: timers wait")
            with contextlib.suppress(TimeoutError):  # the interval, or stop
                await asyncio.wait_for(self._stopping.wait(), self.interval)

    def stop(self) -> None:
        self._stopping.set()
