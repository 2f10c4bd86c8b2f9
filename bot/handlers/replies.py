"""How a handler answers: a reply in the chat it came from, a press's answer,
the group or private chat a button belongs to — and nothing else.

A person is answered first (the callback's answer, the reply), and only then
is everyone else told of the move (the reply's effects, carried out by
`bot.handlers.courier`). What a group reads goes through its outbox, so no
handler waits for a group's pace.
"""

from __future__ import annotations

import logging

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message, User

from bot.handlers.courier import carry_out
from bot.service.games import Actor, Games, Reply
from bot.telegram.markup import markup_of
from bot.words.help import rules_parts, rules_short
from bot.words.i18n import Translator
from bot.words.screen import Button, Keyboard, keyboard
from engine import Rules

log = logging.getLogger(__name__)

GROUPS = {ChatType.GROUP, ChatType.SUPERGROUP}
HAND_LINK = "hand"  # /start hand: the hand and the pending question, nothing else
RULES_LINK = "rules_"  # /start rules_<chat>: the full rules of that group's game


def actor_of(user: User) -> Actor:
    return Actor(user_id=user.id, name=user.full_name, lang_code=user.language_code)


async def user_lang(games: Games, user: User) -> str:
    return await games.profiles.user_lang(user.id, user.language_code)


async def chat_lang(games: Games, chat_id: int) -> str:
    """A group's language (see `Profiles.chat_lang`)."""
    return await games.profiles.chat_lang(chat_id)


async def respond(
    message: Message, games: Games, text: str, markup: Keyboard | None = None
) -> None:
    """Answer a message in its chat: in a group through the replies' lane of
    the group's outbox (as a reply to it: after the game's own messages,
    collapsed when a member floods), in a private chat at once, without a sound."""
    if message.chat.type in GROUPS:
        user_id = message.from_user.id if message.from_user is not None else None
        games.outboxes.reply(
            message.chat.id, text, markup, reply_to=message.message_id, user_id=user_id
        )
    else:  # the person has just written here: no sound
        await message.answer(text, reply_markup=markup_of(markup), disable_notification=True)


async def ask_or_say(
    message: Message,
    games: Games,
    tr: Translator,
    got: Reply | Keyboard,
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
    if reply is not None and (reply.key != "ok" or reply.text is not None):
        lang = await lang_here(message, games)
        markup = None
        if reply.url:
            markup = keyboard([Button(tr.t(lang, "btn-open-bot"), url=reply.url)])
        text = reply.text if reply.text is not None else tr.t(lang, reply.key)
        await respond(message, games, text, markup)
    if reply is not None:
        await carry_out(games, reply.effects)


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
    return await games.lobby.practice_here(message.chat.id)


async def answer_callback(query: CallbackQuery, games: Games, tr: Translator, reply: Reply) -> None:
    """Answer a press (at once: the button stops spinning), then tell everyone
    else what it did."""
    if reply.url:
        await query.answer(url=reply.url)
    elif reply.text is not None:
        await query.answer(text=reply.text[:200], show_alert=reply.alert)
    elif reply.key == "ok":
        await query.answer()
    else:
        lang = reply.lang or await user_lang(games, query.from_user)
        await query.answer(text=tr.t(lang, reply.key)[:200], show_alert=reply.alert)
    games.outboxes.unanswered.release(query.id)
    await carry_out(games, reply.effects)


async def rules_here(message: Message, games: Games) -> Rules:
    """The rules /rules and /card tell: the group's (its game's, its lobby's,
    its settings'); in a private chat, the person's game's (see `Profiles`)."""
    if message.chat.type in GROUPS:
        return await games.profiles.rules_in(message.chat.id)
    assert message.from_user is not None
    return await games.profiles.rules_for(message.from_user.id)


async def send_rules(message: Message, games: Games, tr: Translator, rules: Rules) -> None:
    """/rules: in a group a few lines, with a button that brings the full
    rules (of this group's game) into the private chat; in a private chat in
    full, a message a part."""
    lang = await lang_here(message, games)
    if message.chat.type in GROUPS:
        link = await games.links.deep_link(f"{RULES_LINK}{message.chat.id}")
        button = Button(tr.t(lang, "btn-rules-full"), url=link)
        markup = keyboard([button])
        await respond(message, games, rules_short(tr, lang, rules), markup)
        return
    for part in rules_parts(tr, lang, rules):
        await respond(message, games, part)


async def lang_here(message: Message, games: Games) -> str:
    if message.chat.type in GROUPS:
        return await chat_lang(games, message.chat.id)
    assert message.from_user is not None
    return await user_lang(games, message.from_user)
