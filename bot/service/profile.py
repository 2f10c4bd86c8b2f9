"""A chat's profile: the settings every new lobby starts from, kept for good.

/settings in a group shows them with buttons. /settings in a private chat
shows the person's own instead (`UserPrefs`: their language, whether a review
of their game comes after each game), which only they change. Who may change them
(`Profiles.right_to_change`): a group admin, always; the profile's author
while they still play in the chat; and, while there is no such author, any
player of the chat — whose change makes them the author. A player of the chat
sits at its table (lobby, game, or the last game's record) or played one of
its last `PLAYER_GAMES` games; someone who never played there may not claim
the settings. When Telegram cannot say who is an admin, the answer is no
(`is_admin` fails closed), and only those players remain. One setting is open
wider: while there is no such author, any member of the group (Telegram's
word, failing closed too) may turn hints on — before the first game nobody
plays there yet, and a newcomer should not need an admin to learn; it claims
nothing (they do not become the author). A lobby copies the
settings when it opens; a running game keeps the rules it started with (its
`GameSetup`), so a change never reaches a game under way.
"""

from __future__ import annotations

import logging
import time
from typing import Literal

from bot.ops import logs
from bot.service import clocks
from bot.service.base import Actor, Conflict, Defaults, Records, Refusal, Reply, until_saved
from bot.service.outcome import Edit
from bot.store import UserPrefs
from bot.store.models import VARIANTS, ChatProfile, Lang, Table
from bot.words.i18n import Translator
from bot.words.keyboards import PrefsCb, SettingsCb
from bot.words.screen import Button, Keyboard, keyboard
from engine import DEFAULT_RULES, Command, Rules
from engine.ai import LEVELS

log = logging.getLogger(__name__)


#: each rule option: its name and its explanation (locales), in both languages
VARIANT_TEXTS = {
    "hand_limit": ("variant-hand-limit", "variant-hand-limit-about"),
    "actions_per_turn": ("variant-actions", "variant-actions-about"),
    "fire_each_house": ("variant-fire", "variant-fire-about"),
}
#: the chat's recent games whose players count as the chat's players (/settings)
PLAYER_GAMES = 10
#: why someone may change a chat's settings (see `Profiles.right_to_change`)
Right = Literal["author", "admin", "player", "member"]
#: what /settings' buttons may change (the callback's `what`)
SETTINGS = ("lang", "pace", "time", "level", "hints", *VARIANTS)
#: what a person's own /settings (`PrefsCb`) may set
OWN_SETTINGS = ("reviews", "quiet", "offset")


def rules_of(variants: dict[str, int]) -> Rules:
    """The engine's rules with a chat's options applied (unknown ones ignored)."""
    given = {k: v for k, v in variants.items() if k in VARIANTS and v in VARIANTS[k]}
    if not given:
        return DEFAULT_RULES
    values: dict[str, int | bool] = {
        k: bool(v) if k == "fire_each_house" else v for k, v in given.items()
    }
    if "actions_per_turn" in given:
        # Замок Торговли keeps its extra actions over a turn of the chat's length
        extra = DEFAULT_RULES.trade_castle_actions - DEFAULT_RULES.actions_per_turn
        values["trade_castle_actions"] = given["actions_per_turn"] + extra
    return DEFAULT_RULES.model_copy(update=values)


def variant_value(variants: dict[str, int], name: str) -> int:
    return variants.get(name, VARIANTS[name][0])


def _cycle(values: tuple[int, ...], current: int) -> int:
    i = values.index(current) if current in values else -1
    return values[(i + 1) % len(values)]


class Profiles:
    """The chats' profiles and /settings."""

    def __init__(self, records: Records, tr: Translator, defaults: Defaults) -> None:
        self.records = records
        self.store = records.store
        self.tr = tr
        self.defaults = defaults

    async def of(self, chat_id: int) -> ChatProfile:
        """The chat's profile; the defaults when it has none."""
        found = await self.store.profile(chat_id)
        return found if found is not None else ChatProfile(chat_id=chat_id)

    async def user_lang(self, user_id: int, lang_code: str | None) -> Lang:
        """A person's language: the one they chose (/lang), else their
        Telegram client's when the bot speaks it, else the bot's default."""
        return self.lang_of_person(await self.store.user(user_id), lang_code)

    def lang_of_person(self, prefs: UserPrefs, lang_code: str | None) -> Lang:
        """`user_lang` of prefs already read."""
        return self.defaults.person_lang(prefs, lang_code)

    async def chat_lang(self, chat_id: int) -> Lang:
        """A group's language: its lobby's or game's; between games, its settings'
        (those of its next game), else its last game's, else the bot's default."""
        table = await self.store.load(chat_id)
        if table is not None and table.status != "finished":
            return table.lang
        profile = await self.store.profile(chat_id)
        if profile is not None and profile.lang is not None:
            return profile.lang
        return table.lang if table is not None else self.defaults.lang

    async def rules_in(self, chat_id: int) -> Rules:
        """The rules a chat plays by: its game's, its lobby's, or — between
        games — its settings' (those its next game starts with)."""
        table = await self.store.load(chat_id)
        if table is not None and table.status != "finished":
            return table.state.rules if table.state is not None else rules_of(table.variants)
        found = await self.store.profile(chat_id)
        return rules_of(found.variants) if found is not None else DEFAULT_RULES

    async def rules_for(self, user_id: int) -> Rules:
        """The rules a person's private chat tells: its practice game's (or
        lobby's), else those of the game or lobby they sit in, else the defaults."""
        for chat_id in [user_id, *sorted(await self.store.user_tables(user_id))]:
            table = await self.store.load(chat_id)
            if table is not None and table.status != "finished":
                return table.state.rules if table.state is not None else rules_of(table.variants)
        return DEFAULT_RULES

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

    # ------------------------------------------------------------------ a person's own
    async def own(self, user_id: int, lang_code: str | None) -> tuple[str, Keyboard]:
        """/settings in the private chat: the person's own settings."""
        prefs = await self.store.user(user_id)
        return self.own_screen(self.lang_of_person(prefs, lang_code), prefs)

    def own_screen(self, lang: Lang, prefs: UserPrefs) -> tuple[str, Keyboard]:
        t = self.tr.t
        if prefs.reviews:
            reviews = t(lang, "own-settings-reviews-on")
        else:
            reviews = t(lang, "own-settings-reviews-off")
        offset = clocks.offset_of(prefs, lang)
        local = self.records.clock.now() + offset * 60
        quiet = clocks.local_quiet(prefs)
        text = "\n".join(
            [
                t(lang, "own-settings-title"),
                "",
                t(lang, "own-settings-lang"),
                reviews,
                t(
                    lang,
                    "own-settings-time",
                    time=time.strftime("%H:%M", time.gmtime(local)),
                    offset=_utc(offset),
                ),
                t(lang, "own-settings-quiet", start=quiet[0], end=quiet[1])
                if quiet is not None
                else t(lang, "own-settings-quiet-off"),
                "",
                t(lang, "own-settings-hint"),
            ]
        )

        def button(key: str, what: str, on: bool) -> Button:
            return Button(t(lang, key), data=PrefsCb(what=what, on=on, screen=True).pack())

        key = "btn-reviews-off" if prefs.reviews else "btn-reviews-on"
        return text, keyboard(
            [button(key, "reviews", not prefs.reviews)],
            [button("btn-time-earlier", "offset", False), button("btn-time-later", "offset", True)],
            [button("btn-quiet", "quiet", True)],
        )

    async def set_own(
        self, actor: Actor, what: str, on: bool, message_id: int | None = None
    ) -> Reply:
        """A person's own setting `what` set `on` (or off; the time an hour
        later or earlier; the next quiet hours); with `message_id` (the
        /settings message it was pressed on), that message shows it."""
        if what not in OWN_SETTINGS:
            return Reply("err-bad-button", alert=True)
        prefs = await self.store.user(actor.user_id)
        lang = self.lang_of_person(prefs, actor.lang_code)
        if what == "reviews":
            prefs.reviews = on
            reply = Reply("reviews-on", lang=lang) if on else Reply("reviews-off", lang=lang)
        else:
            if what == "offset":
                offset = clocks.offset_of(prefs, lang) + (60 if on else -60)
                prefs.offset = min(max(offset, clocks.OFFSETS[0]), clocks.OFFSETS[-1])
            else:
                prefs.quiet = clocks.next_quiet(prefs)
            await self._requiet(actor.user_id, clocks.quiet_of(prefs, lang))
            reply = Reply("own-saved", lang=lang)
        await self.store.save_user(prefs)
        if message_id is None:
            return reply
        text, keys = self.own_screen(lang, prefs)
        return reply.and_then(Edit(actor.user_id, message_id, text, keys))

    async def _requiet(self, user_id: int, quiet: tuple[int, int] | None) -> None:
        """A person's quiet hours, in every game they sit at (the next clock
        keeps them; a deadline already set stays)."""

        def requiet(t: Table) -> list[Command]:
            seat = t.seat_of_person(user_id)
            if seat is not None:
                t.seats[seat].quiet = quiet
            return []

        for chat_id in await self.store.user_tables(user_id):
            try:
                await self.records.change(chat_id, requiet)
            except (Refusal, Conflict):
                log.info("could not set the quiet hours of %s in %s", logs.person(user_id), chat_id)

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
            *clocks.pace_lines(self.tr, lang, turn, choice),
            t(lang, "settings-level", level=t(lang, f"level-{profile.level}")),
            t(lang, "settings-hints-on" if profile.hints else "settings-hints-off"),
            "",
            t(lang, "settings-rules"),
        ]
        for name, (key, about) in VARIANT_TEXTS.items():
            value = variant_value(profile.variants, name)
            lines.append(f"• {t(lang, key, value=value)} — {t(lang, about)}")
        lines += [
            "",
            t(lang, "settings-hint", games=PLAYER_GAMES),
            t(lang, "settings-hints-anyone"),
        ]
        return "\n".join(lines)

    def markup(self, profile: ChatProfile) -> Keyboard:
        t = self.tr.t
        lang = self.lang_of(profile)

        def button(text: str, what: str) -> Button:
            return Button(text, data=SettingsCb(what=what).pack())

        own = clocks.is_own_pace(profile.turn_timeout or self.defaults.turn_timeout)
        pace = "btn-pace-live" if own else "btn-pace-own"

        variants = [
            button(
                t(lang, VARIANT_TEXTS[name][0], value=variant_value(profile.variants, name)), name
            )
            for name in VARIANTS
        ]
        return keyboard(
            [
                button(t(lang, "btn-lang"), "lang"),
                button(t(lang, pace), "pace"),
                button(t(lang, "btn-time"), "time"),
            ],
            [button(t(lang, "btn-settings-level"), "level")],
            [button(t(lang, "btn-settings-hints"), "hints")],
            *[[b] for b in variants],
        )

    async def show(self, chat_id: int) -> tuple[str, Keyboard]:
        profile = await self.of(chat_id)
        return self.text(profile), self.markup(profile)

    async def players(self, chat_id: int) -> set[int]:
        """The chat's players: the people of its record (a lobby, a game, the
        last game) and of its last `PLAYER_GAMES` finished games."""
        table = await self.store.load(chat_id)
        people = set(table.people) if table is not None else set()
        for game in await self.store.history(chat_id, PLAYER_GAMES):
            people.update(s.user_id for s in game.seats if s.user_id is not None)
        return people

    async def right_to_change(
        self, profile: ChatProfile, user_id: int, what: str | None = None
    ) -> Right | None:
        """Why `user_id` may change the chat's settings (`what`: the one they
        press) — its author who still plays there, an admin, a player of the chat
        while the settings have no such author (who takes them on), or a member
        of the group turning hints on while there is no such author — or None:
        they may not."""
        players = await self.players(profile.chat_id)
        if profile.owner_id == user_id and user_id in players:
            return "author"
        if await self.records.is_admin(profile.chat_id, user_id):
            return "admin"
        if user_id in players and profile.owner_id not in players:
            return "player"
        if (
            what == "hints"
            and not profile.hints
            and profile.owner_id not in players
            and await self.records.is_member(profile.chat_id, user_id)
        ):
            return "member"
        return None

    async def press(self, chat_id: int, actor: Actor, what: str, message_id: int) -> Reply:
        """Cycles one setting; compare-and-set, so two presses at once (two
        admins, two processes) each cycle it once instead of one undoing the other."""
        if what not in SETTINGS:
            return Reply("err-bad-button", alert=True)

        async def attempt() -> ChatProfile | None:
            profile = await self.of(chat_id)
            right = await self.right_to_change(profile, actor.user_id, what)
            if right is None:
                raise Refusal("err-settings-not-yours")
            self.change(profile, actor, right, what)
            return profile if await self.store.save_profile(profile) else None

        try:
            profile = await until_saved(attempt, chat_id)
        except Refusal as r:
            return Reply(r.key, alert=True)
        shown = Edit(chat_id, message_id, self.text(profile), self.markup(profile))
        # the press is answered first; the settings' message follows
        return Reply("settings-saved", lang=self.lang_of(profile), effects=(shown,))

    def change(self, profile: ChatProfile, actor: Actor, right: Right, what: str) -> None:
        """One press of a /settings button, on `profile`."""
        if right == "player" or (profile.owner_id is None and right != "member"):
            profile.owner_id = actor.user_id  # a member turning hints on claims nothing
        if what == "lang":
            profile.lang = "en" if self.lang_of(profile) == "ru" else "ru"
        elif what in ("time", "pace"):
            turn = profile.turn_timeout or self.defaults.turn_timeout
            if what == "time":  # the next time of the same pace
                turn = clocks.next_time(turn)
            else:  # live ↔ own pace
                turn = clocks.other_pace(turn, self.defaults.turn_timeout)
            profile.turn_timeout = turn
            profile.choice_timeout = clocks.choice_for(turn)
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


def _utc(offset: int) -> str:
    """A UTC offset in minutes as people write it: «UTC+3», «UTC−5», «UTC»."""
    if offset == 0:
        return "UTC"
    hours, minutes = divmod(abs(offset), 60)
    sign = "+" if offset > 0 else "−"
    return f"UTC{sign}{hours}" + (f":{minutes:02d}" if minutes else "")
