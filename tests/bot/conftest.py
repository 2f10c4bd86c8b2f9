"""Store fixtures: every contract test runs against the embedded store and real Redis.

Redis comes from ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); each test
gets its own key prefix and its keys are deleted afterwards. When Redis cannot
be reached the Redis half is skipped — unless ``CI`` is set, where it fails:
CI must test Redis for real.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import threading
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

#: a test still running after this many seconds (the slowest take ~2 min) has
#: its event loop's tasks logged — what each awaits — so the failure that
#: pytest-timeout makes of a hang (whose thread stacks show only the loop
#: waiting in select) names the step that never ended
HANG_DUMP_AFTER = 240.0


@pytest.fixture(autouse=True)
async def tasks_logged_if_hung(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    loop = asyncio.get_running_loop()
    over = threading.Event()

    def dump() -> None:
        out = io.StringIO()
        for task in asyncio.all_tasks(loop):
            print(f"-- {task!r}", file=out)
            task.print_stack(limit=25, file=out)
        logging.getLogger("tests.hang").error(
            "%s still running after %.0fs; its tasks:\n%s",
            request.node.nodeid,
            HANG_DUMP_AFTER,
            out.getvalue(),
        )

    def watch() -> None:
        if not over.wait(HANG_DUMP_AFTER) and not loop.is_closed():
            loop.call_soon_threadsafe(dump)

    threading.Thread(target=watch, daemon=True, name="hang watch").start()
    yield
    over.set()


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
