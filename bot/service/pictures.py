"""Pictures of a game, drawn off the event loop: the result's picture for the
group, `/table фото`'s, and a review with its chart (`bot.service.reviews`):
the after-game worker.

A picture needs the game's command log (each player's points turn by turn are
the game replayed: `engine.story`), read from the store on the loop; the
replay and the drawing run in one worker process (`processes=True`, the bot's
default whenever the computers think in worker processes: drawing is Python
and would hold the loop's GIL for tens of milliseconds from a thread), else in
one worker thread (tests, `COMPUTER_WORKERS=0`). One worker: matplotlib draws
one figure at a time in a process anyway, a picture takes a few hundred
milliseconds, and the pictures of a burst of games ending together wait their
turn there instead of holding the loop. The worker has two lanes: a
picture goes first, and the reviews of a game (`bot.service.reviews`: a
person's a job) go in the background — one job in the worker at a time, and
only while no picture waits — so a result's picture waits at most for one
person's review already under way (`reviews.SEAT_CPU`). The message that carries a
picture waits for it in the group's outbox (`Outboxes.post(…, picture=…)`)
while everything before it goes out; a picture that cannot be drawn leaves
the text to go alone. Drawing reads nothing hidden: the table the group sees
and §7's points of each row.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from bot.ops import metrics
from bot.service.workers import worker_pool
from bot.store import Store
from bot.store.models import Table
from bot.words.i18n import Translator
from bot.words.picture import draw, picture_of, plain
from engine import Command
from engine.story import scores_by_turn, table_points

log = logging.getLogger(__name__)
T = TypeVar("T")

#: a picture being drawn off the event loop: its PNG, or None when it could
#: not be drawn (a message's text then goes alone: `bot.telling.outbox`)
Drawing = asyncio.Future[bytes | None]

#: what `/table …` takes for the picture
PHOTO = frozenset({"фото", "фотка", "картинка", "photo", "picture", "image", "pic"})


_worker_tr: Translator | None = None


def translator_of(tr: Translator | None) -> Translator:
    """The caller's translator (a thread), or the worker process's own."""
    global _worker_tr
    if tr is not None:
        return tr
    if _worker_tr is None:
        _worker_tr = Translator()
    return _worker_tr


def table_png(tr: Translator | None, lang: str, table: Table, commands: Sequence[Command]) -> bytes:
    """In the worker: the table's picture (its state replayed for the points)."""
    tr = translator_of(tr)
    state = table.state
    assert state is not None and table.setup is not None
    story = scores_by_turn(table.setup, commands)
    now = [table_points(state, s) for s in range(len(state.players))]
    if [p[-1] for p in story.points] != now:
        # the log does not replay to this table (a position built by hand): the
        # story ends with the table as it is
        story.turns.append(max(state.turn, story.turns[-1]))
        for points, p in zip(story.points, now, strict=True):
            points.append(p)
    return draw(picture_of(tr, lang, table, state, story))


def _warm(tr: Translator | None) -> bytes:
    """In the worker: load what drawing needs (the translator, the font)."""
    translator_of(tr)
    return bytes(len(plain("Смута")))


class Pictures:
    def __init__(
        self,
        store: Store,
        tr: Translator,
        executor: Executor | None = None,
        processes: bool = False,
    ) -> None:
        """`executor`: where pictures are drawn (a test's); else one worker
        process (`processes`) or one worker thread."""
        self.store = store
        self.tr = tr
        self.processes = processes and executor is None
        self._executor = executor
        self._pictures = 0  # pictures handed to the worker and not drawn yet
        self._no_pictures = asyncio.Event()
        self._no_pictures.set()
        self._background = asyncio.Lock()  # one background job in the worker at a time

    def executor(self) -> Executor:
        if self._executor is None:
            if self.processes:
                self._executor = worker_pool(1)
            else:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")
        return self._executor

    def warm(self) -> asyncio.Future[None]:
        """Start the worker now and let it load the drawing (a process's start
        and imports take seconds on a busy machine: not the first result's)."""
        return asyncio.ensure_future(self._warm())

    async def _warm(self) -> None:
        try:
            await self.run(_warm)
        except Exception:
            log.warning("the drawing worker did not start", exc_info=True)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(tr, *args)` in the worker, first in line (a picture)."""
        self._pictures += 1
        self._no_pictures.clear()
        try:
            return await self._submit(fn, *args)
        finally:
            self._pictures -= 1
            if self._pictures == 0:
                self._no_pictures.set()

    async def background(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(tr, *args)` in the worker when no picture waits, one such job
        at a time (a person's review: see the module's notes)."""
        async with self._background:
            while self._pictures:
                await self._no_pictures.wait()
            return await self._submit(fn, *args)

    async def _submit(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(tr, *args)` in the worker (the worker's own translator in a process)."""
        loop = asyncio.get_running_loop()
        tr = None if self.processes else self.tr
        try:
            return await loop.run_in_executor(self.executor(), fn, tr, *args)
        except BrokenProcessPool:
            log.warning("the drawing process broke; a new one starts for the next picture")
            self._executor = None
            raise

    def of_table(self, table: Table, lang: str | None = None) -> Drawing:
        """`table`'s picture (a finished game's or a running one's), being drawn:
        the log is read and the picture drawn in a task of its own."""
        snapshot = table.model_copy(deep=True)  # the caller may go on with its record
        return asyncio.ensure_future(self._table(snapshot, lang or table.lang))

    async def _table(self, table: Table, lang: str) -> bytes | None:
        try:
            commands = await self.store.log(table.chat_id)
            loop = asyncio.get_running_loop()
            started = loop.time()
            png = await self.run(table_png, lang, table, list(commands))
            metrics.picture_drawn(loop.time() - started)
            return png
        except Exception:
            log.warning("the table of %s could not be drawn", table.chat_id, exc_info=True)
            return None

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
