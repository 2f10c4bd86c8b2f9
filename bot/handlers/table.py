"""A group's running game: /table, /stop, the group's migration and the bot's removal."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message

from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import (
    GROUPS,
    HAND_LINK,
    actor_of,
    answer_callback,
    ask_or_say,
    practice_here,
    say,
    table_of,
)
from bot.service.games import Games, Reply
from bot.service.pictures import PHOTO
from bot.service.seats import Seats
from bot.words.i18n import Translator
from bot.words.keyboards import StopCb

#: what `/table …` takes for the whole table
FULL = frozenset({"full", "полный", "весь", "подробно"})


def table_router() -> Router:
    router = Router(name="table")

    @router.message(Inline(F.migrate_to_chat_id))
    async def migrated(message: Message, games: Games) -> None:
        assert message.migrate_to_chat_id is not None
        await games.migrate(message.chat.id, message.migrate_to_chat_id)

    @router.my_chat_member(Inline(F.chat.type.in_(GROUPS)))
    async def membership(event: ChatMemberUpdated, seats: Seats) -> None:
        """The bot was removed from a group (or the group was deleted): the
        game there cannot go on where nobody sees the table."""
        if event.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
            await seats.removed_from_group(event.chat.id)

    @router.message(Command("table"))
    async def table(message: Message, command: CommandObject, games: Games, tr: Translator) -> None:
        """A group's table (or lobby) anew; in a private chat, its practice
        game's. `/table full`: every card on the table; `/table фото`: the
        table as a picture."""
        if message.chat.type not in GROUPS and not await practice_here(message, games):
            await say(message, games, tr, Reply("err-group-only"))
            return
        args = (command.args or "").strip().lower()
        reply = await games.lobby.repost(message.chat.id, args in FULL, args in PHOTO)
        await say(message, games, tr, reply)

    @router.message(Command("stop"))
    async def stop(message: Message, games: Games, tr: Translator) -> None:
        """Stop a group's game (asked first); in a private chat, its practice game."""
        assert message.from_user is not None
        if message.chat.type not in GROUPS and not await practice_here(message, games):
            await say(message, games, tr, Reply("err-group-only"))
            return
        got = await games.seats.ask_stop(message.chat.id, actor_of(message.from_user))
        await ask_or_say(message, games, tr, got, Reply("stop-confirm"))

    @router.callback_query(Pressed(StopCb))
    async def stop_button(
        query: CallbackQuery, callback_data: StopCb, games: Games, seats: Seats, tr: Translator
    ) -> None:
        chat_id = await table_of(query, games, tr)
        if chat_id is None or query.message is None:
            return
        actor = actor_of(query.from_user)
        reply = await seats.answer_stop(chat_id, actor, callback_data, query.message.message_id)
        await answer_callback(query, games, tr, reply)

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("hand", "lang"))
    async def private_only(
        message: Message, command: CommandObject, games: Games, tr: Translator
    ) -> None:
        """Refused here, with a button into the private chat (where /hand's
        link sends the hand at once)."""
        if command.command == "hand":
            link = await games.links.deep_link(HAND_LINK)
        else:
            link = await games.links.private_chat()
        await say(message, games, tr, Reply("err-private-only", url=link))

    return router
