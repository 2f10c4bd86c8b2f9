"""The game service: lobby, play, timers — everything between a chat and the engine.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything. The service never decides a
rule: it asks the engine for the pending decision, applies answers and renders
what the engine reports.
"""

from __future__ import annotations

import html
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator, pick_lang
from bot.keyboards import LobbyCb, PromptCb, StopCb, menu_level, prompt_keyboard
from bot.messenger import Messenger, Undelivered, Unreachable
from bot.models import Lang, Seat, Table
from bot.render import Renderer
from bot.store import Store, UserPrefs
from engine import (
    Command,
    Decision,
    Event,
    GameSetup,
    GameState,
    Refused,
    apply,
    new_game,
    pending,
    set_computer,
)
from engine.policy import choose

log = logging.getLogger(__name__)

MAX_SEATS = 6
MIN_SEATS = 2
STRIKES_TO_AWAY = 3
TURN_TIMEOUTS = (60, 90, 120, 180, 300)
CHOICE_TIMEOUTS = (30, 60, 90, 120)
KEPT_LOG_LINES = 60  # log lines of the running turn(s) the record keeps
MAX_TEXT = 4096  # Telegram's limit for a message (counted here on the HTML, which is longer)
# how long after a move its process may still be telling it (the pace can hold
# a group's message a few seconds); a prompt still missing after that was lost
ANNOUNCE_GRACE = 5.0


class Clock(Protocol):
    def now(self) -> float: ...


@dataclass(frozen=True)
class Actor:
    """Who pressed or typed: a Telegram user."""

    user_id: int
    name: str
    lang_code: str | None = None


@dataclass(frozen=True)
class Reply:
    """A short answer to the person who acted (a callback alert or a chat reply)."""

    key: str
    alert: bool = False
    url: str | None = None
    lang: Lang | None = None  # the reader's language when the service knows it


class Refusal(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Conflict(Exception):
    """Saving lost the race too many times."""


@dataclass
class Defaults:
    lang: Lang = "ru"
    turn_timeout: int = 90
    choice_timeout: int = 60
    computer_pause: float = 1.5


Change = Callable[[Table], list[Command]]


def shown(decision: Decision, message_id: int | None) -> dict[str, int | None]:
    """The chat's message ids after `decision`'s prompt went out as `message_id`:
    the seat's prompt, and which decision it shows (so a prompt that never went
    out can be told from one that did: see `Games._catch_up`)."""
    if message_id is None:
        return {}
    return {f"prompt:{decision.seat}": message_id, f"shown:{decision.seat}": decision.id}


IsAdmin = Callable[[int, int], Awaitable[bool]]


class Games:
    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        tr: Translator,
        clock: Clock,
        bot_username: Callable[[], Awaitable[str]],
        is_admin: IsAdmin,
        defaults: Defaults | None = None,
        seeds: random.Random | None = None,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.tr = tr
        self.render = Renderer(tr)
        self.clock = clock
        self.bot_username = bot_username
        self.is_admin = is_admin
        self.defaults = defaults or Defaults()
        self.seeds = seeds or random.SystemRandom()

    # ================================================================== plumbing
    async def _change(
        self,
        chat_id: int,
        change: Change,
        loaded: tuple[Table, dict[str, int]] | None = None,
    ) -> tuple[Table, dict[str, int]]:
        """Load, apply `change`, save with compare-and-set; retry on a lost race.

        Returns the saved record and the chat's message ids (read in the same
        round trip as the record). `loaded` — a record the caller has just read —
        saves the first load."""
        for _ in range(8):
            if loaded is not None:
                (table, ids), loaded = loaded, None
            else:
                found, ids = await self.store.load_with_messages(chat_id)
                if found is None:
                    raise Refusal("err-no-game")
                table = found
            commands = change(table)
            table.updated_at = self.clock.now()
            if await self.store.save(table, commands):
                return table, ids
        raise Conflict(chat_id)

    async def _may_manage(self, table: Table, user_id: int) -> bool:
        return user_id == table.creator_id or await self.is_admin(table.chat_id, user_id)

    async def _prefs(self, actor: Actor) -> UserPrefs:
        return await self.store.user(actor.user_id)

    async def _lang_of(self, seat: Seat) -> Lang:
        """A seat's private language: kept in the seat (set at joining, changed by
        /lang), so rendering needs no extra look-up."""
        return seat.lang

    async def deep_link(self, payload: str) -> str:
        return f"https://t.me/{await self.bot_username()}?start={payload}"

    # ================================================================== lobby
    async def new_lobby(self, chat_id: int, title: str, actor: Actor) -> Reply | None:
        existing = await self.store.load(chat_id)
        if existing is not None and existing.status in ("lobby", "playing"):
            return Reply("err-game-exists")
        prefs = await self._prefs(actor)
        now = self.clock.now()
        table = Table(
            chat_id=chat_id,
            game_no=(existing.game_no + 1) if existing else 1,
            title=title,
            creator_id=actor.user_id,
            lang=existing.lang if existing else self.defaults.lang,
            turn_timeout=existing.turn_timeout if existing else self.defaults.turn_timeout,
            choice_timeout=existing.choice_timeout if existing else self.defaults.choice_timeout,
            created_at=now,
            updated_at=now,
            version=existing.version if existing else 0,
        )
        if prefs.started:
            table.seats.append(self._seat(actor, prefs))
        if not await self.store.save(table):
            return Reply("err-busy")
        if prefs.started:
            await self.store.link_user(actor.user_id, chat_id)
        await self.store.set_messages(chat_id, {"table": None, "lobby": None})
        await self._show_lobby(table, fresh=True)
        return None

    def _seat(self, actor: Actor, prefs: UserPrefs) -> Seat:
        return Seat(
            user_id=actor.user_id,
            name=actor.name[:32],
            lang=prefs.lang or pick_lang(actor.lang_code, self.defaults.lang),
        )

    async def join(self, chat_id: int, actor: Actor) -> Reply:
        prefs = await self._prefs(actor)
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby":
            return Reply("err-no-lobby", alert=True)
        if not prefs.started:
            link = await self.deep_link(f"join_{chat_id}_{table.game_no}")
            return Reply("lobby-start-bot-first", alert=True, url=link)
        game_no = table.game_no

        def add(t: Table) -> list[Command]:
            if t.status != "lobby" or t.game_no != game_no:
                raise Refusal("err-no-lobby")
            if t.seat_of(actor.user_id) is not None:
                raise Refusal("err-already-joined")
            if len(t.seats) >= MAX_SEATS:
                raise Refusal("err-lobby-full")
            t.seats.append(self._seat(actor, prefs))
            return []

        try:
            table, _ids = await self._change(chat_id, add)
        except Refusal as r:
            return Reply(r.key, alert=True)
        await self.store.link_user(actor.user_id, chat_id)
        await self._show_lobby(table)
        return Reply("lobby-joined")

    async def join_from_link(self, chat_id: int, game_no: int, actor: Actor) -> Reply:
        """/start join_<chat>_<game> in the private chat: the person can now be written to."""
        await self.mark_started(actor)
        table = await self.store.load(chat_id)
        if table is None or table.game_no != game_no or table.status != "lobby":
            return Reply("err-no-lobby")
        reply = await self.join(chat_id, actor)
        if reply.key == "lobby-joined":
            return Reply("lobby-joined-private")
        return reply

    async def mark_started(self, actor: Actor) -> UserPrefs:
        prefs = await self._prefs(actor)
        if not prefs.started:
            prefs.started = True
            await self.store.save_user(prefs)
        return prefs

    async def leave(self, chat_id: int, actor: Actor) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status == "finished":
            return Reply("err-no-game")
        if table.seat_of(actor.user_id) is None:
            return Reply("err-not-seated", alert=True)
        if table.status == "lobby":

            def remove(t: Table) -> list[Command]:
                seat = t.seat_of(actor.user_id)
                if seat is None:
                    raise Refusal("err-not-seated")
                del t.seats[seat]
                return []

            try:
                table, _ids = await self._change(chat_id, remove)
            except Refusal as r:
                return Reply(r.key, alert=True)
            await self.store.link_user(actor.user_id, chat_id, linked=False)
            await self._show_lobby(table)
            return Reply("lobby-left")
        return await self._leave_game(chat_id, actor)

    async def add_computer(self, chat_id: int, actor: Actor) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby":
            return Reply("err-no-lobby", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)

        def add(t: Table) -> list[Command]:
            if t.status != "lobby":
                raise Refusal("err-no-lobby")
            if len(t.seats) >= MAX_SEATS:
                raise Refusal("err-lobby-full")
            number = 1 + sum(1 for s in t.seats if s.user_id is None)
            t.seats.append(Seat(user_id=None, name=self.tr.t(t.lang, "bot-name", n=number)))
            return []

        try:
            table, _ids = await self._change(chat_id, add)
        except Refusal as r:
            return Reply(r.key, alert=True)
        await self._show_lobby(table)
        return Reply("lobby-computer-added")

    async def configure(self, chat_id: int, actor: Actor, what: str) -> Reply:
        """Lobby settings (creator or admin): the group's language, the timeouts."""
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby":
            return Reply("err-no-lobby", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)

        def set_option(t: Table) -> list[Command]:
            if what == "lang":
                t.lang = "en" if t.lang == "ru" else "ru"
            elif what == "time":
                t.turn_timeout = _next(TURN_TIMEOUTS, t.turn_timeout)
                t.choice_timeout = CHOICE_TIMEOUTS[
                    min(TURN_TIMEOUTS.index(t.turn_timeout), len(CHOICE_TIMEOUTS) - 1)
                ]
            return []

        table, _ids = await self._change(chat_id, set_option)
        await self._show_lobby(table)
        return Reply("lobby-updated")

    async def cancel(self, chat_id: int, actor: Actor) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby":
            return Reply("err-no-lobby", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)

        def close(t: Table) -> list[Command]:
            t.status = "finished"
            return []

        table, ids = await self._change(chat_id, close)
        for user_id in table.humans:
            await self.store.link_user(user_id, chat_id, linked=False)
        text = self.tr.t(table.lang, "lobby-cancelled")
        if "lobby" in ids and await self.messenger.edit(chat_id, ids["lobby"], text):
            return Reply("lobby-cancelled")
        await self._send_group(table, text)
        return Reply("lobby-cancelled")

    def _lobby_text(self, table: Table) -> str:
        t = self.tr.t
        lang = table.lang
        lines = [t(lang, "lobby-title")]
        for i, seat in enumerate(table.seats, 1):
            mark = " 🤖" if seat.user_id is None else ""
            lines.append(f"{i}. {html.escape(seat.name)}{mark}")
        if not table.seats:
            lines.append(t(lang, "lobby-empty"))
        lines.append("")
        lines.append(
            t(lang, "lobby-settings", turn=table.turn_timeout, choice=table.choice_timeout)
        )
        lines.append(t(lang, "lobby-hint", min=MIN_SEATS, max=MAX_SEATS))
        return "\n".join(lines)

    def _lobby_keyboard(self, table: Table) -> InlineKeyboardMarkup:
        t = self.tr.t
        lang = table.lang

        def button(key: str, action: str) -> InlineKeyboardButton:
            return InlineKeyboardButton(
                text=t(lang, key), callback_data=LobbyCb(action=action, game=table.game_no).pack()
            )

        return InlineKeyboardMarkup(
            inline_keyboard=[
                [button("btn-join", "join"), button("btn-leave", "leave")],
                [button("btn-add-computer", "bot"), button("btn-go", "go")],
                [button("btn-lang", "lang"), button("btn-time", "time")],
                [button("btn-cancel", "cancel")],
            ]
        )

    async def _show_lobby(self, table: Table, fresh: bool = False) -> None:
        text = self._lobby_text(table)
        markup = self._lobby_keyboard(table)
        ids = await self.store.messages(table.chat_id)
        if (
            not fresh
            and "lobby" in ids
            and await self.messenger.edit(table.chat_id, ids["lobby"], text, markup)
        ):
            return
        message_id = await self._send_group(table, text, markup)
        if message_id is not None:
            await self.store.set_messages(table.chat_id, {"lobby": message_id})

    # ================================================================== start
    async def go(self, chat_id: int, actor: Actor) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status != "lobby":
            return Reply("err-no-lobby", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)
        seed = self.seeds.randrange(2**63)
        started: list[Event] = []

        def start(t: Table) -> list[Command]:
            if t.status != "lobby":
                raise Refusal("err-no-lobby")
            if not MIN_SEATS <= len(t.seats) <= MAX_SEATS:
                raise Refusal("err-seats")
            if not t.humans:
                raise Refusal("err-no-humans")
            setup = GameSetup(
                players=len(t.seats),
                seed=seed,
                computer=tuple(i for i, s in enumerate(t.seats) if s.user_id is None),
            )
            state, events = new_game(setup)
            t.setup = setup
            t.state = state
            t.status = "playing"
            t.turn_log = []
            self._settle(t, events)
            started[:] = events
            return []

        try:
            table, ids = await self._change(chat_id, start)
        except Refusal as r:
            return Reply(r.key, alert=True)
        if "lobby" in ids:
            await self.messenger.edit(
                chat_id,
                ids["lobby"],
                self.tr.t(table.lang, "lobby-started")
                + "\n"
                + "\n".join(f"• {html.escape(s.name)}" for s in table.seats),
            )
        await self._after(table, ids, started, answered=None, new_game_started=True)
        return Reply("game-started")

    # ================================================================== play
    async def press(self, actor: Actor, cb: PromptCb, message_id: int) -> Reply:
        """A prompt button in a private chat: open a menu level, or answer."""
        table, ids = await self.store.load_with_messages(cb.chat)
        if table is None or table.game_no != cb.game or table.status != "playing":
            return Reply("err-old-game", alert=True)
        state = table.state
        assert state is not None
        seat = table.seat_of(actor.user_id)
        decision = pending(state)
        if seat is None:
            return Reply("err-not-seated", alert=True)
        if decision is None or decision.id != cb.decision:
            if await self._catch_up(table, ids):
                return Reply("prompt-resent", alert=True)
            return Reply("err-old-button", alert=True)
        if decision.seat != seat:
            return Reply("err-not-your-turn", alert=True)
        if not 0 <= cb.option < len(decision.options) or cb.depth < 0:
            return Reply("err-bad-button", alert=True)
        shown, firsts = menu_level(decision.options, cb.option, cb.depth)
        lang = await self._lang_of(table.seats[seat])
        if firsts:
            path = decision.options[cb.option][:shown]
            await self.messenger.edit(
                actor.user_id,
                message_id,
                self._prompt_text(lang, table, state, decision, path),
                self._prompt_markup(lang, table, state, decision, cb.option, shown),
            )
            return Reply("ok")
        option = decision.options[cb.option]
        return await self.answer(
            table.chat_id, seat, decision.id, option, human=True, loaded=(table, ids)
        )

    async def answer(
        self,
        chat_id: int,
        seat: int,
        decision_id: int,
        option: tuple[str, ...],
        human: bool,
        loaded: tuple[Table, dict[str, int]] | None = None,
    ) -> Reply:
        events: list[Event] = []
        answered: list[Decision] = []

        def act(t: Table) -> list[Command]:
            state = t.state
            if t.status != "playing" or state is None:
                raise Refusal("err-old-game")
            decision = pending(state)
            if decision is None:
                raise Refusal("err-old-button")
            try:
                got = apply(state, seat, decision_id, option)
            except Refusal as r:
                raise r from None
            except Refused as r:
                raise Refusal(f"err-{r.reason.replace('_', '-')}") from None
            if human:
                t.seats[seat].strikes = 0
            events[:] = got
            answered[:] = [decision]
            self._settle(t, got)
            return [Command(seat=seat, decision=decision_id, option=option)]

        try:
            table, ids = await self._change(chat_id, act, loaded)
        except Refusal as r:
            return Reply(r.key, alert=True)
        await self._after(table, ids, events, answered=(answered[0], option))
        return Reply("ok")

    async def on_timer(self, chat_id: int) -> None:
        """The chat's timer is due: remind, or answer for a computer seat or an absent player."""
        table, ids = await self.store.load_with_messages(chat_id)
        if table is None:
            return
        now = self.clock.now()
        state = table.state
        decision = pending(state) if state is not None and table.status == "playing" else None
        if decision is None:
            if table.deadline is not None or table.reminder is not None:
                await self._change(chat_id, self._clear_timer)
            return
        if table.deadline_decision != decision.id:
            await self._change(chat_id, lambda t: self._retime(t))
            return
        if (
            table.reminder is not None
            and now >= table.reminder
            and (table.deadline is None or now < table.deadline)
        ):
            try:
                await self._change(chat_id, lambda t: self._reminded(t, decision.id))
            except Refusal:
                return  # another process reminded first, or the decision was answered
            await self._catch_up(table, ids)  # a prompt that never arrived comes first
            await self._remind(table, decision)
            return
        if table.deadline is None or now < table.deadline:
            return
        await self._time_out(table, decision)

    def _clear_timer(self, t: Table) -> list[Command]:
        t.deadline = t.reminder = t.deadline_decision = None
        return []

    def _retime(self, t: Table) -> list[Command]:
        self._set_deadline(t)
        return []

    def _reminded(self, t: Table, decision_id: int) -> list[Command]:
        if t.reminder is None or t.deadline_decision != decision_id:
            raise Refusal("err-old-button")
        t.reminder = None
        return []

    async def _time_out(self, table: Table, decision: Decision) -> None:
        state = table.state
        assert state is not None
        seat = decision.seat
        computer = state.players[seat].computer
        option = choose(state.seed, decision)
        events: list[Event] = []
        notes: list[str] = []

        def act(t: Table) -> list[Command]:
            st = t.state
            if st is None or t.status != "playing":
                raise Refusal("err-old-game")
            now_pending = pending(st)
            if now_pending is None or now_pending.id != decision.id:
                raise Refusal("err-old-button")  # someone answered meanwhile
            if t.deadline is None or self.clock.now() < t.deadline:
                raise Refusal("err-old-button")
            commands = []
            notes.clear()
            got: list[Event] = []
            if not computer:
                s = t.seats[seat]
                s.strikes += 1
                notes.append(self.tr.t(t.lang, "log-timeout", player=html.escape(s.name)))
                if s.strikes >= STRIKES_TO_AWAY:
                    s.away = True
                    got += set_computer(st, seat, True)
                    commands.append(Command(seat=seat, computer=True))
                    notes.append(self.tr.t(t.lang, "log-away", player=html.escape(s.name)))
            got += apply(st, seat, decision.id, option)
            commands.append(Command(seat=seat, decision=decision.id, option=option))
            events[:] = got
            self._settle(t, got, notes)
            return commands

        try:
            table, ids = await self._change(table.chat_id, act)
        except Refusal:
            return
        await self._after(table, ids, events, answered=(decision, option), by_timer=True)

    def _settle(
        self,
        t: Table,
        events: list[Event],
        notes: list[str] | None = None,
        handed: int | None = None,
    ) -> None:
        """After the engine moved: the turn's log lines, the game's end, the timer.
        `handed`: the seat just handed to the computer or back to its player.

        Runs inside the compare-and-set change, so all of it is saved at once."""
        state = t.state
        assert state is not None
        notes = notes or []
        starts = [i for i, e in enumerate(events) if e.key == "turn.start" and e.to is None]
        # a new table message when a person's turn begins; computer turns go on
        # in the same message, so a table of computers does not flood the group
        if starts and not state.players[state.current].computer:
            cut = starts[-1]
            t.closed_log = t.turn_log + notes + self.render.public_lines(t, state, events[:cut])
            t.turn_log = self.render.public_lines(t, state, events[cut:])
        else:
            t.closed_log = None
            t.turn_log = t.turn_log + notes + self.render.public_lines(t, state, events)
        # computer turns share one table message: keep the record small all the same
        t.turn_log = t.turn_log[-KEPT_LOG_LINES:]
        if state.result is not None:
            t.status = "finished"
        self._set_deadline(t, handed)

    def _set_deadline(self, t: Table, handed: int | None = None) -> None:
        """The timer of the pending decision: the chat's timeout for a person,
        a short pause for a computer seat. A decision still waiting for the same
        player keeps its timer (someone else's /back or leaving moves nobody's
        deadline and reminds nobody twice)."""
        state = t.state
        decision = pending(state) if state is not None and t.status == "playing" else None
        if decision is None or state is None:
            self._clear_timer(t)
            return
        if (
            t.deadline_decision == decision.id
            and t.deadline is not None
            and decision.seat != handed
        ):
            return
        now = self.clock.now()
        t.deadline_decision = decision.id
        if state.players[decision.seat].computer:
            t.deadline = now + self.defaults.computer_pause
            t.reminder = None
            return
        timeout = t.turn_timeout if decision.kind == "action" else t.choice_timeout
        t.deadline = now + timeout
        t.reminder = now + timeout - min(20.0, timeout / 3)

    async def _remind(self, table: Table, decision: Decision) -> None:
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return
        lang = await self._lang_of(seat)
        left = max(0, round((table.deadline or 0) - self.clock.now()))
        text = self.render.header(lang, table) + "\n" + self.tr.t(lang, "remind", seconds=left)
        await self._send_private(table, decision.seat, text)

    # ================================================================== after a change
    async def _after(
        self,
        table: Table,
        ids: dict[str, int],
        events: list[Event],
        answered: tuple[Decision, tuple[str, ...]] | None,
        new_game_started: bool = False,
        by_timer: bool = False,
    ) -> None:
        """Tell everyone what happened: the group's table and log, private
        lines, the answered prompt and the next one."""
        state = table.state
        assert state is not None
        updates: dict[str, int | None] = {}

        # ---- the answered prompt loses its buttons and shows the choice
        if answered is not None:
            decision, option = answered
            key = f"prompt:{decision.seat}"
            seat = table.seats[decision.seat]
            if key in ids and seat.user_id is not None:
                lang = await self._lang_of(seat)
                text = self._prompt_text(lang, table, state, decision, (), answered=option)
                if by_timer:
                    text += "\n" + self.tr.t(lang, "prompt-timed-out")
                await self.messenger.edit(seat.user_id, ids[key], text)
                updates[key] = updates[f"shown:{decision.seat}"] = None

        # ---- private lines: in the next prompt when it is theirs, else a message
        upcoming = pending(state)
        prompted = (
            upcoming.seat
            if upcoming is not None and not state.players[upcoming.seat].computer
            else None
        )
        news: list[str] = []
        for i, seat in enumerate(table.seats):
            if seat.user_id is None or seat.left:
                continue
            lang = await self._lang_of(seat)
            lines = self.render.private_lines(lang, table, state, events, i)
            if i == prompted:
                news = lines
            elif lines:
                await self._send_private(
                    table, i, self.render.header(lang, table) + "\n" + "\n".join(lines)
                )

        # ---- the group: log lines go into the table message, edited in place;
        # a turn that ends gets its last lines, and the new turn a new message
        edited = "table" in ids and not new_game_started  # the table message is edited
        if table.closed_log is not None and not new_game_started:
            if "table" in ids:
                await self.messenger.edit(
                    table.chat_id, ids["table"], self._closed_turn_text(table, table.closed_log)
                )
            updates["table"] = await self._send_group(table, self._table_text(table))
        else:
            text = self._table_text(table)
            if edited:
                if not await self.messenger.edit(table.chat_id, ids["table"], text):
                    updates["table"] = await self._send_group(table, text)
            else:
                updates["table"] = await self._send_group(table, text)

        # ---- game over, or the next prompt
        if state.result is not None:
            await self._finish(table)
        elif upcoming is not None and prompted is not None:
            updates.update(shown(upcoming, await self._send_prompt(table, upcoming, news)))
        if new_game_started:
            for i, seat in enumerate(table.seats):
                if seat.user_id is not None and (upcoming is None or upcoming.seat != i):
                    lang = await self._lang_of(seat)
                    await self._send_private(
                        table,
                        i,
                        self.render.header(lang, table)
                        + "\n"
                        + self.render.hand(lang, table, state, i),
                    )
        latest = await self.store.set_messages(table.chat_id, updates)
        if edited and latest > table.version:
            await self._refresh_table(table.chat_id)

    async def _refresh_table(self, chat_id: int) -> None:
        """A newer move was saved while this one was being told (by another
        update, maybe in another process): this edit of the table may have
        landed after the newer move's own, so show the newest record."""
        table, ids = await self.store.load_with_messages(chat_id)
        if table is not None and table.state is not None and "table" in ids:
            await self.messenger.edit(chat_id, ids["table"], self._table_text(table))

    def _table_text(self, table: Table) -> str:
        assert table.state is not None
        return self.render.table(table, table.state, table.turn_log)

    def _closed_turn_text(self, table: Table, lines: list[str]) -> str:
        if not lines:
            return self.tr.t(table.lang, "log-empty-turn")
        text = "\n".join(lines)
        if len(text) <= MAX_TEXT:
            return text
        # a long run of computer turns would pass Telegram's 4096 characters and
        # the edit would fail: the turn's first line, then the latest lines that fit
        kept: list[str] = []
        size = len(lines[0]) + 2  # the first line and "…"
        for line in reversed(lines[1:]):
            size += len(line) + 1
            if size > MAX_TEXT:
                break
            kept.append(line)
        return "\n".join([lines[0], "…", *reversed(kept)])

    async def _finish(self, table: Table) -> None:
        assert table.state is not None
        for user_id in table.humans:
            await self.store.link_user(user_id, table.chat_id, linked=False)
        await self._send_group(table, self.render.result(table, table.state))

    # ================================================================== prompts
    def _prompt_text(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: tuple[str, ...],
        answered: tuple[str, ...] | None = None,
        news: list[str] | None = None,
    ) -> str:
        lines = [self.render.header(lang, table), *(news or [])]
        lines.append(self.render.prompt(lang, table, state, decision))
        if decision.kind == "action":
            lines.append(self.tr.t(lang, "prompt-actions-left", n=state.actions_left))
        shown = answered if answered is not None else path
        # option parts are button labels (plain text: a player's name unescaped);
        # in the message's HTML they are escaped
        labels = [
            html.escape(self.render.option_part(lang, table, state, p), quote=False)
            for p in shown
            if p != "-"
        ]
        if answered is not None:
            lines.append("✔️ " + " → ".join(labels))
        else:
            if labels:
                lines.append("➡️ " + " → ".join(labels))
            lines.append("")
            lines.append(self.render.hand(lang, table, state, decision.seat))
        return "\n".join(lines)

    def _prompt_markup(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        index: int,
        depth: int,
    ) -> InlineKeyboardMarkup:
        return prompt_keyboard(
            table.chat_id,
            table.game_no,
            decision.id,
            decision.options,
            index,
            depth,
            lambda part: self.render.option_part(lang, table, state, part),
            self.tr.t(lang, "btn-back"),
        )

    async def _send_prompt(
        self, table: Table, decision: Decision, news: list[str] | None = None
    ) -> int | None:
        """Send a decision's buttons to its player; `news` (their private lines
        of the move just made) come first, so one message tells it all."""
        assert table.state is not None
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return None
        lang = await self._lang_of(seat)
        text = self._prompt_text(lang, table, table.state, decision, (), news=news)
        markup = self._prompt_markup(lang, table, table.state, decision, 0, 0)
        return await self._send_private(table, decision.seat, text, markup)

    async def _catch_up(self, table: Table, ids: dict[str, int]) -> bool:
        """Show the pending decision's prompt if its player never got it — the
        move before it was saved but not told (the process died, Redis's answer
        to the save was lost, Telegram kept failing). Old prompts lose their
        buttons, the table is brought up to date, the prompt is sent. Not while
        the move is fresh: the process that made it may still be telling it.
        True when it caught up."""
        state = table.state
        decision = pending(state) if state is not None and table.status == "playing" else None
        if decision is None or state is None or state.players[decision.seat].computer:
            return False
        if ids.get(f"shown:{decision.seat}") == decision.id:
            return False
        if self.clock.now() - table.updated_at < ANNOUNCE_GRACE:
            return False
        log.info("chat %s: the prompt of decision %s was never shown", table.chat_id, decision.id)
        updates: dict[str, int | None] = {}
        for key, message_id in ids.items():
            if key.startswith("prompt:"):
                user_id = table.seats[int(key.split(":")[1])].user_id
                if user_id is not None:
                    await self.messenger.drop_buttons(user_id, message_id)
                updates[key] = None
        text = self._table_text(table)
        if "table" not in ids or not await self.messenger.edit(table.chat_id, ids["table"], text):
            updates["table"] = await self._send_group(table, text)
        updates.update(shown(decision, await self._send_prompt(table, decision)))
        await self.store.set_messages(table.chat_id, updates)
        return True

    async def resend(self, actor: Actor) -> Reply:
        """/hand in the private chat: the hand and any pending prompt of every game."""
        chats = await self.store.user_tables(actor.user_id)
        sent = False
        for chat_id in sorted(chats):
            table, ids = await self.store.load_with_messages(chat_id)
            if table is None or table.status != "playing" or table.state is None:
                continue
            seat = table.seat_of(actor.user_id)
            if seat is None:
                continue
            # reachable again: a later block is told to the group again
            told = f"unreachable:{actor.user_id}"
            forget: dict[str, int | None] = {told: None} if told in ids else {}
            decision = pending(table.state)
            if decision is not None and decision.seat == seat:
                message_id = await self._send_prompt(table, decision)
                if message_id is not None:
                    await self.store.set_messages(
                        chat_id, {**shown(decision, message_id), **forget}
                    )
            else:
                lang = await self._lang_of(table.seats[seat])
                message_id = await self._send_private(
                    table,
                    seat,
                    self.render.header(lang, table)
                    + "\n"
                    + self.render.hand(lang, table, table.state, seat),
                )
                if message_id is not None and forget:
                    await self.store.set_messages(chat_id, forget)
            sent = True
        return Reply("ok" if sent else "err-no-games")

    # ================================================================== sending
    async def _send_group(
        self, table: Table, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        try:
            return await self.messenger.send(table.chat_id, text, markup)
        except Unreachable:
            log.warning("cannot write to group %s", table.chat_id)
            return None
        except Undelivered as e:
            # the rest of the move's messages still go; the table is edited
            # (or sent anew) with the next move
            log.warning("gave up sending to group %s: %s", table.chat_id, e)
            return None

    async def _send_private(
        self, table: Table, seat: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        user_id = table.seats[seat].user_id
        if user_id is None:
            return None
        try:
            return await self.messenger.send(user_id, text, markup)
        except Undelivered as e:
            # a prompt that never arrived is sent again (see `_catch_up`)
            log.warning("gave up sending to %s: %s", user_id, e)
            return None
        except Unreachable:
            # the group is told once a game (kept with the chat's message ids, so
            # every process knows); /start or /hand in the private chat forgets it
            told = f"unreachable:{user_id}"
            if (await self.store.messages(table.chat_id)).get(told) == table.game_no:
                return None
            link = await self.deep_link("play")
            notice = await self._send_group(
                table,
                self.tr.t(
                    table.lang,
                    "err-unreachable",
                    player=html.escape(table.seats[seat].name),
                    link=link,
                ),
            )
            if notice is not None:
                await self.store.set_messages(table.chat_id, {told: table.game_no})
            return None

    # ================================================================== leaving, stopping, back
    async def _leave_game(self, chat_id: int, actor: Actor) -> Reply:
        events: list[Event] = []

        def leave(t: Table) -> list[Command]:
            seat = t.seat_of(actor.user_id)
            if seat is None or t.state is None:
                raise Refusal("err-not-seated")
            t.seats[seat].left = True
            events[:] = set_computer(t.state, seat, True)
            if t.humans:
                note = self.tr.t(t.lang, "log-left", player=html.escape(actor.name))
                self._settle(t, events, [note], handed=seat)
            return [Command(seat=seat, computer=True)]

        try:
            table, ids = await self._change(chat_id, leave)
        except Refusal as r:
            return Reply(r.key, alert=True)
        await self.store.link_user(actor.user_id, chat_id, linked=False)
        if not table.humans:
            await self._stop(table, "stop-everyone-left")
            return Reply("game-left")
        await self._after(table, ids, events, answered=None)
        return Reply("game-left")

    async def ask_stop(self, chat_id: int, actor: Actor) -> Reply | InlineKeyboardMarkup:
        table = await self.store.load(chat_id)
        if table is None or table.status != "playing":
            return Reply("err-no-game")
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator")
        t = self.tr.t
        return InlineKeyboardMarkup(
            inline_keyboard=[
                [
                    InlineKeyboardButton(
                        text=t(table.lang, "btn-stop-yes"),
                        callback_data=StopCb(game=table.game_no, confirm=True).pack(),
                    ),
                    InlineKeyboardButton(
                        text=t(table.lang, "btn-stop-no"),
                        callback_data=StopCb(game=table.game_no, confirm=False).pack(),
                    ),
                ]
            ]
        )

    async def stop(self, chat_id: int, actor: Actor, game_no: int) -> Reply:
        table = await self.store.load(chat_id)
        if table is None or table.status != "playing" or table.game_no != game_no:
            return Reply("err-old-game", alert=True)
        if not await self._may_manage(table, actor.user_id):
            return Reply("err-not-creator", alert=True)
        await self._stop(table, "stop-done", by=actor.name)
        return Reply("stop-done-short")

    async def _stop(self, table: Table, key: str, by: str = "") -> None:
        def close(t: Table) -> list[Command]:
            t.status = "finished"
            self._clear_timer(t)
            return []

        table, ids = await self._change(table.chat_id, close)
        for user_id in table.humans:
            await self.store.link_user(user_id, table.chat_id, linked=False)
        for name, message_id in ids.items():
            if name.startswith("prompt:"):
                seat = table.seats[int(name.split(":")[1])]
                if seat.user_id is not None:
                    await self.messenger.drop_buttons(seat.user_id, message_id)
        await self.store.set_messages(
            table.chat_id, {n: None for n in ids if n.startswith(("prompt:", "shown:"))}
        )
        await self._send_group(table, self.tr.t(table.lang, key, player=html.escape(by)))

    async def back(self, actor: Actor) -> Reply:
        """/back: take your seat back from the computer in every game you are away from."""
        returned = False
        for chat_id in sorted(await self.store.user_tables(actor.user_id)):
            table = await self.store.load(chat_id)
            if table is None or table.status != "playing":
                continue
            seat = table.seat_of(actor.user_id)
            if seat is None or not table.seats[seat].away:
                continue
            events: list[Event] = []

            def come_back(
                t: Table, seat: int = seat, events: list[Event] = events
            ) -> list[Command]:
                if t.state is None:
                    raise Refusal("err-no-game")
                t.seats[seat].away = False
                t.seats[seat].strikes = 0
                events[:] = set_computer(t.state, seat, False)
                note = self.tr.t(t.lang, "log-back", player=html.escape(actor.name))
                self._settle(t, events, [note], handed=seat)
                return [Command(seat=seat, computer=False)]

            try:
                table, ids = await self._change(chat_id, come_back)
            except Refusal:
                continue
            await self._after(table, ids, events, answered=None)
            returned = True
        return Reply("back-done" if returned else "back-nothing")

    async def repost_table(self, chat_id: int) -> Reply | None:
        table = await self.store.load(chat_id)
        if table is None or table.status == "finished":
            return Reply("err-no-game")
        if table.status == "lobby":
            await self._show_lobby(table, fresh=True)
            return None
        message_id = await self._send_group(table, self._table_text(table))
        if message_id is not None:
            await self.store.set_messages(chat_id, {"table": message_id})
        return None

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: its game follows it, and the pending
        prompt is sent again with buttons that name the new chat."""
        if not await self.store.migrate(old_chat_id, new_chat_id):
            return
        log.info("game moved from %s to %s", old_chat_id, new_chat_id)
        table = await self.store.load(new_chat_id)
        if table is None or table.status != "playing" or table.state is None:
            return
        decision = pending(table.state)
        if decision is not None and not table.state.players[decision.seat].computer:
            sent = await self._send_prompt(table, decision)
            if sent is not None:
                await self.store.set_messages(new_chat_id, shown(decision, sent))

    async def set_lang(self, actor: Actor, lang: Lang) -> Reply:
        """/lang: the user's private language, now and in the games they sit in."""
        prefs = await self._prefs(actor)
        prefs.lang = lang
        await self.store.save_user(prefs)

        def relang(t: Table) -> list[Command]:
            seat = t.seat_of(actor.user_id)
            if seat is not None:
                t.seats[seat].lang = lang
            return []

        for chat_id in await self.store.user_tables(actor.user_id):
            try:
                await self._change(chat_id, relang)
            except (Refusal, Conflict):
                log.info("could not set the language of %s in %s", actor.user_id, chat_id)
        return Reply("lang-set", lang=lang)


def _next(values: tuple[int, ...], current: int) -> int:
    later = [v for v in values if v > current]
    return later[0] if later else values[0]
