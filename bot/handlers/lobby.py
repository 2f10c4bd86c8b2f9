"""A group's lobby: /newgame, /join, /leave, /go, the lobby's buttons and «Ещё партию»."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.handlers.replies import (
    GROUPS,
    actor_of,
    answer_callback,
    ask_or_say,
    group_of,
    say,
    table_of,
)
from bot.service.games import Games, Reply
from bot.service.lobby import MENUS
from bot.words.i18n import Translator
from bot.words.keyboards import LeaveCb, LobbyCb, RematchCb
from engine.ai import LEVELS, Level

LEVEL_OF: dict[str, Level] = {level: level for level in LEVELS}


def lobby_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(F.chat.type.in_(GROUPS))

    @router.message(Command("newgame"))
    async def new_game(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        reply = await games.lobby.new_lobby(
            message.chat.id, message.chat.title or "", actor_of(message.from_user)
        )
        await say(message, games, tr, reply)

    @router.message(Command("join"))
    async def join(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(
            message, games, tr, await games.lobby.join(message.chat.id, actor_of(message.from_user))
        )

    @router.message(Command("leave"))
    async def leave(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        got = await games.seats.leave(message.chat.id, actor_of(message.from_user))
        await ask_or_say(message, games, tr, got, Reply("leave-confirm"))

    @router.callback_query(LeaveCb.filter())
    async def leave_button(
        query: CallbackQuery, callback_data: LeaveCb, games: Games, tr: Translator
    ) -> None:
        chat_id = await group_of(query, games, tr)
        if chat_id is None or query.message is None:
            return
        reply = await games.seats.confirm_leave(chat_id, actor_of(query.from_user), callback_data)
        if reply.key != "err-not-your-button":
            games.outboxes.drop_buttons(chat_id, query.message.message_id)
        await answer_callback(query, games, tr, reply)

    @router.message(Command("go"))
    async def go(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(
            message, games, tr, await games.lobby.go(message.chat.id, actor_of(message.from_user))
        )

    @router.callback_query(RematchCb.filter())
    async def rematch_button(
        query: CallbackQuery, callback_data: RematchCb, games: Games, tr: Translator
    ) -> None:
        """«Ещё партию» under a result: a new lobby for the same people."""
        chat_id = await group_of(query, games, tr)
        if chat_id is None or query.message is None:
            return
        title = query.message.chat.title or ""
        reply = await games.rematch.start(
            chat_id, title, actor_of(query.from_user), callback_data.game
        )
        await answer_callback(query, games, tr, reply)

    @router.callback_query(LobbyCb.filter())
    async def lobby_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        chat_id = await table_of(query, games, tr)
        if chat_id is None:
            return
        if not await games.lobby.button_is_live(chat_id, callback_data.game):
            await answer_callback(query, games, tr, Reply("err-old-button", alert=True))
            return
        actor = actor_of(query.from_user)
        action = callback_data.action
        if action == "join":
            reply = await games.lobby.join(chat_id, actor)
        elif action == "leave":
            left = await games.seats.leave(chat_id, actor)
            reply = left if isinstance(left, Reply) else Reply("err-old-button", alert=True)
        elif action == "bot":  # a lobby message from before levels: the default level
            reply = await games.lobby.add_computer(chat_id, actor)
        elif action.startswith("bot_") and action[4:] in LEVELS:
            reply = await games.lobby.add_computer(chat_id, actor, LEVEL_OF[action[4:]])
        elif action == "drop":
            reply = await games.lobby.drop_computer(chat_id, actor)
        elif action == "go":
            reply = await games.lobby.go(chat_id, actor)
        elif action == "cancel":
            reply = await games.lobby.cancel(chat_id, actor)
        elif action in ("lang", "time", "clock"):
            reply = await games.lobby.configure(chat_id, actor, action)
        elif action in MENUS:
            reply = await games.lobby.open_menu(chat_id, actor, action)
        elif action == "hints":
            reply = await games.lobby.toggle_hints(chat_id, actor)
        else:
            reply = Reply("err-bad-button", alert=True)
        await answer_callback(query, games, tr, reply)

    return router
