"""`Store` in process memory, for running without Redis (and for tests).

Same semantics as `RedisStore`: records, commands and prefs are kept as JSON, so
a caller never holds a reference into stored data. Every call first yields to
the event loop, like a network round trip would, so concurrent callers really
interleave between calls; the compare-and-set itself runs without an await and
is therefore atomic within the one event loop that owns the store.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot import metrics
from bot.models import Table
from bot.store import Store, UserPrefs
from engine import Command

T = TypeVar("T")


@dataclass
class _Record:
    version: int
    data: str  # the Table JSON, carrying `version`
    game_no: int
    status: str  # the Table's status (for the games gauge)


def _timer(table: Table) -> float | None:
    """When the chat next needs the timer: the earlier of reminder and deadline."""
    times = [t for t in (table.reminder, table.deadline) if t is not None]
    return min(times) if times else None


class MemoryStore(Store):
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._expires: dict[int, float] = {}  # chat → when its lobby or finished game goes
        self._tables: dict[int, _Record] = {}
        self._logs: dict[int, list[str]] = {}
        self._msgs: dict[int, dict[str, int]] = {}
        self._timers: dict[int, float] = {}
        self._users: dict[int, str] = {}  # UserPrefs JSON
        self._links: dict[int, set[int]] = {}

    def _expire(self, chat_id: int) -> None:
        """Forget a lobby or finished game whose time is up (Redis: key expiry)."""
        until = self._expires.get(chat_id)
        if until is not None and until <= self._clock():
            del self._expires[chat_id]
            self._tables.pop(chat_id, None)
            self._logs.pop(chat_id, None)
            self._msgs.pop(chat_id, None)

    async def load(self, chat_id: int) -> Table | None:
        await asyncio.sleep(0)
        self._expire(chat_id)
        rec = self._tables.get(chat_id)
        if rec is None:
            return None
        table = Table.model_validate_json(rec.data)
        table.version = rec.version
        return table

    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        chat = table.chat_id
        expected = table.version
        data = table.model_copy(update={"version": expected + 1}).model_dump_json()
        lines = [c.model_dump_json() for c in commands]
        timer = _timer(table)
        await asyncio.sleep(0)
        # from here to the end: no await, so nothing interleaves
        self._expire(chat)
        rec = self._tables.get(chat)
        if (0 if rec is None else rec.version) != expected:
            metrics.cas_conflict()
            return False
        if rec is not None and rec.game_no != table.game_no:
            self._logs.pop(chat, None)  # a new game in this chat starts a fresh log
        self._tables[chat] = _Record(expected + 1, data, table.game_no, table.status)
        if lines:
            self._logs.setdefault(chat, []).extend(lines)
        if timer is None:
            self._timers.pop(chat, None)
        else:
            self._timers[chat] = float(timer)
        ttl = self.ttl_of(table)
        if ttl:
            self._expires[chat] = self._clock() + ttl
        else:
            self._expires.pop(chat, None)
        table.version = expected + 1
        return True

    async def delete(self, chat_id: int) -> None:
        await asyncio.sleep(0)
        rec = self._tables.pop(chat_id, None)
        self._logs.pop(chat_id, None)
        self._msgs.pop(chat_id, None)
        self._timers.pop(chat_id, None)
        if rec is not None:
            for uid in _seated(rec.data):
                self._links.get(uid, set()).discard(chat_id)

    async def log(self, chat_id: int) -> list[Command]:
        await asyncio.sleep(0)
        self._expire(chat_id)
        return [Command.model_validate_json(line) for line in self._logs.get(chat_id, [])]

    async def due(self, now: float, limit: int = 100) -> list[int]:
        await asyncio.sleep(0)
        if limit <= 0:
            return []
        # Redis orders equal scores by member (as a string): do the same
        ready = sorted(
            ((t, str(chat), chat) for chat, t in self._timers.items() if t <= now),
        )
        return [chat for _, _, chat in ready[:limit]]

    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        table = await self.load(chat_id)  # expires first
        return table, dict(self._msgs.get(chat_id, {}))

    async def messages(self, chat_id: int) -> dict[str, int]:
        await asyncio.sleep(0)
        return dict(self._msgs.get(chat_id, {}))

    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        await asyncio.sleep(0)
        kept = self._msgs.setdefault(chat_id, {})
        for name, mid in ids.items():
            if mid is None:
                kept.pop(name, None)
            else:
                kept[name] = int(mid)
        if not kept:
            del self._msgs[chat_id]
        rec = self._tables.get(chat_id)
        return rec.version if rec is not None else 0

    async def user(self, user_id: int) -> UserPrefs:
        await asyncio.sleep(0)
        raw = self._users.get(user_id)
        return UserPrefs(user_id=user_id) if raw is None else UserPrefs.model_validate_json(raw)

    async def save_user(self, prefs: UserPrefs) -> None:
        await asyncio.sleep(0)
        self._users[prefs.user_id] = prefs.model_dump_json()

    async def user_tables(self, user_id: int) -> set[int]:
        await asyncio.sleep(0)
        return set(self._links.get(user_id, set()))

    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        await asyncio.sleep(0)
        if linked:
            self._links.setdefault(user_id, set()).add(chat_id)
        else:
            self._links.get(user_id, set()).discard(chat_id)

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        await asyncio.sleep(0)
        rec = self._tables.get(old_chat_id)
        if rec is None or old_chat_id == new_chat_id or new_chat_id in self._tables:
            return False
        table = Table.model_validate_json(rec.data)
        table.chat_id = new_chat_id
        self._tables[new_chat_id] = _Record(
            rec.version, table.model_dump_json(), rec.game_no, rec.status
        )
        del self._tables[old_chat_id]
        _move(self._logs, old_chat_id, new_chat_id)
        _move(self._msgs, old_chat_id, new_chat_id)
        _move(self._timers, old_chat_id, new_chat_id)
        for uid in _seated(rec.data):
            links = self._links.get(uid, set())
            if old_chat_id in links:
                links.discard(old_chat_id)
                links.add(new_chat_id)
        return True

    async def ping(self) -> None:
        return None

    async def count_games(self) -> dict[str, int]:
        await asyncio.sleep(0)
        counts: dict[str, int] = {}
        for chat_id in list(self._tables):
            self._expire(chat_id)
            rec = self._tables.get(chat_id)
            if rec is not None:
                counts[rec.status] = counts.get(rec.status, 0) + 1
        return counts

    async def close(self) -> None:
        return None


def _move(items: dict[int, T], old: int, new: int) -> None:
    items.pop(new, None)
    if old in items:
        items[new] = items.pop(old)


def _seated(data: str) -> list[int]:
    table = Table.model_validate_json(data)
    return sorted({s.user_id for s in table.seats if s.user_id is not None})


__all__ = ["MemoryStore"]
