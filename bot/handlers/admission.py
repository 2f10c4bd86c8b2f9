"""Past its capacity the process serves what it can and says no to the rest.

`Admission` is an outer middleware on the dispatcher's updates, right after
the observer and before a chat's lock (`bot.handlers.ordering`). At most
`limit` updates are handled at once; the rest wait their turn, first come,
first served, so a chat's updates keep their order. A press (a button) that
would wait longer than `max_wait` is *shed*: answered at once with «🐢 Бот
перегружен — нажмите ещё раз» in the presser's language, with no store read,
and counted in ``smuta_updates_shed_total``. Without it, every update in the
backlog is handled late and each one costs more the longer the backlog
(sockets, buffers, the garbage collector walking it), so past capacity the
process served fewer updates the more it was offered.

How long a press would wait is told from the queue (Little's law): the
updates ahead of it, times the smoothed time an admitted update holds its
place, over `limit`. One whose guess was wrong is shed when its wait runs out.
Commands and every other update are never shed: they wait their turn (a
command dropped would be a lost `/newgame`; a press is one tap to repeat).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.exceptions import AiogramError
from aiogram.types import CallbackQuery, TelegramObject, Update

from bot.ops import metrics
from bot.words.i18n import Translator, pick_lang

ADMIT_LIMIT = 24  # updates handled at once (each holds at most a few round trips)
ADMIT_WAIT = 0.5  # seconds a press may wait for its turn before it is shed
SMOOTHING = 0.05  # weight of the newest update in the smoothed holding time

log = logging.getLogger(__name__)


class Admission(BaseMiddleware):
    def __init__(
        self,
        tr: Translator,
        limit: int = ADMIT_LIMIT,
        max_wait: float = ADMIT_WAIT,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.tr = tr
        self.limit = limit
        self.max_wait = max_wait
        self.clock = clock
        self.holding = 0.005  # smoothed seconds an admitted update holds its place
        self.shed = 0  # presses shed since start
        self._free = limit
        self._queue: deque[asyncio.Future[bool]] = deque()

    @property
    def waiting(self) -> int:
        """Updates waiting for their turn (at most what the task limit lets in)."""
        return len(self._queue)

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        press = event.callback_query
        if self._free > 0 and not self._queue:
            self._free -= 1  # taken without yielding: the chat's order holds
        elif press is not None and self.expected_wait() > self.max_wait:
            return await self.refuse(press, "queue")
        elif not await self._wait_turn(None if press is None else self.max_wait):
            assert press is not None
            return await self.refuse(press, "late")
        started = self.clock()
        try:
            return await handler(event, data)
        finally:
            held = self.clock() - started
            self.holding += SMOOTHING * (held - self.holding)
            self._hand_on()

    def expected_wait(self) -> float:
        """Seconds a newcomer would wait: those ahead of it, served `limit` at a time."""
        return (len(self._queue) + 1) * self.holding / self.limit

    async def _wait_turn(self, timeout: float | None) -> bool:
        """Wait in line for a place; False if `timeout` ran out first.

        The place comes as the turn's result (True, `_hand_on`); the time
        running out ends it with False (`_late`) — a timer, not a task."""
        loop = asyncio.get_running_loop()
        turn: asyncio.Future[bool] = loop.create_future()
        self._queue.append(turn)
        timer = loop.call_later(timeout, self._late, turn) if timeout is not None else None
        try:
            return await turn
        except BaseException:
            if turn.done() and not turn.cancelled() and turn.result():
                self._hand_on()  # handed a place it will not use: pass it on
            else:
                turn.cancel()  # out of line (`_hand_on` skips it)
            raise
        finally:
            if timer is not None:
                timer.cancel()

    def _late(self, turn: asyncio.Future[bool]) -> None:
        if not turn.done():
            turn.set_result(False)
            self._queue.remove(turn)

    def _hand_on(self) -> None:
        """A place is free: to the first in line, else back to the pool."""
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_result(True)
                return
        self._free += 1

    async def refuse(self, press: CallbackQuery, why: metrics.ShedWhy) -> None:
        """Shed a press: answered at once, in the presser's language, and counted."""
        self.shed += 1
        metrics.update_shed(why)
        lang = pick_lang(press.from_user.language_code)
        try:
            await press.answer(self.tr.t(lang, "overloaded"))
        except AiogramError:  # Telegram did not take the answer: nothing more to do
            log.debug("could not answer a shed press", exc_info=True)
