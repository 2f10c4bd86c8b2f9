"""Faults from outside, each its own test: the bot keeps games whole through them.

1. Redis drops mid-game (a TCP proxy between the bot and Redis closes its
   connections and refuses new ones, or goes silent; then comes back): people
   are told the store is unavailable, nothing crashes, the timers wait, and
   afterwards the game carries on exactly where it was.
2. Telegram answers 429, 5xx or fails on the network: sends are retried (with
   growing backoff for 5xx) and every chat receives its messages in the order
   the bot meant.
3. The process is killed in the middle of an update, at every store or
   Telegram call of one move: after a restart the game is exactly before or
   exactly after the move, never half, and it goes on.
4. A player blocks the bot mid-game: the group is told once, with a link; the
   seat goes on by timeouts, is handed to the computer after three, and the
   game still finishes.
5. A move is saved but not told: Redis's answer to the save is lost, or
   Telegram keeps failing for one chat through every retry. The rest of the
   move's messages still go, and a prompt that never arrived is sent once the
   move is no longer fresh — at the next press of any old button, or with the
   reminder.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage, TelegramMethod
from aiogram.types import User

from bot.service.games import ANNOUNCE_GRACE
from bot.store import Store, StoreUnavailable
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.telling.timers import Ticker
from bot.words.keyboards import PromptCb
from engine import pending, replay
from engine.ai.easy import choose
from tests.bot.conftest import _client, _reachable
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.harness import (
    FakeClock,
    Harness,
    asked,
    decisions_of,
    group_texts,
    is_prompt,
    people,
    prompts,
    until,
)
from tests.bot.helpers import faults
from tests.bot.helpers.faults import (
    GROUP,
    TcpProxy,
    _delete_prefix,
    decider_of,
    leaf_press,
)

proxied = faults.proxied  # a RedisStore through a TCP proxy the test can cut

SEED = 20261129


# ====================================================================== shared helpers
async def seeded_game(h: Harness, seed: int = SEED, computers: int = 0) -> tuple[User, User]:
    """Анна and Борис (and `computers` computer seats) start a game with a fixed
    seed, so two runs of the same steps play the same game."""
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris], computers=computers, seed=seed)
    return anna, boris


# ====================================================================== 1. Redis drops


class Ticks:
    """The ticks a ticker's loop makes, and what came of each (its `tick`
    wrapped): what a test waits for instead of a span of time."""

    def __init__(self, ticker: Ticker) -> None:
        self.started = 0
        self.ended: list[tuple[int, str]] = []  # (which tick, "ok" or "unavailable")
        tick = ticker.tick

        async def counted() -> int:
            self.started += 1
            which = self.started
            try:
                due = await tick()
            except StoreUnavailable:
                self.ended.append((which, "unavailable"))
                raise
            self.ended.append((which, "ok"))
            return due

        ticker.tick = counted  # type: ignore[method-assign]

    def ended_after(self, mark: int, outcome: str | None = None) -> bool:
        """Whether a tick begun after the `mark`-th has ended (with `outcome`)."""
        return any(i > mark and outcome in (None, o) for i, o in self.ended)


@pytest.mark.parametrize("outage", ["closed", "silent"])
async def test_redis_dropping_mid_game_is_survived_and_the_game_carries_on(
    proxied: tuple[TcpProxy, RedisStore], caplog: pytest.LogCaptureFixture, outage: str
) -> None:
    """closed: Redis's connections close and new ones are refused; silent:
    Redis stops answering (each call then waits out the store's timeout)."""
    proxy, store = proxied
    h = Harness(store)
    users = await seeded_game(h)
    before = await h.table(GROUP)
    log_before = await store.log(GROUP)
    assert before.state is not None and len(log_before) == before.state.version
    decision, decider = decider_of(before, users)
    prompt, data, command = await leaf_press(h, before, decision)
    unavailable = h.tr.t(h.defaults.lang, "err-unavailable")
    # the timers run for real (a short interval) through the whole outage
    ticker = Ticker(h.app.games, h.app.telling.carrier, interval=0.01)
    ticks = Ticks(ticker)
    runner = asyncio.create_task(ticker.run())
    try:
        # bounds a hang (the traceback then shows the step that never ended); no step is timed
        async with asyncio.timeout(300):
            await until(lambda: ticks.ended_after(0, "ok"))  # the loop ticks before the outage
            assert not runner.done()

            if outage == "closed":
                await proxy.cut()
            else:
                proxy.silent = True
            caplog.set_level(logging.WARNING)

            # the answer's button: an alert saying the store is unavailable, nothing raised
            since = len(h.tg.requests)
            await asyncio.wait_for(h.press(decider, decider.id, prompt, data), 10)
            answers = [r for r in h.tg.requests[since:] if isinstance(r, AnswerCallbackQuery)]
            assert [(a.text, a.show_alert) for a in answers] == [(unavailable, True)]
            assert len(h.tg.requests) == since + 1, "nothing but the alert went out"

            # commands in the private chat and in the group: a reply saying the same
            await asyncio.wait_for(h.say(decider.id, decider, "/hand"), 10)
            assert h.tg.sent(decider.id)[-1].text == unavailable
            await asyncio.wait_for(h.say(GROUP, users[0], "/table"), 10)
            assert h.tg.sent(GROUP)[-1].text == unavailable

            # a timer tick reports the outage (as `Ticker.tick` defines); the loop survives it
            with pytest.raises(StoreUnavailable):
                await asyncio.wait_for(h.app.ticker.tick(), 10)
            # the loop's own tick fails in the outage, and the loop ticks on after it
            mark = ticks.started
            await until(lambda: ticks.ended_after(mark, "unavailable") or runner.done(), 60)
            failed = ticks.started
            await until(lambda: ticks.started > failed or runner.done(), 60)
            assert not runner.done(), "the timer loop died with the store"
            assert "store unavailable: timers wait" in caplog.text
            internal = h.tr.t(h.defaults.lang, "err-internal")
            assert all(getattr(r, "text", None) != internal for r in h.tg.requests)

            connections = proxy.connections
            if outage == "closed":
                await proxy.restore()
            else:
                proxy.silent = False

            # nothing was lost and nothing half-done: the record and log are as before
            after = await h.table(GROUP)
            assert after == before
            assert await store.log(GROUP) == log_before
            # the same button, pressed again, answers the pending decision
            since = len(h.tg.requests)
            await h.press(decider, decider.id, prompt, data)
            answered = await h.table(GROUP)
            assert answered.version == before.version + 1
            assert await store.log(GROUP) == [*log_before, command]
            assert answered.state is not None and pending(answered.state) != decision
            answers = [r for r in h.tg.requests[since:] if isinstance(r, AnswerCallbackQuery)]
            assert answers and answers[-1].text is None, "a plain acknowledgement, no alert"

            # and the timer loop that lived through the outage fires the next deadline
            assert answered.deadline is not None
            waiting = pending(answered.state)
            h.clock.advance(answered.deadline - h.clock.now() + 1)
            mark = ticks.started
            await until(lambda: ticks.ended_after(mark, "ok"))  # a tick that saw the deadline
            await ticker.settled()  # and the timer it fired
            now = await h.table(GROUP)
            assert now.state is not None
            assert now.version > answered.version and pending(now.state) != waiting, (
                "the deadline passed after the outage and the timer did not fire"
            )
            assert len(await store.log(GROUP)) == now.state.version
            assert not runner.done()
            assert proxy.connections > connections, "the client connected anew"
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)


async def test_a_cancellation_the_redis_client_dropped_is_raised_by_the_store(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a socket timeout, the Redis client sends through ``asyncio.wait_for``,
    which on Python 3.11 returns the send's result when the task is cancelled
    as the send completes, and the cancellation is lost (python/cpython#86296).
    A timer loop cancelled just then ticked on for good (a test waiting for it
    hung CI), and a drained outbox would never be done. Here the client drops
    the cancellation of one call: the store raises it all the same, and the
    timer loop stops."""
    client: Any = redis_store._r
    zrange = client.zrange

    async def dropping(*args: Any, **kwargs: Any) -> Any:
        result = await zrange(*args, **kwargs)
        task = asyncio.current_task()
        assert task is not None
        task.cancel()  # the cancellation arrives as the call completes ...
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(0)  # ... and the client returns its result instead
        return result

    monkeypatch.setattr(client, "zrange", dropping)
    with pytest.raises(asyncio.CancelledError):
        await asyncio.create_task(redis_store.due(0.0))  # the timers' read, say

    h = Harness(redis_store)
    runner = asyncio.create_task(Ticker(h.app.games, h.app.telling.carrier, interval=0.01).run())
    # (bounded: the hang this was is a loop of 10 ms ticks)
    await asyncio.wait({runner}, timeout=10)
    stopped = runner.done()
    runner.cancel()  # the test's own clean-up, whatever came of it
    await asyncio.gather(runner, return_exceptions=True)
    assert stopped, "the timer loop ticks on after its cancellation was dropped"


# ====================================================================== 2. Telegram failures
class FlakyTelegram(FakeTelegram):
    """The fake Telegram, plus network errors, and a record of what each chat
    really received (requests that succeeded), in order."""

    def __init__(self) -> None:
        super().__init__()
        self.network_errors = 0
        self.since = 0  # where the requests of interest begin
        self.delivered: defaultdict[int, list[tuple[str, str]]] = defaultdict(list)

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        if self.network_errors > 0:
            self.network_errors -= 1
            self.requests.append(method)
            raise TelegramNetworkError(method=method, message="Connection reset by peer")
        result = await super().make_request(bot, method, timeout)
        if isinstance(method, SendMessage | EditMessageText) and isinstance(method.chat_id, int):
            self.delivered[method.chat_id].append((type(method).__name__, method.text))
        return result


class Waits:
    """Stands in for `asyncio.sleep` in the messenger: records each wait and
    only yields to the loop (so other sends could overtake, if allowed)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        for _ in range(5):
            await asyncio.sleep(0)


MOVES = 8


async def play(
    faults: Callable[[FlakyTelegram], None] | None = None,
) -> tuple[FlakyTelegram, Waits, Table, list[int]]:
    """A seeded game, then `MOVES` moves (each pending decision answered by its
    button) with `faults` scripted just before each. Returns the fake Telegram,
    the messenger's waits, the record at the end, and how many waits each move
    had."""
    tg = FlakyTelegram()
    h = Harness(MemoryStore(), tg=tg)
    waits = Waits()
    h.app.policy.sleep = waits
    users = await seeded_game(h)
    tg.delivered.clear()
    tg.since = len(tg.requests)
    per_move: list[int] = []
    for _ in range(MOVES):
        table = await h.table(GROUP)
        decision, decider = decider_of(table, users)
        prompt, data, _ = await leaf_press(h, table, decision)
        if faults is not None:
            faults(tg)
        before = len(waits.waits)
        await h.press(decider, decider.id, prompt, data)
        per_move.append(len(waits.waits) - before)
        assert (await h.table(GROUP)).version == table.version + 1, "the move was made"
    return tg, waits, await h.table(GROUP), per_move


@pytest.fixture
async def reference() -> tuple[FlakyTelegram, Table]:
    """The same moves with Telegram never failing: what each chat should get."""
    tg, waits, table, _ = await play()
    assert waits.waits == []
    assert len(tg.delivered[GROUP]) >= MOVES, "the moves show in the group"
    assert all(len(v) >= 2 for v in tg.delivered.values())
    return tg, table


async def test_flood_control_is_waited_out_and_each_chat_keeps_its_order(
    reference: tuple[FlakyTelegram, Table],
) -> None:
    ref_tg, ref_table = reference

    def flood(tg: FlakyTelegram) -> None:
        for chat_id in (GROUP, 100, 101):  # the group, Анна, Борис
            tg.flood[chat_id] = 1  # the next send to each answers 429

    tg, waits, table, _ = await play(flood)
    assert table == ref_table, "the game moved the same"
    assert dict(tg.delivered) == dict(ref_tg.delivered), "every chat got the same, in order"
    sends = sum(1 for r in tg.requests[tg.since :] if isinstance(r, SendMessage))
    delivered_sends = sum(
        1 for v in tg.delivered.values() for kind, _ in v if kind == "SendMessage"
    )
    refused = sends - delivered_sends
    assert refused >= MOVES // 2, "the flood hit the moves' sends (within a turn a move edits)"
    assert waits.waits == [1] * refused, "each 429 waited out as Telegram said, then resent"


async def test_server_errors_are_retried_with_growing_backoff_in_order(
    reference: tuple[FlakyTelegram, Table],
) -> None:
    ref_tg, ref_table = reference

    def errors(tg: FlakyTelegram) -> None:
        tg.server_errors = 4  # one short of giving up (five attempts)

    tg, waits, table, per_move = await play(errors)
    assert table == ref_table
    assert dict(tg.delivered) == dict(ref_tg.delivered)
    assert per_move == [4] * MOVES, "the first request of each move failed four times"
    for i in range(MOVES):
        chunk = waits.waits[4 * i : 4 * i + 4]
        assert all(a < b for a, b in itertools.pairwise(chunk)), (
            f"backoff must grow for repeated 5xx: {chunk}"
        )


async def test_network_errors_are_retried(reference: tuple[FlakyTelegram, Table]) -> None:
    ref_tg, ref_table = reference

    def errors(tg: FlakyTelegram) -> None:
        tg.network_errors = 2

    tg, waits, table, per_move = await play(errors)
    assert table == ref_table
    assert dict(tg.delivered) == dict(ref_tg.delivered)
    assert per_move == [2] * MOVES
    assert all(a < b for a, b in itertools.pairwise(waits.waits[:2]))


async def test_concurrent_sends_to_one_chat_keep_their_order_under_flood_control() -> None:
    """Three updates each send to the group at once; the first is told to wait:
    the others queue behind it rather than overtake it."""
    tg = FlakyTelegram()
    h = Harness(MemoryStore(), tg=tg)
    waits = Waits()
    messenger = h.app.telling.messenger
    h.app.policy.sleep = waits
    tg.flood[GROUP] = 1
    await asyncio.gather(*(messenger.send(GROUP, f"message {i}") for i in range(1, 4)))
    assert [text for _, text in tg.delivered[GROUP]] == ["message 1", "message 2", "message 3"]
    assert waits.waits == [1]
    # mixed faults on two chats at once: each chat still gets its own order
    tg.delivered.clear()
    tg.flood[GROUP] = 1
    tg.flood[777] = 2
    await asyncio.gather(
        *(messenger.send(GROUP, f"g{i}") for i in range(3)),
        *(messenger.send(777, f"p{i}") for i in range(3)),
    )
    assert [t for _, t in tg.delivered[GROUP]] == ["g0", "g1", "g2"]
    assert [t for _, t in tg.delivered[777]] == ["p0", "p1", "p2"]


# ====================================================================== 3. killed mid-update
class Fuse:
    """Counts the store and Telegram calls of one move — the handler's and
    those of the tasks it leaves behind (the group's outbox) alike; at the
    k-th one the "process" is killed: before the call happens, or right after
    it did (its answer lost). A killed process makes no call after that."""

    def __init__(self) -> None:
        self.armed = False
        self.kill_at: int | None = None
        self.after = False
        self.calls: list[str] = []
        self.start = 0  # where the move's Telegram requests begin
        self.dead = False

    def before(self, what: str) -> int:
        """The call's number (0: not counted)."""
        if not self.armed:
            return 0
        if self.dead:
            raise asyncio.CancelledError("the process is dead")
        self.calls.append(what)
        if not self.after:
            self._maybe_kill(len(self.calls))
        return len(self.calls)

    def done(self, number: int) -> None:
        """Call `number` returned (another task's call may have begun meanwhile)."""
        if self.armed and self.after and number:
            self._maybe_kill(number)

    def _maybe_kill(self, number: int) -> None:
        if self.kill_at is not None and number == self.kill_at:
            self.dead = True
            raise asyncio.CancelledError(f"killed at call {number}: {self.calls[number - 1]}")


class FusedStore:
    """Any store, with every call going through the fuse first."""

    def __init__(self, inner: Store, fuse: Fuse) -> None:
        self._inner = inner
        self._fuse = fuse

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            number = self._fuse.before(f"store.{name}")
            result = await attr(*args, **kwargs)
            self._fuse.done(number)
            return result

        return call


class FusedTelegram(FakeTelegram):
    """The fake Telegram with every request (the messenger's sends and edits,
    callback answers) going through the fuse first."""

    def __init__(self, fuse: Fuse) -> None:
        super().__init__()
        self.fuse = fuse

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        number = self.fuse.before(f"tg.{type(method).__name__}")
        result = await super().make_request(bot, method, timeout)
        self.fuse.done(number)
        return result


@pytest.fixture(params=["memory", "redis"])
async def fresh_stores(
    request: pytest.FixtureRequest,
) -> AsyncIterator[Callable[[], Awaitable[Store]]]:
    """Makes empty stores, one per run ("machine"): in memory, or in Redis
    under a new key prefix each (deleted afterwards)."""
    if request.param == "memory":

        async def memory() -> Store:
            return MemoryStore()

        yield memory
        return
    client = _client()
    await _reachable(client)
    prefixes: list[str] = []

    async def redis() -> Store:
        prefixes.append(f"smuta-test:{uuid.uuid4().hex}")
        return RedisStore(client, prefixes[-1])

    try:
        yield redis
    finally:
        await client.aclose()
        for prefix in prefixes:
            await _delete_prefix(prefix)


Move = Callable[[Harness, tuple[User, ...]], Awaitable[None]]


async def press_answer(h: Harness, users: tuple[User, ...]) -> None:
    """A person answers the pending decision with one button."""
    table = await h.table(GROUP)
    decision, decider = decider_of(table, users)
    prompt, data, _ = await leaf_press(h, table, decision)
    await h.press(decider, decider.id, prompt, data)


async def time_out(h: Harness, users: tuple[User, ...]) -> None:
    """The pending decision's deadline passes and the timer answers it."""
    table = await h.table(GROUP)
    assert table.deadline is not None
    h.clock.advance(table.deadline - h.clock.now() + 1)
    await h.tick()


async def run_move(
    store: Store, move: Move, kill_at: int | None, after: bool = False
) -> tuple[Store, FusedTelegram, FakeClock, tuple[User, ...], Fuse, bool]:
    """Set up the same seeded game over `store`, then make `move` with the
    process killed at call `kill_at` (None: never), before it or `after` it.
    Returns what a restarted process needs, the fuse, and whether the kill
    happened."""
    fuse = Fuse()
    fuse.after = after
    tg = FusedTelegram(fuse)
    h = Harness(FusedStore(store, fuse), tg=tg)  # type: ignore[arg-type]
    users = await seeded_game(h)
    fuse.kill_at = kill_at
    fuse.start = len(tg.requests)
    fuse.armed = True
    try:
        await move(h, users)
    except asyncio.CancelledError:
        assert fuse.dead
    await h.settle()  # the tasks the move left behind: done, or dead with the process
    fuse.armed = False
    return store, tg, h.clock, users, fuse, fuse.dead


def _record(table: Table | None) -> dict[str, Any]:
    assert table is not None
    return table.model_dump()


@pytest.mark.parametrize("move", [press_answer, time_out], ids=["button", "timer"])
async def test_a_kill_at_any_call_of_a_move_leaves_the_game_before_or_after_it(
    fresh_stores: Callable[[], Awaitable[Store]], move: Move
) -> None:
    # the reference: the same move, not killed
    store, _, _, _, fuse, killed = await run_move(await fresh_stores(), move, None)
    assert not killed
    calls = list(fuse.calls)
    assert any(c == "store.save" for c in calls) and any(c.startswith("tg.") for c in calls)
    after = _record(await store.load(GROUP))
    after_log = await store.log(GROUP)
    # before the move: the same setup, killed at the move's first call
    store, _, _, _, _, killed = await run_move(await fresh_stores(), move, 1)
    assert killed
    before = _record(await store.load(GROUP))
    before_log = await store.log(GROUP)
    assert before["version"] + 1 == after["version"] and len(after_log) > len(before_log)

    outcomes: dict[str, list[str]] = {"before": [], "after": []}
    for k, after_call in [(k, a) for k in range(1, len(calls) + 1) for a in (False, True)]:
        store, tg, clock, users, fuse, killed = await run_move(
            await fresh_stores(), move, k, after_call
        )
        at = f"{'after' if after_call else 'before'} call {k} ({calls[k - 1]})"
        assert killed, f"no kill {at}"
        # a new process over the same store (Telegram keeps what was sent)
        h = Harness(store, tg=tg, clock=clock)
        record = await store.load(GROUP)
        log = await store.log(GROUP)
        got = _record(record)
        if got == before:
            outcomes["before"].append(at)
            assert log == before_log
            told = [
                r for r in tg.requests[fuse.start :] if isinstance(r, SendMessage | EditMessageText)
            ]
            assert not told, f"killed {at}: the move never happened, yet chats were told of it"
        else:
            assert got == after, f"killed {at}: a half-made move"
            outcomes["after"].append(at)
            assert log == after_log
        assert record is not None and record.state is not None and record.setup is not None
        assert len(log) == record.state.version, "one log entry per accepted command"
        assert replay(record.setup, log) == record.state
        assert GROUP in await store.due(clock.now() + 10**6), "the timer survived the kill"
        # the game goes on: /hand brings the pending prompt back, and it answers
        decision, decider = decider_of(record, users)
        since = len(tg.requests)
        await h.say(decider.id, decider, "/hand")
        assert prompts(tg, decider.id, since), f"no prompt re-sent after a kill {at}"
        await h.answer(decider, GROUP, decision.options[0])
        moved = await h.table(GROUP)
        assert moved.version == record.version + 1
        assert len(await store.log(GROUP)) == len(log) + 1
    # the kills landed on both sides of the save, and where the save is what decides
    assert outcomes["before"] and outcomes["after"], outcomes
    save = calls.index("store.save") + 1
    assert f"before call {save} (store.save)" in outcomes["before"]
    assert f"after call {save} (store.save)" in outcomes["after"]


# ====================================================================== 4. a player blocks the bot
async def test_a_player_who_blocks_the_bot_is_named_once_timed_out_and_replaced(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = await seeded_game(h, computers=1)
    table = await h.table(GROUP)
    boris_seat = table.seat_of(boris.id)
    assert boris_seat is not None

    async def step(steps: int, boris_answers: bool = False) -> Table:
        """One move: a person answers, a computer plays, or (once he blocked
        the bot) Борис's time runs out: first the reminder, then the deadline."""
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.state.players[decision.seat].computer:
            assert await h.tick(h.defaults.computer_pause) >= 1
        elif decision.seat == boris_seat and not boris_answers:
            assert table.reminder is not None and table.deadline is not None
            h.clock.advance(table.reminder - h.clock.now())
            await h.tick()
            h.clock.advance(table.deadline - h.clock.now() + 0.5)
            await h.tick()
        else:
            user = anna if decision.seat != boris_seat else boris
            ids = await h.store.messages(GROUP)
            buttons = [
                PromptCb.unpack(data)
                for _, data in h.buttons(user.id, ids[f"prompt:{decision.seat}"])
                if data.startswith("p:")
            ]
            assert buttons and all(b.decision == decision.id for b in buttons), (
                f"{user.first_name} was not prompted for the pending decision"
            )
            await h.answer(user, GROUP, choose(table.state.seed + steps, decision))
        return await h.table(GROUP)

    # play on until it is Борис's turn to decide, then he blocks the bot
    steps = 0
    while True:
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None and table.status == "playing"
        if decision.seat == boris_seat and steps > 0:
            break
        await step(steps, boris_answers=True)
        steps += 1
        assert steps < 200
    h.tg.blocked.add(boris.id)
    since = len(h.tg.requests)

    # his seat goes on by timeouts; the third hands it to the computer
    timeouts = 0
    while not (await h.table(GROUP)).seats[boris_seat].away:
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if decision.seat == boris_seat:
            assert timeouts < 3, "three timeouts in a row and he is still not away"
            table = await step(steps)
            timeouts += 1
            assert table.state is not None and pending(table.state) != decision, (
                "the deadline passed and nothing happened"
            )
            assert table.seats[boris_seat].strikes == timeouts or table.seats[boris_seat].away
        else:
            table = await step(steps)
        steps += 1
    assert timeouts == 3
    table = await h.table(GROUP)
    assert table.state is not None and table.state.players[boris_seat].computer
    away_line = h.tr.t(
        table.lang, "log-away", player=h.app.games.render.name(table.lang, table, boris_seat)
    )
    assert any(away_line in t for t in group_texts(h.tg, GROUP, since)), (
        "the group was not told the computer plays for Борис"
    )

    # the game still finishes
    while (await h.table(GROUP)).status == "playing":
        await step(steps)
        steps += 1
        assert steps < 3000, "the game did not end"
    table = await h.table(GROUP)
    assert table.state is not None and table.state.result is not None

    # the group was told exactly once that Борис cannot be reached, with a link
    link = f"https://t.me/{(await h.app.bot.me()).username}?start=play"
    boris_named = h.app.games.render.mention(table, boris_seat)
    notice = h.tr.t(table.lang, "err-unreachable", player=boris_named, link=link)
    told = [t for t in group_texts(h.tg, GROUP, since) if t == notice]
    assert len(told) == 1, f"the group was told {len(told)} times that Борис cannot be reached"


# ====================================================================== 5. saved but not told
class LostReplyStore:
    """Any store whose next `save` is made, but its answer never comes back (a
    timeout after Redis did the write): the caller sees the store unavailable."""

    def __init__(self, inner: Store) -> None:
        self._inner = inner
        self.lose_next = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def save(self, *args: Any, **kwargs: Any) -> bool:
        saved = await self._inner.save(*args, **kwargs)
        if self.lose_next:
            self.lose_next = False
            raise StoreUnavailable("timeout reading the answer")
        return saved


def has_buttons(h: Harness, chat_id: int, message_id: int) -> bool:
    return is_prompt(h.tg.markups.get((chat_id, message_id)))


async def lost_move(h: Harness, lossy: LostReplyStore) -> tuple[Table, User, int, str, int]:
    """A seeded game whose next move is saved with its answer lost. Returns the
    record after it, who pressed, their prompt and button, and where the move's
    requests begin."""
    users = await seeded_game(h)
    table = await h.table(GROUP)
    decision, decider = decider_of(table, users)
    prompt, data, _ = await leaf_press(h, table, decision)
    since = len(h.tg.requests)
    lossy.lose_next = True
    await h.press(decider, decider.id, prompt, data)
    after = await h.table(GROUP)
    assert after.version == table.version + 1, "the move was saved"
    return after, decider, prompt, data, since


async def test_a_move_whose_save_answer_is_lost_is_told_at_the_next_old_button(
    store: Store,
) -> None:
    lossy = LostReplyStore(store)
    h = Harness(lossy)  # type: ignore[arg-type]
    after, decider, prompt, data, since = await lost_move(h, lossy)
    unavailable = h.tr.t("ru", "err-unavailable")
    assert any(a.text == unavailable for a in h.tg.answers()[-1:]), "the presser was told"
    now, next_decider = decider_of(after, people("Анна", "Борис"))  # type: ignore[arg-type]
    assert not prompts(h.tg, next_decider.id, since), "nobody was told of the move"

    # pressed again at once: the move is fresh (its process may still be telling it)
    pressed = len(h.tg.requests)
    await h.press(decider, decider.id, prompt, data)
    assert h.tg.answers()[-1].text == h.tr.t("ru", "err-old-button")
    assert not [r for r in h.tg.requests[pressed:] if isinstance(r, SendMessage)]

    # a little later the same old button brings the game up to date
    h.clock.advance(ANNOUNCE_GRACE + 1)
    pressed = len(h.tg.requests)
    await h.press(decider, decider.id, prompt, data)
    assert h.tg.answers()[-1].text == h.tr.t("ru", "prompt-resent")
    sent = prompts(h.tg, next_decider.id, pressed)
    assert len(sent) == 1, "the pending prompt went to its player, once"
    assert (
        PromptCb.unpack(
            sent[0].reply_markup.inline_keyboard[0][0].callback_data  # type: ignore[union-attr]
        ).decision
        == now.id
    )
    assert not has_buttons(h, decider.id, prompt), "the old prompt lost its buttons"
    assert group_texts(h.tg, GROUP, pressed), "the group's table was brought up to date"
    # told once: another old press changes nothing more
    pressed = len(h.tg.requests)
    await h.press(decider, decider.id, prompt, data)
    assert h.tg.answers()[-1].text == h.tr.t("ru", "err-old-button")
    assert not prompts(h.tg, next_decider.id, pressed)
    # and the game goes on
    await h.answer(next_decider, GROUP, now.options[0])
    assert (await h.table(GROUP)).version == after.version + 1


async def test_a_move_whose_save_answer_is_lost_is_told_with_the_reminder(store: Store) -> None:
    lossy = LostReplyStore(store)
    h = Harness(lossy)  # type: ignore[arg-type]
    after, _, _, _, since = await lost_move(h, lossy)
    now, next_decider = decider_of(after, people("Анна", "Борис"))  # type: ignore[arg-type]
    assert after.reminder is not None
    h.clock.advance(after.reminder - h.clock.now() + 0.1)
    await h.tick()
    sent = prompts(h.tg, next_decider.id, since)
    assert len(sent) == 1, "the prompt came with the reminder"
    assert after.deadline is not None
    reminder = h.tr.t("ru", "remind", seconds=round(after.deadline - h.clock.now()))
    assert any(reminder in r.text for r in h.tg.sent(next_decider.id)[-2:])
    await h.answer(next_decider, GROUP, now.options[0])
    moved = await h.table(GROUP)
    assert moved.state is not None and after.state is not None
    assert moved.state.version == after.state.version + 1


@pytest.mark.parametrize("failure", ["down", "no_rights"])
async def test_telegram_failing_for_the_group_does_not_hold_back_the_prompt(
    store: Store, caplog: pytest.LogCaptureFixture, failure: str
) -> None:
    """Telegram answers 5xx for the group through every retry, or 400 (the bot
    may no longer write there)."""
    h = Harness(store)
    h.app.policy.sleep = Waits()
    users = await seeded_game(h)
    failing: set[int] = getattr(h.tg, failure)
    failing.add(GROUP)
    # moves while every request about the group fails, until one of them both
    # edited the table and sent a new one (a person's turn began)
    for _ in range(60):
        table = await h.table(GROUP)
        decision, decider = decider_of(table, users)
        prompt, data, _ = await leaf_press(h, table, decision)
        since = len(h.tg.requests)
        with caplog.at_level(logging.WARNING):
            await h.press(decider, decider.id, prompt, data)
        after = await h.table(GROUP)
        assert after.version == table.version + 1
        now, next_decider = decider_of(after, users)
        assert len(asked(h.tg, next_decider.id, now.id, since)) == 1, "the prompt still went"
        assert decision.id not in decisions_of(h.tg.markups.get((decider.id, prompt)))
        tried = {type(r) for r in h.tg.requests[since:] if getattr(r, "chat_id", None) == GROUP}
        if {SendMessage, EditMessageText} <= tried:
            break
    else:
        raise AssertionError("no move sent the group a new table")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "nothing crashed"
    # Telegram serves the group again: the next move brings its table up to date
    failing.clear()
    since = len(h.tg.requests)
    await h.answer(next_decider, GROUP, now.options[0])
    final = await h.table(GROUP)
    assert final.version == after.version + 1
    assert final.state is not None
    last = h.app.games.teller.render.turn_lines(final, final.state)[-1]
    assert any(last in t for t in group_texts(h.tg, GROUP, since))


async def test_a_prompt_telegram_never_delivered_is_sent_again(store: Store) -> None:
    h = Harness(store)
    h.app.policy.sleep = Waits()
    users = await seeded_game(h)
    # find a move after which the other person decides, so only their chat fails
    for _ in range(40):
        table = await h.table(GROUP)
        decision, decider = decider_of(table, users)
        prompt, data, _ = await leaf_press(h, table, decision)
        other = next(u for u in users if u.id != decider.id)
        h.tg.down.add(other.id)
        since = len(h.tg.requests)
        await h.press(decider, decider.id, prompt, data)
        h.tg.down.clear()
        after = await h.table(GROUP)
        now, next_decider = decider_of(after, users)
        if next_decider.id == other.id:
            break
    else:
        raise AssertionError("the turn never passed to the other person")
    assert [
        r for r in h.tg.requests[since:] if isinstance(r, SendMessage) and r.chat_id == other.id
    ], "the prompt was tried"
    assert f"shown:{now.seat}" not in await h.store.messages(GROUP) or (
        (await h.store.messages(GROUP))[f"shown:{now.seat}"] != now.id
    )
    # the person presses an old button of theirs (or waits for the reminder)
    h.clock.advance(ANNOUNCE_GRACE + 1)
    pressed = len(h.tg.requests)
    await h.press(decider, decider.id, prompt, data)
    assert len(prompts(h.tg, other.id, pressed)) == 1
    await h.answer(other, GROUP, now.options[0])
    assert (await h.table(GROUP)).version == after.version + 1
