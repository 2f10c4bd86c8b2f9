"""Both chats: /help, /rules, /card, /cards, /back, /away, and the answer to a
button nobody knows."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.courier import Courier
from bot.handlers.presses import Pressed
from bot.handlers.replies import GROUPS, actor_of
from bot.service.base import Reply
from bot.service.seats import Seats
from bot.words.help import card_reply, cards_text
from bot.words.i18n import Translator
from bot.words.keyboards import BackCb


def common_router() -> Router:
    router = Router(name="help")

    @router.message(Command("back"))
    async def back(message: Message, courier: Courier, seats: Seats) -> None:
        assert message.from_user is not None
        await courier.say(message, await seats.back(actor_of(message.from_user)))

    @router.message(Command("away"))
    async def away(message: Message, courier: Courier, seats: Seats) -> None:
        assert message.from_user is not None
        await courier.say(message, await seats.away(actor_of(message.from_user)))

    @router.callback_query(Pressed(BackCb))
    async def back_button(
        query: CallbackQuery, callback_data: BackCb, courier: Courier, seats: Seats
    ) -> None:
        await courier.answer(
            query, await seats.back_button(actor_of(query.from_user), callback_data)
        )

    @router.message(Command("help"))
    async def help_(message: Message, courier: Courier, tr: Translator) -> None:
        assert message.from_user is not None
        lang = await courier.lang_here(message)
        key = "help-group" if message.chat.type in GROUPS else "help-private"
        await courier.respond(message, tr.t(lang, key))

    @router.message(Command("rules"))
    async def rules(message: Message, courier: Courier) -> None:
        await courier.send_rules(message, await courier.rules_here(message))

    @router.message(Command("card"))
    async def card(
        message: Message, command: CommandObject, courier: Courier, tr: Translator
    ) -> None:
        lang = await courier.lang_here(message)
        rules = await courier.rules_here(message)
        await courier.respond(message, card_reply(tr, lang, command.args or "", rules))

    @router.message(Command("cards"))
    async def cards(message: Message, courier: Courier, tr: Translator) -> None:
        lang = await courier.lang_here(message)
        await courier.respond(message, cards_text(tr, lang, await courier.rules_here(message)))

    @router.callback_query()
    async def unknown_button(query: CallbackQuery, courier: Courier) -> None:
        await courier.answer(query, Reply("err-bad-button", alert=True))

    return router
