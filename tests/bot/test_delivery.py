"""An update's claim rides with its first read of Redis (`bot.store.delivery`):
no round trip of its own, and still nothing is written for a redelivery.

Through the store directly, on real Redis: the claim is made once however
many of the handler's tasks call the store at once; a lost claim stops the
handler at its read, and at a write that comes first, before anything is
written; a handling that is over leaves tasks behind that claim nothing; a
claim whose round trip fails fails alike for everyone waiting on it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.exceptions

from bot.store import StoreUnavailable, UserPrefs
from bot.store import delivery as deliveries
from bot.store.delivery import Redelivered
from bot.store.redis import RedisStore

CHAT = -100555


def claims_sent(store: RedisStore, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SET NX of update claims the store's client sends (in pipelines too)."""
    sent: list[str] = []
    client: Any = store._r
    pipeline = client.pipeline

    def counting_pipeline(*args: Any, **kwargs: Any) -> Any:
        pipe = pipeline(*args, **kwargs)
        set_ = pipe.set

        def counted(name: str, *a: Any, **k: Any) -> Any:
            if ":update:" in str(name):
                sent.append(str(name))
            return set_(name, *a, **k)

        pipe.set = counted
        return pipe

    monkeypatch.setattr(client, "pipeline", counting_pipeline)
    set_ = client.set

    async def counted_set(name: str, *a: Any, **k: Any) -> Any:
        if ":update:" in str(name):
            sent.append(str(name))
        return await set_(name, *a, **k)

    monkeypatch.setattr(client, "set", counted_set)
    return sent


async def handled(update_id: int, work: Any) -> Any:
    """`work()` as an update's handler runs it (what `OncePerUpdate` does)."""
    delivery = deliveries.begin(update_id)
    try:
        return await work()
    finally:
        deliveries.end(delivery)


async def test_the_claim_rides_with_the_first_read_once_for_all_the_handlers_tasks(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = claims_sent(redis_store, monkeypatch)

    async def work() -> None:
        # the handler's tasks read side by side: one of them carries the claim
        await asyncio.gather(
            redis_store.load_with_messages(CHAT),
            redis_store.user(7),
            redis_store.load(CHAT),
        )
        await redis_store.set_messages(CHAT, {"prompt:0": 5})  # a write waits for it: made

    await handled(1, work)
    assert len(sent) == 1, sent
    assert await redis_store.first_delivery(deliveries.Delivery(1)) == "held"  # for every process


async def test_a_redelivery_stops_at_its_first_read_and_writes_nothing(
    redis_store: RedisStore,
) -> None:
    async def work() -> None:
        await redis_store.load(CHAT)
        await redis_store.save_user(UserPrefs(user_id=7, lang="en"))

    await handled(2, work)
    await redis_store.save_user(UserPrefs(user_id=7, lang="ru"))
    with pytest.raises(Redelivered):
        await handled(2, work)  # Telegram delivers the same update again
    assert (await redis_store.user(7)).lang == "ru", "the redelivery wrote"


async def test_a_write_before_any_read_makes_the_claim_on_its_own_first(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = claims_sent(redis_store, monkeypatch)

    async def work() -> None:
        await redis_store.save_user(UserPrefs(user_id=8, lang="en"))

    await handled(3, work)
    await redis_store.save_user(UserPrefs(user_id=8, lang="ru"))
    with pytest.raises(Redelivered):
        await handled(3, work)
    assert (await redis_store.user(8)).lang == "ru", "the redelivery wrote"
    assert len(sent) == 2  # each delivery's claim, before its write


async def test_tasks_a_handling_left_behind_claim_nothing(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    later: list[asyncio.Task[object]] = []

    async def work() -> None:
        await redis_store.load(CHAT)
        later.append(asyncio.create_task(asyncio.sleep(0)))  # an outbox's worker, say

    await handled(4, work)
    await later[0]
    sent = claims_sent(redis_store, monkeypatch)

    async def left_behind() -> None:
        await redis_store.load(CHAT)
        await redis_store.set_messages(CHAT, {"table": 9})

    # a task created inside the handling runs on after it, in a copy of its context
    delivery = deliveries.begin(5)
    task = asyncio.create_task(left_behind())
    deliveries.end(delivery)
    await task
    assert sent == []


async def test_a_claim_whose_round_trip_fails_fails_everyone_waiting_on_it(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    client: Any = redis_store._r
    pipeline = client.pipeline

    def broken_pipeline(*args: Any, **kwargs: Any) -> Any:
        pipe = pipeline(*args, **kwargs)

        async def execute(*a: Any, **k: Any) -> Any:
            await asyncio.sleep(0.01)
            raise redis.exceptions.ConnectionError("gone")

        pipe.execute = execute
        return pipe

    monkeypatch.setattr(client, "pipeline", broken_pipeline)

    async def work() -> list[object]:
        return await asyncio.gather(
            redis_store.load(CHAT),
            redis_store.save_user(UserPrefs(user_id=9, lang="en")),
            return_exceptions=True,
        )

    outcomes = await handled(6, work)
    assert [type(o) for o in outcomes] == [StoreUnavailable, StoreUnavailable]
    monkeypatch.undo()
    assert (await redis_store.user(9)).lang is None, "a write went ahead of a failed claim"
