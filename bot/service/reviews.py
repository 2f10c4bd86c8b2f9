"""After each game, each person who played gets a review of their own game in
private: the two or three moments where their choice cost the most by the
strong level's judgement (`engine.ai.review`: what they did, what strong would
have done and why, in the words hints use), their points turn by turn (the
result picture's chart, their line thickest, the moments' turns marked), and
a button a moment that opens it in the Mini App's replay.

When: `Sender.finish` hands the result to the group's outbox and calls
`Carrier.after_result` (`bot.telling.carrying`) with what is done once the
result went out. The reviews wait for that in a task of their own, so the
result always comes first and never waits for a review, and the next game (a
rematch, /newgame) starts meanwhile as it would without them. Here they are
made (`Reviews.made`: one at a time, each as a `PhotoTo` to send); the
carrier sends each before the next is made.

Where: each person's review and its chart are made in the after-game worker
(`Pictures.background`: the worker process the pictures are drawn in, where
the computers think in processes — the event loop does none of it), one
person at a time and only while no picture waits: a result's picture waits
at most for one review already under way.

CPU: at most `GAME_CPU` seconds of the worker's CPU a game (the bot's
``REVIEW_CPU_SECONDS``; 0 turns reviews off), at most `SEAT_CPU` a person —
each person gets the game's budget left over those still to do, so a quick
review leaves more to the next. The budget stops the strong searches
(`engine.ai.review`'s `stop`): a review made in budget is shorter, never
wrong. The chart's drawing (~0.1 s) comes on top. Measured in BENCHMARKS.md.

Who: a person's seat (not a computer's, not one whose person asked to be
forgotten) — also one who left the game midway, for the choices they made
before — whose person has a private chat with the bot and has not turned
reviews off (`UserPrefs.reviews`: /settings in the private chat, or the
button under a review). A seat that answered fewer than `MIN_CHOICES` of its
own choices gets none: nothing to learn from. Which games: those played to
their end — a practice game against computers too (its review has no replay
buttons: a practice game is not kept in the history the replay reads). A
game stopped with /stop gets none (its end is not the game's: the choices
were not played out), nor a tutor's game (the tutor has just explained it).
A person the bot may not write to (403) is skipped without a word. Bounded:
at most `MAX_WAITING` games wait for their reviews; past that a game's
reviews are skipped (logged, counted). A review lost to a restart is not
redone.

Only what the seat could see: the moments are judged from
`engine.hidden.observe` (the seat's view), and their words are the options of
the seat's own decisions — what its prompt showed it then.
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from bot.ops import metrics
from bot.service.outcome import PhotoTo
from bot.service.pictures import Pictures, translator_of
from bot.store import Store
from bot.store.models import Table
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.keyboards import PrefsCb
from bot.words.picture import chart_of, draw_chart
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from bot.words.screen import CAPTION_MAX, Button, Keyboard
from engine import Command
from engine.ai.review import own_choices, review
from engine.story import scores_by_turn

log = logging.getLogger(__name__)

#: the worker's CPU seconds a game's reviews may take (REVIEW_CPU_SECONDS)
GAME_CPU = 6.0
#: the CPU seconds one person's review may take: what a result's picture
#: waits at most behind it (the chart's drawing comes on top)
SEAT_CPU = 1.5
#: a person's share of the game's budget under this: the budget is spent
MIN_SHARE = 0.05
#: a seat that answered fewer of its own choices gets no review
MIN_CHOICES = 5
#: games whose reviews may wait at once (each is a few seconds of the worker)
MAX_WAITING = 32
#: how long the reviews wait for their game's result to go out (then they give up)
RESULT_WAIT = 900.0


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A seat's review, made in the worker: a line a moment (HTML), the
    moments' replay positions, the chart's PNG, and the CPU seconds it took."""

    lines: list[str]
    moves: list[tuple[int, int]]  # (turn, the replay's move) a moment
    png: bytes
    cpu: float


def reviewed(
    tr: Translator | None,
    lang: str,
    table: Table,
    commands: Sequence[Command],
    seat: int,
    cpu: float = SEAT_CPU,
) -> Reviewed | None:
    """In the worker: `seat`'s review of the game `commands` played at
    `table`, within `cpu` seconds of this thread's CPU for the analysis;
    None when the seat made fewer than `MIN_CHOICES` choices of its own."""
    started = time.thread_time()
    tr = translator_of(tr)
    setup = table.setup
    assert setup is not None
    asked = {
        index: (state, decision) for index, state, decision, _ in own_choices(setup, commands, seat)
    }
    if len(asked) < MIN_CHOICES:
        return None
    moments = review(setup, commands, seat, stop=lambda: time.thread_time() - started >= cpu)
    prompts = Prompts(Renderer(tr), tr)
    lines = []
    for n, m in enumerate(moments, 1):
        state, decision = asked[m.index]
        reason = tr.t(lang, f"hint-reason-{m.reason.replace('_', '-')}", **m.params)
        chosen = prompts.asked(lang, table, state, decision, m.chosen)
        better = prompts.asked(lang, table, state, decision, m.better)
        lines.append(
            tr.t(
                lang,
                "review-moment",
                n=n,
                turn=m.turn,
                chosen=html.escape(chosen, quote=False),
                better=html.escape(better, quote=False),
                reason=reason,
            )
        )
    story = scores_by_turn(setup, commands)
    chart = chart_of(tr, lang, table, story, marked=seat)
    chart.moments = [m.turn for m in moments]
    png = draw_chart(chart)
    moves = [(m.turn, m.index - 1) for m in moments]
    return Reviewed(lines, moves, png, time.thread_time() - started)


def reviewable(table: Table) -> list[int]:
    """The seats of `table` that may get a review: its people's (not a
    computer's, not one whose person asked to be forgotten)."""
    return [
        i
        for i, s in enumerate(table.seats)
        if s.user_id is not None and not s.forgotten and s.level is None
    ]


class Reviews:
    def __init__(
        self,
        store: Store,
        tr: Translator,
        pictures: Pictures,
        app: AppLinks | None = None,
        cpu: float = GAME_CPU,
    ) -> None:
        """`cpu`: the worker's CPU seconds a game's reviews may take (0: none)."""
        self.store = store
        self.tr = tr
        self.pictures = pictures
        self.app = app
        self.cpu = cpu

    def due(self, table: Table) -> bool:
        """Whether a game just ended gets reviews at all (see the module's notes)."""
        state = table.state
        return not (
            self.cpu <= 0
            or table.tutor is not None
            or table.setup is None
            or state is None
            or state.result is None
            or state.result.aborted  # stopped: see the module's notes
            or not reviewable(table)
        )

    async def made(self, table: Table) -> AsyncIterator[PhotoTo]:
        """Each person's review of the game, made one after another in the
        worker, each within its share of the game's budget — as it is made,
        for the carrier to send before the next is made."""
        number, commands = await self._game(table)
        todo = []
        for seat in reviewable(table):
            user_id = table.seats[seat].user_id
            assert user_id is not None
            prefs = await self.store.user(user_id)
            if prefs.started and prefs.reviews:
                todo.append((seat, user_id))
        budget = self.cpu
        for done, (seat, user_id) in enumerate(todo):
            share = min(SEAT_CPU, budget / (len(todo) - done))
            if share < MIN_SHARE:
                log.warning("a game's review budget was spent before its last reviews")
                metrics.review_skipped()
                return
            lang = table.seats[seat].lang
            made = await self._made(table, commands, seat, lang, share)
            if made is None:
                continue
            caption, shown = self.caption(table, lang, made)
            markup = self.markup(lang, number, made.moves[:shown])
            # without a sound: nobody waits for it (in private only a prompt rings)
            yield PhotoTo(user_id, made.png, caption, markup, quiet=True)
            budget -= made.cpu

    async def _game(self, table: Table) -> tuple[int | None, list[Command]]:
        """The game's number for the replay (None: not in the history — a
        practice game) and its command log."""
        found = await self.store.game_at(table.chat_id, table.game_no)
        if found is not None:
            record, commands = found
            return record.number, list(commands)
        return None, list(await self.store.log(table.chat_id))

    async def _made(
        self, table: Table, commands: list[Command], seat: int, lang: str, cpu: float
    ) -> Reviewed | None:
        """`seat`'s review, made in the worker within `cpu` seconds (None: none)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        made = await self.pictures.background(reviewed, lang, table, commands, seat, cpu)
        if made is not None:
            metrics.review_made(loop.time() - started)
        return made

    def caption(self, table: Table, lang: str, made: Reviewed) -> tuple[str, int]:
        """The review's caption, and how many of its moments it tells (those
        that fit Telegram's 1024 characters, costliest first: never a line
        cut mid-tag)."""
        head = self.tr.t(
            lang,
            "review-head-practice" if table.practice else "review-head",
            title=html.escape(table.title or str(table.chat_id), quote=False),
        )
        if not made.lines:
            return "\n\n".join([head, self.tr.t(lang, "review-none")]), 0
        parts = [head]
        for line in made.lines:
            if len("\n\n".join([*parts, line])) > CAPTION_MAX:
                break
            parts.append(line)
        return "\n\n".join(parts), len(parts) - 1

    def markup(self, lang: str, number: int | None, moves: list[tuple[int, int]]) -> Keyboard:
        """A button a moment told into the replay (a game in the history, with
        the app), and the one that turns reviews off."""
        rows: list[tuple[Button, ...]] = []
        if self.app is not None and number is not None:
            for n, (turn, move) in enumerate(moves, 1):
                text = self.tr.t(lang, "btn-review-moment", n=n, turn=turn)
                rows.append((Button(text, app=self.app.replay_url(number, move)),))
        off = PrefsCb(what="reviews", on=False, screen=False).pack()
        rows.append((Button(self.tr.t(lang, "btn-reviews-off"), data=off),))
        return tuple(rows)
