"""Redis full, or hanging, is an outage handled (issue 17, item 3)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.ops import metrics
from bot.ops.health import Health
from bot.store.redis import RedisStore
from tests.bot.test_health import beating, client_of


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
