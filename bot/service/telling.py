"""Telling: once a change is saved, what everyone is told — the prompts,
sent at once, and the group's table, handed to the group's outbox — and
catching up on a move that was saved but never told. What a change leaves in
the record (the turn's log, each person's story, the timer) is bookkeeping
(`bot.service.bookkeeping`), done before the save.

A command only lays out what it tells (`Teller.lay_out`, `Teller.prompt`:
plain screens) and returns it as an effect (`Tell`, `CatchUp`); the sending
here (`deliver`, `catch_up`, `finish`…) is reached only through the carrier
(`bot.service.carrying`), for the courier or the ticker.

The group's table and turn lines go without a sound: only the lobby, the
start and the result ring. In private only a prompt rings, and only when its
person is newly asked — their turn starts, or someone else's move (a
computer's, a timer's) asks them to choose; the hand at the start, /hand's
answer, a reminder, a prompt sent anew while they go on choosing, a stopped
game's notice go without a sound."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.ops import logs
from bot.service.base import Clock, Conflict, until_saved
from bot.service.bookkeeping import result_marked_told
from bot.service.outbox import LogText, Outboxes
from bot.service.outcome import (
    Answered,
    CloseTurn,
    Closing,
    GroupStep,
    Note,
    PostText,
    Private,
    Prompt,
    RepostView,
    ShowView,
    Tell,
)
from bot.service.pictures import Pictures
from bot.service.views import TABLE
from bot.store import Store, StoreFull
from bot.store.models import Lang, Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.words.keyboards import rematch_keyboard
from bot.words.prompts import Prompts, shown_path
from bot.words.screen import Keyboard
from engine import Decision, pending

log = logging.getLogger(__name__)

MAX_TEXT = 4096  # Telegram's limit for a message (counted here on the HTML, which is longer)


def prompt_ids(decision: Decision, message_id: int | None) -> dict[str, int | None]:
    """The chat's message ids after `decision`'s prompt went out as `message_id`:
    the seat's prompt, and which decision it shows (so a prompt that never went
    out can be told from one that did: see `Teller.catch_up`)."""
    if message_id is None:
        return {}
    return shown_as(decision.seat, decision.id, message_id)


def shown_as(seat: int, decision: int, message_id: int) -> dict[str, int | None]:
    """The seat's prompt is message `message_id`, showing decision `decision`."""
    return {f"prompt:{seat}": message_id, f"shown:{seat}": decision}


class _ToldAlready(Exception):
    """The result was handed to the group already (or the record moved on)."""


class Teller:
    """The notifier: after a change is saved, sends what it means to each
    person (prompts, at once) and to the group (its views, through its outbox)."""

    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        outboxes: Outboxes,
        prompts: Prompts,
        clock: Clock,
        deep_link: Callable[[str], Awaitable[str]],
        on_finish: Callable[[], Awaitable[None]] | None = None,
        pictures: Pictures | None = None,
        on_result: Callable[[Table, asyncio.Future[None]], None] | None = None,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.outboxes = outboxes
        self.prompts = prompts
        self.render = prompts.render
        self.tr = prompts.tr
        self.app = prompts.app  # the Mini App (None: no app buttons or links)
        self.clock = clock
        self.deep_link = deep_link
        # after a game's end is told (the chat's home rates it: `Games.game_finished`)
        self.on_finish = on_finish
        # the result's picture for a group, `/table фото` (None: text only)
        self.pictures = pictures
        # after a game's result is handed to the outbox, with what is done once
        # it went out (each player's review: `bot.service.reviews`)
        self.on_result = on_result

    # ================================================================== telling a move
    def lay_out(
        self,
        table: Table,
        ids: dict[str, int],
        answered: Answered | None = None,
        new_game_started: bool = False,
    ) -> Tell:
        """What everyone is told of a saved change, as screens. In private: a
        prompt message the move closed gets its last lines and loses its
        buttons; the next decider's prompt edits their message in place when
        they answered the last decision too, else goes out as a new message;
        a new game's people get their hands. The group: the turn's lines go
        into the table message, edited in place; a turn that ends gets its
        last lines, and the new turn a new message (see the module's notes)."""
        state = table.state
        assert state is not None
        private: list[Private] = []
        forget: list[str] = []

        # ---- prompt messages the move closed: their story, no buttons
        for i, seat in enumerate(table.seats):
            key = f"prompt:{i}"
            if seat.closed is not None and seat.user_id is not None and key in ids:
                lines = self.prompts.recaps.closing(seat.lang, table, state, i) or []
                text = self.prompts.closed(seat.lang, table, lines)
                private.append(Closing(seat.user_id, ids[key], text))
                forget += [key, f"shown:{i}"]

        # ---- the next prompt: the same message when its player goes on choosing
        upcoming = pending(state)
        prompted = (
            upcoming.seat
            if upcoming is not None
            and state.result is None
            and not state.players[upcoming.seat].computer
            and table.seats[upcoming.seat].user_id is not None
            else None
        )
        if upcoming is not None and prompted is not None:
            key = f"prompt:{prompted}"
            seat = table.seats[prompted]
            prompt: Prompt | None = None
            if ids.get(f"shown:{prompted}") == upcoming.id and key in ids:
                pass  # someone else's /back or leaving changes nobody's decision
            elif (
                answered is not None
                and answered[0].seat == prompted
                and seat.closed is None
                and key in ids
            ):
                prompt = self.prompt(table, upcoming, ids, edit=ids[key])
            else:
                # a turn starts, or someone else's move asks them (a new
                # message after their own /back: they are here already)
                ring = new_game_started or answered is not None
                prompt = self.prompt(table, upcoming, ids, ring=ring, closed=forget)
            if prompt is not None:
                private.append(prompt)

        # ---- a new game: everyone gets their hand (the first decider's prompt
        # shows it), and who moves first: the bot writes again on their turn
        if new_game_started:
            for i, seat in enumerate(table.seats):
                if seat.user_id is not None and not seat.left and i != prompted:
                    header = self.render.header(seat.lang, table)
                    first = self.tr.t(
                        seat.lang,
                        "game-first-turn",
                        player=self.render.name(seat.lang, table, state.current),
                    )
                    text = "\n".join([header, first, "", self.hand_text(table, i)])
                    private.append(Note(i, text))

        # ---- the group
        group: list[GroupStep] = []
        if new_game_started:
            if not table.practice:
                group.append(RepostView(TABLE, ring=True))
        elif (closed := self.render.closed_lines(table, state)) is not None:
            group += [CloseTurn(TABLE, tuple(closed)), RepostView(TABLE)]
        else:
            group.append(ShowView(TABLE))
        return Tell(
            table,
            tuple(private),
            tuple(forget),
            tuple(group),
            view_first=TABLE if table.practice and new_game_started else None,
            finish=state.result is not None,
        )

    async def deliver(self, tell: Tell) -> None:
        """Send what a `Tell` lays out — the one place a told change goes out,
        from a press, the Mini App or a timer: the private screens at once,
        side by side, and the chat's message ids brought up to date; then the
        group's steps to its outbox; then, once, the game's result."""
        table = tell.table
        chat = table.chat_id
        if self.app is not None and (tell.group or tell.view_first):
            await self.app.know_username()  # the group's table links to the app
        if tell.view_first is not None:
            await self.outboxes.show_now(chat, tell.view_first, fresh=True)
        updates: dict[str, int | None] = dict.fromkeys(tell.forget)
        await asyncio.gather(*(self.carry(table, screen, updates) for screen in tell.private))
        if updates:
            await self._remember(chat, updates)
        for step in tell.group:
            match step:
                case ShowView():
                    self.outboxes.show(chat, step.view)
                case RepostView():
                    self.outboxes.repost(chat, step.view, ring=step.ring)
                case CloseTurn():
                    self.outboxes.close(
                        chat, step.view, list(step.lines), self.log_text(table.lang)
                    )
                case PostText():
                    self.outboxes.post(chat, step.text)
        if tell.finish:
            await self.finish(table)

    async def _remember(self, chat_id: int, ids: dict[str, int | None]) -> None:
        """The chat's message ids are bookkeeping: a store that refuses writes
        (full, read-only) loses them, not what was just sent — a prompt's
        buttons answer all the same (the next prompt is sent anew), and /hand
        works while the store is full."""
        try:
            await self.store.set_messages(chat_id, ids)
        except StoreFull as e:
            log.warning("chat %s: its message ids not kept (%s)", logs.chat(chat_id), e)

    async def carry(
        self, table: Table, screen: Private, updates: dict[str, int | None] | None = None
    ) -> int | None:
        """Send one private screen; a prompt's message is noted in `updates`
        (the seat's prompt and which decision it shows). Returns the message
        it landed in (None: not delivered)."""
        match screen:
            case Closing():
                await self.messenger.edit(screen.user_id, screen.message_id, screen.text)
                return screen.message_id
            case Note():
                return await self.send_private(table, screen.seat, screen.text, screen.keys)
            case Prompt():
                user_id = table.seats[screen.seat].user_id
                landed: int | None = None
                if screen.edit is not None and user_id is not None:
                    edited = await self.messenger.edit(
                        user_id, screen.edit, screen.text, screen.keys
                    )
                    landed = screen.edit if edited else None
                if landed is None:
                    landed = await self.send_private(
                        table, screen.seat, screen.text, screen.keys, ring=screen.ring
                    )
                    if landed is not None and screen.replaces is not None:
                        old = screen.replaces
                        await self.messenger.edit(old.user_id, old.message_id, old.text)
                if updates is not None and landed is not None:
                    updates.update(shown_as(screen.seat, screen.decision, landed))
                return landed

    def prompt(
        self,
        table: Table,
        decision: Decision,
        ids: dict[str, int],
        ring: bool = False,
        edit: int | None = None,
        closed: list[str] | tuple[str, ...] = (),
    ) -> Prompt | None:
        """The screen of `decision`'s prompt, under its player's story (None:
        the seat has no person). Sent as a new message (not `edit`), it
        replaces the seat's older prompt in `ids` — unless this change closed
        that one already (`closed`): its question and buttons go and it
        points to the new one below, never a question left standing with
        nothing to answer it."""
        assert table.state is not None
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return None
        lang = seat.lang
        path = shown_path(decision, 0, 0)
        text = self.prompts.text(lang, table, table.state, decision, path)
        markup = self.prompts.markup(lang, table, table.state, decision, 0, 0)
        key = f"prompt:{decision.seat}"
        old = ids.get(key)
        replaces = None
        if edit is None and old is not None and key not in closed:
            recap = self.prompts.recaps.open_lines(lang, table, table.state, decision.seat)
            moved = [*recap, self.tr.t(lang, "prompt-moved")]
            replaces = Closing(seat.user_id, old, self.prompts.closed(lang, table, moved))
        return Prompt(decision.seat, decision.id, text, markup, ring, edit, replaces)

    # ================================================================== the group's log
    def closed_turn_text(self, table: Table, lines: list[str]) -> str:
        return self.log_text(table.lang)(lines)[0]

    def log_text(self, lang: Lang) -> LogText:
        """Closed turns' lines as one message's text: all of them when they fit
        Telegram's 4096 characters; else the latest that fit, under a line
        that says how many earlier ones were left out (never cut mid-line)."""

        def text(lines: list[str]) -> tuple[str, bool]:
            if not lines:
                return self.tr.t(lang, "log-empty-turn"), True
            whole = "\n".join(lines)
            if len(whole) <= MAX_TEXT:
                return whole, True
            room = MAX_TEXT - len(self.tr.t(lang, "log-skipped", count=len(lines))) - 1
            kept: list[str] = []
            for line in reversed(lines):
                room -= len(line) + 1
                if room < 0:
                    break
                kept.append(line)
            summary = self.tr.t(lang, "log-skipped", count=len(lines) - len(kept))
            return "\n".join([summary, *reversed(kept)]), False

        return text

    async def finish(self, table: Table) -> None:
        """The game's result and «Ещё партию», once: whoever marks the result
        told first posts it."""
        assert table.state is not None
        if not await self.result_told(table):
            return  # another process (its timer: this one was slow) posted it
        for user_id in table.people:
            await self.store.link_user(user_id, table.chat_id, linked=False)
        # a group's game offers «Ещё партию» (a practice game starts anew with /practice)
        markup = (
            None
            if table.practice
            else rematch_keyboard(table.game_no, self.tr.t(table.lang, "btn-rematch"))
        )
        # a group's result carries the game's picture: the final table and the
        # points turn by turn (a practice game's private chat: the text alone)
        picture = (
            self.pictures.of_table(table)
            if self.pictures is not None and not table.practice
            else None
        )
        told = self.outboxes.post(
            table.chat_id, self.render.result(table, table.state), markup, picture=picture
        )
        if self.on_result is not None:
            self.on_result(table, told)
        if table.tutor is not None:  # the tutor's last word: where the game is played
            self.outboxes.post(table.chat_id, self.tr.t(table.lang, "tutor-end"))
        if self.on_finish is not None:
            await self.on_finish()

    async def result_told(self, table: Table) -> bool:
        """The game's result is handed to the group: the record stops waiting
        for it (and its timer goes). False when it was told already — by
        another process, or the record moved on."""

        async def attempt() -> Table | None:
            t = await self.store.load(table.chat_id)
            if t is None or t.game_no != table.game_no or not t.result_untold:
                raise _ToldAlready
            result_marked_told(t)
            return t if await self.store.save(t) else None

        try:
            t = await until_saved(attempt, table.chat_id)
        except (_ToldAlready, Conflict):
            return False
        # known to the outbox like every save here: the final table it is
        # about to show stays known (not read again, nor shown twice)
        self.outboxes.know(t)
        return True

    # ================================================================== private chats
    def hand_text(self, table: Table, seat: int) -> str:
        assert table.state is not None
        return self.render.hand(table.seats[seat].lang, table, table.state, seat)

    async def send_private(
        self,
        table: Table,
        seat: int,
        text: str,
        markup: Keyboard | None = None,
        ring: bool = False,
    ) -> int | None:
        """A message to a seat's person, without a sound unless it must `ring`
        (see the module's notes)."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return None
        try:
            return await self.messenger.send(user_id, text, markup, quiet=not ring)
        except Undelivered as e:
            # a prompt that never arrived is sent again (see `catch_up`)
            log.warning("gave up sending to %s: %s", logs.person(user_id), e)
            return None
        except Unreachable:
            await self._tell_unreachable(table, seat, user_id)
            return None

    async def _tell_unreachable(self, table: Table, seat: int, user_id: int) -> None:
        """The group is told once a game (kept with the chat's message ids, so
        every process knows); /start or /hand in the private chat forgets it."""
        told = f"unreachable:{user_id}"
        if (await self.store.messages(table.chat_id)).get(told) == table.game_no:
            return
        await self.store.set_messages(table.chat_id, {told: table.game_no})
        link = await self.deep_link("play")
        self.outboxes.post(
            table.chat_id,
            self.tr.t(
                table.lang,
                "err-unreachable",
                player=self.render.mention(table, seat),
                link=link,
            ),
        )

    async def send_prompt(
        self,
        table: Table,
        decision: Decision,
        ids: dict[str, int],
        ring: bool = False,
    ) -> int | None:
        """Send a decision's prompt to its player as a new message (ringing
        when they are newly asked: `ring`); the seat's older prompt in `ids`
        points to it (see `prompt`). Returns the new message's id."""
        screen = self.prompt(table, decision, ids, ring=ring)
        return None if screen is None else await self.carry(table, screen)

    async def drop_prompts(self, table: Table, ids: dict[str, int]) -> dict[str, int | None]:
        """Every prompt of the chat loses its buttons; returns the message ids
        to forget (the prompts and which decision each showed)."""
        drops = []
        for key, message_id in ids.items():
            if key.startswith("prompt:"):
                user_id = table.seats[int(key.split(":")[1])].user_id
                if user_id is not None:
                    drops.append(self.messenger.drop_buttons(user_id, message_id))
        await asyncio.gather(*drops)
        return {key: None for key in ids if key.startswith(("prompt:", "shown:"))}

    async def catch_up(self, table: Table, ids: dict[str, int], decision: Decision) -> None:
        """Show `decision`'s prompt, which its player never got — the move
        before it was saved but not told (the process died, Redis's answer to
        the save was lost, Telegram kept failing: `Play.owed` tells it). Old
        prompts lose their buttons, the prompt is sent and kept as the seat's,
        the table is brought up to date."""
        updates = await self.drop_prompts(table, ids)
        # the prompt they were owed: asked as it should have been
        sent = await self.send_prompt(table, decision, {}, ring=True)
        updates.update(prompt_ids(decision, sent))
        await self.store.set_messages(table.chat_id, updates)
        # the move was saved unknown to the outbox (its save's answer lost, its
        # process gone): the table is read again, not shown as it was
        self.outboxes.forget(table.chat_id)
        self.outboxes.show(table.chat_id, TABLE)
