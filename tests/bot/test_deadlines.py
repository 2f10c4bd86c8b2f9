"""People's deadlines never wait for computers: however many strong searches
wait in the thinking pool, a person whose time ran out gets their move at
once (thought in place), and the pool's queue is bounded — a search that
finds it full is played at the normal level in place instead of queueing.

The pool here is a stand-in that holds every search it is handed until the
test lets go, so "queued" is exact and nothing is timed: the person's timer
fires on the virtual clock while all the searches still wait."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from bot.service.thinking import Thinker
from bot.store.memory import MemoryStore
from engine import pending
from engine.ai import decide
from tests.bot.harness import Harness, people

GROUP = -100777001


class HeldPool(Executor):
    """Takes searches and answers none until `release`; `reached` is set once
    `expected` of them wait."""

    def __init__(self, expected: int) -> None:
        self.held: list[tuple[Future[Any], tuple[Any, ...]]] = []
        self.expected = expected
        self.reached = asyncio.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.held.append((future, args))
        if len(self.held) >= self.expected:
            self.reached.set()
        return future

    def waiting(self) -> int:
        return sum(1 for future, _ in self.held if not future.done())

    def release(self) -> None:
        """Every search answers its decision's first option."""
        for future, (_, decision, *_) in self.held:
            if not future.done():
                future.set_result(decision.options[0])


def thinking_with(h: Harness, thinker: Thinker) -> None:
    h.app.games.thinker = thinker
    h.app.games.play.thinker = thinker


async def test_a_persons_deadline_fires_while_63_strong_searches_wait_in_the_pool() -> None:
    h = Harness(MemoryStore())
    pool = HeldPool(expected=63)
    thinker = Thinker(workers=2, queue_limit=64, executor=pool)
    thinking_with(h, thinker)
    anna, boris = people("Анна", "Борис")
    table = await h.open_game(GROUP, anna, [boris])
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None and table.deadline is not None
    # 63 computers elsewhere think at the strong level: every search waits in the pool
    searches = [asyncio.create_task(thinker.decide(state, decision, "strong")) for _ in range(63)]
    await pool.reached.wait()
    assert thinker.queued == 63

    # the person's time runs out: their timer fires on the virtual clock, and
    # their move is made although not one search has been answered
    h.clock.advance(table.deadline - h.clock.now())
    async with asyncio.timeout(60):  # a guard against a hang, not a measure
        assert await h.tick() == 1
    after = await h.table(GROUP)
    moved = pending(after.state) if after.state is not None else None
    assert moved is None or moved.id != decision.id, "the deadline waited for the computers"
    assert after.seats[decision.seat].strikes == 1
    assert pool.waiting() == 63 and len(pool.held) == 63  # nothing of it went to the pool

    pool.release()
    await asyncio.gather(*searches)
    assert thinker.queued == 0


async def test_a_search_that_finds_the_pool_full_is_played_at_normal_in_place() -> None:
    h = Harness(MemoryStore())
    anna, boris = people("Анна", "Борис")
    table = await h.open_game(GROUP, anna, [boris])
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None
    pool = HeldPool(expected=2)
    thinker = Thinker(workers=1, queue_limit=2, executor=pool)
    queued = [asyncio.create_task(thinker.decide(state, decision, "strong")) for _ in range(2)]
    await pool.reached.wait()
    assert thinker.full()
    # the third finds the queue full: answered at once, at the normal level
    answer = await thinker.decide(state, decision, "strong")
    assert answer == decide(state, decision, "normal")
    assert len(pool.held) == 2, "the full pool was handed one more search"
    pool.release()
    await asyncio.gather(*queued)
    assert thinker.queued == 0 and not thinker.full()
    # with room again, a search goes to the pool
    pool.expected = 3
    pool.reached.clear()
    third = asyncio.create_task(thinker.decide(state, decision, "strong"))
    await pool.reached.wait()
    pool.release()
    assert await third == decision.options[0]
