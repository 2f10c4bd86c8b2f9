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

from bot.ops import metrics
from bot.store import ASIDE_KEEP, HISTORY_KEEP, UPDATE_TTL, Store, UserPrefs, is_view
from bot.store.delivery import DONE, Claim, Delivery
from bot.store.delivery import current as current_delivery
from bot.store.models import ChatProfile, GameRecord, PlayerStats, Table, record_of
from bot.store.packing import (
    command_of,
    log_line,
    pack_log,
    record_json,
    seated_users,
    unpack_log,
    without_user,
)
from engine import Command

T = TypeVar("T")


@dataclass
class _Record:
    version: int
    data: bytes  # the Table as stored (`Table.to_stored`), carrying `version`
    game_no: int
    status: str  # the Table's status (for the games gauge)


class MemoryStore(Store):
    kind = "memory"

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._expires: dict[int, float] = {}  # chat → when its lobby or finished game goes
        self._tables: dict[int, _Record] = {}
        self._logs: dict[int, list[str]] = {}
        self._msgs: dict[int, dict[str, int]] = {}
        self._timers: dict[int, float] = {}
        #: each running game's telling check (`Table.telling_checked_at`), till `checks`
        self._telling_checks: dict[int, float] = {}
        self._users: dict[int, str] = {}  # UserPrefs JSON
        self._links: dict[int, set[int]] = {}
        self._links_expire: dict[int, float] = {}  # user → when their links go
        # a chat's home: kept for good
        self._profiles: dict[int, str] = {}
        self._history: dict[int, dict[str, str]] = {}  # chat → r:/l:/n:<game> → text
        self._replays: dict[int, str] = {}  # /replay number → "<chat>:<game>"
        self._replay_seq = 0  # the last /replay number given (numbers are never reused)
        self._stats: dict[int | None, dict[str, str]] = {}  # chat (None: everywhere) → key → JSON
        self._queue: list[str] = []  # games waiting to be rated
        self._aside: list[str] = []  # games whose rating failed
        self._subs: dict[int, dict[int, str]] = {}
        self._user_sets: dict[tuple[int, str], set[int]] = {}  # (user, played|stats|subs) → chats
        self._moved: dict[int, int] = {}
        # a chat's record moved there from another chat (`migrate`) → that
        # chat, as long as the record lives (Redis: its ``from`` field)
        self._copied_from: dict[int, int] = {}
        # update id → (the lease's token, or ``done``; when that is over)
        self._updates: dict[int, tuple[str, float]] = {}
        self._claims: dict[str, float] = {}  # name → when its claim is over (game clock)
        self._claims_now = 0.0  # the game clock at the last claim
        # called with (chat, new version) after each successful save: the
        # in-process stand-in for Redis's pub/sub (the Mini App's live views)
        self.saved: list[Callable[[int, int], None]] = []
        # called with the chat after a view's message id changed (`bot.store.is_view`)
        self.views_moved: list[Callable[[int], None]] = []

    def _expire(self, chat_id: int) -> None:
        """Forget a game whose time is up (Redis: key expiry)."""
        until = self._expires.get(chat_id)
        if until is not None and until <= self._clock():
            del self._expires[chat_id]
            self._tables.pop(chat_id, None)
            self._copied_from.pop(chat_id, None)
            self._logs.pop(chat_id, None)
            self._msgs.pop(chat_id, None)

    async def load(self, chat_id: int) -> Table | None:
        await asyncio.sleep(0)
        self._expire(chat_id)
        rec = self._tables.get(chat_id)
        if rec is None:
            return None
        table = Table.from_json(rec.data)
        table.version = rec.version
        return table

    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        chat = table.chat_id
        expected = table.version
        data = table.model_copy(update={"version": expected + 1}).to_stored()
        lines = [log_line(c) for c in commands]
        timer = table.next_timer()
        await asyncio.sleep(0)
        # from here to the end: no await, so nothing interleaves
        self._expire(chat)
        rec = self._tables.get(chat)
        if (0 if rec is None else rec.version) != expected:
            metrics.cas_conflict()
            return False
        if rec is not None and rec.game_no != table.game_no:
            self._logs.pop(chat, None)  # a new game in this chat starts a fresh log
        if not table.practice and (rec is None or rec.game_no != table.game_no):
            history = self._history.setdefault(chat, {})
            history["last"] = str(max(self._last_game_no(chat), table.game_no))
        self._tables[chat] = _Record(expected + 1, data, table.game_no, table.status)
        if lines:
            self._logs.setdefault(chat, []).extend(lines)
        record = record_of(table)
        if record is not None:
            self._keep(record, self._logs.get(chat, []))
        if timer is None:
            self._timers.pop(chat, None)
        else:
            self._timers[chat] = float(timer)
        check = table.telling_checked_at()
        if check is None:
            self._telling_checks.pop(chat, None)
        else:
            self._telling_checks[chat] = check
        self._expires[chat] = self._clock() + self.ttl_of(table)
        delivery = current_delivery()
        if delivery is not None and delivery.finishable:  # as Redis: with the save
            self._finish(delivery)
            delivery.final = True
        table.version = expected + 1
        for listener in self.saved:
            listener(chat, expected + 1)
        return True

    def _last_game_no(self, chat_id: int) -> int:
        history = self._history.get(chat_id, {})
        if "last" in history:
            return int(history["last"])
        return max((int(k[2:]) for k in history if k.startswith("r:")), default=0)

    async def last_game_no(self, chat_id: int) -> int:
        await asyncio.sleep(0)
        return self._last_game_no(chat_id)

    async def delete(self, chat_id: int) -> None:
        await asyncio.sleep(0)
        rec = self._tables.pop(chat_id, None)
        self._copied_from.pop(chat_id, None)
        self._logs.pop(chat_id, None)
        self._msgs.pop(chat_id, None)
        self._timers.pop(chat_id, None)
        self._expires.pop(chat_id, None)
        if rec is not None:
            for uid in seated_users(rec.data):
                self._links.get(uid, set()).discard(chat_id)

    async def log(self, chat_id: int) -> list[Command]:
        await asyncio.sleep(0)
        self._expire(chat_id)
        return [command_of(line) for line in self._logs.get(chat_id, [])]

    async def due(self, now: float, limit: int = 100) -> list[int]:
        await asyncio.sleep(0)
        if limit <= 0:
            return []
        for chat in [c for c, t in self._timers.items() if t <= now]:
            self._expire(chat)
            if chat not in self._tables:  # its record expired: its timer goes too
                del self._timers[chat]
        # Redis orders equal scores by member (as a string): do the same
        ready = sorted(
            ((t, str(chat), chat) for chat, t in self._timers.items() if t <= now),
        )
        return [chat for _, _, chat in ready[:limit]]

    async def checks(self, now: float) -> list[int]:
        await asyncio.sleep(0)
        come = [chat for chat, at in self._telling_checks.items() if at <= now]
        for chat in come:
            del self._telling_checks[chat]
        return come

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
        if rec is None:  # no record to live as long as: they expire on their own
            self._expires[chat_id] = self._clock() + self.record_ttl
        if any(is_view(name) for name in ids):
            for listener in self.views_moved:
                listener(chat_id)
        return rec.version if rec is not None else 0

    async def user(self, user_id: int) -> UserPrefs:
        await asyncio.sleep(0)
        raw = self._users.get(user_id)
        return UserPrefs(user_id=user_id) if raw is None else UserPrefs.model_validate_json(raw)

    async def save_user(self, prefs: UserPrefs) -> None:
        await asyncio.sleep(0)
        self._users[prefs.user_id] = prefs.model_dump_json()

    def _expire_links(self, user_id: int) -> None:
        until = self._links_expire.get(user_id)
        if until is not None and until <= self._clock():
            del self._links_expire[user_id]
            self._links.pop(user_id, None)

    async def user_tables(self, user_id: int) -> set[int]:
        await asyncio.sleep(0)
        self._expire_links(user_id)
        return set(self._links.get(user_id, set()))

    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        await asyncio.sleep(0)
        self._expire_links(user_id)
        if linked:
            self._links.setdefault(user_id, set()).add(chat_id)
            self._links_expire[user_id] = self._clock() + self.record_ttl
        else:
            self._links.get(user_id, set()).discard(chat_id)

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        await asyncio.sleep(0)
        self._expire(old_chat_id)
        self._expire(new_chat_id)
        rec = self._tables.get(old_chat_id)
        if old_chat_id == new_chat_id:
            return False
        if rec is None:
            # moved already (the update handled again): done, as the first time
            # — Redis answers so too, finishing a move a cut left half made
            return self._copied_from.get(new_chat_id) == old_chat_id and (
                new_chat_id in self._tables
            )
        if new_chat_id in self._tables:
            return False
        table = Table.from_json(rec.data)
        table.chat_id = new_chat_id
        self._tables[new_chat_id] = _Record(rec.version, table.to_stored(), rec.game_no, rec.status)
        del self._tables[old_chat_id]
        self._copied_from.pop(old_chat_id, None)
        self._copied_from[new_chat_id] = old_chat_id
        _move(self._logs, old_chat_id, new_chat_id)
        _move(self._msgs, old_chat_id, new_chat_id)
        _move(self._timers, old_chat_id, new_chat_id)
        _move(self._expires, old_chat_id, new_chat_id)  # the record keeps its time
        for uid in seated_users(rec.data):
            links = self._links.get(uid, set())
            if old_chat_id in links:
                links.discard(old_chat_id)
                links.add(new_chat_id)
        return True

    # ------------------------------------------------------------------ a chat's home
    def _keep(self, record: GameRecord, log: list[str]) -> None:
        """The finishing save's second half: the game into its chat's history,
        once, and the games beyond the last `HISTORY_KEEP` out of it (no
        await: atomic with the compare-and-set)."""
        chat, game = record.chat_id, record.game_no
        history = self._history.setdefault(chat, {})
        if f"r:{game}" in history:
            return
        self._replay_seq += 1
        number = self._replay_seq
        history[f"r:{game}"] = record_json(record)
        history[f"l:{game}"] = pack_log(log)
        history[f"n:{game}"] = str(number)
        self._replays[number] = f"{chat}:{game}"
        games = sorted(int(k[2:]) for k in history if k.startswith("r:"))
        for old in games[: max(0, len(games) - HISTORY_KEEP)]:
            dropped = history.pop(f"n:{old}", None)
            history.pop(f"r:{old}", None)
            history.pop(f"l:{old}", None)
            if dropped is not None:
                self._replays.pop(int(dropped), None)
        if record.counted:
            self._queue.append(f"{chat}:{game}")
        for seat in record.seats:
            if seat.user_id is not None:
                self._user_sets.setdefault((seat.user_id, "played"), set()).add(chat)

    def _where(self, chat_id: int) -> int:
        seen = set()
        while chat_id in self._moved and chat_id not in seen:
            seen.add(chat_id)
            chat_id = self._moved[chat_id]
        return chat_id

    async def profile(self, chat_id: int) -> ChatProfile | None:
        await asyncio.sleep(0)
        raw = self._profiles.get(chat_id)
        return None if raw is None else ChatProfile.model_validate_json(raw)

    async def save_profile(self, profile: ChatProfile) -> bool:
        data = profile.model_copy(update={"version": profile.version + 1}).model_dump_json()
        await asyncio.sleep(0)
        raw = self._profiles.get(profile.chat_id)
        stored = 0 if raw is None else ChatProfile.model_validate_json(raw).version
        if stored != profile.version:
            metrics.cas_conflict()
            return False
        self._profiles[profile.chat_id] = data
        if profile.owner_id is not None:
            self._user_sets.setdefault((profile.owner_id, "owns"), set()).add(profile.chat_id)
        profile.version += 1
        return True

    def _record(self, chat: int, game: int) -> GameRecord | None:
        history = self._history.get(chat, {})
        raw = history.get(f"r:{game}")
        if raw is None:
            return None
        record = GameRecord.model_validate_json(raw)
        record.number = int(history.get(f"n:{game}", "0"))
        return record

    async def history(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        await asyncio.sleep(0)
        games = sorted(
            (int(k[2:]) for k in self._history.get(chat_id, {}) if k.startswith("r:")),
            reverse=True,
        )
        return [r for g in games[:limit] if (r := self._record(chat_id, g)) is not None]

    async def game_at(self, chat_id: int, game_no: int) -> tuple[GameRecord, list[Command]] | None:
        await asyncio.sleep(0)
        chat = self._where(chat_id)
        record = self._record(chat, game_no)
        if record is None:
            return None
        return record, unpack_log(self._history[chat].get(f"l:{game_no}", ""))

    async def game_by_number(self, number: int) -> tuple[GameRecord, list[Command]] | None:
        ref = self._replays.get(number)
        if ref is None:
            await asyncio.sleep(0)
            return None
        chat, game = ref.split(":")
        return await self.game_at(int(chat), int(game))

    async def rating_head(self) -> str | None:
        await asyncio.sleep(0)
        return self._queue[0] if self._queue else None

    async def stats(self, chat_id: int | None, keys: Sequence[str] = ()) -> dict[str, PlayerStats]:
        await asyncio.sleep(0)
        kept = self._stats.get(chat_id, {})
        wanted = list(keys) if keys else list(kept)
        return {k: PlayerStats.model_validate_json(kept[k]) for k in wanted if k in kept}

    async def commit_rating(
        self,
        head: str,
        chat_id: int,
        overall: Sequence[PlayerStats],
        local: Sequence[PlayerStats],
        users: Sequence[int],
    ) -> bool:
        data: list[tuple[int | None, str, str]] = [
            (None, p.key, p.model_dump_json()) for p in overall
        ]
        data += [(chat_id, p.key, p.model_dump_json()) for p in local]
        await asyncio.sleep(0)
        # from here on: no await, so nothing interleaves
        if not self._queue or self._queue[0] != head:
            return False
        self._queue.pop(0)
        for scope, key, raw in data:
            self._stats.setdefault(scope, {})[key] = raw
        for uid in users:
            self._user_sets.setdefault((uid, "stats"), set()).add(chat_id)
        return True

    async def finish_rating(self, head: str) -> bool:
        await asyncio.sleep(0)
        return False  # `commit_rating` is one step here: never cut short

    async def set_aside_rating(self, head: str) -> bool:
        await asyncio.sleep(0)
        if not self._queue or self._queue[0] != head:
            return False
        self._aside.append(self._queue.pop(0))
        del self._aside[:-ASIDE_KEEP]
        return True

    async def set_aside(self) -> list[str]:
        await asyncio.sleep(0)
        return list(self._aside)

    async def stat_chats(self, user_id: int) -> set[int]:
        await asyncio.sleep(0)
        return set(self._user_sets.get((user_id, "stats"), set()))

    async def subscribers(self, chat_id: int) -> dict[int, str]:
        await asyncio.sleep(0)
        return dict(self._subs.get(chat_id, {}))

    async def subscribe(self, chat_id: int, user_id: int, state: str | None) -> None:
        await asyncio.sleep(0)
        subs = self._user_sets.setdefault((user_id, "subs"), set())
        if state is None:
            self._subs.get(chat_id, {}).pop(user_id, None)
            subs.discard(chat_id)
        else:
            self._subs.setdefault(chat_id, {})[user_id] = state
            subs.add(chat_id)

    async def user_chats(self, user_id: int) -> set[int]:
        await asyncio.sleep(0)
        chats = set(self._links.get(user_id, set()))
        for kind in ("played", "stats", "subs", "owns"):
            chats |= self._user_sets.get((user_id, kind), set())
        return chats

    async def forget_user(self, user_id: int) -> None:
        chats = await self.user_chats(user_id)
        await self.delete(user_id)  # their practice game (its chat is theirs)
        self._links.pop(user_id, None)
        self._links_expire.pop(user_id, None)
        self._user_sets.pop((user_id, "owns"), None)
        for chat_id in chats:
            kept = self._msgs.get(chat_id)
            if kept is not None:
                kept.pop(f"unreachable:{user_id}", None)
            raw = self._profiles.get(chat_id)
            if raw is not None:
                profile = ChatProfile.model_validate_json(raw)
                if profile.owner_id == user_id:
                    profile.owner_id = None
                    self._profiles[chat_id] = profile.model_dump_json()
        self._users.pop(user_id, None)
        for chat in self._user_sets.pop((user_id, "subs"), set()):
            self._subs.get(chat, {}).pop(user_id, None)
        key = f"u{user_id}"
        self._stats.get(None, {}).pop(key, None)
        for chat in self._user_sets.pop((user_id, "stats"), set()):
            self._stats.get(chat, {}).pop(key, None)
        for chat in self._user_sets.pop((user_id, "played"), set()):
            history = self._history.get(chat, {})
            for field, raw in list(history.items()):
                if field.startswith("r:"):
                    scrubbed = without_user(raw, user_id)
                    if scrubbed is not None:
                        history[field] = scrubbed

    async def migrate_home(self, old_chat_id: int, new_chat_id: int) -> None:
        await asyncio.sleep(0)
        if old_chat_id == new_chat_id:
            return
        old, new = old_chat_id, new_chat_id
        if old in self._profiles:
            profile = ChatProfile.model_validate_json(self._profiles.pop(old))
            profile.chat_id = new
            self._profiles[new] = profile.model_dump_json()
        history = self._history.pop(old, {})
        for field, raw in list(history.items()):
            if field.startswith("r:"):
                record = GameRecord.model_validate_json(raw)
                record.chat_id = new
                history[field] = record_json(record)
        self._history.setdefault(new, {}).update(history)
        for number, ref in list(self._replays.items()):
            if ref.split(":")[0] == str(old):
                self._replays[number] = f"{new}:{ref.split(':')[1]}"
        if old in self._stats:
            self._stats.setdefault(new, {}).update(self._stats.pop(old))
        if old in self._subs:
            self._subs.setdefault(new, {}).update(self._subs.pop(old))
        for chats in self._user_sets.values():
            if old in chats:
                chats.discard(old)
                chats.add(new)
        self._moved[old] = new

    async def first_delivery(self, delivery: Delivery, final: bool = False) -> Claim:
        await asyncio.sleep(0)
        now = self._clock()
        if len(self._updates) > 1024:  # the expired go (Redis: key expiry)
            self._updates = {u: h for u, h in self._updates.items() if h[1] > now}
        holder, until = self._updates.get(delivery.update_id, ("", 0.0))
        if until > now:
            return "done" if holder == DONE else "held"
        if final:
            self._updates[delivery.update_id] = (DONE, now + UPDATE_TTL)
        else:
            self._updates[delivery.update_id] = (delivery.token, now + delivery.lease)
        return "won"

    def _holds(self, delivery: Delivery) -> bool:
        holder, until = self._updates.get(delivery.update_id, ("", 0.0))
        return holder == delivery.token and until > self._clock()

    async def renew_delivery(self, delivery: Delivery) -> bool:
        await asyncio.sleep(0)
        if not self._holds(delivery):
            return False
        self._updates[delivery.update_id] = (delivery.token, self._clock() + delivery.lease)
        return True

    async def finish_delivery(self, delivery: Delivery) -> None:
        await asyncio.sleep(0)
        self._finish(delivery)

    def _finish(self, delivery: Delivery) -> None:
        holder, until = self._updates.get(delivery.update_id, ("", 0.0))
        if holder == delivery.token or until <= self._clock():  # ours, or nobody's
            self._updates[delivery.update_id] = (DONE, self._clock() + UPDATE_TTL)

    async def release_delivery(self, delivery: Delivery) -> None:
        await asyncio.sleep(0)
        if self._holds(delivery):
            del self._updates[delivery.update_id]

    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        await asyncio.sleep(0)
        if len(self._claims) > 1024:  # the claims that are over go (Redis: key expiry)
            self._claims = {k: t for k, t in self._claims.items() if t > now}
        if self._claims.get(name, float("-inf")) > now:
            return False
        self._claims[name] = now + seconds
        self._claims_now = now  # the claims' clock (the game's), for `inventory`
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

    def inventory(self, prefix: str = "smuta") -> dict[str, tuple[float | None, int]]:
        """What the store holds, named as `RedisStore` names its keys: key →
        (seconds it has left, None: kept for good; how many entries it holds:
        a hash's fields, a set's members, a list's items, 1 for a value)."""
        now = self._clock()
        for chat_id in list(self._expires):
            self._expire(chat_id)
        for user_id in list(self._links_expire):
            self._expire_links(user_id)
        found: dict[str, tuple[float | None, int]] = {}

        def add(key: str, entries: int, until: float | None = None) -> None:
            if entries:
                found[f"{prefix}:{key}"] = (None if until is None else until - now, entries)

        for chat in self._tables:
            add(f"{{{chat}}}:table", 4, self._expires.get(chat))
        for chat, lines in self._logs.items():
            add(f"{{{chat}}}:log", len(lines), self._expires.get(chat))
        for chat, ids in self._msgs.items():
            add(f"{{{chat}}}:msgs", len(ids), self._expires.get(chat))
        add("deadlines", len(self._timers))
        for uid in self._users:
            add(f"user:{{{uid}}}", 3)
        for uid, chats in self._links.items():
            add(f"user:{{{uid}}}:tables", len(chats), self._links_expire.get(uid))
        for chat in self._profiles:
            add(f"{{{chat}}}:profile", 1)
        for chat, history in self._history.items():
            add(f"{{{chat}}}:history", len(history))
        for scope, stats in self._stats.items():
            add("stats" if scope is None else f"{{{scope}}}:stats", len(stats))
        add("rating:queue", len(self._queue))
        add("replay:seq", 1 if self._replay_seq else 0)
        add("replay:index", len(self._replays))
        for chat, subs in self._subs.items():
            add(f"{{{chat}}}:subs", len(subs))
        for (uid, kind), chats in self._user_sets.items():
            add(f"user:{{{uid}}}:{kind}", len(chats))
        add("moved", len(self._moved))
        add("rating:aside", len(self._aside))
        for update_id, (_, until) in self._updates.items():
            if until > now:
                add(f"update:{update_id}", 1, until)
        for name, over in self._claims.items():
            if over > self._claims_now:
                found[f"{prefix}:claim:{name}"] = (over - self._claims_now, 1)
        return found

    async def close(self) -> None:
        return None


def _move(items: dict[int, T], old: int, new: int) -> None:
    items.pop(new, None)
    if old in items:
        items[new] = items.pop(old)


__all__ = ["MemoryStore"]
