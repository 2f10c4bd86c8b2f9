"""A chat's profile: the settings every new lobby starts from, kept for good.

/settings in a group shows them with buttons; the profile's creator or an
admin of the chat changes them (the first change makes the profile and its
creator). A lobby copies them when it opens; a running game keeps the rules it
started with (its `GameSetup`), so a change never reaches a game under way.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.service.base import Actor, Defaults, Records, Reply
from bot.store.models import VARIANTS, ChatProfile, Lang, Table
from bot.telegram.messenger import Messenger
from bot.words.i18n import Translator
from engine import DEFAULT_RULES, Rules
from engine.ai import LEVELS

TURN_TIMEOUTS = (60, 90, 120, 180, 300)
CHOICE_TIMEOUTS = (30, 60, 90, 120)

#: each rule option: its name and its explanation (locales), in both languages
VARIANT_TEXTS = {
    "hand_limit": ("variant-hand-limit", "variant-hand-limit-about"),
    "actions_per_turn": ("variant-actions", "variant-actions-about"),
    "fire_each_house": ("variant-fire", "variant-fire-about"),
}
#: what /settings' buttons may change (the callback's `what`)
SETTINGS = ("lang", "time", "level", "hints", *VARIANTS)


class SettingsCb(CallbackData, prefix="cf"):
    """A /settings button: what it changes (cycles to the next value)."""

    what: str


def rules_of(variants: dict[str, int]) -> Rules:
    """The engine's rules with a chat's options applied (unknown ones ignored)."""
    given = {k: v for k, v in variants.items() if k in VARIANTS and v in VARIANTS[k]}
    if not given:
        return DEFAULT_RULES
    values: dict[str, int | bool] = {
        k: bool(v) if k == "fire_each_house" else v for k, v in given.items()
    }
    return DEFAULT_RULES.model_copy(update=values)


def variant_value(variants: dict[str, int], name: str) -> int:
    return variants.get(name, VARIANTS[name][0])


def _cycle(values: tuple[int, ...], current: int) -> int:
    i = values.index(current) if current in values else -1
    return values[(i + 1) % len(values)]


class Profiles:
    """The chats' profiles and /settings."""

    def __init__(
        self, records: Records, messenger: Messenger, tr: Translator, defaults: Defaults
    ) -> None:
        self.records = records
        self.store = records.store
        self.messenger = messenger
        self.tr = tr
        self.defaults = defaults

    async def of(self, chat_id: int) -> ChatProfile:
        """The chat's profile; the defaults when it has none."""
        found = await self.store.profile(chat_id)
        return found if found is not None else ChatProfile(chat_id=chat_id)

    def start_lobby(self, table: Table, profile: ChatProfile) -> None:
        """A new lobby takes the chat's settings (what the profile leaves
        unset stays as the lobby had it)."""
        if profile.lang is not None:
            table.lang = profile.lang
        if profile.turn_timeout is not None:
            table.turn_timeout = profile.turn_timeout
        if profile.choice_timeout is not None:
            table.choice_timeout = profile.choice_timeout
        table.level = profile.level
        table.variants = dict(profile.variants)
        table.hints = profile.hints

    # ------------------------------------------------------------------ /settings
    def lang_of(self, profile: ChatProfile) -> Lang:
        return profile.lang or self.defaults.lang

    def text(self, profile: ChatProfile) -> str:
        t = self.tr.t
        lang = self.lang_of(profile)
        turn = profile.turn_timeout or self.defaults.turn_timeout
        choice = profile.choice_timeout or self.defaults.choice_timeout
        lines = [
            t(lang, "settings-title"),
            t(lang, "settings-lang"),
            t(lang, "lobby-settings", turn=turn, choice=choice),
            t(lang, "settings-level", level=t(lang, f"level-{profile.level}")),
            t(lang, "settings-hints-on" if profile.hints else "settings-hints-off"),
            "",
            t(lang, "settings-rules"),
        ]
        for name, (key, about) in VARIANT_TEXTS.items():
            value = variant_value(profile.variants, name)
            lines.append(f"• {t(lang, key, value=value)} — {t(lang, about)}")
        lines += ["", t(lang, "settings-hint")]
        return "\n".join(lines)

    def markup(self, profile: ChatProfile) -> InlineKeyboardMarkup:
        t = self.tr.t
        lang = self.lang_of(profile)

        def button(text: str, what: str) -> InlineKeyboardButton:
            return InlineKeyboardButton(text=text, callback_data=SettingsCb(what=what).pack())

        variants = [
            button(
                t(lang, VARIANT_TEXTS[name][0], value=variant_value(profile.variants, name)), name
            )
            for name in VARIANTS
        ]
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    button(t(lang, "btn-lang"), "lang"),
                    button(t(lang, "btn-time"), "time"),
                    button(t(lang, "btn-settings-level"), "level"),
                ],
                [button(t(lang, "btn-settings-hints"), "hints")],
                *[[b] for b in variants],
            ]
        )

    async def show(self, chat_id: int) -> tuple[str, InlineKeyboardMarkup]:
        profile = await self.of(chat_id)
        return self.text(profile), self.markup(profile)

    async def may_change(self, profile: ChatProfile, user_id: int) -> bool:
        """The profile's creator, an admin of the chat; anyone while there is
        no profile yet (their first change makes it theirs)."""
        if profile.owner_id is None or profile.owner_id == user_id:
            return True
        return await self.records.is_admin(profile.chat_id, user_id)

    async def press(self, chat_id: int, actor: Actor, what: str, message_id: int) -> Reply:
        if what not in SETTINGS:
            return Reply("err-bad-button", alert=True)
        profile = await self.of(chat_id)
        if not await self.may_change(profile, actor.user_id):
            return Reply("err-settings-not-yours", alert=True)
        if profile.owner_id is None:
            profile.owner_id = actor.user_id
        if what == "lang":
            profile.lang = "en" if self.lang_of(profile) == "ru" else "ru"
        elif what == "time":
            turn = _cycle(TURN_TIMEOUTS, profile.turn_timeout or self.defaults.turn_timeout)
            profile.turn_timeout = turn
            profile.choice_timeout = CHOICE_TIMEOUTS[
                min(TURN_TIMEOUTS.index(turn), len(CHOICE_TIMEOUTS) - 1)
            ]
        elif what == "level":
            profile.level = LEVELS[(LEVELS.index(profile.level) + 1) % len(LEVELS)]
        elif what == "hints":
            profile.hints = not profile.hints
        else:
            value = _cycle(VARIANTS[what], variant_value(profile.variants, what))
            if value == VARIANTS[what][0]:
                profile.variants.pop(what, None)
            else:
                profile.variants[what] = value
        await self.store.save_profile(profile)
        await self.messenger.edit(chat_id, message_id, self.text(profile), self.markup(profile))
        return Reply("settings-saved", lang=self.lang_of(profile))


def lobby_home_lines(tr: Translator, table: Table) -> list[str]:
    """What a group's lobby shows of its chat's home: rule options that differ
    from the defaults, and how many /notify called."""
    lang = table.lang
    lines = []
    for name, value in sorted(table.variants.items()):
        if name in VARIANT_TEXTS and value != VARIANTS[name][0]:
            lines.append("📜 " + tr.t(lang, VARIANT_TEXTS[name][0], value=value))
    if table.called:
        lines.append(tr.t(lang, "notify-called", n=table.called))
    return lines
