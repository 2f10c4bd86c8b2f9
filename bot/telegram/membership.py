"""Who is in a group and who runs it: Telegram's answer (getChatMember), kept a while.

Two questions are asked of Telegram about a person in a group:

- *is a member* — a deep link into a lobby (``/start join_<chat>_<game>``) and
  the Mini App's watchers; an answer is kept for `ttl` seconds (300 by default);
- *is an admin* — who may start, stop or set up a game that is not theirs
  (`bot.service.base`); an answer is kept for `admin_ttl` seconds (60 by
  default: someone made or unmade an admin is seen as such within a minute).

A yes and a no alike are kept: someone pressing a button or a link again and
again costs one call per TTL. One getChatMember answers both questions, so
the answer to each is kept from the one call. Each kind keeps at most `size`
answers (10,000 by default): expired ones are dropped as they come to the
front, and past `size` the oldest goes first — memory stays bounded however
many people press.

It fails closed: when Telegram cannot say (an error, the network, a reply that
cannot be read) the answer is no, and is not kept — the next ask asks again.
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
#: who runs a group
ADMINS = (ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR)

MEMBER_TTL = 300.0  # seconds a member's (or an outsider's) answer is kept
ADMIN_TTL = 60.0  # seconds an admin's (or a non-admin's) answer is kept
SIZE = 10_000  # answers of each kind kept at most

Key = tuple[int, int]  # (chat, user)


class Kept:
    """Yes/no answers kept for `ttl` seconds, at most `size` of them.

    Answers go in in the order they were got and all live `ttl`, so the
    oldest is always at the front: each put drops the expired ones from
    there, then the oldest while more than `size` remain."""

    def __init__(self, ttl: float, size: int, clock: Callable[[], float]) -> None:
        self.ttl = ttl
        self.size = size
        self.clock = clock
        self._answers: OrderedDict[Key, tuple[float, bool]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: Key) -> bool | None:
        """The answer kept for `key`, or None when there is none or it expired."""
        kept = self._answers.get(key)
        if kept is None or kept[0] <= self.clock():
            return None
        return kept[1]

    def put(self, key: Key, answer: bool) -> None:
        now = self.clock()
        self._answers.pop(key, None)  # a fresh answer goes to the back
        self._answers[key] = (now + self.ttl, answer)
        while self._answers:
            _, (until, _) = next(iter(self._answers.items()))
            if until > now and len(self._answers) <= self.size:
                break
            self._answers.popitem(last=False)


class Membership:
    def __init__(
        self,
        bot: Bot,
        ttl: float = MEMBER_TTL,
        size: int = SIZE,
        clock: Callable[[], float] = time.monotonic,
        admin_ttl: float = ADMIN_TTL,
    ) -> None:
        self.bot = bot
        self.members = Kept(ttl, size, clock)
        self.admins = Kept(admin_ttl, size, clock)

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        kept = self.members.get((chat_id, user_id))
        if kept is None:
            standing = await self._ask(chat_id, user_id)
            kept = standing is not None and standing[0]
        return kept

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        """Fails closed: when Telegram cannot say, the answer is no — only the
        game's creator may then start or stop it."""
        kept = self.admins.get((chat_id, user_id))
        if kept is None:
            standing = await self._ask(chat_id, user_id)
            kept = standing is not None and standing[1]
        return kept

    async def _ask(self, chat_id: int, user_id: int) -> tuple[bool, bool] | None:
        """(a member, an admin) as Telegram says, kept for both questions;
        None when it cannot say."""
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except AiogramError as e:  # an API error, or a reply that cannot be read
            log.warning("cannot tell who %s is in %s: %s", user_id, chat_id, type(e).__name__)
            return None
        if member.status == ChatMemberStatus.RESTRICTED:
            in_group = bool(getattr(member, "is_member", False))
        else:
            in_group = member.status in MEMBERS
        admin = member.status in ADMINS
        self.members.put((chat_id, user_id), in_group)
        self.admins.put((chat_id, user_id), admin)
        return in_group, admin
