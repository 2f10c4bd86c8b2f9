"""After each game, each person who played gets a review of their own game in
private: the two or three moments where their choice cost the most by the
strong level's judgement (`engine.ai.review`: what they did, what strong would
have done and why, in the words hints use), their points turn by turn (the
result picture's chart, their line thickest, the moments' turns marked), and
a button a moment that opens it in the Mini App's replay.

When: once the result is handed to the group's outbox (`Teller.finish` calls
`Reviews.after_result`), in a task of its own — the result and the next game
never wait for it. Where: the review and its chart are computed in the
after-game worker (`Pictures.run`: a worker process where the computers think
in processes, so the event loop does none of it). CPU: one one-ply look-ahead
per decision the person answered and at most `engine.ai.review.SEARCHES`
strong searches in budget mode — measured per game in BENCHMARKS.md.

Who: a person's seat (not a computer's, not one whose person asked to be
forgotten) whose person has a private chat with the bot and has not turned
reviews off (`UserPrefs.reviews`; its switch in the private chat's /settings
is still to come).
A tutor's game gets none (the tutor has just explained it). Bounded: at most
`MAX_WAITING` games wait for their reviews; past that a game's reviews are
skipped (logged, counted). A review lost to a restart is not redone.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ops import metrics
from bot.service.pictures import Pictures, translator_of
from bot.store import Store
from bot.store.models import Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.picture import chart_of, draw_chart
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from bot.words.screen import Button, Keyboard
from engine import Command
from engine.ai.review import own_choices, review
from engine.story import scores_by_turn

log = logging.getLogger(__name__)

#: games whose reviews may wait at once (each is a few seconds of the worker)
MAX_WAITING = 32
#: a caption holds at most this many characters (Telegram's limit)
CAPTION_MAX = 1024


@dataclass(frozen=True, slots=True)
class Reviewed:
    """A seat's review, made in the worker: a line a moment (HTML), the
    moments' replay positions, and the chart's PNG."""

    lines: list[str]
    moves: list[tuple[int, int]]  # (turn, the replay's move) a moment
    png: bytes


def reviewed(
    tr: Translator | None, lang: str, table: Table, commands: Sequence[Command], seat: int
) -> Reviewed:
    """In the worker: `seat`'s review of the game `commands` played at `table`."""
    tr = translator_of(tr)
    setup = table.setup
    assert setup is not None
    moments = review(setup, commands, seat)
    prompts = Prompts(Renderer(tr), tr)
    asked = {
        index: (state, decision) for index, state, decision, _ in own_choices(setup, commands, seat)
    }
    lines = []
    for m in moments:
        state, decision = asked[m.index]
        reason = tr.t(lang, f"hint-reason-{m.reason.replace('_', '-')}", **m.params)
        lines.append(
            tr.t(
                lang,
                "review-moment",
                turn=m.turn,
                chosen=prompts.asked(lang, table, state, decision, m.chosen),
                better=prompts.asked(lang, table, state, decision, m.better),
                reason=reason,
            )
        )
    story = scores_by_turn(setup, commands)
    chart = chart_of(tr, lang, table, story, marked=seat)
    chart.moments = [m.turn for m in moments]
    return Reviewed(lines, [(m.turn, m.index - 1) for m in moments], draw_chart(chart))


class Reviews:
    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        tr: Translator,
        pictures: Pictures,
        app: AppLinks | None = None,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.tr = tr
        self.pictures = pictures
        self.app = app
        self.waiting: set[asyncio.Task[None]] = set()

    def after_result(self, table: Table) -> None:
        """The game's result is told: its players' reviews are made and sent
        in a task of their own."""
        if table.tutor is not None or table.setup is None or table.state is None:
            return
        if len(self.waiting) >= MAX_WAITING:
            log.warning("too many games wait for their reviews: this one gets none")
            metrics.review_skipped()
            return
        task = asyncio.ensure_future(self._send_all(table.model_copy(deep=True)))
        self.waiting.add(task)
        task.add_done_callback(self.waiting.discard)

    async def idle(self) -> None:
        """Until every review under way is sent (tests, the shutdown drain)."""
        while self.waiting:
            await asyncio.gather(*self.waiting, return_exceptions=True)

    async def _send_all(self, table: Table) -> None:
        try:
            number, commands = await self._game(table)
            for seat, s in enumerate(table.seats):
                if s.user_id is None or s.forgotten or s.level is not None:
                    continue
                prefs = await self.store.user(s.user_id)
                if not prefs.started or not prefs.reviews:
                    continue
                await self._send(table, commands, number, seat, s.user_id, s.lang)
        except Exception:
            log.warning(
                "the reviews of a game in %s could not be made", table.chat_id, exc_info=True
            )

    async def _game(self, table: Table) -> tuple[int | None, list[Command]]:
        """The game's number for the replay (None: not in the history — a
        practice game) and its command log."""
        found = await self.store.game_at(table.chat_id, table.game_no)
        if found is not None:
            record, commands = found
            return record.number, list(commands)
        return None, list(await self.store.log(table.chat_id))

    async def _send(
        self,
        table: Table,
        commands: list[Command],
        number: int | None,
        seat: int,
        user_id: int,
        lang: str,
    ) -> None:
        loop = asyncio.get_running_loop()
        started = loop.time()
        made = await self.pictures.run(reviewed, lang, table, commands, seat)
        metrics.review_made(loop.time() - started)
        caption = self.caption(table, lang, made)
        try:
            await self.messenger.send_photo(
                user_id, made.png, caption, self.markup(lang, number, made), quiet=True
            )
        except (Unreachable, Undelivered) as e:
            log.info("a review was not delivered: %s", e)

    def caption(self, table: Table, lang: str, made: Reviewed) -> str:
        head = self.tr.t(
            lang,
            "review-head-practice" if table.practice else "review-head",
            title=html.escape(table.title or str(table.chat_id), quote=False),
        )
        if not made.lines:
            return "\n\n".join([head, self.tr.t(lang, "review-none")])
        parts = [head]
        for line in made.lines:  # a long one is left out, never cut mid-tag
            if len("\n\n".join([*parts, line])) <= CAPTION_MAX:
                parts.append(line)
        return "\n\n".join(parts)

    def markup(self, lang: str, number: int | None, made: Reviewed) -> Keyboard:
        rows: list[tuple[Button, ...]] = []
        if self.app is not None and number is not None:
            for turn, move in made.moves:
                text = self.tr.t(lang, "btn-review-moment", turn=turn)
                rows.append((Button(text, app=self.app.replay_url(number, move)),))
        # to come with the opt-out's handler (issue 27 item 6): «🔕 Не присылать
        # разборы» here, as a callback every kind of which has its case
        return tuple(rows)
