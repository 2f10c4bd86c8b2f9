"""What the Mini App reads, through the service: a person's tables and a chat's record.

The app's server (`bot.webapp`) never reaches the store itself; the records,
the feed of saved versions and the store's outage it answers 503 to are the
service's to hand out (re-exported here as the app's view of them).
"""

from __future__ import annotations

from bot.store import Store
from bot.store import StoreUnavailable as StoreUnavailable
from bot.store.feed import Feed as Feed
from bot.store.feed import feed_for
from bot.store.models import GameRecord as GameRecord
from bot.store.models import Table as Table
from engine import Command


class Viewing:
    def __init__(self, store: Store, feed: Feed | None = None) -> None:
        self.store = store
        self._feed = feed

    async def table(self, chat_id: int) -> Table | None:
        """The chat's newest record (None: no lobby or game there)."""
        return await self.store.load(chat_id)

    async def seated_tables(self, user_id: int) -> list[Table]:
        """The records of the tables `user_id` has a seat at, by chat."""
        found = []
        for chat_id in sorted(await self.store.user_tables(user_id)):
            table = await self.store.load(chat_id)
            if table is not None and table.seat_of(user_id) is not None:
                found.append(table)
        return found

    async def log(self, chat_id: int) -> list[Command]:
        """The chat's running game's command log (what its story is rebuilt from)."""
        return await self.store.log(chat_id)

    async def finished(self, number: int) -> tuple[GameRecord, list[Command]] | None:
        """Finished game `number` (/history's) and its command log (a replay)."""
        return await self.store.game_by_number(number)

    def feed(self) -> Feed:
        """The process's feed of saved versions (one of the app's own when the
        service was given none)."""
        if self._feed is None:
            self._feed = feed_for(self.store)
        return self._feed
