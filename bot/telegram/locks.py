"""One lock per key (a chat), kept only while someone holds or waits for it.

`asyncio.Lock` hands itself to waiters first come, first served, and taking a
free lock does not yield to the event loop: whoever asks first, holds first.
That is what keeps a chat's updates, and a chat's Telegram requests, in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from types import TracebackType


class _Held:
    """``async with locks.hold(key)``: a plain context manager (every update
    and every Telegram request takes one, so no generator-based one)."""

    __slots__ = ("_key", "_locks")

    def __init__(self, locks: KeyedLocks, key: Hashable) -> None:
        self._locks = locks
        self._key = key

    async def __aenter__(self) -> None:
        entries = self._locks._locks
        lock, users = entries.get(self._key) or (asyncio.Lock(), 0)
        entries[self._key] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:
            self._leave()
            raise

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._locks._locks[self._key][0].release()
        self._leave()

    def _leave(self) -> None:
        entries = self._locks._locks
        lock, users = entries[self._key]
        if users == 1:
            del entries[self._key]
        else:
            entries[self._key] = (lock, users - 1)


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    def hold(self, key: Hashable) -> _Held:
        return _Held(self, key)

    def users(self, key: Hashable) -> int:
        """Who holds or waits for `key`'s lock."""
        entry = self._locks.get(key)
        return 0 if entry is None else entry[1]

    def __len__(self) -> int:
        """How many keys are held or waited for (what the map keeps)."""
        return len(self._locks)
