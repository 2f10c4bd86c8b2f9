"""Faults: a Redis behind a TCP proxy a test can cut, and a game's pending decision pressed."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import pytest
from aiogram.types import User

from bot.store.models import Table
from bot.store.redis import RedisStore
from engine import Command, Decision, pending
from engine.ai.easy import choose
from tests.bot.conftest import REDIS_URL, _client, _reachable
from tests.bot.harness import (
    Harness,
    answer_data,
)

GROUP = -100555


def decider_of(table: Table, users: tuple[User, ...]) -> tuple[Decision, User]:
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user_id = table.seats[decision.seat].user_id
    found = [u for u in users if u.id == user_id]
    assert found, "the pending decision is not a person's"
    return decision, found[0]


async def leaf_press(h: Harness, table: Table, decision: Decision) -> tuple[int, str, Command]:
    """The prompt's message id and the data of a button that answers the
    decision at once (a button naming a whole option), and the command it makes."""
    assert table.state is not None
    option = choose(table.state.seed, decision)
    ids = await h.store.messages(GROUP)
    return (
        ids[f"prompt:{decision.seat}"],
        answer_data(table, decision, option),
        Command(seat=decision.seat, decision=decision.id, option=option),
    )


def _redis_target() -> tuple[str, int]:
    parts = urlsplit(REDIS_URL)
    if parts.scheme != "redis" or not parts.hostname:
        pytest.skip(f"the proxy test needs a redis:// TCP URL, not {REDIS_URL}")
    return parts.hostname, parts.port or 6379


def _via(port: int) -> str:
    """REDIS_URL, but through 127.0.0.1:<port> (same database and password)."""
    parts = urlsplit(REDIS_URL)
    userinfo = parts.netloc.rpartition("@")[0]
    netloc = f"{userinfo}@127.0.0.1:{port}" if userinfo else f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


async def _delete_prefix(prefix: str) -> None:
    client = _client()
    try:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


class TcpProxy:
    """Listens on 127.0.0.1 (a free port) and pipes every connection to a target.

    `cut` closes every connection and stops listening, so new connections are
    refused, as when the Redis host goes away; `restore` listens again on the
    same port. `silent` drops every byte both ways while connections stay
    open, as a network cut that sends no reset."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.connections = 0
        self.silent = False
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    if self.silent:
                        continue
                    dst.write(data)
                    await dst.drain()
            except OSError:
                pass
            finally:
                dst.close()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        except asyncio.CancelledError:
            pass
        finally:
            self._writers -= {writer, up_writer}
            self._tasks.discard(task)
            writer.close()
            up_writer.close()

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for w in list(self._writers):
            w.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def restore(self) -> None:
        await self.start()

    @property
    def listening(self) -> bool:
        return self._server is not None


@pytest.fixture
async def proxied() -> AsyncIterator[tuple[TcpProxy, RedisStore]]:
    """A RedisStore built as the bot builds it (`RedisStore.from_url`, with a
    short timeout), talking to the real Redis through a proxy the test can cut;
    a key prefix of its own, deleted afterwards."""
    direct = _client()
    await _reachable(direct)  # skipped, or failed under CI, without Redis
    await direct.aclose()
    host, port = _redis_target()
    proxy = TcpProxy(host, port)
    await proxy.start()
    prefix = f"smuta-test:{uuid.uuid4().hex}"
    store = RedisStore.from_url(_via(proxy.port), prefix, timeout=0.5)
    try:
        yield proxy, store
    finally:
        proxy.silent = False
        if not proxy.listening:
            await proxy.restore()
        await store.close()
        await proxy.cut()
        await _delete_prefix(prefix)
