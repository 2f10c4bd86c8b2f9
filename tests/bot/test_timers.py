"""The ticker stops between ticks: a timer firing when the process is told to
stop finishes its move (and tells it) instead of being cut off."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.store import StoreUnavailable
from bot.telling.timers import DUE_BATCH, Ticker


class Carried:
    """Stands in for the carrier: what the timers returned, carried out."""

    def __init__(self) -> None:
        self.carried: list[tuple[object, ...]] = []

    async def carry_out(self, effects: tuple[object, ...]) -> None:
        self.carried.append(effects)


class SlowTimers:
    """Stands in for the game service: one chat is always due, and firing its
    timer takes until `release` is set."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.fired: list[int] = []
        self.finished: list[int] = []
        self.clock = self
        self.store = self
        self.carrier = Carried()

    def now(self) -> float:
        return 0.0

    async def checks(self, now: float) -> list[int]:
        return []  # (no save looked at)

    async def due(self, now: float, limit: int = 100) -> list[int]:
        return [-100]

    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        return False  # (another process looks for unpublished games)

    async def on_timer(self, chat_id: int) -> tuple[object, ...]:
        self.fired.append(chat_id)
        self.started.set()
        await self.release.wait()
        self.finished.append(chat_id)
        return (f"told {chat_id}",)


async def test_stop_lets_the_tick_under_way_finish_and_ends_the_loop() -> None:
    games: Any = SlowTimers()
    ticker = Ticker(games, games.carrier, interval=0.01)
    # the loop, told to stop, waits for the timers firing (`settled`): once it
    # is there — or has ended without it — the test looks
    settling = asyncio.Event()
    settled = ticker.settled

    async def watched() -> None:
        settling.set()
        await settled()

    ticker.settled = watched  # type: ignore[method-assign]
    running = asyncio.create_task(ticker.run())
    await asyncio.wait_for(games.started.wait(), 5)
    ticker.stop()
    stopping = asyncio.create_task(settling.wait())
    await asyncio.wait({running, stopping}, timeout=5, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    assert not running.done(), "the loop left a timer half-fired"
    assert settling.is_set(), "the loop did not stop when told"
    assert games.finished == [], "(the timer is still held)"
    games.release.set()
    await asyncio.wait_for(running, 5)
    assert games.fired == games.finished == [-100], "no timer fired again after stop"
    assert games.carrier.carried == [("told -100",)], "what the timer did is carried out"


class CancellationTakenForAnOutage:
    """The game service over a store client that, cancelled mid-call, reports
    the call as timed out (as a Redis client may when the cancel lands as its
    read times out): the store then says it is unavailable."""

    def __init__(self) -> None:
        self.clock = self
        self.store = self
        self.calling = asyncio.Event()
        self.broken = False  # set: the next call fails outright (ends a loop left running)

    def now(self) -> float:
        return 0.0

    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        return False  # (another process looks for unpublished games)

    async def checks(self, now: float) -> list[int]:
        return []  # (no save looked at)

    async def due(self, now: float, limit: int = 100) -> list[int]:
        if self.broken:
            raise RuntimeError("the test is over")
        self.calling.set()
        try:
            await asyncio.Event().wait()  # a call that never answers, until cancelled
        except asyncio.CancelledError:
            raise StoreUnavailable("timed out") from None
        return []


async def test_a_cancelled_ticker_ends_though_the_store_took_the_cancel_for_an_outage() -> None:
    games: Any = CancellationTakenForAnOutage()
    runner = asyncio.create_task(Ticker(games, Carried(), interval=0.01).run())
    await asyncio.wait_for(games.calling.wait(), 5)
    runner.cancel()
    done, _ = await asyncio.wait({runner}, timeout=10)
    if not done:  # stop it another way, so that the failure is told, not hung
        games.broken = True
        await asyncio.wait({runner}, timeout=10)
    assert done, "the ticker went on ticking after it was cancelled"
    assert runner.cancelled()


class Publishing:
    """The game service over a store that records the ticker's sweeps: its
    looks for finished games a cut left unpublished, and for untimed practice
    games a rollback left adrift (one is: chat 5)."""

    def __init__(self, claimed: bool) -> None:
        self.clock = self
        self.store = self
        self.claimed = claimed
        self.claims: list[str] = []
        self.published = 0
        self.looked = 0
        self.fired: list[int] = []
        self.carrier = Carried()

    def now(self) -> float:
        return 0.0

    async def checks(self, now: float) -> list[int]:
        return []  # (no save looked at)

    async def due(self, now: float, limit: int = 100) -> list[int]:
        return []

    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        self.claims.append(name)
        return self.claimed

    async def publish_finished(self) -> int:
        self.published += 1
        return 0

    async def untimed_adrift(self) -> list[int]:
        self.looked += 1
        return [5]

    async def on_timer(self, chat_id: int) -> tuple[object, ...]:
        self.fired.append(chat_id)
        return (f"told {chat_id}",)


async def test_one_process_a_while_sweeps_what_cuts_and_rollbacks_left() -> None:
    mine: Any = Publishing(claimed=True)
    ticker = Ticker(mine, mine.carrier)
    await ticker.tick()
    await ticker.tick()  # within the while: not again
    await ticker.settled()
    assert mine.claims == ["publish", "untimed"] and mine.published == 1 and mine.looked == 1
    assert mine.fired == [5], "the adrift game is fired as its timer would be"
    assert mine.carrier.carried == [("told 5",)]
    others: Any = Publishing(claimed=False)  # another process holds the claims
    await Ticker(others, others.carrier).tick()
    assert others.claims == ["publish", "untimed"] and others.published == 0
    assert others.looked == 0 and others.fired == []


class ManyDue:
    """The game service over a store where `count` chats are due at once, their
    timers firing until `release` is set: a chat stays due (the store lists it,
    earliest first) until its fire is done."""

    def __init__(self, count: int) -> None:
        self.clock = self
        self.store = self
        self.waiting = list(range(1, count + 1))  # due, earliest first
        self.fired: list[int] = []
        self.release = asyncio.Event()
        self.carrier = Carried()

    def now(self) -> float:
        return 0.0

    async def checks(self, now: float) -> list[int]:
        return []  # (no save looked at)

    async def due(self, now: float, limit: int = 100) -> list[int]:
        return self.waiting[:limit]

    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        return False

    async def on_timer(self, chat_id: int) -> tuple[object, ...]:
        self.fired.append(chat_id)
        await self.release.wait()
        self.waiting.remove(chat_id)
        return ()


async def test_timers_still_firing_do_not_keep_the_next_due_from_starting() -> None:
    games: Any = ManyDue(DUE_BATCH + 50)
    ticker = Ticker(games, games.carrier, parallel=1000)
    await ticker.tick()
    await asyncio.sleep(0)
    assert ticker.firing() == DUE_BATCH
    await ticker.tick()  # the first batch still firing: the rest start all the same
    assert ticker.firing() == DUE_BATCH + 50
    games.release.set()
    await ticker.settled()
    assert sorted(games.fired) == list(range(1, DUE_BATCH + 51)) and not games.waiting
