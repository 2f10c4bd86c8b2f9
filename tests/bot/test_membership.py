"""getChatMember's answers kept a while (bot/telegram/membership.py), on a
clock the test moves: within the TTL Telegram is not asked again, after it
it is; a failed lookup fails closed and is not kept; however many people ask,
no more than `size` answers are kept."""

from __future__ import annotations

from typing import Any, cast

from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import GetChatMember
from aiogram.types import ChatMemberAdministrator, ChatMemberLeft, ChatMemberMember, User

from bot.telegram.membership import ADMIN_TTL, MEMBER_TTL, Membership

GROUP = -100777


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class Telegram:
    """Answers getChatMember from `admins` and `outsiders`; counts each ask."""

    def __init__(self) -> None:
        self.admins: set[int] = set()
        self.outsiders: set[int] = set()
        self.fails = False
        self.asked: list[tuple[int, int]] = []

    async def get_chat_member(self, chat_id: int, user_id: int) -> Any:
        self.asked.append((chat_id, user_id))
        if self.fails:
            method = GetChatMember(chat_id=chat_id, user_id=user_id)
            raise TelegramNetworkError(method=method, message="Request timeout error")
        user = User(id=user_id, is_bot=False, first_name="x")
        if user_id in self.outsiders:
            return ChatMemberLeft(user=user)
        if user_id in self.admins:
            flags = {
                name: False
                for name, field in ChatMemberAdministrator.model_fields.items()
                if field.is_required() and name != "user"
            }
            return ChatMemberAdministrator(user=user, **flags)
        return ChatMemberMember(user=user)


def membership(size: int = 100) -> tuple[Membership, Telegram, Clock]:
    tg, clock = Telegram(), Clock()
    return Membership(cast(Bot, tg), size=size, clock=clock), tg, clock


async def test_an_admin_answer_is_kept_for_its_ttl_then_asked_anew() -> None:
    m, tg, clock = membership()
    tg.admins.add(1)
    assert await m.is_admin(GROUP, 1)
    assert await m.is_admin(GROUP, 2) is False
    assert len(tg.asked) == 2
    clock.t += ADMIN_TTL - 1
    tg.admins = {2}  # Telegram changed its mind: not seen yet
    assert (await m.is_admin(GROUP, 1), await m.is_admin(GROUP, 2)) == (True, False)
    assert len(tg.asked) == 2, "asked Telegram again within the TTL"
    clock.t += 1
    assert (await m.is_admin(GROUP, 1), await m.is_admin(GROUP, 2)) == (False, True)
    assert len(tg.asked) == 4


async def test_one_lookup_answers_both_questions_each_kept_for_its_own_ttl() -> None:
    m, tg, clock = membership()
    tg.outsiders.add(3)
    assert await m.is_member(GROUP, 3) is False
    assert await m.is_admin(GROUP, 3) is False
    assert tg.asked == [(GROUP, 3)]
    clock.t += ADMIN_TTL
    assert await m.is_member(GROUP, 3) is False  # a member's answer lives longer
    assert await m.is_admin(GROUP, 3) is False
    assert tg.asked == [(GROUP, 3)] * 2
    clock.t += MEMBER_TTL
    tg.outsiders.clear()
    assert await m.is_member(GROUP, 3)
    assert len(tg.asked) == 3


async def test_when_telegram_cannot_say_the_answer_is_no_and_is_not_kept() -> None:
    m, tg, _ = membership()
    tg.admins.add(1)
    tg.fails = True
    assert await m.is_admin(GROUP, 1) is False
    assert await m.is_member(GROUP, 1) is False
    tg.fails = False
    assert await m.is_admin(GROUP, 1)  # asked anew at once
    assert len(tg.asked) == 3


async def test_no_more_answers_are_kept_than_the_bound_and_expired_ones_go() -> None:
    m, tg, clock = membership(size=10)
    for user_id in range(50):
        await m.is_admin(GROUP, user_id)
        assert len(m.admins) <= 10 and len(m.members) <= 10
    assert len(m.admins) == 10
    # the newest are kept, the oldest went first
    asked = len(tg.asked)
    await m.is_admin(GROUP, 49)
    assert len(tg.asked) == asked
    await m.is_admin(GROUP, 0)
    assert len(tg.asked) == asked + 1
    # once their TTL has passed, the next answer clears the expired ones away
    clock.t += MEMBER_TTL
    await m.is_admin(GROUP, 100)
    assert (len(m.admins), len(m.members)) == (1, 1)
