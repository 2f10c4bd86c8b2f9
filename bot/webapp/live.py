"""Live views: every open app hears of a move within a second, from any process.

Each successful save publishes the chat's new version: the Redis store inside
its compare-and-set script (channel named like the record's key: no extra round
trip), the embedded store to its in-process listeners. A process has **one**
subscriber (`RedisFeed`: one pub/sub connection, subscribed to the chats that
have viewers here, and to no other) and one `Hub` that fans out to that
process's viewers: on a new version it loads the record **once** and wakes
every viewer of the chat; each viewer's stream then sends its seat's view. No
viewer ever polls the store.

A viewer that connects (or reconnects, with ``Last-Event-ID``: the version it
has) follows the chat first, then reads the record: a move saved in between is
heard, never lost. When the subscriber's connection breaks, it reconnects and
every followed chat is read again, so what was published meanwhile is caught
up too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import redis.exceptions
from redis.asyncio.client import PubSub

from bot.ops import logs
from bot.store import Store, StoreUnavailable
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore

log = logging.getLogger(__name__)

OnMove = Callable[[int, int], None]
#: how long the subscriber waits for a message before it checks its connection
LISTEN_SECONDS = 15.0
#: how long a new viewer waits for Redis to confirm its chat's subscription
CONFIRM_SECONDS = 5.0
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)


class Feed(ABC):
    """Where a process hears of saves: calls `on_move(chat, version)` for the
    chats it follows."""

    on_move: OnMove | None = None
    #: called when moves may have been missed (the connection broke)
    on_gap: Callable[[], None] | None = None

    @abstractmethod
    async def follow(self, chat_id: int) -> None: ...

    @abstractmethod
    async def unfollow(self, chat_id: int) -> None: ...

    async def close(self) -> None:
        return None


class MemoryFeed(Feed):
    """The embedded store's saves, heard in process."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.chats: set[int] = set()
        store.saved.append(self._saved)

    def _saved(self, chat_id: int, version: int) -> None:
        if chat_id in self.chats and self.on_move is not None:
            self.on_move(chat_id, version)

    async def follow(self, chat_id: int) -> None:
        self.chats.add(chat_id)

    async def unfollow(self, chat_id: int) -> None:
        self.chats.discard(chat_id)

    async def close(self) -> None:
        if self._saved in self.store.saved:
            self.store.saved.remove(self._saved)


class RedisFeed(Feed):
    """One pub/sub connection for the whole process: SUBSCRIBE to a chat's
    channel when its first viewer comes, UNSUBSCRIBE when its last goes."""

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.pubsub = store.pubsub()
        self.channels: dict[str, int] = {}  # channel → chat
        self._confirms: dict[str, list[asyncio.Future[None]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._changing = asyncio.Lock()

    async def follow(self, chat_id: int) -> None:
        """Subscribe, and return once Redis confirms it: a save from then on
        is heard (so a record read after this misses no move)."""
        channel = self.store.moves_channel(chat_id)
        confirmed = asyncio.get_running_loop().create_future()
        async with self._changing:
            self.channels[channel] = chat_id
            self._confirms.setdefault(channel, []).append(confirmed)
            try:
                await self.pubsub.subscribe(channel)
            except _BROKEN as e:  # the reader connects again and subscribes it then
                self._confirms.pop(channel, None)
                raise StoreUnavailable(str(e) or type(e).__name__) from e
        if self._reader is None:
            self._reader = asyncio.create_task(self._read(), name="webapp feed")
        try:
            await asyncio.wait_for(confirmed, CONFIRM_SECONDS)
        except TimeoutError:
            log.warning("live feed: Redis did not confirm a subscription in time")

    async def unfollow(self, chat_id: int) -> None:
        channel = self.store.moves_channel(chat_id)
        async with self._changing:
            if self.channels.pop(channel, None) is not None:
                with contextlib.suppress(*_BROKEN):
                    await self.pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        failures = 0
        while True:
            try:
                message = await self.pubsub.get_message(timeout=LISTEN_SECONDS)
                failures = 0
            except asyncio.CancelledError:
                raise
            except _BROKEN as e:
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("live feed: Redis pub/sub broke (%s); again in %.1fs", e, delay)
                await asyncio.sleep(delay)
                await self._resubscribe()
                continue
            if message is None:
                continue
            kind = message.get("type")
            if kind == "subscribe":
                for waiting in self._confirms.pop(_text(message["channel"]), []):
                    if not waiting.done():
                        waiting.set_result(None)
                continue
            if kind != "message":
                continue
            chat = self.channels.get(_text(message["channel"]))
            if chat is None or self.on_move is None:
                continue
            try:
                version = int(_text(message["data"]))
            except ValueError:
                continue
            self.on_move(chat, version)

    async def _resubscribe(self) -> None:
        """After a break: connect again, follow the same chats, and have every
        viewer read the record (what was published meanwhile is caught up)."""
        async with self._changing:
            with contextlib.suppress(*_BROKEN):
                await _close(self.pubsub)
                self.pubsub = self.store.pubsub()
                if self.channels:
                    await self.pubsub.subscribe(*self.channels)
        if self.on_gap is not None:
            self.on_gap()

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(*_BROKEN):
            await _close(self.pubsub)


_BROKEN = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
    OSError,
    RuntimeError,  # "pubsub connection not set" after a failed reconnect
)


async def _close(pubsub: PubSub) -> None:
    """Close a pub/sub connection (redis-py leaves `aclose` untyped)."""
    await cast(Any, pubsub).aclose()


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def feed_for(store: Store) -> Feed:
    if isinstance(store, RedisStore):
        return RedisFeed(store)
    if isinstance(store, MemoryStore):
        return MemoryFeed(store)
    raise TypeError(f"no live feed for {type(store).__name__}")


@dataclass(eq=False)
class Viewer:
    """One open stream: the version it was last sent, and what wakes it."""

    chat_id: int
    sent: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False


class Hub:
    """A process's viewers by chat, and the newest record of each followed
    chat, read once per move for all of them."""

    def __init__(self, store: Store, feed: Feed) -> None:
        self.store = store
        self.feed = feed
        feed.on_move = self.moved
        feed.on_gap = self.gap
        self.viewers: dict[int, set[Viewer]] = {}
        self.tables: dict[int, Table | None] = {}  # chat → newest record read
        self._stale: set[int] = set()  # chats to read (again)
        self._reading: dict[int, asyncio.Task[None]] = {}
        self.loads = 0  # records read for viewers (a benchmark's figure)

    async def join(self, chat_id: int) -> Viewer:
        """A new viewer of the chat: follows it first, then reads the record."""
        viewer = Viewer(chat_id)
        watching = self.viewers.setdefault(chat_id, set())
        watching.add(viewer)
        if len(watching) == 1:
            try:
                await self.feed.follow(chat_id)
            except StoreUnavailable:
                await self.leave(viewer)
                raise
        self._read_again(chat_id)
        return viewer

    async def leave(self, viewer: Viewer) -> None:
        viewer.closed = True
        watching = self.viewers.get(viewer.chat_id)
        if watching is None or viewer not in watching:
            return
        watching.discard(viewer)
        if not watching:
            del self.viewers[viewer.chat_id]
            self.tables.pop(viewer.chat_id, None)
            await self.feed.unfollow(viewer.chat_id)

    def moved(self, chat_id: int, version: int) -> None:
        """A save of the chat published `version`."""
        if chat_id not in self.viewers:
            return
        table = self.tables.get(chat_id)
        if table is not None and table.version >= version:
            return  # read already
        self._read_again(chat_id)

    def gap(self) -> None:
        """Moves may have been missed: read every followed chat again."""
        for chat_id in list(self.viewers):
            self._read_again(chat_id)

    def _read_again(self, chat_id: int) -> None:
        self._stale.add(chat_id)
        if chat_id not in self._reading:
            self._reading[chat_id] = asyncio.create_task(
                self._read(chat_id), name=f"live view {chat_id}"
            )

    async def _read(self, chat_id: int) -> None:
        """Read the chat's record until no newer move is heard of meanwhile."""
        try:
            while chat_id in self._stale and chat_id in self.viewers:
                self._stale.discard(chat_id)
                try:
                    table = await self.store.load(chat_id)
                except StoreUnavailable as e:
                    log.warning("live view of %s: store unavailable: %s", logs.chat(chat_id), e)
                    return
                self.loads += 1
                watching = self.viewers.get(chat_id)
                if watching is None:
                    return
                old = self.tables.get(chat_id)
                if old is None or table is None or table.version >= old.version:
                    self.tables[chat_id] = table
                for viewer in watching:
                    viewer.wake.set()
        finally:
            self._reading.pop(chat_id, None)
            self._stale.discard(chat_id)

    async def idle(self) -> None:
        """Until no record is being read (what a test waits for)."""
        while self._reading:
            await asyncio.gather(*self._reading.values(), return_exceptions=True)

    def table(self, chat_id: int) -> Table | None:
        """The newest record read for the chat's viewers."""
        return self.tables.get(chat_id)

    async def close(self) -> None:
        """Wake every viewer to end its stream; stop hearing."""
        for watching in self.viewers.values():
            for viewer in watching:
                viewer.closed = True
                viewer.wake.set()
        for task in list(self._reading.values()):
            task.cancel()
        await self.feed.close()
