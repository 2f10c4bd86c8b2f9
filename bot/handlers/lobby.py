"""A group's lobby: /newgame, /join, /leave, /go, the lobby's buttons and «Ещё партию»."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import (
    GROUPS,
    actor_of,
    answer_callback,
    ask_or_say,
    group_of,
    say,
    table_of,
)
from bot.service.base import Actor
from bot.service.games import Games, Reply
from bot.service.lobby import MENUS
from bot.words.i18n import Translator
from bot.words.keyboards import LeaveCb, LobbyCb, RematchCb
from engine.ai import LEVELS, Level

LEVEL_OF: dict[str, Level] = {level: level for level in LEVELS}


async def lobby_press(
    query: CallbackQuery,
    games: Games,
    tr: Translator,
    act: Callable[[int, Actor], Awaitable[Reply]],
) -> None:
    """A lobby button pressed: `act` on the chat whose lobby it is, by the
    presser, and its answer."""
    chat_id = await table_of(query, games, tr)
    if chat_id is None:
        return
    await answer_callback(query, games, tr, await act(chat_id, actor_of(query.from_user)))


def lobby_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(Inline(F.chat.type.in_(GROUPS)))

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

    @router.callback_query(Pressed(LeaveCb))
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

    @router.callback_query(Pressed(RematchCb))
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

    # The lobby message's buttons, one handler each (`LobbyCb.action`). Each
    # service call checks, on the record it saves, that the button's lobby
    # (`LobbyCb.game`) is the chat's open one: an older lobby's is refused as old.
    @router.callback_query(Pressed(LobbyCb, F.action == "join"))
    async def join_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.join(
                chat, actor, callback_data.game, stale="err-old-button"
            ),
        )

    @router.callback_query(Pressed(LobbyCb, F.action == "leave"))
    async def leave_lobby_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        async def leave(chat: int, actor: Actor) -> Reply:
            left = await games.seats.leave(chat, actor, callback_data.game)
            return left if isinstance(left, Reply) else Reply("err-old-button", alert=True)

        await lobby_press(query, games, tr, leave)

    @router.callback_query(Pressed(LobbyCb, F.action == "bot"))  # from before levels
    async def computer_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.add_computer(chat, actor, game=callback_data.game),
        )

    @router.callback_query(Pressed(LobbyCb, F.action.in_({f"bot_{level}" for level in LEVELS})))
    async def level_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        level = LEVEL_OF[callback_data.action.removeprefix("bot_")]
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.add_computer(
                chat, actor, level, game=callback_data.game
            ),
        )

    @router.callback_query(Pressed(LobbyCb, F.action == "drop"))
    async def drop_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.drop_computer(chat, actor, callback_data.game),
        )

    @router.callback_query(Pressed(LobbyCb, F.action == "go"))
    async def go_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query, games, tr, lambda chat, actor: games.lobby.go(chat, actor, callback_data.game)
        )

    @router.callback_query(Pressed(LobbyCb, F.action == "cancel"))
    async def cancel_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.cancel(chat, actor, callback_data.game),
        )

    @router.callback_query(Pressed(LobbyCb, F.action.in_({"lang", "time", "clock"})))
    async def option_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.configure(
                chat, actor, callback_data.action, callback_data.game
            ),
        )

    @router.callback_query(Pressed(LobbyCb, F.action.in_(set(MENUS))))
    async def menu_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.open_menu(
                chat, actor, callback_data.action, callback_data.game
            ),
        )

    @router.callback_query(Pressed(LobbyCb, F.action == "hints"))
    async def hints_button(
        query: CallbackQuery, callback_data: LobbyCb, games: Games, tr: Translator
    ) -> None:
        await lobby_press(
            query,
            games,
            tr,
            lambda chat, actor: games.lobby.toggle_hints(chat, actor, callback_data.game),
        )

    # (a lobby button of an action this bot does not know: help's catch-all
    # answers it as a bad button)

    return router
