"""People posting "as a channel" (or as the group, anonymously) act as no one.

Telegram gives such a message a ``sender_chat`` and, as its ``from_user``, one
shared account (``Channel_Bot``, ``GroupAnonymousBot``) — the same id for every
channel and every anonymous admin. Taken as a person, one of them could /go,
/stop or /leave another's lobby or seat, since the bot would see them as the
same player. So a command that acts as a person, sent that way, is refused
with a word on why; what only shows something (/table, /top, /rules…) still
answers. Buttons always come from a person's own account.

Included in the dispatcher before every other router.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.handlers.courier import Courier
from bot.handlers.inline import Inline
from bot.handlers.replies import GROUPS
from bot.service.base import Reply

#: commands that act as a person: seats, lobbies, games, calls
ACTING = ("newgame", "join", "leave", "go", "stop", "back", "notify")


def channel_router() -> Router:
    router = Router(name="channels")

    @router.message(Inline(F.chat.type.in_(GROUPS)), Inline(F.sender_chat), Command(*ACTING))
    async def as_a_channel(message: Message, courier: Courier) -> None:
        await courier.say(message, Reply("err-channel-sender"))

    return router
