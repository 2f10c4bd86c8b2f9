"""A chat's home, in Telegram: /settings, /top, /history, /notify in a group;
/settings (the person's own), /stats, /replay N, /forgetme in the private chat.

Included in the dispatcher before the catch-all router (`bot.handlers.help`)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message

from bot.handlers.courier import Courier
from bot.handlers.inline import Inline
from bot.handlers.presses import Pressed
from bot.handlers.replies import GROUPS, actor_of, own_message
from bot.service.base import Links, Reply
from bot.service.forgetting import Forgetting
from bot.service.history import History
from bot.service.notify import Notify
from bot.service.profile import Profiles
from bot.service.ratings import Ratings
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.keyboards import ForgetCb, PrefsCb, SettingsCb, yes_no_keyboard
from bot.words.screen import Button, Keyboard, rows

GROUP_ONLY = ("top", "history", "notify")
PRIVATE_ONLY = ("stats", "replay", "forgetme")


#: replay buttons under /history: a row holds this many
REPLAYS_A_ROW = 3


async def replay_buttons(
    history: History, app: AppLinks | None, tr: Translator, lang: str, chat_id: int
) -> Keyboard | None:
    """Under /history: a button a game that opens its replay in the Mini App
    (the app lets in only those who played it); None without the app."""
    if app is None:
        return None
    await app.know_username()
    buttons = []
    for number in await history.numbers(chat_id):
        url = app.replay_link(number)
        if url is not None:
            text = tr.t(lang, "btn-replay", number=number)
            buttons.append(Button(text, url=url))
    return rows(buttons, REPLAYS_A_ROW) if buttons else None


def home_router() -> Router:
    router = Router(name="home")

    # ------------------------------------------------------------------ the group
    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("settings"))
    async def settings(message: Message, courier: Courier, profiles: Profiles) -> None:
        text, markup = await profiles.show(message.chat.id)
        await courier.respond(message, text, markup)

    @router.callback_query(Pressed(SettingsCb))
    async def settings_button(
        query: CallbackQuery, callback_data: SettingsCb, courier: Courier, profiles: Profiles
    ) -> None:
        chat_id = await courier.group_of(query)
        if chat_id is None or query.message is None:
            return
        reply = await profiles.press(
            chat_id, actor_of(query.from_user), callback_data.what, query.message.message_id
        )
        await courier.answer(query, reply)

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("top"))
    async def top(message: Message, courier: Courier, ratings: Ratings) -> None:
        assert message.from_user is not None
        lang = await courier.lang_here(message)
        text = await ratings.top(message.chat.id, lang, actor_of(message.from_user))
        await courier.respond(message, text)

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("history"))
    async def history(
        message: Message, courier: Courier, history: History, app: AppLinks | None, tr: Translator
    ) -> None:
        lang = await courier.lang_here(message)
        text = await history.history(message.chat.id, lang)
        await courier.respond(
            message, text, await replay_buttons(history, app, tr, lang, message.chat.id)
        )

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command("notify"))
    async def notify(
        message: Message, command: CommandObject, courier: Courier, notify: Notify
    ) -> None:
        assert message.from_user is not None
        off = (command.args or "").strip().lower() in ("off", "выкл", "stop", "нет")
        reply = await notify.subscribe(message.chat.id, actor_of(message.from_user), on=not off)
        await courier.say(message, reply)

    @router.message(Inline(F.chat.type.in_(GROUPS)), Command(*PRIVATE_ONLY))
    async def private_only(message: Message, courier: Courier, links: Links) -> None:
        link = await links.private_chat()
        await courier.say(message, Reply("err-private-only", url=link))

    # ------------------------------------------------------------------ the private chat
    @router.message(~Inline(F.chat.type.in_(GROUPS)), Command("settings"))
    async def own_settings(message: Message, courier: Courier, profiles: Profiles) -> None:
        """The person's own settings (a group's are the group's /settings)."""
        assert message.from_user is not None
        user = message.from_user
        text, markup = await profiles.own(user.id, user.language_code)
        await courier.respond(message, text, markup)

    @router.callback_query(Pressed(PrefsCb))
    async def own_settings_button(
        query: CallbackQuery,
        callback_data: PrefsCb,
        courier: Courier,
        profiles: Profiles,
    ) -> None:
        """A person's own setting, pressed in their own private chat: on the
        /settings message (which then shows it) or under a review."""
        message_id = own_message(query)
        if message_id is None:
            await courier.answer(query, Reply("err-bad-button", alert=True))
            return
        reply = await profiles.set_own(
            actor_of(query.from_user),
            callback_data.what,
            callback_data.on,
            message_id if callback_data.screen else None,
        )
        await courier.answer(query, reply)

    @router.message(~Inline(F.chat.type.in_(GROUPS)), Command("stats"))
    async def stats(message: Message, courier: Courier, ratings: Ratings) -> None:
        assert message.from_user is not None
        lang = await courier.user_lang(message.from_user)
        got = await ratings.my_stats(actor_of(message.from_user), lang)
        if isinstance(got, Reply):
            await courier.say(message, got)
        else:
            await courier.respond(message, got)

    @router.message(~Inline(F.chat.type.in_(GROUPS)), Command("replay"))
    async def replay(
        message: Message, command: CommandObject, courier: Courier, history: History
    ) -> None:
        assert message.from_user is not None
        arg = (command.args or "").strip().lstrip("#№")
        if not arg.isdigit() or len(arg) > 12:
            await courier.say(message, Reply("replay-usage"))
            return
        lang = await courier.user_lang(message.from_user)
        # the file, then (with the Mini App) a button that opens the game there
        await courier.say(
            message, await history.replay(actor_of(message.from_user), lang, int(arg))
        )

    @router.message(~Inline(F.chat.type.in_(GROUPS)), Command("forgetme"))
    async def forgetme(message: Message, courier: Courier, tr: Translator) -> None:
        """Asks first: what it deletes cannot be brought back."""
        assert message.from_user is not None
        lang = await courier.user_lang(message.from_user)
        markup = yes_no_keyboard(
            (tr.t(lang, "btn-forget-yes"), ForgetCb(confirm=True).pack()),
            (tr.t(lang, "btn-forget-no"), ForgetCb(confirm=False).pack()),
        )
        await courier.respond(message, tr.t(lang, "forgetme-confirm"), markup)

    @router.callback_query(Pressed(ForgetCb))
    async def forget_button(
        query: CallbackQuery,
        callback_data: ForgetCb,
        courier: Courier,
        forgetting: Forgetting,
        tr: Translator,
    ) -> None:
        message = query.message
        if not isinstance(message, Message) or message.chat.id != query.from_user.id:
            await courier.answer(query, Reply("err-bad-button", alert=True))
            return
        lang = await courier.user_lang(query.from_user)  # asked before it is forgotten
        if callback_data.confirm:
            reply = await forgetting.forget(actor_of(query.from_user))
        else:
            reply = Reply("forgetme-kept")
        # (what the chats they sat in are told of it comes first)
        await courier.answer(query, Reply("ok", before=reply.before))
        await message.edit_text(tr.t(lang, reply.key))  # the question, answered: no buttons

    @router.message(~Inline(F.chat.type.in_(GROUPS)), Command(*GROUP_ONLY))
    async def group_only(message: Message, courier: Courier) -> None:
        await courier.say(message, Reply("err-group-only"))

    return router
