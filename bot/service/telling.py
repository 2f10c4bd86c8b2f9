"""Telling: once a change is saved, what everyone is told — the prompts,
sent at once, and the group's table, handed to the group's outbox — and
catching up on a move that was saved but never told. What a change leaves in
the record (the turn's log, each person's story, the timer) is bookkeeping
(`bot.service.bookkeeping`), done before the save.

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
from bot.service.bookkeeping import ANNOUNCE_GRACE, result_marked_told
from bot.service.outbox import LogText, Outboxes
from bot.service.outcome import Answered
from bot.service.pictures import Pictures
from bot.store import Store
from bot.store.models import Lang, Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.words.keyboards import rematch_keyboard
from bot.words.prompts import Prompts, shown_path
from bot.words.screen import Keyboard
from engine import Decision, Event, pending

log = logging.getLogger(__name__)

MAX_TEXT = 4096  # Telegram's limit for a message (counted here on the HTML, which is longer)
TABLE = "table"  # the group's view of a running game (`Outboxes` view name)


def prompt_ids(decision: Decision, message_id: int | None) -> dict[str, int | None]:
    """The chat's message ids after `decision`'s prompt went out as `message_id`:
    the seat's prompt, and which decision it shows (so a prompt that never went
    out can be told from one that did: see `Teller.catch_up`)."""
    if message_id is None:
        return {}
    return {f"prompt:{decision.seat}": message_id, f"shown:{decision.seat}": decision.id}


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
        outboxes.add_view(TABLE, self.table_view, quiet=True)

    # ================================================================== telling a move
    async def tell(
        self,
        table: Table,
        ids: dict[str, int],
        events: list[Event],
        answered: Answered | None,
        new_game_started: bool = False,
    ) -> None:
        """Tell everyone what happened. In private at once, side by side: a
        prompt message the move closed gets its last lines and loses its
        buttons; the next decider's prompt edits their message in place when
        they answered the last decision too, else goes out as a new message.
        Then the group's table goes to its outbox (see the module's notes)."""
        state = table.state
        assert state is not None
        updates: dict[str, int | None] = {}
        sends: list[Awaitable[None]] = []
        if self.app is not None:
            await self.app.know_username()  # the group's table links to the app
        if table.practice and new_game_started:
            # the table and the prompts share one chat: the table comes first
            await self.outboxes.show_now(table.chat_id, TABLE, fresh=True)

        # ---- prompt messages the move closed: their story, no buttons
        for i, seat in enumerate(table.seats):
            key = f"prompt:{i}"
            if seat.closing is not None and seat.user_id is not None and key in ids:
                text = self.prompts.closed(seat.lang, table, seat.closing)
                sends.append(self._edit(seat.user_id, ids[key], text))
                updates[key] = updates[f"shown:{i}"] = None

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
            if ids.get(f"shown:{prompted}") == upcoming.id and key in ids:
                pass  # someone else's /back or leaving changes nobody's decision
            elif (
                answered is not None
                and answered[0].seat == prompted
                and seat.closing is None
                and key in ids
            ):
                sends.append(self._edit_prompt(table, upcoming, ids[key], updates))
            else:
                # a turn starts, or someone else's move asks them (a new
                # message after their own /back: they are here already)
                ring = new_game_started or answered is not None
                sends.append(self._prompt(table, upcoming, ids, updates, ring))

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
                    sends.append(
                        self._private(table, i, header, [first, "", self.hand_text(table, i)])
                    )

        await asyncio.gather(*sends)
        if updates:
            await self.store.set_messages(table.chat_id, updates)

        # ---- the group: log lines go into the table message, edited in place;
        # a turn that ends gets its last lines, and the new turn a new message
        chat = table.chat_id
        if new_game_started:
            if not table.practice:
                self.outboxes.repost(chat, TABLE, ring=True)
        elif table.closed_log is not None:
            self.outboxes.close(chat, TABLE, table.closed_log, self.log_text(table.lang))
            self.outboxes.repost(chat, TABLE)
        else:
            self.outboxes.show(chat, TABLE)
        if state.result is not None:
            await self.finish(table)

    async def _edit_prompt(
        self, table: Table, decision: Decision, message_id: int, updates: dict[str, int | None]
    ) -> None:
        """The player's next decision in the message they just answered (a new
        message if it is gone)."""
        assert table.state is not None
        seat = table.seats[decision.seat]
        assert seat.user_id is not None
        lang = seat.lang
        path = shown_path(decision, 0, 0)
        text = self.prompts.text(lang, table, table.state, decision, path)
        markup = self.prompts.markup(lang, table, table.state, decision, 0, 0)
        if await self.messenger.edit(seat.user_id, message_id, text, markup):
            updates.update(prompt_ids(decision, message_id))
        else:
            sent = await self.send_private(table, decision.seat, text, markup)
            updates.update(prompt_ids(decision, sent))

    async def _edit(self, chat_id: int, message_id: int, text: str) -> None:
        await self.messenger.edit(chat_id, message_id, text)

    async def _private(self, table: Table, seat: int, header: str, lines: list[str]) -> None:
        await self.send_private(table, seat, "\n".join([header, *lines]))

    async def _prompt(
        self,
        table: Table,
        decision: Decision,
        ids: dict[str, int],
        updates: dict[str, int | None],
        ring: bool,
    ) -> None:
        sent = await self.send_prompt(table, decision, ids, updates, ring=ring)
        updates.update(prompt_ids(decision, sent))

    # ================================================================== the group's views
    def table_view(self, table: Table) -> tuple[str, Keyboard | None] | None:
        if table.state is None or table.status == "lobby":
            return None
        return self.table_text(table), self.app_markup(table)

    def app_markup(self, table: Table) -> Keyboard | None:
        """The table's way into the Mini App: a link in a group, the `web_app`
        button in a practice game's private chat; None without the app."""
        if self.app is None or table.status != "playing":
            return None
        if table.practice:
            return self.app.markup(self.tr, table.lang, table.chat_id)
        return self.app.group_markup(self.tr, table.lang, table.chat_id)

    def table_text(self, table: Table) -> str:
        assert table.state is not None
        return self.render.table(table, table.state, table.turn_log)

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

    async def finish(self, table: Table, claimed: bool = False) -> None:
        """The game's result and «Ещё партию», once: whoever marks the result
        told first posts it (`claimed`: the caller has marked it)."""
        assert table.state is not None
        if not claimed and not await self.result_told(table):
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
        updates: dict[str, int | None] | None = None,
        ring: bool = False,
    ) -> int | None:
        """Send a decision's buttons to its player, under their story (ringing
        when they are newly asked: `ring`). Only the
        newest prompt is live: the one the seat had before (unless `updates`
        already forgets it: it was just closed) keeps its story, loses its
        question and buttons, and points to the new one below — never a
        question left standing with nothing to answer it."""
        assert table.state is not None
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return None
        lang = seat.lang
        path = shown_path(decision, 0, 0)
        text = self.prompts.text(lang, table, table.state, decision, path)
        markup = self.prompts.markup(lang, table, table.state, decision, 0, 0)
        key = f"prompt:{decision.seat}"
        sent = await self.send_private(table, decision.seat, text, markup, ring=ring)
        old = ids.get(key)
        if old is not None and sent is not None and (updates is None or key not in updates):
            moved = [*seat.story, self.tr.t(lang, "prompt-moved")]
            await self.messenger.edit(seat.user_id, old, self.prompts.closed(lang, table, moved))
        return sent

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

    async def catch_up(self, table: Table, ids: dict[str, int]) -> bool:
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
        log.info(
            "chat %s: the prompt of decision %s was never shown",
            logs.chat(table.chat_id),
            decision.id,
        )
        updates = await self.drop_prompts(table, ids)
        # the prompt they were owed: asked as it should have been
        sent = await self.send_prompt(table, decision, {}, ring=True)
        updates.update(prompt_ids(decision, sent))
        await self.store.set_messages(table.chat_id, updates)
        # the move was saved unknown to the outbox (its save's answer lost, its
        # process gone): the table is read again, not shown as it was
        self.outboxes.forget(table.chat_id)
        self.outboxes.show(table.chat_id, TABLE)
        return True
