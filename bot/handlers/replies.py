"""What every handler reads off an update the same way: which chats are
groups, who acted, the private chat's start links. How a handler answers is
the courier's (`bot.handlers.courier`)."""

from __future__ import annotations

from aiogram.enums import ChatType
from aiogram.types import User

from bot.service.base import Actor

GROUPS = {ChatType.GROUP, ChatType.SUPERGROUP}
HAND_LINK = "hand"  # /start hand: the hand and the pending question, nothing else
RULES_LINK = "rules_"  # /start rules_<chat>: the full rules of that group's game


def actor_of(user: User) -> Actor:
    return Actor(user_id=user.id, name=user.full_name, lang_code=user.language_code)
