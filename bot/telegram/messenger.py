"""Sending to Telegram, as the game service sees it: what came of a send or an edit.

Pace, retries and "message is not modified" are the session's call policy
(`bot.telegram.call_policy`), under every request; here the errors left after it become
what the service acts on:

- 403 (the person blocked the bot or never started it): `Unreachable`.
- Telegram kept failing (5xx, network, flood control) through every try:
  a send raises `Undelivered` (the caller goes on with the rest of its
  messages); an edit is given up (the next edit brings it up to date).
- A send Telegram refuses (400: no right to write in the group any more, a
  group just become a supergroup): `Undelivered`, like a send that kept failing.
"""

from __future__ import annotations

import logging
from typing import Literal

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile, ReplyParameters

from bot.ops import logs
from bot.telegram.markup import markup_of
from bot.words.screen import Keyboard

log = logging.getLogger(__name__)

GAVE_UP = (TelegramServerError, TelegramNetworkError, TelegramRetryAfter)

#: what came of an edit (`Messenger.change`)
Edit = Literal["edited", "failed", "gone"]
EDITED: Edit = "edited"
FAILED: Edit = "failed"
GONE: Edit = "gone"


class Unreachable(Exception):
    """The bot may not write to this chat (403)."""


class Undelivered(Exception):
    """Telegram kept failing through every try, or refused the message."""


class Messenger:
    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
    ) -> int:
        """Send a message (`quiet`: without a sound, else it rings); its id.
        `Unreachable` on 403; `Undelivered` when Telegram kept failing or refuses it."""
        reply = (
            ReplyParameters(message_id=reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        try:
            message = await self.bot.send_message(
                chat_id,
                text,
                reply_markup=markup_of(markup),
                reply_parameters=reply,
                disable_notification=quiet,
            )
        except TelegramForbiddenError as e:
            raise Unreachable(str(e)) from e
        except (*GAVE_UP, TelegramBadRequest, TelegramMigrateToChat) as e:
            raise Undelivered(str(e)) from e
        return message.message_id

    async def send_photo(
        self,
        chat_id: int,
        png: bytes,
        caption: str = "",
        markup: Keyboard | None = None,
        quiet: bool = False,
    ) -> int:
        """Send a picture with its caption (HTML, at most 1024 characters) and
        buttons; like `send`."""
        try:
            message = await self.bot.send_photo(
                chat_id,
                BufferedInputFile(png, filename="smuta.png"),
                caption=caption or None,
                reply_markup=markup_of(markup),
                disable_notification=quiet,
            )
        except TelegramForbiddenError as e:
            raise Unreachable(str(e)) from e
        except (*GAVE_UP, TelegramBadRequest, TelegramMigrateToChat) as e:
            raise Undelivered(str(e)) from e
        return message.message_id

    async def send_file(self, chat_id: int, name: str, content: bytes, caption: str) -> int:
        """Send a small text file (a game's summary); like `send`."""
        try:
            message = await self.bot.send_document(
                chat_id, BufferedInputFile(content, filename=name), caption=caption
            )
        except TelegramForbiddenError as e:
            raise Unreachable(str(e)) from e
        except (*GAVE_UP, TelegramBadRequest, TelegramMigrateToChat) as e:
            raise Undelivered(str(e)) from e
        return message.message_id

    async def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Keyboard | None = None,
    ) -> bool:
        """Edit a message; False when it is gone (deleted, too old) and must be sent
        anew, or the chat cannot be reached (403: a send will say so). True also
        when Telegram kept failing: the message is still there, and the next
        edit brings it up to date."""
        return await self.change(chat_id, message_id, text, markup) != GONE

    async def change(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Keyboard | None = None,
    ) -> Edit:
        """`edit`, telling apart an edit that landed (`EDITED`: the message
        shows `text` and `markup` now) from one Telegram kept failing
        (`FAILED`: it shows what it showed) and a message `GONE`."""
        try:
            await self.bot.edit_message_text(
                text=text, chat_id=chat_id, message_id=message_id, reply_markup=markup_of(markup)
            )
        except (TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat) as e:
            log.info("cannot edit %s/%s: %s", logs.chat(chat_id), message_id, e)
            return GONE
        except GAVE_UP as e:
            log.warning("gave up editing %s/%s: %s", logs.chat(chat_id), message_id, e)
            return FAILED
        return EDITED

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.edit_message_reply_markup(
                chat_id=chat_id, message_id=message_id, reply_markup=None
            )
        except (TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat, *GAVE_UP) as e:
            log.info("cannot drop buttons of %s/%s: %s", logs.chat(chat_id), message_id, e)
