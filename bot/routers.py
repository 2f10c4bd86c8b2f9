"""Telegram handlers, one router per feature: lobby, table, private, help.

`build_dispatcher` makes a fresh dispatcher (tests build one per "process").
Services come in through the dispatcher's workflow data: ``games`` (the
`Games` service) and ``tr`` (the `Translator`). Handlers only translate
between Telegram and the service; they decide no rule.

A person is answered first (the callback's answer, the reply), and only then
is everyone else told of the move (`Reply.then`). What a group reads goes
through its outbox, so no handler waits for a group's pace.
"""

from __future__ import annotations

import logging
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher, F, Router
from aiogram.enums import ChatMemberStatus, ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    CallbackQuery,
    ChatMemberUpdated,
    ErrorEvent,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    User,
)

from bot.games import Actor, Games, Reply
from bot.help import card_reply, cards_text, rules_text
from bot.i18n import LANGS, Translator, pick_lang
from bot.keyboards import LangCb, LeaveCb, LobbyCb, PromptCb, RematchCb, StopCb
from bot.ordering import ChatOrder
from bot.store import StoreUnavailable
from engine import DEFAULT_RULES, Rules
from engine.ai import LEVELS, Level

LEVEL_OF: dict[str, Level] = {level: level for level in LEVELS}

log = logging.getLogger(__name__)

GROUPS = {ChatType.GROUP, ChatType.SUPERGROUP}


def actor_of(user: User) -> Actor:
    return Actor(user_id=user.id, name=user.full_name, lang_code=user.language_code)


async def user_lang(games: Games, user: User) -> str:
    prefs = await games.store.user(user.id)
    return prefs.lang or pick_lang(user.language_code, games.defaults.lang)


async def chat_lang(games: Games, chat_id: int) -> str:
    table = await games.store.load(chat_id)
    return table.lang if table is not None else games.defaults.lang


async def respond(
    message: Message, games: Games, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Answer a message in its chat: in a group through the group's outbox (as
    a reply to it), in a private chat at once."""
    if message.chat.type in GROUPS:
        games.outboxes.post(message.chat.id, text, markup, reply_to=message.message_id)
    else:
        await message.answer(text, reply_markup=markup)


async def ask_or_say(
    message: Message,
    games: Games,
    tr: Translator,
    got: Reply | InlineKeyboardMarkup,
    question: Reply,
) -> None:
    """A command that asks first (/leave, /stop): its question with the yes/no
    buttons the service made, or the service's refusal."""
    if isinstance(got, Reply):
        await say(message, games, tr, got)
        return
    lang = await chat_lang(games, message.chat.id)
    await respond(message, games, tr.t(lang, question.key), got)


async def say(message: Message, games: Games, tr: Translator, reply: Reply | None) -> None:
    """Answer a command with a Reply's text, in the chat's language; then tell
    everyone else what it did."""
    if reply is not None and reply.key != "ok":
        lang = await _lang_here(message, games)
        markup = None
        if reply.url:
            markup = InlineKeyboardMarkup(
                inline_keyboard=[
                    [InlineKeyboardButton(text=tr.t(lang, "btn-open-bot"), url=reply.url)]
                ]
            )
        await respond(message, games, tr.t(lang, reply.key), markup)
    if reply is not None and reply.then is not None:
        await reply.then()


async def group_of(query: CallbackQuery, games: Games, tr: Translator) -> int | None:
    """The group a button was pressed in; None (the presser told) for a button
    that is not on a group's message."""
    message = query.message
    if message is None or message.chat.type not in GROUPS:
        await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))
        return None
    return message.chat.id


async def table_of(query: CallbackQuery, games: Games, tr: Translator) -> int | None:
    """The chat whose game a lobby or table button belongs to: the group it was
    pressed in, or the presser's own private chat (a practice game there);
    None (the presser told) for any other."""
    message = query.message
    if message is not None and message.chat.type == ChatType.PRIVATE:
        if message.chat.id == query.from_user.id:
            return message.chat.id
        await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))
        return None
    return await group_of(query, games, tr)


async def practice_here(message: Message, games: Games) -> bool:
    """Whether a private chat holds its person's practice game (lobby or running)."""
    table = await games.store.load(message.chat.id)
    return table is not None and table.practice and table.status != "finished"


async def answer_callback(query: CallbackQuery, games: Games, tr: Translator, reply: Reply) -> None:
    """Answer a press (at once: the button stops spinning), then tell everyone
    else what it did."""
    if reply.url:
        await query.answer(url=reply.url)
    elif reply.key == "ok":
        await query.answer()
    else:
        lang = reply.lang or await user_lang(games, query.from_user)
        await query.answer(text=tr.t(lang, reply.key)[:200], show_alert=reply.alert)
    if reply.then is not None:
        await reply.then()


# ====================================================================== lobby (group)
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
        table = await games.store.load(chat_id)
        if table is None or table.game_no != callback_data.game or table.status != "lobby":
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
        else:
            reply = Reply("err-bad-button", alert=True)
        await answer_callback(query, games, tr, reply)

    return router


# ====================================================================== table (group)
def table_router() -> Router:
    router = Router(name="table")

    @router.message(F.migrate_to_chat_id)
    async def migrated(message: Message, games: Games) -> None:
        assert message.migrate_to_chat_id is not None
        await games.migrate(message.chat.id, message.migrate_to_chat_id)

    @router.my_chat_member(F.chat.type.in_(GROUPS))
    async def membership(event: ChatMemberUpdated, games: Games) -> None:
        """The bot was removed from a group (or the group was deleted): the
        game there cannot go on where nobody sees the table."""
        if event.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.KICKED):
            await games.seats.removed_from_group(event.chat.id)

    @router.message(Command("table"))
    async def table(message: Message, games: Games, tr: Translator) -> None:
        """A group's table (or lobby) anew; in a private chat, its practice game's."""
        if message.chat.type not in GROUPS and not await practice_here(message, games):
            await say(message, games, tr, Reply("err-group-only"))
            return
        await say(message, games, tr, await games.lobby.repost(message.chat.id))

    @router.message(Command("stop"))
    async def stop(message: Message, games: Games, tr: Translator) -> None:
        """Stop a group's game (asked first); in a private chat, its practice game."""
        assert message.from_user is not None
        if message.chat.type not in GROUPS and not await practice_here(message, games):
            await say(message, games, tr, Reply("err-group-only"))
            return
        got = await games.seats.ask_stop(message.chat.id, actor_of(message.from_user))
        await ask_or_say(message, games, tr, got, Reply("stop-confirm"))

    @router.callback_query(StopCb.filter())
    async def stop_button(
        query: CallbackQuery, callback_data: StopCb, games: Games, tr: Translator
    ) -> None:
        chat_id = await table_of(query, games, tr)
        if chat_id is None or query.message is None:
            return
        message_id = query.message.message_id
        if not callback_data.confirm:
            await answer_callback(query, games, tr, Reply("stop-kept"))
            games.outboxes.drop_buttons(chat_id, message_id)
            return
        reply = await games.seats.stop(chat_id, actor_of(query.from_user), callback_data.game)
        await answer_callback(query, games, tr, reply)
        if reply.key == "stop-done-short":
            games.outboxes.drop_buttons(chat_id, message_id)

    @router.message(F.chat.type.in_(GROUPS), Command("hand", "lang"))
    async def private_only(message: Message, games: Games, tr: Translator) -> None:
        await say(message, games, tr, Reply("err-private-only"))

    return router


# ====================================================================== private chat
def private_router() -> Router:
    router = Router(name="private")
    router.message.filter(F.chat.type == ChatType.PRIVATE)

    @router.message(CommandStart())
    async def start(message: Message, command: CommandObject, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        actor = actor_of(message.from_user)
        await games.lobby.mark_started(actor)
        payload = command.args or ""
        if payload.startswith("join_"):
            parts = payload.split("_")
            try:
                chat_id, game_no = int(parts[1]), int(parts[2])
            except (IndexError, ValueError):
                await say(message, games, tr, Reply("err-bad-link"))
                return
            await say(message, games, tr, await games.lobby.join_from_link(chat_id, game_no, actor))
            return
        lang = await user_lang(games, message.from_user)
        await message.answer(tr.t(lang, "welcome"))
        await games.play.resend(actor)

    @router.message(Command("hand"))
    async def hand(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(message, games, tr, await games.play.resend(actor_of(message.from_user)))

    @router.message(Command("lang"))
    async def lang(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        current = await user_lang(games, message.from_user)
        markup = InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(text="🇷🇺 Русский", callback_data=LangCb(lang="ru").pack()),
                    InlineKeyboardButton(text="🇬🇧 English", callback_data=LangCb(lang="en").pack()),
                ]
            ]
        )
        await message.answer(tr.t(current, "lang-choose"), reply_markup=markup)

    @router.message(Command("practice"))
    async def practice(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(message, games, tr, await games.lobby.practice(actor_of(message.from_user)))

    @router.message(Command("newgame", "join", "go"))
    async def group_only(message: Message, games: Games, tr: Translator) -> None:
        await say(message, games, tr, Reply("err-group-only"))

    @router.callback_query(LangCb.filter())
    async def lang_button(
        query: CallbackQuery, callback_data: LangCb, games: Games, tr: Translator
    ) -> None:
        if callback_data.lang not in LANGS:
            await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))
            return
        reply = await games.seats.set_lang(actor_of(query.from_user), callback_data.lang)
        await answer_callback(query, games, tr, reply)

    @router.callback_query(PromptCb.filter())
    async def prompt_button(
        query: CallbackQuery, callback_data: PromptCb, games: Games, tr: Translator
    ) -> None:
        message = query.message
        if message is None or message.chat.id != query.from_user.id:
            await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))
            return
        reply = await games.play.press(actor_of(query.from_user), callback_data, message.message_id)
        await answer_callback(query, games, tr, reply)

    return router


# ====================================================================== both chats
def common_router() -> Router:
    router = Router(name="help")

    @router.message(Command("back"))
    async def back(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(message, games, tr, await games.seats.back(actor_of(message.from_user)))

    @router.message(Command("help"))
    async def help_(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        lang = await _lang_here(message, games)
        key = "help-group" if message.chat.type in GROUPS else "help-private"
        await respond(message, games, tr.t(lang, key))

    @router.message(Command("rules"))
    async def rules(message: Message, games: Games, tr: Translator) -> None:
        lang = await _lang_here(message, games)
        await respond(message, games, rules_text(tr, lang, await _rules_here(message, games)))

    @router.message(Command("card"))
    async def card(message: Message, command: CommandObject, games: Games, tr: Translator) -> None:
        lang = await _lang_here(message, games)
        rules = await _rules_here(message, games)
        await respond(message, games, card_reply(tr, lang, command.args or "", rules))

    @router.message(Command("cards"))
    async def cards(message: Message, games: Games, tr: Translator) -> None:
        lang = await _lang_here(message, games)
        await respond(message, games, cards_text(tr, lang, await _rules_here(message, games)))

    @router.callback_query()
    async def unknown_button(query: CallbackQuery, games: Games, tr: Translator) -> None:
        await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))

    return router


async def _rules_here(message: Message, games: Games) -> Rules:
    """The rules /rules and /card tell: the group's game's, else the defaults."""
    if message.chat.type in GROUPS:
        table = await games.store.load(message.chat.id)
        if table is not None and table.state is not None:
            return table.state.rules
    return DEFAULT_RULES


async def _lang_here(message: Message, games: Games) -> str:
    if message.chat.type in GROUPS:
        return await chat_lang(games, message.chat.id)
    assert message.from_user is not None
    return await user_lang(games, message.from_user)


# ====================================================================== the dispatcher
def build_dispatcher(
    games: Games, tr: Translator, observer: BaseMiddleware | None = None
) -> Dispatcher:
    """A fresh dispatcher with every router and the services in its workflow
    data; `observer` (an outer update middleware) sees every update first, also
    while it waits for its chat's turn."""
    # no FSM: nothing of it is used, and without it nothing before `ChatOrder`
    # yields to the event loop (see `bot.ordering`)
    dp = Dispatcher(games=games, tr=tr, disable_fsm=True)
    if observer is not None:
        dp.update.outer_middleware(observer)
    dp.update.outer_middleware(ChatOrder())
    from bot.home_routers import home_router  # it builds on this module's helpers

    dp.include_routers(
        lobby_router(), table_router(), private_router(), home_router(), common_router()
    )

    @dp.errors()
    async def on_error(event: ErrorEvent, bot: Bot) -> bool:
        update = event.update
        if isinstance(event.exception, StoreUnavailable):
            log.warning("store unavailable while handling update %s", update.update_id)
            key = "err-unavailable"
        else:
            log.exception("update %s failed", update.update_id, exc_info=event.exception)
            key = "err-internal"
        text = tr.t(games.defaults.lang, key)
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(text[:200], show_alert=True)
            elif update.message is not None:
                await update.message.reply(text)
        except Exception:  # the apology itself may fail (Telegram down): nothing more to do
            log.debug("could not report the error", exc_info=True)
        return True

    return dp


def workflow(games: Games, tr: Translator) -> dict[str, Any]:
    return {"games": games, "tr": tr}
