"""A group's running game: /table, /stop, the group's migration and the bot's removal."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message

from bot.handlers.courier import Courier
from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import GROUPS, HAND_LINK, actor_of
from bot.service.base import Links, Reply
from bot.service.lobby import Lobby
from bot.service.pictures import PHOTO
from bot.service.seats import Seats
from bot.words.keyboards import StopCb

#: what `/table …` takes for the whole table
FULL = frozenset({"full", "полный", "весь", "подробно"})


def table_router() -> Router:
    router = Router(name="table")

    @router.message(Inline(F.migrate_to_chat_id))
    async def migrated(message: Message, courier: Courier, seats: Seats) -> None:
        assert message.migrate_to_chat_id is not None
        await courier.carry_out(await seats.migrate(message.chat.id, message.migrate_to_chat_id))

    @router.my_chat_member(Inline(F.chat.type.in_(GROUPS)))
    async def membership(event: ChatMemberUpdated, courier: Courier, seats: Seats) -> None:
        """The bot was removed from a group (or the group was deleted): the
        game there cannot go on where nobody sees the table."""
        if event.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
            await courier.carry_out(await seats.removed_from_group(event.chat.id))

    @router.message(Command("table"))
    async def table(
        message: Message, command: CommandObject, courier: Courier, lobby: Lobby
    ) -> None:
        """A group's table (or lobby) anew; in a private chat, its practice
        game's. `/table full`: every card on the table; `/table фото`: the
        table as a picture."""
        if message.chat.type not in GROUPS and not await lobby.practice_here(message.chat.id):
            await courier.say(message, Reply("err-group-only"))
            return
        args = (command.args or "").strip().lower()
        reply = await lobby.repost(message.chat.id, args in FULL, args in PHOTO)
        await courier.say(message, reply)

    @router.message(Command("stop"))
    async def stop(message: Message, courier: Courier, lobby: Lobby, seats: Seats) -> None:
        """Stop a group's game (asked first); in a private chat, its practice game."""
        assert message.from_user is not None
        if message.chat.type not in GROUPS and not await lobby.practice_here(message.chat.id):
            await courier.say(message, Reply("err-group-only"))
            return
        got = await seats.ask_stop(message.chat.id, actor_of(message.from_user))
        if isinstance(got, Reply):
            await courier.say(message, got)
            return
        buttons, question = got
        await courier.ask_or_say(message, buttons, question)

    @router.callback_query(Pressed(StopCb))
    async def stop_button(
        query: CallbackQuery, callback_data: StopCb, courier: Courier, seats: Seats
    ) -> None:
        chat_id = await courier.table_of(query)
        if chat_id is None or query.message is None:
            return
        actor = actor_of(query.from_user)
        reply = await seats.answer_stop(chat_id, actor, callback_data, query.message.message_id)
        await courier.answer(query, reply)

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("hand", "lang"))
    async def private_only(
        message: Message, command: CommandObject, courier: Courier, links: Links
    ) -> None:
        """Refused here, with a button into the private chat (where /hand's
        link sends the hand at once)."""
        if command.command == "hand":
            link = await links.deep_link(HAND_LINK)
        else:
            link = await links.private_chat()
        await courier.say(message, Reply("err-private-only", url=link))

    return router
