"""The feed's gap (issue 26, items 7–8): a process whose connection to Redis
breaks misses the moves published meanwhile — pub/sub keeps nothing for a
subscriber that is gone. When it connects again, every listener is told
(`Listener.gap`) and reads again, so a Mini App stream open on that process
still reaches the newest move, though no message of it ever arrived.

The same holds for the group's outbox: a process trusts what its outbox knows
of a group (the record, the message ids) only while its feed tells it of every
other save, so after a gap it reads again before its next edit, and the group
is told every move once — no closed turn's lines overwritten, no older table
left live.

The break is real: the second process reaches Redis through a TCP proxy of
the test's own, which cuts every connection (and refuses new ones) while the
first process plays, then lets connections through again."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram.types import User
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from bot.store.models import Table
from bot.store.redis import RedisStore
from engine import pending
from tests.bot.conftest import REDIS_URL
from tests.bot.harness import Harness, answer_data, people, until
from tests.bot.helpers.webapps import GROUP, LINKS, app_harness, game_of, webapp_of
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


@contextlib.asynccontextmanager
async def through_proxy(prefix: str, reconnects: str) -> AsyncIterator[tuple[Proxy, RedisStore]]:
    """A second process's store on the key `prefix`, reaching Redis through a
    `Proxy`. `reconnects`: who connects again — redis-py, within a read (its
    retries, on by default: `bot.store.feed._Reconnects`), or, with retries
    off, the feed's reader after the error (`RedisFeed._resubscribe`)."""
    direct: Any = Redis.from_url(REDIS_URL)
    kwargs = direct.connection_pool.connection_kwargs
    proxy = Proxy(kwargs.get("host", "127.0.0.1"), kwargs.get("port", 6379))
    await direct.aclose()
    await proxy.start()
    retry = {} if reconnects == "redis-py" else {"retry": Retry(NoBackoff(), 0)}
    client = Redis(
        host="127.0.0.1", port=proxy.port, db=kwargs.get("db", 0), socket_timeout=5, **retry
    )
    store = RedisStore(client, prefix)
    try:
        yield proxy, store
    finally:
        await store.close()
        await client.aclose()
        await proxy.close()


@pytest.mark.parametrize("reconnects", ["redis-py", "feed"])
async def test_a_stream_catches_up_on_moves_published_while_its_process_was_cut_off(
    redis_factory: Any, reconnects: str
) -> None:
    """`reconnects`: who connects again (`through_proxy`)."""
    first = app_harness(await redis_factory())  # plays, straight to Redis
    prefix = first.store.prefix  # type: ignore[attr-defined]
    async with through_proxy(prefix, reconnects) as (proxy, cut_store):
        second = Harness(cut_store, first.tg, first.clock, app=LINKS)
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


# ====================================================================== the group's outbox
OUTBOX_GROUP = -100_262_600


class Gaps:
    """A listener on a process's feed that only notes that a gap was told
    (after the outboxes, which listened first)."""

    def __init__(self) -> None:
        self.told = asyncio.Event()

    def moved(self, chat_id: int, version: int) -> None:
        return None

    def views_moved(self, chat_id: int) -> None:
        return None

    def gap(self) -> None:
        self.told.set()


async def move(h: Harness, users: dict[int, User]) -> Table:
    """The decider presses the first option's button; the record saved."""
    table = await h.table(OUTBOX_GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user_id = table.seats[decision.seat].user_id
    assert user_id is not None
    message = (await h.store.messages(OUTBOX_GROUP))[f"prompt:{decision.seat}"]
    data = answer_data(table, decision, decision.options[0])
    await h.press(users[user_id], user_id, message, data)
    return await h.table(OUTBOX_GROUP)


@pytest.mark.parametrize("reconnects", ["redis-py", "feed"])
async def test_a_group_is_told_every_move_made_while_its_process_was_cut_off(
    redis_factory: Any, reconnects: str
) -> None:
    """Two processes play one group's game; the second trusts what its outbox
    knows of the group (record, message ids) while the feed tells it of no
    other save. It is cut off from Redis while the first plays moves — a turn
    closes (its lines go into the table's message for good, the table comes
    anew) — and sends the table anew (/table: the old one points down). Its
    feed connects again and tells of the gap; the second process then takes
    /table and a move. The group ends up told everything once: every closed
    turn's lines in its messages once each (none overwritten, none twice), one
    table — the newest — and every older one pointing down or holding closed
    lines. (Without the outbox's catch-up on the gap the second process edits
    the message the turn closed into, and shows a record older than the
    group's.)"""
    first = Harness(await redis_factory())  # straight to Redis
    tg, chat = first.tg, OUTBOX_GROUP
    anna, boris, vera = people("Анна", "Борис", "Вера")
    users = {u.id: u for u in (anna, boris, vera)}
    closed: list[str] = []  # every closed turn's lines, in order

    def played(table: Table) -> Table:
        assert table.state is not None
        closed.extend(first.app.games.teller.render.closed_lines(table, table.state) or [])
        return table

    prefix = first.store.prefix  # type: ignore[attr-defined]
    async with through_proxy(prefix, reconnects) as (proxy, cut_store):
        second = Harness(cut_store, first.tg, first.clock)
        await first.open_game(chat, anna, [boris, vera], seed=5)
        # the second process moves: its outbox shows the group's table and follows
        # the group on its feed; once following, it trusts what it read last
        played(await move(second, users))
        outboxes = second.app.telling.outboxes
        await until(lambda: outboxes._known[chat].following)
        outboxes.show(chat, "table")
        await second.settle()
        assert outboxes._known[chat].fresh, "the second process trusts what it knows"
        gaps = Gaps()
        assert second.app.feed is not None
        second.app.feed.listen(gaps)

        proxy.cut()
        while played(await move(first, users)).turn_closed is None:
            pass  # until a turn closes
        played(await move(first, users))  # a move in the new turn: its table edited
        await first.say(chat, anna, "/table")
        # its pub/sub connection tried again while cut off (and was refused)
        await until(lambda: proxy.refused > 0)
        gaps.told.clear()
        proxy.restore()
        await asyncio.wait_for(gaps.told.wait(), 15)

        await second.say(chat, boris, "/table")
        played(await move(second, users))
        await first.settle()
        await second.settle()

    newest = await first.table(chat)
    ids = await first.store.messages(chat)
    group = {m: text for (c, m), text in tg.texts.items() if c == chat}
    title = first.tr.t(newest.lang, "table-title", turn=0).rsplit(" ", 1)[0]
    tables = [m for m, text in group.items() if text.startswith(title)]
    assert tables == [ids["table"]], "one live table, no older one left showing"
    assert group[ids["table"]] == first.app.games.views.table_text(newest)
    log_lines = set(closed)
    told = [line for text in group.values() for line in text.split("\n") if line in log_lines]
    assert sorted(told) == sorted(closed), "every closed turn's lines told once"
