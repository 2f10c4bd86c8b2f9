"""Telling a move: what a change leaves in the record (the turn's log, the
game's end, the timer) and, once saved, the group's table, the private lines,
the answered prompt and the next one — and catching up on a move that was
saved but never told."""

from __future__ import annotations

import html
import logging

from aiogram.types import InlineKeyboardMarkup

from bot.keyboards import prompt_keyboard
from bot.models import Table
from bot.service.base import Service
from engine import Command, Decision, Event, GameState, pending

log = logging.getLogger(__name__)

KEPT_LOG_LINES = 60  # log lines of the running turn(s) the record keeps
MAX_TEXT = 4096  # Telegram's limit for a message (counted here on the HTML, which is longer)
# how long after a move its process may still be telling it (the pace can hold
# a group's message a few seconds); a prompt still missing after that was lost
ANNOUNCE_GRACE = 5.0


def prompt_ids(decision: Decision, message_id: int | None) -> dict[str, int | None]:
    """The chat's message ids after `decision`'s prompt went out as `message_id`:
    the seat's prompt, and which decision it shows (so a prompt that never went
    out can be told from one that did: see `Telling._catch_up`)."""
    if message_id is None:
        return {}
    return {f"prompt:{decision.seat}": message_id, f"shown:{decision.seat}": decision.id}


class Telling(Service):
    """After a change: what is recorded and what everyone is told."""

    def _clear_timer(self, t: Table) -> list[Command]:
        t.deadline = t.reminder = t.deadline_decision = None
        return []

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
                lang = seat.lang
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
            lang = seat.lang
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
            updates.update(prompt_ids(upcoming, await self._send_prompt(table, upcoming, news)))
        if new_game_started:
            for i, seat in enumerate(table.seats):
                if seat.user_id is not None and (upcoming is None or upcoming.seat != i):
                    lang = seat.lang
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
        lang = seat.lang
        text = self._prompt_text(lang, table, table.state, decision, (), news=news)
        markup = self._prompt_markup(lang, table, table.state, decision, 0, 0)
        return await self._send_private(table, decision.seat, text, markup)

    async def _drop_prompts(self, table: Table, ids: dict[str, int]) -> dict[str, int | None]:
        """Every prompt of the chat loses its buttons; returns the message ids
        to forget (the prompts and which decision each showed)."""
        for key, message_id in ids.items():
            if key.startswith("prompt:"):
                user_id = table.seats[int(key.split(":")[1])].user_id
                if user_id is not None:
                    await self.messenger.drop_buttons(user_id, message_id)
        return {key: None for key in ids if key.startswith(("prompt:", "shown:"))}

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
        updates = await self._drop_prompts(table, ids)
        text = self._table_text(table)
        if "table" not in ids or not await self.messenger.edit(table.chat_id, ids["table"], text):
            updates["table"] = await self._send_group(table, text)
        updates.update(prompt_ids(decision, await self._send_prompt(table, decision)))
        await self.store.set_messages(table.chat_id, updates)
        return True
