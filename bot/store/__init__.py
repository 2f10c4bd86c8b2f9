"""Where games live: Redis when `REDIS_URL` is set, else an embedded in-process store.

Both implement `Store`; the same contract tests run against both.

Keys (Redis): every key of one chat's game shares the hash tag ``{<chat_id>}``
so a Redis Cluster keeps them in one slot. Every key the store writes has a
time to live or a stated bound: `KEYS` lists them all (a test scans a varied
session's keys on both stores against it). In brief:

- ``smuta:{<chat>}:table`` — hash: ``v`` (version), ``data`` (the `Table` JSON),
  ``g`` (its game number), ``s`` (its status: for the games gauge), ``r`` (the
  replication id of the primary that saved it last); a record moved here
  from a group's old id (`Store.migrate`) also ``from`` (that id) and ``cv``
  (the version it was copied at)
- ``smuta:{<chat>}:log``   — list of the game's accepted commands, a tight JSON
  array each (`bot.store.packing.log_line`; a JSON object, saved before it)
- ``smuta:{<chat>}:msgs``  — hash: message ids the bot edits later (table, prompts);
  a name without ``:`` is one of the group's views (``table``, ``lobby``): a
  change to one is published on the chat's channel (``ids:<process>``), so
  another process's outbox stops trusting what it knew of them
  (these three expire together, `Store.ttl_of` after the record's last save)
- ``smuta:deadlines``      — sorted set: chat id → at most when its game next needs
  the timer (a lower bound: a save lowers it, `due` raises it to the record's
  own timer, ``d`` in the table hash, or takes the chat out; one entry a chat
  with a record, or whose record went since its entry was last due)
- ``smuta:untimed``        — set of the chats whose practice game runs without a
  clock (`Store.untimed_adrift`: no timer comes back to one after a rollback);
  a chat leaves it with its game's next save, or once its record is gone
- ``smuta:user:{<uid>}``   — hash: the user's language, whether they started the bot,
  their practice games, whether a review comes after each game (`UserPrefs`)
- ``smuta:user:{<uid>}:tables`` — set of chat ids where the user has a seat

A chat's home, kept for good (no expiry; bounded):

- ``smuta:{<chat>}:profile`` — the chat's settings (`ChatProfile` JSON)
- ``smuta:{<chat>}:history`` — hash of finished games: ``r:<game>`` the
  `GameRecord`, ``l:<game>`` its command log (zlib-compressed, see
  `bot.store.packing`), ``n:<game>`` its /replay number; the record and log
  written by the very save that finishes the game, which also drops the games
  beyond the last `HISTORY_KEEP`; the number (and the game's place in the
  rating queue, its players' ``played`` sets) right after it
  (`RedisStore._publish`); ``last``: the highest game number given in the
  chat (`Store.last_game_no`)
- ``smuta:{<chat>}:stats``   — hash: player key → `PlayerStats` in this chat
- ``smuta:{<chat>}:subs``    — hash: user id → ``1`` (called to new lobbies)
  or ``asked`` (could not be reached; asked once to start the bot)
- ``smuta:stats``            — hash: player key → `PlayerStats` everywhere
- ``smuta:rating:queue``     — list of ``<chat>:<game>`` finished, counted,
  not yet rated: each is rated and popped by `commit_rating`
- ``smuta:rating:results:{r<n>}`` — hash in the queue's slot (its tag found to
  hash there, `bot.store.redis.base`): the head's new figures while they are being
  written (``<game>`` → its number and figures, gone with its pop or set-aside),
  ``~last`` the last number given; a stats hash's ``~applied`` is the number
  of the last rating written to it
- ``smuta:rating:aside``     — list of ``<chat>:<game>`` whose rating failed,
  set aside so the queue moves on (the newest `ASIDE_KEEP`)
- ``smuta:rating:queued:{r<n>}:<chat>:<game>`` — a game put in the rating
  queue (``r<n>``: a tag that hashes to the queue's slot), so a publishing
  run again never queues it twice; kept `QUEUED_MARK` (a week)
- ``smuta:replay:seq``, ``smuta:replay:index`` — /replay numbers → ``<chat>:<game>``
- ``smuta:unpublished``      — zset of ``<chat>:<game>`` finished games whose
  publishing (number, queue, ``played``) is under way or was cut: the time of
  the save; `Store.publish_finished` finishes those over a minute old
- ``smuta:moved``            — hash: a chat's old id → its new one (migration)
- ``smuta:user:{<uid>}:played`` — chats whose history has the user;
  ``smuta:user:{<uid>}:subs`` — chats the user asked to be called to;
  ``smuta:user:{<uid>}:stats`` — chats where the user has figures;
  ``smuta:user:{<uid>}:owns`` — chats whose settings the user made (/forgetme);
  each holds at most the chats the user was in, and goes with /forgetme

Short-lived keys:

- ``smuta:update:<update_id>`` — an update being handled (its handling's
  token, a lease of `bot.store.delivery.lease_for` seconds, renewed while it
  runs) or handled (``done``, kept `UPDATE_TTL`): a redelivery waits for the
  lease, is dropped once done. Taken in the same round trip as the update's
  first read (`bot.store.delivery`)
- ``smuta:claim:<name>`` — something done at most once a while (/notify's
  calls to a chat: ``notify:<chat>``); expires when its while is over
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from bot.store.delivery import Claim, Delivery
from bot.store.models import ChatProfile, GameRecord, Lang, PlayerStats, Table
from engine import Command

#: what a store publishes on a chat's channel when a view's message id changed
#: (followed by the publishing process's name), beside the versions its saves publish
VIEWS_MOVED = "ids:"


def is_view(name: str) -> bool:
    """Whether a message id's name is one of the group's views (see `msgs` above)."""
    return ":" not in name


#: the finished games a chat's history keeps: the newest; an older one goes,
#: with its command log and its /replay number, when a new one comes
HISTORY_KEEP = 200


class UserPrefs(BaseModel):
    model_config = ConfigDict(hide_input_in_errors=True)  # an error names no user

    user_id: int
    lang: Lang | None = None  # chosen with /lang; None: Telegram's language
    started: bool = False  # has opened a private chat with the bot
    practices: int = 0  # practice games started
    reviews: bool = True  # a review of their own game after each game (/settings)
    offset: int | None = None  # their UTC offset in minutes (/settings); None: by language
    quiet: str = ""  # their quiet hours, local: "23-8"; "off": none; "": the default


class StoreUnavailable(Exception):
    """The store cannot be reached right now."""


class StoreFull(StoreUnavailable):
    """The store answers but refuses to write: Redis has reached its
    ``maxmemory`` (with ``noeviction``). Nothing was saved; the same write
    succeeds once there is room again."""


class StoreReadOnly(StoreFull):
    """The store answers reads but refuses every write: the Redis it reached
    is a read-only replica (a primary demoted, or a replica named by
    mistake). Nothing was saved; reads still answer."""


class StoreNoReplicas(StoreReadOnly):
    """The primary refuses every write for want of replicas in sync
    (``NOREPLICAS``: ``min-replicas-to-write``, the guard Redis's Sentinel docs
    advise against a stalled primary's writes being lost): nothing was saved,
    reads still answer — as read-only, until a replica catches up."""


#: how long a record outlives its last change: an open lobby nobody starts, a
#: finished game (kept with its players, scores and command log until then),
#: a running game nobody touches (a practice game without a clock left alone,
#: a group game whose timers stopped: every move, timeout or computer's answer
#: saves it and so starts its time again)
LOBBY_TTL = 24 * 3600
FINISHED_TTL = 7 * 24 * 3600
PLAYING_TTL = 7 * 24 * 3600
#: the longest a game waits for its next timer: a day a move at own pace, and
#: the quiet hours its deadline moves out of (`bot.service.clocks`); a game is
#: kept `PLAYING_TTL` past its next timer
LONGEST_WAIT = 2 * 24 * 3600

#: what one finished game may keep for good in its chat's history (its record,
#: its compressed command log, its /replay number and index entry): the
#: budget `tests/bot/test_memory_budget.py` holds and BENCHMARKS.md measures
GAME_BUDGET = 4096


#: the games whose rating failed that are kept to be looked at (the newest)
ASIDE_KEEP = 1000

#: how long a handled update's id is remembered: Telegram redelivers an update
#: it got no answer for within minutes (a webhook's retries, a poller restarted
#: after a kill); an hour covers that, and bounds the keys to an hour of updates
#: (~170 B each as a save makes it final, 0.61 MB per sustained update a
#: second: `benchmarks/memory.py`).
#: An update being handled is held for a short lease instead
#: (`bot.store.delivery`)
UPDATE_TTL = 3600


#: seconds a finished game's mark of being in the rating queue is kept
#: (Redis: a cut publishing run again never queues it twice): far longer than
#: any cut publishing waits to be run again
QUEUED_MARK = 7 * 24 * 3600
#: seconds after its save a finished game still unpublished is taken to have
#: been cut there (`Store.publish_finished`)
PUBLISH_AFTER = 60.0
#: unpublished finished games published at most in one look (`publish_finished`)
PUBLISH_BATCH = 20


@dataclass(frozen=True)
class KeyKind:
    """A kind of key the store writes (after ``<prefix>:``; ``<chat>`` and
    ``<uid>`` stand for ids): kept for at most `ttl` seconds after its last
    write, or (`ttl` None) for good within `bound`."""

    pattern: str
    # seconds it lives at most after its last write, or the `Store` attribute
    # that says (None: kept for good)
    ttl: str | int | None
    bound: str  # what keeps it small


#: every key the store writes, each with its time to live or its bound
KEYS: tuple[KeyKind, ...] = (
    KeyKind("{<chat>}:table", "record_ttl", "one per chat with a lobby or a game"),
    KeyKind("{<chat>}:log", "record_ttl", "the running game's commands; goes with its record"),
    KeyKind("{<chat>}:msgs", "record_ttl", "a few message ids; goes with its record"),
    KeyKind(
        "user:{<uid>}:tables",
        "record_ttl",
        "chats where the person sits; its time starts again with each seat taken",
    ),
    KeyKind(
        "update:<id>",
        UPDATE_TTL,
        "one per update handled in the last UPDATE_TTL (a lease, shorter, while handled)",
    ),
    KeyKind("claim:<name>", 24 * 3600, "one per thing done at most once a while (≤ a day)"),
    KeyKind(
        "deadlines",
        None,
        "one member per chat whose record lives, or went since its entry was last due:"
        " `due` drops a chat whose record is gone",
    ),
    KeyKind(
        "untimed",
        None,
        "one member per practice game in play without a clock: the sweep drops a chat"
        " whose record is gone",
    ),
    KeyKind("user:{<uid>}", None, "one per person who started the bot: 3 short fields"),
    KeyKind("{<chat>}:profile", None, "one per chat that changed its settings: < 1 KB"),
    KeyKind(
        "{<chat>}:history",
        None,
        "the chat's last HISTORY_KEEP games, each within GAME_BUDGET, and its counter",
    ),
    KeyKind("{<chat>}:stats", None, "one entry per player rated in the chat, one mark"),
    KeyKind("{<chat>}:subs", None, "one entry per person who asked to be called to the chat"),
    KeyKind("stats", None, "one entry per player ever rated (people, computer levels), one mark"),
    KeyKind("rating:queue", None, "the finished games not yet rated: popped as rated"),
    KeyKind(
        "rating:results:{<name>}",
        None,
        "a counter and the figures of the game being rated: gone as it is popped or set aside",
    ),
    KeyKind(
        "rating:queued:{<name>}:<chat>:<id>",
        QUEUED_MARK,
        "one per finished game queued for its rating in the last QUEUED_MARK seconds",
    ),
    KeyKind(
        "unpublished",
        None,
        "one member per finished game whose save was cut before its publishing:"
        " published and removed within PUBLISH_AFTER and the next tick",
    ),
    KeyKind("rating:aside", None, "the last ASIDE_KEEP games whose rating failed"),
    KeyKind("replay:seq", None, "one counter"),
    KeyKind("replay:index", None, "one entry per game some chat's history still keeps"),
    KeyKind("moved", None, "one entry per chat that became a supergroup"),
    KeyKind("user:{<uid>}:played", None, "one member per chat whose history has the person"),
    KeyKind("user:{<uid>}:stats", None, "one member per chat where the person has figures"),
    KeyKind("user:{<uid>}:subs", None, "one member per chat the person is called to"),
    KeyKind("user:{<uid>}:owns", None, "one member per chat whose settings the person made"),
)


class Store(ABC):
    lobby_ttl: int = LOBBY_TTL
    finished_ttl: int = FINISHED_TTL
    playing_ttl: int = PLAYING_TTL

    def ttl_of(self, table: Table) -> int:
        """Seconds the chat's game is kept after this save (every save starts it anew)."""
        if table.status == "lobby":
            return self.lobby_ttl
        if table.status == "finished":
            return self.finished_ttl
        due = table.next_timer() if table.own_pace else None
        if due is not None and due > table.updated_at:
            # a game at own pace waits up to a day and its quiet hours for a
            # move: it is kept `playing_ttl` past its next timer, so it never
            # expires while it is played, whatever its length
            return self.playing_ttl + min(int(due - table.updated_at), LONGEST_WAIT)
        return self.playing_ttl

    @property
    def record_ttl(self) -> int:
        """The longest a game's keys outlive their last write."""
        return max(self.lobby_ttl, self.finished_ttl, self.playing_ttl) + LONGEST_WAIT

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
        record expires (with its log and message ids) `ttl_of(table)` seconds
        after its last save. The log belongs to the record's `game_no`: a
        save that changes `game_no` (a new lobby in the same chat) starts a
        fresh log. A save that is made during an update's handling, while it
        holds the update's lease, makes the claim final along with it — no round
        trip of its own on one node (`bot.store.delivery`; `Delivery.final`)."""

    @abstractmethod
    async def last_game_no(self, chat_id: int) -> int:
        """The highest game number ever given in the group chat (0: none): a
        counter kept with the chat's home (for good, moved by `migrate_home`),
        raised by every `save` that brings a new game number (practice games
        excepted: nothing keeps them), so a number is never given twice in a
        chat whatever expires. A chat from before the counter starts it past
        the highest game its history holds."""

    @abstractmethod
    async def delete(self, chat_id: int) -> None:
        """Forget the chat's game: record, log, message ids and timer, and
        unlink the users seated in the record from the chat (`user_tables`)."""

    @abstractmethod
    async def log(self, chat_id: int) -> list[Command]:
        """The game's accepted commands, oldest first."""

    async def untimed_adrift(self) -> list[int]:
        """Chats of practice games without a clock (`Table.timed` off) that are
        adrift (`Table.adrift`: saved last under another Redis primary, which
        may have lost a press their player was answered). No timer comes back
        to such a game by itself, so the ticker asks this now and then and
        catches each up as a timer would. A store no rollback can reach (one
        process's memory) has none."""
        return []

    async def publish_finished(self, older_than: float = PUBLISH_AFTER) -> int:
        """Finish what a save that finished a game left undone when it was cut
        after the save (the game's /replay number, its rating queue entry, its
        players' index: written after the save where they lie apart from the
        chat's keys), for games saved more than `older_than` seconds ago; how
        many. A store whose finishing save does all of it in one step has
        nothing to finish."""
        return 0

    @abstractmethod
    async def due(self, now: float, limit: int = 100) -> list[int]:
        """Chats whose timer is at or before `now`, earliest first. A chat
        whose record has expired loses its timer here (and is not listed)."""

    @abstractmethod
    async def checks(self, now: float) -> list[int]:
        """Chats whose last save's telling check has come (by `now`,
        `Table.telling_checked_at`) since last asked: each is looked at once,
        for a prompt its process died before sending. A store may add chats
        whose timer the game moved on from; looking at them is harmless."""

    @abstractmethod
    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        """`load` and `messages` together, in one round trip. The record
        loaded is `Table.adrift` when a primary other than the store's own
        saved it last (a store with no primaries never is)."""

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
    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        """Link (or unlink) a user to a chat where they sit; a user's links go
        `record_ttl` seconds after the last one made (their records expire too)."""

    @abstractmethod
    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Move a chat's game to the chat's new id (group → supergroup): the
        record (with `chat_id` rewritten, same version and the time it has
        left to live), log, message ids, timer and the seated users' links;
        the old id is then forgotten. True also when the move was made
        already — the old id holds nothing, the new id the game moved from it
        (the update handled again): Redis then finishes what a cut left
        undone, none of it twice.
        False when there is nothing to move or the new id holds another game."""

    # ------------------------------------------------------------------ a chat's home
    @abstractmethod
    async def profile(self, chat_id: int) -> ChatProfile | None:
        """The chat's settings, or None when it never changed any."""

    @abstractmethod
    async def save_profile(self, profile: ChatProfile) -> bool:
        """Compare-and-set: store `profile` only if the stored one's version is
        still `profile.version` (0: none stored); its version then grows by
        one. False, changing nothing, when someone else saved first."""

    @abstractmethod
    async def history(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        """The chat's last finished games, newest first (`number` filled in)."""

    @abstractmethod
    async def game_by_number(self, number: int) -> tuple[GameRecord, list[Command]] | None:
        """A finished game by its /replay number, with its command log."""

    @abstractmethod
    async def game_at(self, chat_id: int, game_no: int) -> tuple[GameRecord, list[Command]] | None:
        """A finished game of a chat (an old chat id is followed to its new one)."""

    @abstractmethod
    async def rating_head(self) -> str | None:
        """The oldest finished game not yet rated (``<chat>:<game>``), or None."""

    @abstractmethod
    async def stats(self, chat_id: int | None, keys: Sequence[str] = ()) -> dict[str, PlayerStats]:
        """Players' figures in a chat (None: everywhere); `keys` empty: everyone's."""

    @abstractmethod
    async def commit_rating(
        self,
        head: str,
        chat_id: int,
        overall: Sequence[PlayerStats],
        local: Sequence[PlayerStats],
        users: Sequence[int],
    ) -> bool:
        """If `head` is still the oldest game waiting to be rated, pop it and
        write its players' new figures (everywhere and in `chat_id`), marking
        `users` as having figures in the chat: True, the game is rated once
        (by this call, or by another with figures stored first — the same,
        computed from the same figures). False, changing nothing, when it is
        no longer the head (someone else rated it first): read again.

        Redis makes it three steps of one slot each (`bot.store.redis.ratings`):
        the figures stored by the head first, then written, then the head
        popped; cut between them, the head stays with its figures stored, and
        `finish_rating` finishes it — a game is rated once, never from half
        its own figures."""

    @abstractmethod
    async def finish_rating(self, head: str) -> bool:
        """If `head` is still the queue's head and a `commit_rating` of it was
        cut short after storing its figures, finish it with those figures:
        True, rated and popped. False: nothing stored for it (rate it anew)
        or no longer the head."""

    @abstractmethod
    async def set_aside_rating(self, head: str) -> bool:
        """If `head` is still the oldest game waiting to be rated, move it to
        the games set aside (its rating failed), so the others are rated.
        False when it is no longer the head. Redis makes it two steps, the
        listing first (see `bot.store.redis.ratings`): cut between them, the game is
        on both and set aside again, never lost from both."""

    @abstractmethod
    async def set_aside(self) -> list[str]:
        """The games whose rating failed (``<chat>:<game>``), oldest first."""

    @abstractmethod
    async def stat_chats(self, user_id: int) -> set[int]:
        """Chats where the user has figures."""

    @abstractmethod
    async def subscribers(self, chat_id: int) -> dict[int, str]:
        """Who asked to be called to the chat's lobbies: user id → ``1`` or ``asked``."""

    @abstractmethod
    async def subscribe(self, chat_id: int, user_id: int, state: str | None) -> None:
        """Call the user to the chat's lobbies (`state` ``1`` or ``asked``); None: stop."""

    @abstractmethod
    async def user_chats(self, user_id: int) -> set[int]:
        """Every chat the store links to the user: where they sit, played,
        have figures, asked to be called, or made the settings."""

    @abstractmethod
    async def forget_user(self, user_id: int) -> None:
        """/forgetme: everything keyed by the user goes — preferences (language,
        «started»), subscriptions, figures, their sets of chats, their practice
        game, the «start the bot» notes about them in their chats' message ids
        — and what names them loses it: their seats in the histories of chats
        they played in, the profiles they made (no author). The records of
        games they sit in are the service's (`bot.service.forgetting`)."""

    @abstractmethod
    async def migrate_home(self, old_chat_id: int, new_chat_id: int) -> None:
        """Move the chat's profile, history, figures and subscribers to its new id."""

    #: what the store is, as /readyz names it
    kind: str = "store"
    #: makes an update's claim with its first read (`bot.store.delivery`);
    #: else the claim is made on its own before the update is handled
    claims_with_reads: bool = False

    @abstractmethod
    async def first_delivery(self, delivery: Delivery, final: bool = False) -> Claim:
        """Claim an update for handling, for every process at once: ``won``
        when its id is free (never seen within `UPDATE_TTL`, or its last lease
        ran out) — leased to `delivery` for `delivery.lease` seconds (`final`:
        made final at once, for an update already handled); ``held`` while
        another handling's lease holds it; ``done`` once it was handled."""

    @abstractmethod
    async def renew_delivery(self, delivery: Delivery) -> bool:
        """The handling still runs: its lease starts again (False: it is not
        this handling's any more, nothing changed)."""

    @abstractmethod
    async def finish_delivery(self, delivery: Delivery) -> None:
        """The update was handled: its claim is made final (kept `UPDATE_TTL`),
        unless another handling has taken it meanwhile."""

    @abstractmethod
    async def release_delivery(self, delivery: Delivery) -> None:
        """An update claimed but not handled (it failed): its lease is given
        back (if still this handling's), so a redelivery is handled."""

    @abstractmethod
    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        """Whether this is the first time `name` is done within `seconds` from
        `now` (the game clock), for every process at once: True when it is —
        never done, or the last time is `seconds` past — and it counts as done
        from `now`; False, changing nothing, while the last time holds.
        (An update's *claim* is something else: `bot.store.delivery`.)"""

    @abstractmethod
    async def ping(self) -> None:
        """Return when the store answers and has room to write; `StoreFull`
        when it answers but is full, `StoreUnavailable` when it does not
        answer (the readiness check)."""

    @abstractmethod
    async def count_games(self) -> dict[str, int]:
        """How many games there are by status (``lobby``, ``playing``,
        ``finished``), expired ones not counted (the games gauge). Walks every
        game: for a scrape every few seconds at most, never for an update."""

    @abstractmethod
    async def close(self) -> None: ...


__all__ = [
    "ASIDE_KEEP",
    "GAME_BUDGET",
    "KEYS",
    "UPDATE_TTL",
    "VIEWS_MOVED",
    "KeyKind",
    "Store",
    "StoreFull",
    "StoreNoReplicas",
    "StoreReadOnly",
    "StoreUnavailable",
    "UserPrefs",
    "is_view",
]
