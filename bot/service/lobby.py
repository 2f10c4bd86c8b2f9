"""The lobby: opening a game, seats, computer seats, settings, the start.

What the group is shown of it — the lobby's message brought up to date, sent
anew, fixed for good once it starts or closes — is returned as effects
(`bot.service.outcome`): the courier carries them out."""

from __future__ import annotations

import logging
import random
from typing import TypedDict

from bot.service import clocks, journal
from bot.service.base import (
    Actor,
    Change,
    Changed,
    Defaults,
    Links,
    Moved,
    Records,
    Refusal,
    Reply,
    new_seeds,
)
from bot.service.bookkeeping import book_move
from bot.service.outcome import (
    CallSubscribers,
    ChatStep,
    ChatSteps,
    Effect,
    FixView,
    PostPicture,
    PostText,
    RepostView,
    Reread,
    ShowView,
)
from bot.service.profile import Profiles, rules_of
from bot.service.seated import too_many
from bot.service.seating import MAX_SEATS, MIN_SEATS
from bot.service.telling import Teller
from bot.service.views import LOBBY, TABLE
from bot.store import UserPrefs
from bot.store.models import LobbyMenu, Seat, Status, Table
from bot.words.i18n import Translator
from bot.words.names import clean_name
from engine import Command, GameSetup, new_game
from engine.ai import Level

log = logging.getLogger(__name__)

CANCELLED = "lobby-cancelled"  # a lobby's `cancel` did close it
DEFAULT_LEVEL: Level = "normal"
#: a lobby button's action → the screen it opens (``main``: the first one)
MENUS: dict[str, LobbyMenu | None] = {"levels": "levels", "settings": "settings", "main": None}


class Lobby:
    """Between /newgame and the start of the game."""

    def __init__(
        self,
        records: Records,
        teller: Teller,
        tr: Translator,
        defaults: Defaults,
        links: Links,
        seeds: random.Random | None = None,
        profiles: Profiles | None = None,
    ) -> None:
        self.records = records
        self.profiles = profiles
        self.store = records.store
        self.teller = teller
        self.render = teller.render
        self.tr = tr
        self.defaults = defaults
        self.links = links
        self.seeds = seeds or new_seeds()

    async def new_lobby(self, chat_id: int, title: str, actor: Actor) -> Reply:
        existing = await self.store.load(chat_id)
        if existing is not None and existing.status in ("lobby", "playing"):
            return Reply("err-game-exists")
        if (await self.store.user(actor.user_id)).started:  # its opener takes a seat
            refused = await self.table_limit(actor, chat_id)
            if refused is not None:
                return refused
        table = await self.open_table(chat_id, title, actor, existing)
        return Reply("err-busy") if table is None else Reply("ok", effects=self.opened(table))

    async def open_table(
        self,
        chat_id: int,
        title: str,
        actor: Actor,
        existing: Table | None,
        computers: list[Level] | None = None,
        invited: list[int] | None = None,
    ) -> Table | None:
        """A new lobby in place of `existing` (the chat's record as loaded, or
        None), opened by `actor` (seated when they started the bot), with
        `computers` seated at those levels and the people `invited` (who may
        join by «Ещё партию»); what shows it is `opened`. None when another
        update saved the chat's record first (nothing changed)."""
        prefs = await self.store.user(actor.user_id)
        # the chat's next game number: past every number it ever had (its
        # history outlives a finished record, which expires)
        last = max(existing.game_no if existing else 0, await self.store.last_game_no(chat_id))
        table = self.new_table(chat_id, title, actor, existing, last + 1)
        table.invited = list(invited or [])
        if existing is not None:  # the chat's last choices, until its profile says otherwise
            table.lang = existing.lang
            table.turn_timeout = existing.turn_timeout
            table.choice_timeout = existing.choice_timeout
        if self.profiles is not None:
            self.profiles.start_lobby(table, await self.profiles.of(chat_id))
        if prefs.started:
            table.seats.append(self.person_seat(actor, prefs))
        for level in computers or []:
            table.seats.append(self.computer_seat(table, level))
        if not await self._publish(table, actor if prefs.started else None):
            return None
        return table

    def opened(self, table: Table) -> tuple[Effect, ...]:
        """A group's new lobby told: its message sent anew, then its
        subscribers called (/notify), in a task of their own."""
        return (_anew(table.chat_id), CallSubscribers(table))

    async def practice_here(self, chat_id: int) -> bool:
        """Whether a private chat holds its person's practice game (lobby or running)."""
        table = await self.store.load(chat_id)
        return table is not None and table.practice and table.status != "finished"

    async def practice(self, actor: Actor) -> Reply:
        """/practice in the private chat: a table of this person against the
        computer, in this very chat (table, prompts and all), set up with
        buttons — opponents and their levels, a clock or none — then started."""
        chat_id = actor.user_id
        existing = await self.store.load(chat_id)
        if existing is not None and existing.status == "playing":
            return Reply("practice-running")
        if existing is not None and existing.status == "lobby":
            return Reply("ok", effects=(self._move_down(existing),))
        refused = await self.table_limit(actor, chat_id)
        if refused is not None:
            return refused
        prefs = await self.mark_started(actor)
        prefs.practices += 1
        await self.store.save_user(prefs)
        lang = self.defaults.person_lang(prefs, actor.lang_code)
        # nothing keeps a practice game once it expires: its number follows its record's
        game_no = existing.game_no + 1 if existing else 1
        title = self.tr.t(lang, "practice-title")
        table = self.new_table(chat_id, title, actor, existing, game_no)
        table.practice, table.timed, table.lang = True, False, lang
        table.hints = True  # practice is for learning: its prompts offer hints
        table.seats.append(self.person_seat(actor, prefs))
        table.seats.append(self.computer_seat(table, self.default_level(table)))
        if not await self._publish(table, actor):
            return Reply("err-busy")
        return Reply("ok", effects=(_anew(chat_id),))

    async def table_limit(self, actor: Actor, joining: int) -> Reply | None:
        """Why the person may take no seat in chat `joining`: they sit at
        `MAX_TABLES` other tables (`bot.service.seated`). None: nothing stops it."""
        prefs = await self.store.user(actor.user_id)
        lang = self.defaults.person_lang(prefs, actor.lang_code)
        return await too_many(self.store, self.tr, lang, actor.user_id, joining)

    def new_table(
        self, chat_id: int, title: str, actor: Actor, existing: Table | None, game_no: int
    ) -> Table:
        """An empty lobby record, game `game_no`, that replaces `existing` (its
        version), with the bot's default settings."""
        now = self.records.clock.now()
        return Table(
            chat_id=chat_id,
            game_no=game_no,
            title=title,
            creator_id=actor.user_id,
            lang=self.defaults.lang,
            turn_timeout=self.defaults.turn_timeout,
            choice_timeout=self.defaults.choice_timeout,
            created_at=now,
            updated_at=now,
            version=existing.version if existing else 0,
        )

    async def _publish(self, table: Table, seated: Actor | None) -> bool:
        """Save a new lobby (False: another update saved the chat first),
        linking the person `seated` at it to the chat; the chat's views have
        no message yet (`_anew` shows it)."""
        if not await self.store.save(table):
            return False
        if seated is not None:
            await self.store.link_user(seated.user_id, table.chat_id)
        await self.store.set_messages(table.chat_id, {TABLE: None, LOBBY: None})
        return True

    def person_seat(self, actor: Actor, prefs: UserPrefs) -> Seat:
        """The seat of a person joining, in their language."""
        lang = self.defaults.person_lang(prefs, actor.lang_code)
        return Seat(
            user_id=actor.user_id,
            name=clean_name(actor.name),
            lang=lang,
            quiet=clocks.quiet_of(prefs, lang),
        )

    async def join(
        self, chat_id: int, actor: Actor, game_no: int | None = None, stale: str = "err-no-lobby"
    ) -> Reply:
        """Take a seat in the chat's lobby (in game `game_no`, when the link or
        the button that brought the person here names one; refused with
        `stale` when that lobby is gone)."""
        prefs = await self.store.user(actor.user_id)
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby" or game_no not in (None, table.game_no):
            return Reply(stale, alert=True)
        if table.practice:
            return Reply("err-practice-solo", alert=True)
        if not prefs.started:
            link = await self.links.deep_link(f"join_{chat_id}_{table.game_no}")
            return Reply("lobby-start-bot-first", alert=True, url=link)
        if table.seat_of(actor.user_id) is None:
            refused = await self.table_limit(actor, chat_id)
            if refused is not None:
                return refused
        game_no = table.game_no

        def add(t: Table) -> list[Command]:
            if t.status != "lobby":
                raise Refusal("err-no-lobby")
            if t.seat_of(actor.user_id) is not None:
                raise Refusal("err-already-joined")
            if len(t.seats) >= MAX_SEATS:
                raise Refusal("err-lobby-full")
            t.seats.append(self.person_seat(actor, prefs))
            return []

        done = await self.records.attempt(chat_id, add, game=game_no, stale=stale)
        if isinstance(done, Reply):
            return done
        await self.store.link_user(actor.user_id, chat_id)
        return Reply("lobby-joined", effects=(lobby_shown(chat_id),))

    async def join_from_link(self, chat_id: int, game_no: int, actor: Actor) -> Reply:
        """/start join_<chat>_<game> in the private chat (which has marked the
        person as one the bot can write to): take the seat — only for a
        member of the group (a link travels: whoever got it from elsewhere
        may not sit at a group's table they are not in)."""
        if not await self.records.is_member(chat_id, actor.user_id):
            return Reply("err-not-member")
        reply = await self.join(chat_id, actor, game_no)
        if reply.key == "lobby-joined":
            return Reply("lobby-joined-private", effects=reply.effects)
        return reply

    async def mark_started(self, actor: Actor) -> UserPrefs:
        prefs = await self.store.user(actor.user_id)
        if not prefs.started:
            prefs.started = True
            await self.store.save_user(prefs)
        return prefs

    async def _manage(
        self, chat_id: int, actor: Actor, change: Change, game: int | None
    ) -> Changed | Reply:
        """`change` to the chat's lobby by `actor`, refused when there is no
        lobby (err-no-lobby), or it is not game `game` — a button of an older
        lobby (err-old-button) — or they are neither its creator nor an admin
        (err-not-creator): checked on the record the change saves."""
        return await self.records.attempt(chat_id, change, **_lobby_of(game), manager=actor.user_id)

    def default_level(self, table: Table) -> Level:
        """The level a computer gets when nobody chose one (the "bot" button of
        an old lobby message, a practice table's first opponent): the chat's."""
        return table.level or DEFAULT_LEVEL

    async def add_computer(
        self, chat_id: int, actor: Actor, level: Level | None = None, game: int | None = None
    ) -> Reply:
        def add(t: Table) -> list[Command]:
            if len(t.seats) >= MAX_SEATS:
                raise Refusal("err-lobby-full")
            t.seats.append(self.computer_seat(t, level or self.default_level(t)))
            t.lobby_menu = None  # seated: back to the first screen (start, settings)
            return []

        done = await self._manage(chat_id, actor, add, game)
        if isinstance(done, Reply):
            return done
        return Reply("lobby-computer-added", effects=(lobby_shown(chat_id),))

    def computer_seat(self, t: Table, level: Level) -> Seat:
        """A computer seat, named by its number and level («Компьютер 2 · сильный»)."""
        number = 1 + sum(1 for s in t.seats if s.user_id is None)
        name = self.tr.t(t.lang, "bot-name", n=number, level=self.tr.t(t.lang, f"level-{level}"))
        return Seat(user_id=None, name=name, level=level)

    async def drop_computer(self, chat_id: int, actor: Actor, game: int | None = None) -> Reply:
        """The last computer seat leaves the table (a practice table's «−🤖»)."""

        def drop(t: Table) -> list[Command]:
            computers = [i for i, s in enumerate(t.seats) if s.user_id is None]
            if not computers:
                raise Refusal("err-no-computer")
            del t.seats[computers[-1]]
            return []

        done = await self._manage(chat_id, actor, drop, game)
        if isinstance(done, Reply):
            return done
        return Reply("lobby-computer-dropped", effects=(lobby_shown(chat_id),))

    async def configure(
        self, chat_id: int, actor: Actor, what: str, game: int | None = None
    ) -> Reply:
        """Lobby settings (creator or admin): the group's language, the timeouts."""

        def set_option(t: Table) -> list[Command]:
            if what == "clock" and t.practice:  # a group's game always has a clock
                t.timed = not t.timed
            elif what == "clock" or t.practice:
                raise Refusal("err-bad-button")  # a practice table has no group settings
            elif what == "lang":
                t.lang = "en" if t.lang == "ru" else "ru"
            elif what == "time":  # the next time of the same pace
                t.turn_timeout = clocks.next_time(t.turn_timeout)
                t.choice_timeout = clocks.choice_for(t.turn_timeout)
            elif what == "pace":  # live ↔ own pace
                t.turn_timeout = clocks.other_pace(t.turn_timeout, self.defaults.turn_timeout)
                t.choice_timeout = clocks.choice_for(t.turn_timeout)
            return []

        done = await self._manage(chat_id, actor, set_option, game)
        if isinstance(done, Reply):
            return done
        return Reply("lobby-updated", effects=(lobby_shown(chat_id),))

    async def open_menu(
        self, chat_id: int, actor: Actor, button: str, game: int | None = None
    ) -> Reply:
        """The lobby message's screen a button opens (creator or admin: what
        its buttons change is theirs): the computers' levels, the settings, or
        back to the first one (see `MENUS`)."""
        if button not in MENUS:
            return Reply("err-bad-button", alert=True)
        menu = MENUS[button]

        def open_(t: Table) -> list[Command]:
            t.lobby_menu = menu
            return []

        done = await self._manage(chat_id, actor, open_, game)
        if isinstance(done, Reply):
            return done
        return Reply("ok", effects=(lobby_shown(chat_id),))

    async def toggle_hints(self, chat_id: int, actor: Actor, game: int | None = None) -> Reply:
        """Hints on or off for this game — the lobby's creator's choice (the
        chat's /settings only give the default a new lobby starts with)."""

        def toggle(t: Table) -> list[Command]:
            if t.creator_id != actor.user_id:
                raise Refusal("err-hints-creator")
            t.hints = not t.hints
            return []

        done = await self.records.attempt(chat_id, toggle, **_lobby_of(game))
        if isinstance(done, Reply):
            return done
        key = "lobby-hints-now-on" if done.table.hints else "lobby-hints-now-off"
        return Reply(key, effects=(lobby_shown(chat_id),))

    async def cancel(self, chat_id: int, actor: Actor, game: int | None = None) -> Reply:
        def close(t: Table) -> list[Command]:
            t.status = "finished"
            return []

        done = await self._manage(chat_id, actor, close, game)
        if isinstance(done, Reply):
            return done
        table = done.table
        for user_id in table.people:
            await self.store.link_user(user_id, chat_id, linked=False)
        closed = "practice-cancelled" if table.practice else CANCELLED
        fixed = FixView(LOBBY, self.tr.t(table.lang, closed), or_post=True)
        return Reply(CANCELLED, effects=(ChatSteps(chat_id, (fixed,)),))

    # ------------------------------------------------------------------ the lobby's message
    # ------------------------------------------------------------------ the start
    async def go(self, chat_id: int, actor: Actor, game: int | None = None) -> Reply:
        seeds: list[int] = []  # drawn once, once the actor may start the game

        def start(t: Table) -> Moved:
            if not seeds:
                seeds.append(self.seeds.randrange(2**63))
            seed = seeds[0]
            if not MIN_SEATS <= len(t.seats) <= MAX_SEATS:
                raise Refusal("err-seats")
            if not t.humans:
                raise Refusal("err-no-humans")
            setup = GameSetup(
                players=len(t.seats),
                seed=seed,
                computer=tuple(i for i, s in enumerate(t.seats) if s.user_id is None),
                rules=rules_of(t.variants),
            )
            state, events = new_game(setup)
            t.setup = setup
            t.state = state
            t.status = "playing"
            journal.told_all(t)  # nothing of the lobby is left to tell
            book_move(t, events, self.records.clock.now(), self.defaults)
            if t.turn_closed:  # «Игра началась…» heads the first table, whoever moves first
                t.turn_at, t.turn_closed = t.turn_closed[0], None
            return Moved([], events)

        done = await self._manage(chat_id, actor, start, game)
        if isinstance(done, Reply):
            return done
        table, ids, _, _ = done
        started = FixView(
            LOBBY,
            self.tr.t(table.lang, "lobby-started")
            + "\n"
            + "\n".join(
                f"• {self.render.name(table.lang, table, i)}" for i in range(len(table.seats))
            ),
        )
        told = self.teller.lay_out(table, ids, new_game_started=True)
        return Reply("game-started", effects=(ChatSteps(chat_id, (started,)), told))

    async def repost(self, chat_id: int, full: bool = False, photo: bool = False) -> Reply:
        """/table: the lobby or the game's table as a new message at the bottom;
        `full`: every card of the table, a message of its own; `photo`: the
        table as a picture (`bot.service.pictures`), with the points turn by turn."""
        table = await self.store.load(chat_id)
        if table is None or table.status == "finished":
            return Reply("err-no-game")
        step: ChatStep
        if full and table.status == "playing" and table.state is not None:
            step = PostText(self.render.full_table(table, table.state), quiet=True)
            return Reply("ok", effects=(ChatSteps(chat_id, (step,)),))
        pictures = self.teller.pictures
        if photo and pictures is not None and table.status == "playing" and table.state is not None:
            caption = self.tr.t(table.lang, "picture-caption", turn=table.state.turn)
            step = PostPicture(caption, table, quiet=True)
            return Reply("ok", effects=(ChatSteps(chat_id, (step,)),))
        return Reply("ok", effects=(self._move_down(table),))

    def _move_down(self, table: Table) -> ChatSteps:
        """The lobby or the table as a new message at the bottom; the old one
        points down, with no buttons (one live lobby, one live table)."""
        view, moved = (LOBBY, "lobby-moved") if table.status == "lobby" else (TABLE, "table-moved")
        fixed = FixView(view, self.tr.t(table.lang, moved))
        return ChatSteps(table.chat_id, (fixed, RepostView(view)))


def lobby_shown(chat_id: int) -> ChatSteps:
    """The chat's lobby message brought up to date."""
    return ChatSteps(chat_id, (ShowView(LOBBY),))


def _anew(chat_id: int) -> ChatSteps:
    """A new lobby saved: what the chat's outbox knew is read again, and the
    lobby goes out as a new message."""
    return ChatSteps(chat_id, (Reread(), RepostView(LOBBY)))


class _LobbyCheck(TypedDict):
    status: Status
    game: int | None
    stale: str


def _lobby_of(game: int | None) -> _LobbyCheck:
    """What a change to a lobby checks on the record it saves: a lobby; by a
    button (`game`: the lobby it was on), that lobby — an older one's button
    is refused as old (err-old-button), a command finding none err-no-lobby."""
    if game is None:
        return {"status": "lobby", "game": None, "stale": "err-no-lobby"}
    return {"status": "lobby", "game": game, "stale": "err-old-button"}
