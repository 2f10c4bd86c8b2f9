"""Redis full, or hanging, is an outage handled (issue 17, item 3)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.ops import metrics
from bot.ops.health import Health
from bot.store.redis import RedisStore
from tests.bot.test_health import beating, client_of, until


@pytest.fixture
async def mute_server() -> AsyncIterator[int]:
    """A TCP server that accepts every connection and never answers nor
    closes it: a Redis that hangs without resetting the connection."""
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        await reader.read()  # until the client goes

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_readyz_on_a_redis_that_hangs_is_503_naming_the_store(mute_server: int) -> None:
    store = RedisStore.from_url(f"redis://127.0.0.1:{mute_server}/0")
    health = Health(store, beating())
    client = await client_of(health)
    try:
        metrics.set_ready(True)
        response = await client.get("/readyz")
        body: Any = await response.json()
        assert response.status == 503, body
        assert body["checks"] == {"store": "redis: no answer within 2s"}
        assert metrics.sample("smuta_ready") == 0
    finally:
        await client.close()
        await store.close()


async def test_readyz_sets_the_gauge_even_when_the_asker_hangs_up_first(mute_server: int) -> None:
    """A probe that gives up before the store's check ends (as a proxy's short
    timeout would): the check still ends and sets the ready gauge to 0."""
    store = RedisStore.from_url(f"redis://127.0.0.1:{mute_server}/0")
    health = Health(store, beating(), ping_timeout=0.5)
    client = await client_of(health)
    try:
        metrics.set_ready(True)
        with pytest.raises(TimeoutError):
            await client.get("/readyz", timeout=aiohttp.ClientTimeout(total=0.05))
        await until(lambda: _gauge_is(0), "the check to end and set the gauge")
    finally:
        await client.close()
        await store.close()


async def _gauge_is(value: float) -> bool:
    return metrics.sample("smuta_ready") == value
