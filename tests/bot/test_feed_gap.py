"""The feed's gap (issue 26, items 7–8): a process whose connection to Redis
breaks misses the moves published meanwhile — pub/sub keeps nothing for a
subscriber that is gone. When it connects again, every listener is told
(`Listener.gap`) and reads again, so a Mini App stream open on that process
still reaches the newest move, though no message of it ever arrived.

The break is real: the second process reaches Redis through a TCP proxy of
the test's own, which cuts every connection (and refuses new ones) while the
first process plays a move, then lets connections through again."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from bot.store.redis import RedisStore
from tests.bot.conftest import REDIS_URL
from tests.bot.harness import Harness, until
from tests.bot.test_webapp import GROUP, LINKS, app_harness, game_of, webapp_of
from tests.bot.webapp_client import serving


class Proxy:
    """127.0.0.1:<port> → Redis. `cut` closes every connection through it and
    refuses new ones until `restore`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.open: set[asyncio.StreamWriter] = set()
        self.cut_off = False
        self.refused = 0  # connections refused while cut
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut_off:
            self.refused += 1
            writer.transport.abort()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.open |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.open -= {writer, up_writer}

    def cut(self) -> None:
        self.cut_off = True
        for w in list(self.open):
            w.transport.abort()  # both sides: nothing in flight gets through

    def restore(self) -> None:
        self.cut_off = False

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.mark.parametrize("reconnects", ["redis-py", "feed"])
async def test_a_stream_catches_up_on_moves_published_while_its_process_was_cut_off(
    redis_factory: Any, reconnects: str
) -> None:
    """`reconnects`: who connects again — redis-py, within a read (its
    retries, on by default: `bot.store.feed._Reconnects`), or, with retries
    off, the feed's reader after the error (`RedisFeed._resubscribe`)."""
    first = app_harness(await redis_factory())  # plays, straight to Redis
    direct: Any = Redis.from_url(REDIS_URL)
    kwargs = direct.connection_pool.connection_kwargs
    proxy = Proxy(kwargs.get("host", "127.0.0.1"), kwargs.get("port", 6379))
    await direct.aclose()
    await proxy.start()
    retry = {} if reconnects == "redis-py" else {"retry": Retry(NoBackoff(), 0)}
    client = Redis(
        host="127.0.0.1", port=proxy.port, db=kwargs.get("db", 0), socket_timeout=5, **retry
    )
    cut_store = RedisStore(client, first.store.prefix)  # type: ignore[attr-defined]
    second = Harness(cut_store, first.tg, first.clock, app=LINKS)
    try:
        users = await game_of(first, 2)
        table = await first.table(GROUP)
        async with (
            serving(webapp_of(second), second.clock.now) as app,
            app.stream(users[0], GROUP, last=table.version) as stream,
        ):
            hub = webapp_of(second).hub
            await hub.idle()  # followed (subscribed) and read once
            proxy.cut()
            decision = await first.decision(GROUP)
            assert decision is not None
            await first.answer(users[decision.seat], GROUP, decision.options[0])
            newest = await first.table(GROUP)
            assert newest.version > table.version
            # its pub/sub connection tried again while cut off (redis-py retries)
            await until(lambda: proxy.refused > 0)
            proxy.restore()
            version = 0
            while version < newest.version:  # (each event bounded: EVENT_TIMEOUT)
                _, version, _ = await stream.next()
            assert version == newest.version
    finally:
        await cut_store.close()
        await client.aclose()
        await proxy.close()
