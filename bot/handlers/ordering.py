"""One chat's updates are handled one at a time, in the order they came;
other chats' side by side.

aiogram hands every update to a task of its own (polling and webhook alike),
so `/newgame`, three `/join` and `/go` that waited in the Bot API while the bot
was down would otherwise race, and the lobby could come out empty. The tasks
start in the order Telegram sent the updates, and nothing before this
middleware yields to the event loop (the dispatcher runs without FSM storage),
so taking the chat's lock (first come, first served: `bot.telegram.locks`) here keeps
that order. A handler never waits for a group's pace while it holds the lock:
what a group is told goes through its outbox.

A chat's line is bounded: a press that finds `max_waiting` of its chat's
updates already waiting is shed (`refuse`: answered «overloaded, press
again», see `bot.handlers.admission`) — one flooded chat cannot fill the
process's places. Other updates always wait (bounded by the task limit,
`bot.run.TASK_LIMIT`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, TelegramObject, Update

from bot.ops.metrics import ShedWhy
from bot.telegram.locks import KeyedLocks


def chat_of(update: Update) -> int | None:
    """The chat an update belongs to; None for one that belongs to none."""
    message = update.message or update.edited_message
    if message is not None:
        return message.chat.id
    query = update.callback_query
    if query is not None:
        return query.message.chat.id if query.message is not None else query.from_user.id
    member = update.my_chat_member or update.chat_member
    if member is not None:
        return member.chat.id
    return None


CHAT_WAITING = 8  # a chat's updates waiting for its lock before a press is shed

Refuse = Callable[[CallbackQuery, ShedWhy], Awaitable[None]]


class ChatOrder(BaseMiddleware):
    """An outer middleware of the dispatcher's updates."""

    def __init__(self, refuse: Refuse | None = None, max_waiting: int = CHAT_WAITING) -> None:
        self._chats = KeyedLocks()
        self.refuse = refuse
        self.max_waiting = max_waiting

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        chat = chat_of(event) if isinstance(event, Update) else None
        if chat is None:
            return await handler(event, data)
        assert isinstance(event, Update)
        press = event.callback_query
        waiting = self._chats.users(chat) - 1  # one holds the lock, the rest wait
        if press is not None and self.refuse is not None and waiting >= self.max_waiting:
            return await self.refuse(press, "chat")
        async with self._chats.hold(chat):
            return await handler(event, data)
