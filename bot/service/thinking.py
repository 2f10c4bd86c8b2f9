"""Where the computer thinks: never on the event loop when it takes time.

`engine.ai.decide` is pure (the same state and decision give the same answer
in any process), so the bot hands the search to a pool of worker processes and
awaits the answer; meanwhile every other chat is served. The easy level (a
random legal option, microseconds) is answered in place.

A strong seat searches until a deadline, `strong_seconds` (`STRONG_SECONDS`)
after its search starts in the worker, and plays its best so far — so a busy
machine shortens the search instead of stretching the wait. `strong_seconds=None`
plays strong's budget mode instead (the same answer every time: tests).

`workers=0` thinks in place for every level — for tests and the smallest
deployments; a pool that broke (a worker killed by the OS) is replaced, and
that one answer is thought in place.

People's deadlines never wait for computers: the pool's queue is bounded
(`queue_limit` searches handed to it and not yet answered); a search that
finds it full is answered in place at the normal level (a few milliseconds)
instead of queueing, and a person whose time ran out gets their move thought
in place (`urgent`), never behind the computers' searches. So a timer holds
its slot of the ticker (`bot.telling.timers`) only while a search is under
way, and at most `queue_limit` of them do that at once.

A hint («💡 Подсказка», `engine.ai.hint`) is the strong level's move, searched
in the pool until `hint_seconds` after the press (`HINT_SECONDS`: a person
waits about a second for a button's answer, no more); a search cut short
gives the normal level's move. The deadline is a `time.monotonic` reading,
one clock for every process of the machine (CLOCK_MONOTONIC), so the time a
hint waited in the queue counts too. A full pool gives the normal level's
hint in place at once (a few milliseconds).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool

from bot.service.workers import worker_pool
from engine import Decision, GameState
from engine.ai import STRONG_SECONDS, Level, decide
from engine.ai.hint import Hint, hint
from engine.core import Option

log = logging.getLogger(__name__)


def think(
    state_json: str | GameState, decision: Decision, level: Level, seconds: float | None = None
) -> Option:
    """In a worker process (or in place): the answer, from the state or its JSON;
    strong searches `seconds` from now at most (None: its budget mode)."""
    if level == "strong" and seconds is not None:
        return decide(state_json, decision, level, until(time.monotonic() + seconds))
    return decide(state_json, decision, level)


#: seconds a hint may think, from the press (then the normal level's move is given)
HINT_SECONDS = 1.0


def until(deadline: float) -> Callable[[], bool]:
    """A hint's `stop`: true once `time.monotonic()` reaches `deadline`."""
    return lambda: time.monotonic() >= deadline


def at_once() -> bool:
    """A hint's `stop` with no time at all: the normal level's move."""
    return True


def advise(state_json: str, decision: Decision, deadline: float) -> Hint:
    """In a worker process: a person's hint, from the state's JSON, searched until
    `deadline` (a `time.monotonic` reading)."""
    return hint(GameState.from_json(state_json), decision, until(deadline))


def default_workers() -> int:
    """One worker a core, the event loop's own core included (the search is
    what keeps a core busy; the loop mostly waits on the network)."""
    return max(1, os.cpu_count() or 1)


def default_queue_limit(workers: int) -> int:
    """Searches the pool may hold at once: two a worker (one thought, one
    waiting), so a worker never idles between two — well under the ticker's
    parallel timers, which people's deadlines share."""
    return max(2, 2 * workers)


class Thinker:
    """The computers' worker pool: runs their moves and people's hints
    (`engine.ai`) in worker processes, a bounded number at once."""

    def __init__(
        self,
        workers: int | None = None,
        queue_limit: int | None = None,
        executor: Executor | None = None,
        hint_seconds: float = HINT_SECONDS,
        strong_seconds: float | None = STRONG_SECONDS,
    ) -> None:
        """`executor`: where searches run (a test's; default: a process pool
        of `workers`). `strong_seconds`: a strong seat's deadline (None: strong's
        budget mode, the same answer every time)."""
        self.hint_seconds = hint_seconds
        self.strong_seconds = strong_seconds
        self.workers = default_workers() if workers is None else workers
        self.queue_limit = default_queue_limit(self.workers) if queue_limit is None else queue_limit
        self.queued = 0  # searches handed to the pool and not yet answered
        self._pool: Executor | None = executor

    def full(self) -> bool:
        return self.queued >= self.queue_limit

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)  # a worker imports only the engine
        return self._pool

    async def decide(
        self, state: GameState, decision: Decision, level: Level, urgent: bool = False
    ) -> Option:
        """The computer's answer at `level`. `urgent` (a person's deadline
        passed): thought in place at once, never queued behind searches."""
        if level == "easy" or self.workers == 0:
            return think(state, decision, level, self.strong_seconds)
        if urgent or self.full():
            if not urgent:
                log.info("the thinking pool is full: a %s search is played at normal", level)
            return decide(state, decision, "normal")
        loop = asyncio.get_running_loop()
        self.queued += 1
        try:
            return await loop.run_in_executor(
                self._executor(), think, state.to_json(), decision, level, self.strong_seconds
            )
        except BrokenProcessPool:
            log.warning("the thinking pool broke; a new one starts, this answer is thought here")
            self._pool = None
            return think(state, decision, level, self.strong_seconds)
        finally:
            self.queued -= 1

    async def hint(self, state: GameState, decision: Decision) -> Hint:
        """«💡 Подсказка»: the strong level's move within `hint_seconds` of now
        (else the normal level's), thought where a computer thinks; with the
        pool full, the normal level's at once, in place."""
        deadline = time.monotonic() + self.hint_seconds
        if self.workers == 0:
            return hint(state, decision, until(deadline))
        if self.full():
            return hint(state, decision, at_once)
        loop = asyncio.get_running_loop()
        self.queued += 1
        try:
            return await loop.run_in_executor(
                self._executor(), advise, state.to_json(), decision, deadline
            )
        except BrokenProcessPool:
            log.warning("the thinking pool broke; a new one starts, this hint is the normal one")
            self._pool = None
            return hint(state, decision, at_once)
        finally:
            self.queued -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
