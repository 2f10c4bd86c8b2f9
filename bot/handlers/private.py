"""The private chat: /start (and its join links), /hand, /games, /lang, /practice, /learn,
the prompts."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.handlers.courier import Courier
from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import HAND_LINK, RULES_LINK, actor_of, own_message
from bot.service.base import Reply
from bot.service.lobby import Lobby
from bot.service.my_games import MyGames
from bot.service.play import Play
from bot.service.profile import Profiles
from bot.service.seats import Seats
from bot.service.tutor import Tutor
from bot.telegram.markup import markup_of, menu_button_of
from bot.words.app import START_PREFIX, AppLinks, parse_replay
from bot.words.i18n import LANGS, Translator
from bot.words.keyboards import DetailsCb, GameCb, HintCb, LangCb, PromptCb
from bot.words.screen import Button, keyboard

log = logging.getLogger(__name__)


async def open_app(
    message: Message, app: AppLinks, tr: Translator, lang: str, payload: str, seats: Seats
) -> None:
    """The Mini App in the private chat: its menu button (optional: a refusal
    is logged), and for the group table's link (``app_<chat>``) its button —
    promising one's cards and choices only to a player of that game (anyone
    else sees the public table)."""
    assert message.from_user is not None and message.bot is not None
    try:
        await message.bot.set_chat_menu_button(
            chat_id=message.chat.id, menu_button=menu_button_of(app.menu_button(tr, lang))
        )
    except TelegramAPIError as e:
        log.warning("could not set the menu button: %s", e)
    replay = parse_replay(payload)
    if replay is not None:  # a group's /history button, a review's moment
        number, move = replay
        await message.answer(
            tr.t(lang, "replay-open", number=number),
            reply_markup=markup_of(keyboard([app.replay_button(tr, lang, number, move)])),
            disable_notification=True,
        )
        return
    if payload.startswith(START_PREFIX):
        try:
            chat_id = int(payload.removeprefix(START_PREFIX))
        except ValueError:
            await message.answer(tr.t(lang, "err-bad-link"), disable_notification=True)
            return
        seated = await seats.sits_at(chat_id, message.from_user.id)
        text = tr.t(lang, "app-open" if seated else "app-open-watch")
        await message.answer(
            text, reply_markup=markup_of(app.markup(tr, lang, chat_id)), disable_notification=True
        )


def private_router() -> Router:
    router = Router(name="private")
    router.message.filter(Inline(F.chat.type == ChatType.PRIVATE))

    @router.message(CommandStart())
    async def start(
        message: Message,
        command: CommandObject,
        courier: Courier,
        play: Play,
        my_games: MyGames,
        lobby: Lobby,
        seats: Seats,
        profiles: Profiles,
        app: AppLinks | None,
        tr: Translator,
    ) -> None:
        assert message.from_user is not None
        actor = actor_of(message.from_user)
        await lobby.mark_started(actor)
        payload = command.args or ""
        if app is not None:
            await open_app(
                message, app, tr, await courier.user_lang(message.from_user), payload, seats
            )
            if payload.startswith(START_PREFIX) or parse_replay(payload) is not None:
                return
        if payload.startswith("join_"):
            parts = payload.split("_")
            try:
                chat_id, game_no = int(parts[1]), int(parts[2])
            except (IndexError, ValueError):
                await courier.say(message, Reply("err-bad-link"))
                return
            await courier.say(message, await lobby.join_from_link(chat_id, game_no, actor))
            return
        if payload == HAND_LINK:  # from /hand in a group: what /hand sends here
            await courier.say(message, await my_games.hand(actor))
            return
        if payload.startswith(RULES_LINK):  # from /rules in a group: that group's, in full
            group = payload.removeprefix(RULES_LINK)
            if group.lstrip("-").isdigit() and len(group) <= 20:
                await courier.send_rules(message, await profiles.rules_in(int(group)))
                return
        lang = await courier.user_lang(message.from_user)
        await message.answer(tr.t(lang, "welcome"), disable_notification=True)
        # the hand and prompt of every game they sit in, if any (no word when none)
        await courier.carry_out((await play.resend(actor)).effects)

    @router.message(Command("hand"))
    async def hand(message: Message, courier: Courier, my_games: MyGames) -> None:
        # one game: its hand and prompt; several: which one (a button a game)
        assert message.from_user is not None
        await courier.say(message, await my_games.hand(actor_of(message.from_user)))

    @router.message(Command("games"))
    async def games(message: Message, courier: Courier, my_games: MyGames) -> None:
        assert message.from_user is not None
        await courier.say(message, await my_games.listing(actor_of(message.from_user)))

    @router.callback_query(Pressed(GameCb))
    async def game_button(
        query: CallbackQuery, callback_data: GameCb, courier: Courier, my_games: MyGames
    ) -> None:
        reply = (
            await my_games.bring(actor_of(query.from_user), callback_data)
            if own_message(query) is not None
            else Reply("err-bad-button", alert=True)
        )
        await courier.answer(query, reply)

    @router.message(Command("lang"))
    async def lang(message: Message, courier: Courier, tr: Translator) -> None:
        assert message.from_user is not None
        current = await courier.user_lang(message.from_user)
        markup = keyboard(
            [
                Button("🇷🇺 Русский", data=LangCb(lang="ru").pack()),
                Button("🇬🇧 English", data=LangCb(lang="en").pack()),
            ]
        )
        await message.answer(
            tr.t(current, "lang-choose"), reply_markup=markup_of(markup), disable_notification=True
        )

    @router.message(Command("practice"))
    async def practice(message: Message, courier: Courier, tutor: Tutor) -> None:
        assert message.from_user is not None
        await courier.say(message, await tutor.practice(actor_of(message.from_user)))

    @router.message(Command("learn"))
    async def learn(message: Message, courier: Courier, tutor: Tutor) -> None:
        assert message.from_user is not None
        await courier.say(message, await tutor.learn(actor_of(message.from_user)))

    @router.message(Command("newgame", "join", "go"))
    async def group_only(message: Message, courier: Courier) -> None:
        # a group's game: how to open one, and what can be played here instead
        await courier.say(message, Reply("err-group-game-only"))

    @router.callback_query(Pressed(LangCb))
    async def lang_button(
        query: CallbackQuery, callback_data: LangCb, courier: Courier, seats: Seats
    ) -> None:
        if callback_data.lang not in LANGS:
            await courier.answer(query, Reply("err-bad-button", alert=True))
            return
        reply = await seats.set_lang(actor_of(query.from_user), callback_data.lang)
        await courier.answer(query, reply)

    @router.callback_query(Pressed(PromptCb))
    async def prompt_button(
        query: CallbackQuery, callback_data: PromptCb, courier: Courier, play: Play
    ) -> None:
        message_id = own_message(query)
        reply = (
            await play.press(actor_of(query.from_user), callback_data, message_id)
            if message_id is not None
            else Reply("err-bad-button", alert=True)
        )
        await courier.answer(query, reply)

    @router.callback_query(Pressed(HintCb))
    async def hint_button(
        query: CallbackQuery, callback_data: HintCb, courier: Courier, play: Play
    ) -> None:
        reply = (
            await play.hint(actor_of(query.from_user), callback_data)
            if own_message(query) is not None
            else Reply("err-bad-button", alert=True)
        )
        await courier.answer(query, reply)

    @router.callback_query(Pressed(DetailsCb))
    async def details_button(
        query: CallbackQuery, callback_data: DetailsCb, courier: Courier, play: Play
    ) -> None:
        message_id = own_message(query)
        reply = (
            await play.details(actor_of(query.from_user), callback_data, message_id)
            if message_id is not None
            else Reply("err-bad-button", alert=True)
        )
        await courier.answer(query, reply)

    return router
