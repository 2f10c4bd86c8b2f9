"""What every handler reads off an update the same way: which chats are
groups, who acted, the private chat's start links, whether a button was
pressed in its presser's own chat. How a handler answers is the courier's
(`bot.handlers.courier`)."""

from __future__ import annotations

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, User

from bot.service.base import Actor

GROUPS = {ChatType.GROUP, ChatType.SUPERGROUP}
HAND_LINK = "hand"  # /start hand: the hand and the pending question, nothing else
RULES_LINK = "rules_"  # /start rules_<chat>: the full rules of that group's game


def actor_of(user: User) -> Actor:
    return Actor(user_id=user.id, name=user.full_name, lang_code=user.language_code)


def own_message(query: CallbackQuery) -> int | None:
    """The id of the message a button was pressed on, when it is in the
    presser's own private chat (None: a button from anywhere else)."""
    message = query.message
    if message is None or message.chat.id != query.from_user.id:
        return None
    return message.message_id
