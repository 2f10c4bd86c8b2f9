"""An update's claim rides with its first read of Redis (`bot.store.delivery`):
no round trip of its own, and still nothing is written for a redelivery.

Through the store directly, on real Redis: the claim is made once however
many of the handler's tasks call the store at once; a lost claim stops the
handler at its read, and at a write that comes first, before anything is
written — at every call of `Store` but those that carry the claim themselves;
a handling that is over leaves tasks behind that claim nothing; a claim whose
round trip fails fails alike for everyone waiting on it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis.exceptions
from redis.asyncio.client import Pipeline, Redis

from bot.store import Store, StoreUnavailable, UserPrefs
from bot.store import delivery as deliveries
from bot.store.delivery import Redelivered
from bot.store.models import ChatProfile, Table
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


#: the calls of `Store` that carry the update's claim themselves: the reads
#: that make it in their own round trip, and the claim's own calls
CLAIM_INSIDE = {
    "load",
    "load_with_messages",
    "user",
    "first_delivery",
    "renew_delivery",
    "finish_delivery",
    "release_delivery",
}


def every_other_call(store: RedisStore) -> dict[str, Callable[[], Awaitable[object]]]:
    """Each call of `Store` but `CLAIM_INSIDE`, by name, as a handler makes it."""
    head = f"{CHAT}:1"
    return {
        "save": lambda: store.save(Table(chat_id=CHAT, game_no=1, creator_id=7)),
        "last_game_no": lambda: store.last_game_no(CHAT),
        "delete": lambda: store.delete(CHAT),
        "log": lambda: store.log(CHAT),
        "due": lambda: store.due(0.0),
        "checks": lambda: store.checks(0.0),
        "messages": lambda: store.messages(CHAT),
        "set_messages": lambda: store.set_messages(CHAT, {"table": 1}),
        "save_user": lambda: store.save_user(UserPrefs(user_id=7, lang="en")),
        "user_tables": lambda: store.user_tables(7),
        "link_user": lambda: store.link_user(7, CHAT),
        "migrate": lambda: store.migrate(CHAT, CHAT - 1),
        "profile": lambda: store.profile(CHAT),
        "save_profile": lambda: store.save_profile(ChatProfile(chat_id=CHAT, owner_id=7)),
        "history": lambda: store.history(CHAT),
        "game_by_number": lambda: store.game_by_number(1),
        "game_at": lambda: store.game_at(CHAT, 1),
        "rating_head": lambda: store.rating_head(),
        "stats": lambda: store.stats(CHAT),
        "commit_rating": lambda: store.commit_rating(head, CHAT, [], [], [7]),
        "finish_rating": lambda: store.finish_rating(head),
        "set_aside_rating": lambda: store.set_aside_rating(head),
        "set_aside": lambda: store.set_aside(),
        "stat_chats": lambda: store.stat_chats(7),
        "subscribers": lambda: store.subscribers(CHAT),
        "subscribe": lambda: store.subscribe(CHAT, 7, "1"),
        "user_chats": lambda: store.user_chats(7),
        "forget_user": lambda: store.forget_user(7),
        "migrate_home": lambda: store.migrate_home(CHAT, CHAT - 1),
        "once_within": lambda: store.once_within("notify:1", 0.0, 5),
        "ping": lambda: store.ping(),
        "count_games": lambda: store.count_games(),
        "close": lambda: store.close(),
    }


async def test_every_other_call_of_the_store_settles_the_claim_before_it_sends_anything(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call of `Store` that does not carry the update's claim itself
    settles it first (`bot.store.redis.guard.claimed_first`): for an update
    handled already, the claim is all it sends, and it stops there."""
    calls = every_other_call(redis_store)
    assert set(calls) == Store.__abstractmethods__ - CLAIM_INSIDE, "a call of `Store` is missing"
    update_id = 11
    assert await redis_store.first_delivery(deliveries.Delivery(update_id), final=True) == "won"

    sent: list[str] = []
    direct, execute = Redis.execute_command, Pipeline.execute

    async def execute_command(client: Any, *args: Any, **options: Any) -> Any:
        sent.append(str(args[0]).upper())
        return await direct(client, *args, **options)

    async def pipeline_execute(pipe: Any, raise_on_error: bool = True) -> Any:
        sent.extend(str(args[0]).upper() for args, _ in pipe.command_stack)
        return await execute(pipe, raise_on_error)

    monkeypatch.setattr(Redis, "execute_command", execute_command)
    monkeypatch.setattr(Pipeline, "execute", pipeline_execute)
    stopped: dict[str, list[str]] = {}
    for name, call in calls.items():
        sent.clear()
        with pytest.raises(Redelivered):
            await handled(update_id, call)  # Telegram delivers the handled update again
        stopped[name] = list(sent)
    monkeypatch.undo()
    assert stopped == {name: ["SET"] for name in calls}  # the claim (SET NX GET), nothing else
