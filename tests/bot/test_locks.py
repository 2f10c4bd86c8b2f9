"""A chat's lock: first come, first served, and forgotten once nobody holds or waits for it."""

from __future__ import annotations

import asyncio

import pytest

from bot.telegram.locks import KeyedLocks


async def test_waiters_hold_in_the_order_they_asked_and_the_map_is_emptied() -> None:
    locks = KeyedLocks()
    order: list[int] = []
    release = asyncio.Event()

    async def take(i: int) -> None:
        async with locks.hold("chat"):
            order.append(i)
            if i == 0:
                await release.wait()

    tasks = [asyncio.create_task(take(i)) for i in range(4)]
    while locks.users("chat") < 4:  # all four asked: one holds, three wait
        await asyncio.sleep(0)
    assert order == [0]
    release.set()
    await asyncio.gather(*tasks)
    assert order == [0, 1, 2, 3]
    assert len(locks) == 0 and locks.users("chat") == 0


async def test_a_waiter_cancelled_leaves_no_trace_and_the_holder_keeps_the_lock() -> None:
    locks = KeyedLocks()
    held = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold("chat"):
            held.set()
            await release.wait()

    first = asyncio.create_task(holder())
    await held.wait()

    async def waiter() -> None:
        async with locks.hold("chat"):
            pytest.fail("a cancelled waiter never holds the lock")

    second = asyncio.create_task(waiter())
    while locks.users("chat") < 2:
        await asyncio.sleep(0)
    second.cancel()
    with pytest.raises(asyncio.CancelledError):
        await second
    assert locks.users("chat") == 1
    release.set()
    await first
    assert len(locks) == 0


async def test_an_error_inside_releases_the_lock() -> None:
    locks = KeyedLocks()
    with pytest.raises(ValueError):
        async with locks.hold("chat"):
            raise ValueError("boom")
    assert len(locks) == 0
    async with locks.hold("chat"):  # free again at once
        assert locks.users("chat") == 1
