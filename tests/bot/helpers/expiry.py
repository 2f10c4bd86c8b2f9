"""Records left to expire on the store's clock."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from tests.bot.harness import FakeClock, Harness


def on_clock(store: Store, clock: FakeClock) -> Store:
    """The store the test plays on: the embedded one on the test's clock (so its
    records expire when the clock passes their time), Redis as it is."""
    return MemoryStore(clock=clock.now) if isinstance(store, MemoryStore) else store


async def let_expire(h: Harness, chat_id: int, ttl: int | None = None) -> None:
    """The chat's record outlives its time (`ttl`; a finished game's by
    default) and goes, as it would by itself: the embedded store's clock
    passes its expiry; on Redis, the keys that carry that time to live
    (checked) are given one millisecond, and the test waits until Redis has
    let them go."""
    store = h.store
    ttl = store.finished_ttl if ttl is None else ttl
    if isinstance(store, MemoryStore):
        h.clock.advance(ttl + 1)
    else:
        redis_store = cast(RedisStore, store)
        client: Any = redis_store._r
        table_key = redis_store._table_key(chat_id)
        assert ttl - 60 < await client.ttl(table_key) <= ttl
        for key in (table_key, redis_store._log_key(chat_id), redis_store._msgs_key(chat_id)):
            await client.pexpire(key, 1)
        while await client.exists(table_key):  # expiry has to happen: wait for it
            await asyncio.sleep(0.001)
    assert await store.load(chat_id) is None
