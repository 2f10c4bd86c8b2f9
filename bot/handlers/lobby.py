"""A group's lobby: /newgame, /join, /leave, /go, the lobby's buttons and «Ещё партию»."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message
from magic_filter import MagicFilter

from bot.handlers.courier import Courier
from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import GROUPS, actor_of
from bot.service.base import Actor, Reply
from bot.service.lobby import MENUS, Lobby
from bot.service.rematch import Rematch
from bot.service.seats import Seats
from bot.words.keyboards import LeaveCb, LobbyCb, RematchCb
from engine.ai import LEVELS, Level

LEVEL_OF: dict[str, Level] = {level: level for level in LEVELS}


#: what a lobby button does: on the lobby (or, to leave it, the seats), in the
#: chat whose lobby it is, by the presser
LobbyAct = Callable[[Lobby, Seats, int, Actor, LobbyCb], Awaitable[Reply]]


async def _leave(lobby: Lobby, seats: Seats, chat: int, actor: Actor, cb: LobbyCb) -> Reply:
    left = await seats.leave(chat, actor, cb.game)
    return left if isinstance(left, Reply) else Reply("err-old-button", alert=True)


#: the lobby message's buttons: which actions each serves, and what it does
LOBBY_BUTTONS: list[tuple[MagicFilter, LobbyAct]] = [
    (
        F.action == "join",
        lambda lobby, _, chat, actor, cb: lobby.join(chat, actor, cb.game, stale="err-old-button"),
    ),
    (F.action == "leave", _leave),
    # "bot": a lobby message from before levels (the chat's default level)
    (
        F.action == "bot",
        lambda lobby, _, chat, actor, cb: lobby.add_computer(chat, actor, game=cb.game),
    ),
    (
        F.action.in_({f"bot_{level}" for level in LEVELS}),
        lambda lobby, _, chat, actor, cb: lobby.add_computer(
            chat, actor, LEVEL_OF[cb.action.removeprefix("bot_")], game=cb.game
        ),
    ),
    (
        F.action == "drop",
        lambda lobby, _, chat, actor, cb: lobby.drop_computer(chat, actor, cb.game),
    ),
    (F.action == "go", lambda lobby, _, chat, actor, cb: lobby.go(chat, actor, cb.game)),
    (
        F.action == "cancel",
        lambda lobby, _, chat, actor, cb: lobby.cancel(chat, actor, cb.game),
    ),
    (
        F.action.in_({"lang", "time", "clock", "pace"}),
        lambda lobby, _, chat, actor, cb: lobby.configure(chat, actor, cb.action, cb.game),
    ),
    (
        F.action.in_(set(MENUS)),
        lambda lobby, _, chat, actor, cb: lobby.open_menu(chat, actor, cb.action, cb.game),
    ),
    (
        F.action == "hints",
        lambda lobby, _, chat, actor, cb: lobby.toggle_hints(chat, actor, cb.game),
    ),
]


def lobby_button(act: LobbyAct) -> Callable[..., Awaitable[None]]:
    """The handler of a lobby button: `act`, and its answer to the presser."""

    async def pressed(
        query: CallbackQuery, callback_data: LobbyCb, courier: Courier, lobby: Lobby, seats: Seats
    ) -> None:
        chat_id = await courier.table_of(query)
        if chat_id is None:
            return
        reply = await act(lobby, seats, chat_id, actor_of(query.from_user), callback_data)
        await courier.answer(query, reply)

    return pressed


def lobby_router() -> Router:
    router = Router(name="lobby")
    router.message.filter(Inline(F.chat.type.in_(GROUPS)))

    @router.message(Command("newgame"))
    async def new_game(message: Message, courier: Courier, lobby: Lobby) -> None:
        assert message.from_user is not None
        reply = await lobby.new_lobby(
            message.chat.id, message.chat.title or "", actor_of(message.from_user)
        )
        await courier.say(message, reply)

    @router.message(Command("join"))
    async def join(message: Message, courier: Courier, lobby: Lobby) -> None:
        assert message.from_user is not None
        await courier.say(message, await lobby.join(message.chat.id, actor_of(message.from_user)))

    @router.message(Command("leave"))
    async def leave(message: Message, courier: Courier, seats: Seats) -> None:
        assert message.from_user is not None
        got = await seats.leave(message.chat.id, actor_of(message.from_user))
        await courier.ask_or_say(message, got, Reply("leave-confirm"))

    @router.callback_query(Pressed(LeaveCb))
    async def leave_button(
        query: CallbackQuery, callback_data: LeaveCb, courier: Courier, seats: Seats
    ) -> None:
        chat_id = await courier.group_of(query)
        if chat_id is None or query.message is None:
            return
        actor = actor_of(query.from_user)
        reply = await seats.confirm_leave(chat_id, actor, callback_data, query.message.message_id)
        await courier.answer(query, reply)

    @router.message(Command("go"))
    async def go(message: Message, courier: Courier, lobby: Lobby) -> None:
        assert message.from_user is not None
        await courier.say(message, await lobby.go(message.chat.id, actor_of(message.from_user)))

    @router.callback_query(Pressed(RematchCb))
    async def rematch_button(
        query: CallbackQuery, callback_data: RematchCb, courier: Courier, rematch: Rematch
    ) -> None:
        """«Ещё партию» under a result: a new lobby for the same people."""
        chat_id = await courier.group_of(query)
        if chat_id is None or query.message is None:
            return
        title = query.message.chat.title or ""
        reply = await rematch.start(chat_id, title, actor_of(query.from_user), callback_data.game)
        await courier.answer(query, reply)

    # The lobby message's buttons, one handler each (`LobbyCb.action`, see
    # `LOBBY_BUTTONS`). Each service call checks, on the record it saves, that
    # the button's lobby (`LobbyCb.game`) is the chat's open one: an older
    # lobby's is refused as old. A lobby button of an action this bot does
    # not know falls to help's catch-all: a bad button.
    for rule, act in LOBBY_BUTTONS:
        router.callback_query(Pressed(LobbyCb, rule))(lobby_button(act))

    return router
