"""Live views: every open app hears of a move within a second, from any process.

Each successful save publishes the chat's new version: the Redis store inside
its compare-and-set script (channel named like the record's key: no extra round
trip), the embedded store to its in-process listeners. A process has **one**
subscriber (`bot.store.feed`, shared with the groups' outboxes) and one `Hub` that fans out to that
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
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.ops import logs
from bot.service.viewing import Feed, StoreUnavailable, Table

log = logging.getLogger(__name__)

#: how the hub reads a chat's newest record (`Viewing.table`)
Load = Callable[[int], Awaitable[Table | None]]


@dataclass(eq=False)
class Viewer:
    """One open stream: the version it was last sent, and what wakes it."""

    chat_id: int
    sent: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False
    #: ended for a newer stream of the same user
    replaced: bool = False


class Hub:
    """The Mini App's fan-out: a process's live viewers by chat, and the newest
    record of each followed chat, read once per move for all of them."""

    def __init__(self, load: Load, feed: Feed) -> None:
        self.load = load  # a chat's newest record, from the service
        self.feed = feed
        feed.listen(self)
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

    def views_moved(self, chat_id: int) -> None:
        return None  # the app shows the record, not the group's messages

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
                    table = await self.load(chat_id)
                except StoreUnavailable as e:
                    log.warning("live view of %s: store unavailable: %s", logs.chat(chat_id), e)
                    return
                self.loads += 1
                watching = self.viewers.get(chat_id)
                if watching is None:
                    return
                # the newest read stands, also when its version is lower than
                # the last one's: a chat's reads are one after another, so
                # only a rollback (Redis came back without a save) goes back —
                # and then the version read is the state there is
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
        for chat_id in list(self.viewers):
            self.viewers.pop(chat_id, None)
            await self.feed.unfollow(chat_id)
