"""Sending to Telegram: pace, retries, the harmless errors, and unreachable people.

- Every request first waits for its slot in the outbound pace (`bot.pace`).

- `RetryAfter` (429): wait as told and send again; messages to one chat are
  sent one at a time, so they keep their order.
- A 5xx answer or a network error: retried with backoff; when the last try
  fails too, a send raises `Undelivered` (the caller goes on with the rest of
  its messages) and an edit is given up (the next edit brings it up to date).
- "message is not modified": nothing to do.
- 403 (the person blocked the bot or never started it): `Unreachable`.
- A send Telegram refuses (400: no right to write in the group any more, a
  group just become a supergroup): `Undelivered`, like a send that kept failing.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import InlineKeyboardMarkup, Message

from bot.pace import Pace

log = logging.getLogger(__name__)
T = TypeVar("T")


class Unreachable(Exception):
    """The bot may not write to this chat (403)."""


class Undelivered(Exception):
    """Telegram kept failing (5xx, network) through every retry."""


class Messenger:
    def __init__(
        self,
        bot: Bot,
        attempts: int = 5,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        pace: Pace | None = None,
    ) -> None:
        self.bot = bot
        self.attempts = attempts
        self.sleep = sleep
        self.pace = pace or Pace()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def _call(
        self, chat_id: int, call: Callable[[], Awaitable[T]], new_message: bool = False
    ) -> T:
        async with self._locks[chat_id]:
            delay = 0.5
            for attempt in range(self.attempts):
                await self.pace.wait(chat_id, new_message)
                try:
                    return await call()
                except TelegramRetryAfter as e:
                    log.warning("flood control in %s: waiting %ss", chat_id, e.retry_after)
                    await self.sleep(e.retry_after)
                except (TelegramServerError, TelegramNetworkError) as e:
                    if attempt == self.attempts - 1:
                        raise Undelivered(str(e)) from e
                    log.warning("telegram failed (%s), retrying in %.1fs", e, delay)
                    await self.sleep(delay)
                    delay *= 2
                except TelegramForbiddenError as e:
                    raise Unreachable(str(e)) from e
            return await call()

    async def send(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int:
        """Send a message; its id. `Unreachable` on 403; `Undelivered` when
        Telegram kept failing or refuses it (400: the bot may not write there
        any more, the group has just become a supergroup…)."""
        try:
            message: Message = await self._call(
                chat_id,
                lambda: self.bot.send_message(chat_id, text, reply_markup=markup),
                new_message=True,
            )
        except (TelegramBadRequest, TelegramMigrateToChat) as e:
            raise Undelivered(str(e)) from e
        return message.message_id

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
    ) -> bool:
        """Edit a message; False when it is gone (deleted, too old) and must be sent
        anew, or the chat cannot be reached (403: a send will say so). True also
        when Telegram kept failing: the message is still there, and the next
        edit brings it up to date."""
        try:
            await self._call(
                chat_id,
                lambda: self.bot.edit_message_text(
                    text=text,
                    chat_id=chat_id,
                    message_id=message_id,
                    reply_markup=markup,
                ),
            )
        except TelegramBadRequest as e:
            if "not modified" in e.message:
                return True
            log.info("cannot edit %s/%s: %s", chat_id, message_id, e.message)
            return False
        except Unreachable as e:
            log.info("cannot edit %s/%s: %s", chat_id, message_id, e)
            return False
        except Undelivered as e:
            log.warning("gave up editing %s/%s: %s", chat_id, message_id, e)
        return True

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        try:
            await self._call(
                chat_id,
                lambda: self.bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=message_id, reply_markup=None
                ),
            )
        except (TelegramBadRequest, Unreachable, Undelivered) as e:
            log.info("cannot drop buttons of %s/%s: %s", chat_id, message_id, e)
