"""A person's recap: the lines above a prompt's question, drawn from the
record's journal when it is told.

The record keeps what a person is still to be told as places in its journal
(`bot.store.models.Seat`, `bot.service.journal`); here are the lines of a
prompt message above its question:

- what they were told before it began — what was taken from them, by whom
  and how, the смута they set off (`Renderer.told_lines`); in a practice
  game, whose table is far above, everything the computers did, a line a
  turn (`bot.words.digest`), or in full lines behind «📜 Подробнее»;
- then each answer they gave in it (only the parts that were a choice) and
  what came of it.

A recap keeps its last `RECAP_MAX` lines (the oldest give way to «…»); a
practice game's full lines, their last `DETAILS_MAX`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.store.models import ANSWER, NOTE, Table, TutorLine
from bot.words.digest import Digest, turn_head
from bot.words.render import Renderer
from engine import Event, GameState

RECAP_MAX = 20  # lines a recap keeps (the oldest give way to «…»)
#: a practice game: the full lines of the computers' turns a prompt sums up
#: (its «Подробнее»), and the events a digest reads, kept at most
DETAILS_MAX = 80
SEEN_MAX = 200


def clipped(lines: list[str], most: int = RECAP_MAX) -> list[str]:
    if len(lines) <= most:
        return lines
    return ["…", *lines[-(most - 1) :]]


class Answers(Protocol):
    """How an answer and the tutor's sentences are said (`bot.words.prompts.Prompts`)."""

    def answer_line(self, lang: str, table: Table, state: GameState, entry: Event) -> list[str]:
        """The line of an answer kept in the journal."""
        ...

    def tutor_lines(
        self, lang: str, table: Table, state: GameState, lines: Sequence[TutorLine]
    ) -> list[str]:
        """The tutor's sentences."""
        ...


class Recaps:
    """The lines of a person's prompt messages, from the journal."""

    def __init__(self, render: Renderer, digest: Digest, answers: Answers) -> None:
        self.render = render
        self.digest = digest
        self.prompts = answers

    # ------------------------------------------------------------------ a message's lines
    def open_lines(self, lang: str, table: Table, state: GameState, seat: int) -> list[str]:
        """The open prompt message's lines above its question (none open: none)."""
        s = table.seats[seat]
        if s.opened_at is None:
            return []
        return self.lines(lang, table, state, seat, s.opened_at, s.fresh_to, s.news_at)

    def closing(self, lang: str, table: Table, state: GameState, seat: int) -> list[str] | None:
        """The lines of the prompt message the last change closed (None: none)."""
        closed = table.seats[seat].closed
        if closed is None:
            return None
        lines = self.lines(lang, table, state, seat, *closed)
        tutor = table.tutor
        if tutor is not None and tutor.closed:
            lines += self.prompts.tutor_lines(lang, table, state, tutor.closed)
        return lines

    def lines(
        self, lang: str, table: Table, state: GameState, seat: int, start: int, fresh: int, end: int
    ) -> list[str]:
        """A message's lines: what it began with, [start, fresh) — in a
        practice game a line a turn — then its answers and what came of them."""
        opened = table.entries(start, fresh)
        if table.practice:
            head = self._digest(lang, table, state, seat, start, opened)
        else:
            head = self.told(lang, table, state, opened, seat, everything=False)
        rest = self.told(lang, table, state, table.entries(fresh, end), seat, everything=False)
        return clipped(head + rest)

    def details(
        self, lang: str, table: Table, state: GameState, seat: int
    ) -> tuple[list[str], list[str]] | None:
        """A practice prompt in full: the computers' turns its message began
        with, in full lines, and the rest of its recap (None: nothing was
        summed up — no «Подробнее»)."""
        s = table.seats[seat]
        if not table.practice or s.opened_at is None:
            return None
        opened = table.entries(s.opened_at, s.fresh_to)
        summed = self._digest(lang, table, state, seat, s.opened_at, opened)
        full = clipped(self.told(lang, table, state, opened, seat, everything=True), DETAILS_MAX)
        if not summed or not full:
            return None
        rest = self.told(
            lang, table, state, table.entries(s.fresh_to, s.news_at), seat, everything=False
        )
        return full, rest

    # ------------------------------------------------------------------ entries in words
    def told(
        self,
        lang: str,
        table: Table,
        state: GameState,
        entries: list[Event],
        seat: int,
        everything: bool,
    ) -> list[str]:
        """What `seat` is told of journal entries, in order: their answers
        (`Prompts.answer_line`) and the lines of the events between
        (`Renderer.told_lines`; `everything`: every line of the log)."""
        lines: list[str] = []
        chunk: list[Event] = []
        for e in entries:
            if e.key == ANSWER:
                lines += self.render.told_lines(lang, table, state, chunk, seat, everything)
                chunk = []
                if e.visible_to(seat):
                    lines += self.prompts.answer_line(lang, table, state, e)
            elif e.key != NOTE:  # the bot's notes are the group's
                chunk.append(e)
        return lines + self.render.told_lines(lang, table, state, chunk, seat, everything)

    def _digest(
        self, lang: str, table: Table, state: GameState, seat: int, start: int, opened: list[Event]
    ) -> list[str]:
        """A practice message's head: what the reader saw, a line a turn."""
        seen = [e for e in opened if e.key not in (ANSWER, NOTE) and e.visible_to(seat)]
        if not seen:
            return []
        if len(seen) > SEEN_MAX:
            cut = len(seen) - SEEN_MAX
            cut = next((j for j in range(cut, len(seen)) if seen[j].key == "turn.start"), len(seen))
            seen = seen[cut:]
        if seen[0].key != "turn.start":
            seen = [turn_head(table, state, start), *seen]  # the middle of a turn: whose, in what
        return self.digest.lines(lang, table, state, seen, seat)
