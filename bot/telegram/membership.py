"""Who is in a group: Telegram's answer (getChatMember), kept a while.

A deep link into a lobby (``/start join_<chat>_<game>``) and the Mini App's
watchers ask whether a person belongs to the group. Telegram's answer is kept
for `ttl` seconds (a yes and a no alike: someone pressing a link again and
again costs one call per `ttl`), for at most `size` people and chats at once
(the oldest answer goes first). It fails closed: when Telegram cannot say (an
error, the network, a reply that cannot be read) the answer is no, and is not
kept — the next ask asks again.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import AiogramError

log = logging.getLogger(__name__)

#: who belongs to a group (a restricted member too, while still a member)
MEMBERS = (
    ChatMemberStatus.CREATOR,
    ChatMemberStatus.ADMINISTRATOR,
    ChatMemberStatus.MEMBER,
)


class Membership:
    def __init__(
        self,
        bot: Bot,
        ttl: float = 300.0,
        size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot = bot
        self.ttl = ttl
        self.size = size
        self.clock = clock
        self._known: OrderedDict[tuple[int, int], tuple[float, bool]] = OrderedDict()

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        now = self.clock()
        kept = self._known.get(key)
        if kept is not None and kept[0] > now:
            return kept[1]
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except AiogramError as e:  # an API error, or a reply that cannot be read
            log.info("cannot tell whether a user is in %s: %s", chat_id, type(e).__name__)
            return False
        if member.status == ChatMemberStatus.RESTRICTED:
            answer = bool(getattr(member, "is_member", False))
        else:
            answer = member.status in MEMBERS
        self._known[key] = (now + self.ttl, answer)
        self._known.move_to_end(key)
        while len(self._known) > self.size:
            self._known.popitem(last=False)
        return answer
