"""The courier: how a handler answers, and what a service command decided,
carried out after the person's answer.

A handler unpacks its update, calls a service part (which it takes by name
from the dispatcher's data: ``play``, ``lobby``, ``seats``…) and gives what
it got back to the courier, which it takes the same way (``courier``):

- the person is answered first — a press's callback answer, a command's
  reply (in a group through the replies' lane of its outbox, so no member
  holds the table back; in a private chat at once, without a sound);
- then the reply's `effects` (`bot.service.outcome`, plain data) are carried
  out, in order, by the sending side's `Carrier` (`bot.telling.carrying`) —
  the one place effects are sent, for the courier and the ticker (timers)
  alike. A told change (`Tell`) is screens already laid out by the command;
  they go through `Sender.deliver`: private screens to Telegram at once,
  what the group reads through its outbox, so nothing waits for a group's
  pace. A reply's `before` — effects its answer reports on (/back's «you
  are back», «prompt sent again») — is carried out before the answer.

The service itself sends nothing: a new feature returns its effects (adding
an effect type to `bot.service.outcome` and its carrying to the `Carrier`
when none fits). The Mini App's answers go through the same courier
(`carry_out`).
"""

from __future__ import annotations

from aiogram.enums import ChatType
from aiogram.types import CallbackQuery, Message, User

from bot.handlers.replies import GROUPS, RULES_LINK
from bot.service.base import Links, Reply
from bot.service.outcome import Effect
from bot.service.profile import Profiles
from bot.telegram.markup import markup_of
from bot.telling import Telling
from bot.telling.carrying import Carrier
from bot.telling.outbox import Outboxes
from bot.words.help import rules_parts, rules_short
from bot.words.i18n import Translator
from bot.words.screen import Button, Keyboard, keyboard
from engine import Rules


class Courier:
    """Answers a person, then carries out what their command decided."""

    def __init__(
        self,
        tr: Translator,
        carrier: Carrier,
        outboxes: Outboxes,
        profiles: Profiles,
        links: Links,
    ) -> None:
        self.tr = tr
        self.carrier = carrier
        self.outboxes = outboxes  # a group's replies' lane, and the presses in hand
        self.profiles = profiles
        self.links = links

    @classmethod
    def of(cls, telling: Telling, tr: Translator) -> Courier:
        """The courier of a process's sending side and its service (made where
        they are: `bot.app`)."""
        games = telling.games
        return cls(tr, telling.carrier, telling.outboxes, games.profiles, games.links)

    # ------------------------------------------------------------------ effects
    async def carry_out(self, effects: tuple[Effect, ...]) -> None:
        """What a command decided, carried out (`Carrier.carry_out`)."""
        await self.carrier.carry_out(effects)

    # ------------------------------------------------------------------ a command's answer
    async def respond(self, message: Message, text: str, markup: Keyboard | None = None) -> None:
        """Answer a message in its chat: in a group through the replies' lane of
        the group's outbox (as a reply to it: after the game's own messages,
        collapsed when a member floods), in a private chat at once, without a sound."""
        if message.chat.type in GROUPS:
            user_id = message.from_user.id if message.from_user is not None else None
            self.outboxes.reply(
                message.chat.id, text, markup, reply_to=message.message_id, user_id=user_id
            )
        else:  # the person has just written here: no sound
            await message.answer(text, reply_markup=markup_of(markup), disable_notification=True)

    async def say(self, message: Message, reply: Reply | None) -> None:
        """Answer a command with a Reply's text, in the chat's language; then
        carry out what it did (what the answer reports on, before it)."""
        if reply is None:
            return
        await self.carry_out(reply.before)
        if reply.key != "ok" or reply.text is not None:
            lang = await self.lang_here(message)
            markup = None
            if reply.url:
                markup = keyboard([Button(self.tr.t(lang, "btn-open-bot"), url=reply.url)])
            text = reply.text if reply.text is not None else self.tr.t(lang, reply.key)
            await self.respond(message, text, markup)
        await self.carry_out(reply.effects)

    async def ask_or_say(self, message: Message, got: Reply | Keyboard, question: Reply) -> None:
        """A command that asks first (/leave, /stop): its question with the yes/no
        buttons the service made, or the service's refusal."""
        if isinstance(got, Reply):
            await self.say(message, got)
            return
        lang = await self.chat_lang(message.chat.id)
        await self.respond(message, self.tr.t(lang, question.key), got)

    # ------------------------------------------------------------------ a press's answer
    async def answer(self, query: CallbackQuery, reply: Reply) -> None:
        """Answer a press (at once: the button stops spinning), then carry out
        what it did (what the answer reports on, before it)."""
        await self.carry_out(reply.before)
        if reply.url:
            await query.answer(url=reply.url)
        elif reply.text is not None:
            await query.answer(text=reply.text[:200], show_alert=reply.alert)
        elif reply.key == "ok":
            await query.answer()
        else:
            lang = reply.lang or await self.user_lang(query.from_user)
            await query.answer(text=self.tr.t(lang, reply.key)[:200], show_alert=reply.alert)
        # the press is answered: what the groups' outboxes held back for it goes
        self.outboxes.unanswered.release(query.id)
        await self.carry_out(reply.effects)

    async def group_of(self, query: CallbackQuery) -> int | None:
        """The group a button was pressed in; None (the presser told) for a button
        that is not on a group's message."""
        message = query.message
        if message is None or message.chat.type not in GROUPS:
            await self.answer(query, Reply("err-bad-button", alert=True))
            return None
        return message.chat.id

    async def table_of(self, query: CallbackQuery) -> int | None:
        """The chat whose game a lobby or table button belongs to: the group it was
        pressed in, or the presser's own private chat (a practice game there);
        None (the presser told) for any other."""
        message = query.message
        if message is not None and message.chat.type == ChatType.PRIVATE:
            if message.chat.id == query.from_user.id:
                return message.chat.id
            await self.answer(query, Reply("err-bad-button", alert=True))
            return None
        return await self.group_of(query)

    # ------------------------------------------------------------------ languages
    async def user_lang(self, user: User) -> str:
        return await self.profiles.user_lang(user.id, user.language_code)

    async def chat_lang(self, chat_id: int) -> str:
        """A group's language (see `Profiles.chat_lang`)."""
        return await self.profiles.chat_lang(chat_id)

    async def lang_here(self, message: Message) -> str:
        if message.chat.type in GROUPS:
            return await self.chat_lang(message.chat.id)
        assert message.from_user is not None
        return await self.user_lang(message.from_user)

    # ------------------------------------------------------------------ the rules
    async def rules_here(self, message: Message) -> Rules:
        """The rules /rules and /card tell: the group's (its game's, its lobby's,
        its settings'); in a private chat, the person's game's (see `Profiles`)."""
        if message.chat.type in GROUPS:
            return await self.profiles.rules_in(message.chat.id)
        assert message.from_user is not None
        return await self.profiles.rules_for(message.from_user.id)

    async def send_rules(self, message: Message, rules: Rules) -> None:
        """/rules: in a group a few lines, with a button that brings the full
        rules (of this group's game) into the private chat; in a private chat in
        full, a message a part."""
        lang = await self.lang_here(message)
        if message.chat.type in GROUPS:
            link = await self.links.deep_link(f"{RULES_LINK}{message.chat.id}")
            markup = keyboard([Button(self.tr.t(lang, "btn-rules-full"), url=link)])
            await self.respond(message, rules_short(self.tr, lang, rules), markup)
            return
        for part in rules_parts(self.tr, lang, rules):
            await self.respond(message, part)
