"""The health endpoints' client and the ticker's heartbeat."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.ops.health import Health


async def until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 60.0) -> None:
    """Re-check every 20 ms until true; `timeout` only bounds a wait that never ends."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def client_of(health: Health) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(health.web_app()))
    await client.start_server()
    return client


def beating() -> SimpleNamespace:
    return SimpleNamespace(last_beat=time.monotonic())
