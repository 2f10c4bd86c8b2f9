"""Store fixtures: every contract test runs against the embedded store and real Redis.

Redis comes from ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); each test
gets its own key prefix and its keys are deleted afterwards. When Redis cannot
be reached the Redis half is skipped — unless ``CI`` is set, where it fails:
CI must test Redis for real.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

import pytest
import redis.exceptions
from redis.asyncio import Redis

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _client() -> Redis:
    return Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=10)


async def _reachable(client: Redis) -> None:
    try:
        await cast(Awaitable[bool], client.ping())
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as e:
        await client.aclose()
        if _in_ci():
            pytest.fail(
                f"Redis is unreachable at {REDIS_URL} ({e}) and CI is set: "
                "CI must run the store tests against a real Redis (start one or set REDIS_URL).",
                pytrace=False,
            )
        pytest.skip(
            f"Redis is unreachable at {REDIS_URL} ({e}): this Redis test ran against "
            "nothing — only the embedded store was tested. Start Redis or set REDIS_URL."
        )


@pytest.fixture
async def redis_factory() -> AsyncIterator[Callable[[], Awaitable[RedisStore]]]:
    """Builds RedisStores sharing one fresh key prefix, each on its own client —
    as separate bot workers would be. Deletes the prefix's keys afterwards."""
    prefix = f"smuta-test:{uuid.uuid4().hex}"
    clients: list[Redis] = []
    stores: list[RedisStore] = []

    async def make() -> RedisStore:
        client = _client()
        await _reachable(client)
        clients.append(client)
        stores.append(RedisStore(client, prefix))
        return stores[-1]

    yield make
    for store in stores:  # the feeds the test's processes opened on them
        await store.close()
    if clients:
        keys = [k async for k in clients[0].scan_iter(match=f"{prefix}:*", count=500)]
        if keys:
            await clients[0].delete(*keys)
    for client in clients:
        await client.aclose()


@pytest.fixture
async def redis_store(redis_factory: Callable[[], Awaitable[RedisStore]]) -> RedisStore:
    """A Redis store only (skipped, or failed under CI, when Redis is unreachable)."""
    return await redis_factory()


@pytest.fixture(params=["memory", "redis"])
async def store(
    request: pytest.FixtureRequest, redis_factory: Callable[[], Awaitable[RedisStore]]
) -> AsyncIterator[Store]:
    """The embedded store and the Redis store, so both keep the one contract."""
    if request.param == "memory":
        mem = MemoryStore()
        yield mem
        await mem.close()
    else:
        yield await redis_factory()
