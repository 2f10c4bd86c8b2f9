"""Where a process hears of saves — one subscriber per process, shared by
whoever needs to know a chat moved (the Mini App's live views, the groups'
outboxes).

Each successful save publishes the chat's new version: the Redis store inside
its compare-and-set script (channel named like the record's key: no extra round
trip), the embedded store to its in-process listeners. A process has **one**
feed: for Redis one pub/sub connection, subscribed to the chats someone here
follows (counted: the last to stop following unsubscribes), and to no other
(on a Redis Cluster, to one of its nodes: a PUBLISH reaches every node's
subscribers, `RedisStore.pubsub`).
Every listener hears every followed chat's versions (`Listener.moved`), that
another process sent one of a chat's views anew (`Listener.views_moved`: the
store publishes ``ids:<process>`` when a view's message id changes; with Redis a
process's own is not told to it), and when moves may have been missed
(`Listener.gap`: the connection broke — whether the feed's reader saw the
error and connected again itself, or redis-py's own retries connected again
within one read, silently re-subscribing: `_Reconnects`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, cast

import redis.exceptions
from redis.asyncio.client import PubSub

from bot.store import VIEWS_MOVED, Store, StoreUnavailable
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore, cancelled_meanwhile

log = logging.getLogger(__name__)

#: how long the subscriber waits for a message before it checks its connection
LISTEN_SECONDS = 15.0
#: how long a new follower waits for Redis to confirm its chat's subscription
CONFIRM_SECONDS = 5.0
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)


class Listener(Protocol):
    """Who hears of saves through a feed."""

    def moved(self, chat_id: int, version: int) -> None:
        """A save of a followed chat published `version` (maybe this process's own)."""

    def views_moved(self, chat_id: int) -> None:
        """Another process changed the message id of one of the chat's views
        (sent it anew): what was known of them is out of date."""

    def gap(self) -> None:
        """Moves may have been missed (the connection broke): read again what matters."""


class Feed(ABC):
    """Where a process hears of saves: every listener is told each new version
    of the chats anyone follows. Following is counted per chat, so the Mini
    App's viewers and the outboxes can follow the same chat and each stop
    on its own."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.following: Counter[int] = Counter()

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def _moved(self, chat_id: int, version: int) -> None:
        for listener in self.listeners:
            listener.moved(chat_id, version)

    def _views_moved(self, chat_id: int) -> None:
        for listener in self.listeners:
            listener.views_moved(chat_id)

    def _gap(self) -> None:
        for listener in self.listeners:
            listener.gap()

    async def follow(self, chat_id: int) -> None:
        """Hear of the chat's saves from now on (once this returns, a record
        read misses no move); raises `StoreUnavailable` when it cannot."""
        self.following[chat_id] += 1
        if self.following[chat_id] > 1:
            return
        try:
            await self._subscribe(chat_id)
        except StoreUnavailable:
            self._drop(chat_id)
            raise

    async def unfollow(self, chat_id: int) -> None:
        if self.following[chat_id] <= 0:
            return
        if self._drop(chat_id):
            await self._unsubscribe(chat_id)

    def _drop(self, chat_id: int) -> bool:
        """One follower fewer; True when it was the last."""
        self.following[chat_id] -= 1
        if self.following[chat_id] > 0:
            return False
        del self.following[chat_id]
        return True

    @abstractmethod
    async def _subscribe(self, chat_id: int) -> None: ...

    @abstractmethod
    async def _unsubscribe(self, chat_id: int) -> None: ...

    async def close(self) -> None:
        return None


class MemoryFeed(Feed):
    """The embedded store's saves, heard in process."""

    def __init__(self, store: MemoryStore) -> None:
        super().__init__()
        self.store = store
        store.saved.append(self._saved)
        store.views_moved.append(self._views_changed)

    def _saved(self, chat_id: int, version: int) -> None:
        if chat_id in self.following:
            self._moved(chat_id, version)

    def _views_changed(self, chat_id: int) -> None:
        # (one store for every process here: a process hears its own change too)
        if chat_id in self.following:
            self._views_moved(chat_id)

    async def _subscribe(self, chat_id: int) -> None:
        return None

    async def _unsubscribe(self, chat_id: int) -> None:
        return None

    async def close(self) -> None:
        if self._saved in self.store.saved:
            self.store.saved.remove(self._saved)
        if self._views_changed in self.store.views_moved:
            self.store.views_moved.remove(self._views_changed)


class RedisFeed(Feed):
    """One pub/sub connection for the whole process: SUBSCRIBE to a chat's
    channel when its first follower comes, UNSUBSCRIBE when its last goes."""

    def __init__(self, store: RedisStore) -> None:
        super().__init__()
        self.store = store
        self.pubsub = store.pubsub()
        self._reconnects = _Reconnects(self.pubsub, self._gap)
        self.channels: dict[str, int] = {}  # channel → chat
        self._confirms: dict[str, list[asyncio.Future[None]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._changing = asyncio.Lock()
        self._closed = False
        store.on_close.append(self.close)  # the subscriber goes before its client

    async def _subscribe(self, chat_id: int) -> None:
        """Subscribe, and return once Redis confirms it: a save from then on
        is heard (so a record read after this misses no move)."""
        if self._closed:
            raise StoreUnavailable("the feed is closed")
        channel = self.store.moves_channel(chat_id)
        confirmed = asyncio.get_running_loop().create_future()
        async with self._changing:
            self.channels[channel] = chat_id
            self._confirms.setdefault(channel, []).append(confirmed)
            try:
                await self.pubsub.subscribe(channel)
                cancelled_meanwhile()
            except _BROKEN as e:  # the reader connects again and subscribes it then
                self._confirms.pop(channel, None)
                raise StoreUnavailable(str(e) or type(e).__name__) from e
        if self._reader is None:
            # in a context of its own: not the update's that first followed a chat
            # (its log context, its claim), which it would outlive
            self._reader = asyncio.create_task(
                self._read(), name="store feed", context=contextvars.Context()
            )
        try:
            await asyncio.wait_for(confirmed, CONFIRM_SECONDS)
        except TimeoutError:
            log.warning("store feed: Redis did not confirm a subscription in time")

    async def _unsubscribe(self, chat_id: int) -> None:
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
                cancelled_meanwhile()  # (the client may have dropped a close's cancel)
                failures = 0
            except asyncio.CancelledError:
                raise
            except _BROKEN as e:
                delay = RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)]
                failures += 1
                log.warning("store feed: Redis pub/sub broke (%s); again in %.1fs", e, delay)
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
            if chat is None:
                continue
            data = _text(message["data"])
            if data.startswith(VIEWS_MOVED):
                if data[len(VIEWS_MOVED) :] != self.store.process:  # not this process's own
                    self._views_moved(chat)
                continue
            try:
                version = int(data)
            except ValueError:
                continue
            self._moved(chat, version)

    async def _resubscribe(self) -> None:
        """After a break: connect again, follow the same chats, and have every
        listener read again (what was published meanwhile is caught up)."""
        async with self._changing:
            with contextlib.suppress(*_BROKEN):
                await _close(self.pubsub)
                self.pubsub = self.store.pubsub()
                self._reconnects = _Reconnects(self.pubsub, self._gap)
                if self.channels:
                    await self.pubsub.subscribe(*self.channels)
        self._gap()

    async def close(self) -> None:
        if self.close in self.store.on_close:
            self.store.on_close.remove(self.close)
        self._closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(*_BROKEN):
            await _close(self.pubsub)


class _Reconnects:
    """A pub/sub connection that redis-py connects again by itself: the
    client's retries (on by default) reconnect within a read and subscribe
    the same channels again (`PubSub.on_connect`) without raising — but what
    was published while it was gone is lost, and the feed would not know.
    Each such reconnection is told to the feed's listeners as a gap. (The
    first connection is not: redis-py registers the callback after it.)"""

    def __init__(self, pubsub: PubSub, gap: Callable[[], None]) -> None:
        self.resubscribe = pubsub.on_connect
        self.gap = gap
        # (redis-py keeps the callback as a weak method: the feed keeps this)
        pubsub.on_connect = self.on_connect  # type: ignore[method-assign]

    async def on_connect(self, connection: Any) -> None:
        await self.resubscribe(connection)
        log.warning("store feed: Redis pub/sub connected again; followed chats are read again")
        self.gap()


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
    """The process's one feed for its store."""
    if isinstance(store, RedisStore):
        return RedisFeed(store)
    if isinstance(store, MemoryStore):
        return MemoryFeed(store)
    raise TypeError(f"no live feed for {type(store).__name__}")
