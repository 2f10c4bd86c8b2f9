"""One lock per key (a chat), kept only while someone holds or waits for it.

`asyncio.Lock` hands itself to waiters first come, first served, and taking a
free lock does not yield to the event loop: whoever asks first, holds first.
That is what keeps a chat's updates, and a chat's Telegram requests, in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key) or (asyncio.Lock(), 0)
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def users(self, key: Hashable) -> int:
        """Who holds or waits for `key`'s lock."""
        entry = self._locks.get(key)
        return 0 if entry is None else entry[1]

    def __len__(self) -> int:
        """How many keys are held or waited for (what the map keeps)."""
        return len(self._locks)
