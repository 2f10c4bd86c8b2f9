"""One policy for every Telegram call, as a middleware of the bot's session.

Every request the bot makes — the service's sends and edits, a router's
``message.answer`` or ``reply``, a callback's answer — goes through
`CallPolicy`, so none can slip past Telegram's limits or fail on a hiccup:

- Requests that write to a chat (send, edit, delete…) wait for their slot in
  the outbound pace (`bot.telegram.pace`), one chat's requests one at a time and in the
  order they were made. Reads and callback answers are not paced.
- 429 (`RetryAfter`): wait as Telegram says, then try again (with a new slot).
- 5xx and network errors: retried with a growing pause.
- "message is not modified" (an edit to the same text): nothing to do; the
  call returns True.

When every try failed, the last error is raised to the caller — the messenger
turns it into `Undelivered`; a router's reply ends in the error handler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.telegram.locks import KeyedLocks
from bot.telegram.pace import Pace

log = logging.getLogger(__name__)

NEW_MESSAGE_PREFIXES = ("Send", "Copy", "Forward")
CHANGE_PREFIXES = ("Edit", "Delete", "Pin", "Unpin", "Stop")


def paced(method: TelegramMethod[Any]) -> tuple[int, bool] | None:
    """The chat a request writes to and whether it is a new message; None for a
    request that writes to no chat (a read, a callback's answer)."""
    chat_id = getattr(method, "chat_id", None)
    if not isinstance(chat_id, int):
        return None
    name = type(method).__name__
    if name.startswith(NEW_MESSAGE_PREFIXES):
        return chat_id, True
    if name.startswith(CHANGE_PREFIXES):
        return chat_id, False
    return None


def not_modified(error: TelegramBadRequest) -> bool:
    return "message is not modified" in error.message


class CallPolicy(BaseRequestMiddleware):
    def __init__(
        self,
        pace: Pace | None = None,
        attempts: int = 5,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        first_backoff: float = 0.5,
    ) -> None:
        self.pace = pace or Pace()
        self.attempts = attempts
        self.sleep = sleep
        self.first_backoff = first_backoff
        self._chats = KeyedLocks()

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        target = paced(method)
        if target is None:
            return await self._tries(make_request, bot, method, None)
        async with self._chats.hold(target[0]):
            return await self._tries(make_request, bot, method, target)

    async def _tries(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        target: tuple[int, bool] | None,
    ) -> Response[TelegramType]:
        delay = self.first_backoff
        last = self.attempts - 1
        for attempt in range(self.attempts):
            if target is not None:
                await self.pace.wait(*target)
            try:
                return await make_request(bot, method)
            except TelegramRetryAfter as e:
                if attempt == last:
                    raise
                log.warning("flood control (%s): waiting %ss", type(method).__name__, e.retry_after)
                await self.sleep(e.retry_after)
            except (TelegramServerError, TelegramNetworkError) as e:
                if attempt == last:
                    raise
                log.warning("telegram failed (%s), retrying in %.1fs", e, delay)
                await self.sleep(delay)
                delay *= 2
            except TelegramBadRequest as e:
                if not_modified(e):
                    # the session's middlewares hand on the method's result
                    return True  # type: ignore[return-value]
                raise
        raise AssertionError("unreachable: the last try returns or raises")


def install(session: BaseSession, policy: CallPolicy) -> CallPolicy:
    """Put `policy` on the session, in place of any policy already there (a
    test's new "process" may reuse its predecessor's session)."""
    for old in [m for m in session.middleware if isinstance(m, CallPolicy)]:
        session.middleware.unregister(old)
    session.middleware(policy)
    return policy
