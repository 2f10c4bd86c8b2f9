"""Where games live: Redis when `REDIS_URL` is set, else an embedded in-process store.

Both implement `Store`; the same contract tests run against both.

Keys (Redis): every key of one chat's game shares the hash tag ``{<chat_id>}``
so a Redis Cluster keeps them in one slot:

- ``smuta:{<chat>}:table`` — hash: ``v`` (version), ``data`` (the `Table` JSON),
  ``g`` (its game number), ``s`` (its status: for the games gauge)
- ``smuta:{<chat>}:log``   — list of the game's accepted commands (JSON)
- ``smuta:{<chat>}:msgs``  — hash: message ids the bot edits later (table, prompts)
- ``smuta:deadlines``      — sorted set: chat id → when its game next needs the timer
- ``smuta:user:{<uid>}``   — hash: the user's language and whether they started the bot
- ``smuta:user:{<uid>}:tables`` — set of chat ids where the user has a seat
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from pydantic import BaseModel

from bot.models import Lang, Table
from engine import Command


class UserPrefs(BaseModel):
    user_id: int
    lang: Lang | None = None  # chosen with /lang; None: Telegram's language
    started: bool = False  # has opened a private chat with the bot


class StoreUnavailable(Exception):
    """The store cannot be reached right now."""


#: how long a record outlives its last change: an open lobby nobody starts, a
#: finished game (kept with its players, scores and command log until then)
LOBBY_TTL = 24 * 3600
FINISHED_TTL = 7 * 24 * 3600


class Store(ABC):
    lobby_ttl: int = LOBBY_TTL
    finished_ttl: int = FINISHED_TTL

    def ttl_of(self, table: Table) -> int | None:
        """Seconds the chat's game is kept after this save; None: while it runs, for good."""
        if table.status == "lobby":
            return self.lobby_ttl
        if table.status == "finished":
            return self.finished_ttl
        return None

    @abstractmethod
    async def load(self, chat_id: int) -> Table | None:
        """The chat's table record, or None."""

    @abstractmethod
    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        """Compare-and-set: store `table` only if the stored version is still
        `table.version` (0: no record may exist). On success `table.version`
        grows by one, `commands` are appended to the game's log and the chat's
        timer is set to the earlier of `table.reminder` and `table.deadline`
        (or cleared when both are None). Returns False, changing nothing, when
        someone else saved first (counted in ``smuta_cas_conflicts_total``). A
        lobby or a finished game expires (record, log and message ids)
        `ttl_of(table)` seconds after its last save; a
        running game never does. The log belongs to the record's `game_no`: a
        save that changes `game_no` (a new lobby in the same chat) starts a
        fresh log."""

    @abstractmethod
    async def delete(self, chat_id: int) -> None:
        """Forget the chat's game: record, log, message ids and timer, and
        unlink the users seated in the record from the chat (`user_tables`)."""

    @abstractmethod
    async def log(self, chat_id: int) -> list[Command]:
        """The game's accepted commands, oldest first."""

    @abstractmethod
    async def due(self, now: float, limit: int = 100) -> list[int]:
        """Chats whose timer is at or before `now`, earliest first."""

    @abstractmethod
    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        """`load` and `messages` together, in one round trip."""

    @abstractmethod
    async def messages(self, chat_id: int) -> dict[str, int]:
        """Message ids kept for later edits, by name (``table``, ``prompt:<seat>``, …)."""

    @abstractmethod
    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        """Set (or, with None, forget) some message ids. Returns the version of
        the chat's record at that moment (0: none), in the same round trip: a
        caller that has just edited the table can tell whether a newer move
        was saved meanwhile (its edit may then have landed after the newer one)."""

    @abstractmethod
    async def user(self, user_id: int) -> UserPrefs:
        """A user's preferences (defaults when unknown)."""

    @abstractmethod
    async def save_user(self, prefs: UserPrefs) -> None: ...

    @abstractmethod
    async def user_tables(self, user_id: int) -> set[int]:
        """Chats where the user has a seat in a lobby or a running game."""

    @abstractmethod
    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None: ...

    @abstractmethod
    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Move a chat's game to the chat's new id (group → supergroup): the
        record (with `chat_id` rewritten, same version), log, message ids,
        timer and the seated users' links; the old id is then forgotten.
        False when there is nothing to move or the new id is taken."""

    @abstractmethod
    async def ping(self) -> None:
        """Return when the store answers; `StoreUnavailable` when it does not
        (the readiness check)."""

    @abstractmethod
    async def count_games(self) -> dict[str, int]:
        """How many games there are by status (``lobby``, ``playing``,
        ``finished``), expired ones not counted (the games gauge). Walks every
        game: for a scrape every few seconds at most, never for an update."""

    @abstractmethod
    async def close(self) -> None: ...


__all__ = ["Store", "StoreUnavailable", "UserPrefs"]
