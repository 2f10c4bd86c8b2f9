"""Both chats: /help, /rules, /card, /cards, /back, and the answer to a button nobody knows."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.replies import (
    GROUPS,
    actor_of,
    answer_callback,
    lang_here,
    respond,
    rules_here,
    say,
    send_rules,
)
from bot.service.games import Games, Reply
from bot.words.help import card_reply, cards_text
from bot.words.i18n import Translator


def common_router() -> Router:
    router = Router(name="help")

    @router.message(Command("back"))
    async def back(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        await say(message, games, tr, await games.seats.back(actor_of(message.from_user)))

    @router.message(Command("help"))
    async def help_(message: Message, games: Games, tr: Translator) -> None:
        assert message.from_user is not None
        lang = await lang_here(message, games)
        key = "help-group" if message.chat.type in GROUPS else "help-private"
        await respond(message, games, tr.t(lang, key))

    @router.message(Command("rules"))
    async def rules(message: Message, games: Games, tr: Translator) -> None:
        await send_rules(message, games, tr, await rules_here(message, games))

    @router.message(Command("card"))
    async def card(message: Message, command: CommandObject, games: Games, tr: Translator) -> None:
        lang = await lang_here(message, games)
        rules = await rules_here(message, games)
        await respond(message, games, card_reply(tr, lang, command.args or "", rules))

    @router.message(Command("cards"))
    async def cards(message: Message, games: Games, tr: Translator) -> None:
        lang = await lang_here(message, games)
        await respond(message, games, cards_text(tr, lang, await rules_here(message, games)))

    @router.callback_query()
    async def unknown_button(query: CallbackQuery, games: Games, tr: Translator) -> None:
        await answer_callback(query, games, tr, Reply("err-bad-button", alert=True))

    return router
