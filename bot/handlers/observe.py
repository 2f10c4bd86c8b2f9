"""What every update goes through first: its log context, its metrics, and the
count of updates in hand that a shutdown waits for.

`UpdateObserver` is an outer middleware on the dispatcher's ``update``
observer (registered by `bot.app.build_app`). For each update it

- unpacks a press's callback data, once (`bot.handlers.presses`);
- sets the log context (`bot.ops.logs`): the game's chat — the group a prompt
  button in a private chat belongs to, else the chat the update came from — the
  update id, and the decision id a prompt button answers;
- times it into ``smuta_update_seconds{kind}`` and counts it in
  ``smuta_updates_total{kind,outcome}``;
- counts it in hand until it is done, so that `drain` can wait, bounded, for
  the updates in hand when the process stops (in both polling and webhook
  mode).

aiogram's own error middleware sits outside this one: an update that fails
keeps its context while the dispatcher's error handler logs it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.filters.callback_data import CallbackData
from aiogram.types import TelegramObject, Update

from bot.handlers.ordering import chat_of
from bot.handlers.presses import PRESS, unpack
from bot.ops import metrics
from bot.ops.logs import CHAT_ID, DECISION_ID, UPDATE_ID
from bot.words.keyboards import PromptCb

log = logging.getLogger(__name__)


def context_of(update: Update, press: CallbackData | None = None) -> tuple[int | None, int | None]:
    """The game's chat id and the decision id of an update, where it names them:
    a prompt's button (`press`: its data, unpacked) names its game's chat;
    anything else, the chat it came in."""
    if isinstance(press, PromptCb):
        return press.chat, press.decision
    return chat_of(update), None


class UpdateObserver(BaseMiddleware):
    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.in_hand = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        try:
            kind = event.event_type
        except Exception:  # an update type this aiogram does not know
            kind = "other"
        press = None
        if event.callback_query is not None:  # unpacked once, for every filter
            press = data[PRESS] = unpack(event.callback_query.data)
        chat_id, decision_id = context_of(event, press)
        # Set, not reset afterwards: each update runs in a task of its own (its
        # own copy of the context), and an error must keep the context until
        # aiogram's error middleware, outside this one, has it logged.
        UPDATE_ID.set(event.update_id)
        CHAT_ID.set(chat_id)
        DECISION_ID.set(decision_id)
        self.in_hand += 1
        self._idle.clear()
        metrics.UPDATES_IN_FLIGHT.inc()
        started = self.clock()
        outcome: metrics.Outcome = "error"
        try:
            result = await handler(event, data)
            outcome = "unhandled" if result is UNHANDLED else "handled"
            return result
        finally:
            metrics.update_handled(kind, self.clock() - started, outcome)
            metrics.UPDATES_IN_FLIGHT.dec()
            self.in_hand -= 1
            if self.in_hand == 0:
                self._idle.set()

    async def drain(self, timeout: float) -> int:
        """Wait up to `timeout` seconds for the updates in hand to finish;
        returns how many were still running when the time was up."""
        # an update whose task was created just before the stop has not entered
        # the middleware yet: let it start first
        await asyncio.sleep(0)
        if self.in_hand:
            log.info("waiting for %d update(s) in hand (up to %.0fs)", self.in_hand, timeout)
            try:
                await asyncio.wait_for(self._idle.wait(), timeout)
            except TimeoutError:
                log.warning("%d update(s) still running at shutdown", self.in_hand)
        return self.in_hand
