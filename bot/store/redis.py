"""`Store` over Redis (redis-py asyncio). Key layout: see `bot.store`.

Round trips: `load` is one (HMGET), `save` is one (EVALSHA of a script that does
the compare-and-set, the log append and the timer in one atomic step).
`delete` and `migrate` are rare and use WATCH/MULTI, a few round trips each.

Redis Cluster: the save script touches the chat's keys (one slot: ``{<chat>}``)
*and* the global ``<prefix>:deadlines`` zset, which lives in another slot, so a
cluster would refuse it with CROSSSLOT. We keep the timer inside the script on
purpose: doing the ZADD/ZREM as a separate call after a successful CAS (even
pipelined right behind it) lets two savers' timer writes land in the opposite
order of their record writes — the zset then holds a stale time, or no time at
all, for a game that is waiting: a timer lost. On one Redis node (what we run)
the script is both correct and a single round trip. To go to a cluster, give
the chat keys a bucket tag such as ``{b<chat % 64>}`` instead of ``{<chat>}``,
keep one deadlines zset per bucket (same tag, same slot, so the script stays
atomic) and let `due` merge the buckets.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import redis.exceptions
from redis.asyncio import Redis

from bot import metrics
from bot.models import Table
from bot.store import Store, StoreUnavailable, UserPrefs
from engine import Command

# KEYS: 1 table hash, 2 log list, 3 deadlines zset, 4 message ids hash
# ARGV: 1 expected version, 2 record JSON (already carrying version + 1), 3 game_no,
#       4 chat id (the zset member), 5 timer score or "" to clear,
#       6 seconds the game's keys live on ("0": for good), 7 status (lobby, playing,
#       finished: kept beside the JSON for the games gauge), 8.. command JSONs
_SAVE_LUA = """
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[1]) then
  return 0
end
local g = redis.call('HGET', KEYS[1], 'g')
if g and g ~= ARGV[3] then
  redis.call('DEL', KEYS[2])
end
redis.call('HSET', KEYS[1], 'v', tostring(v + 1), 'data', ARGV[2], 'g', ARGV[3], 's', ARGV[7])
for i = 8, #ARGV, 500 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, i, math.min(i + 499, #ARGV)))
end
local ttl = tonumber(ARGV[6])
for k = 1, 4, 3 do
  if ttl > 0 then
    redis.call('EXPIRE', KEYS[k], ttl)
  else
    redis.call('PERSIST', KEYS[k])
  end
end
if ttl > 0 then
  redis.call('EXPIRE', KEYS[2], ttl)
else
  redis.call('PERSIST', KEYS[2])
end
if ARGV[5] == '' then
  redis.call('ZREM', KEYS[3], ARGV[4])
else
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
end
return 1
"""

# KEYS: 1 message ids hash, 2 table hash
# ARGV: 1 how many names to forget, 2.. those names, then name/id pairs to set.
# The ids live as long as the record does (a lobby or finished game expires).
# Returns the record's version.
_MESSAGES_LUA = """
local n = tonumber(ARGV[1])
if n > 0 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 2, n + 1))
end
if #ARGV > n + 1 then
  redis.call('HSET', KEYS[1], unpack(ARGV, n + 2, #ARGV))
end
local ttl = redis.call('PTTL', KEYS[2])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return tonumber(redis.call('HGET', KEYS[2], 'v') or '0')
"""

_UNAVAILABLE = (
    redis.exceptions.ConnectionError,  # includes BusyLoadingError
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)


T = TypeVar("T")


def _a(result: Awaitable[T] | T) -> Awaitable[T]:
    """redis-py types each command as sync-or-async; on the asyncio client it is async."""
    return cast(Awaitable[T], result)


def _multi(pipe: Any) -> None:
    """Start the MULTI block of a watched pipeline (redis-py leaves `multi` untyped)."""
    pipe.multi()


def _str(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _timer(table: Table) -> float | None:
    """When the chat next needs the timer: the earlier of reminder and deadline."""
    times = [t for t in (table.reminder, table.deadline) if t is not None]
    return min(times) if times else None


@contextmanager
def _guard() -> Iterator[None]:
    try:
        yield
    except _UNAVAILABLE as e:
        raise StoreUnavailable(str(e) or type(e).__name__) from e


class RedisStore(Store):
    """Works with clients built with or without ``decode_responses``."""

    def __init__(self, client: Redis, prefix: str = "smuta", *, owns_client: bool = False):
        self._r = client
        self.prefix = prefix  # every key starts with "<prefix>:"
        self._owns = owns_client
        self._save_script = client.register_script(_SAVE_LUA)
        self._messages_script = client.register_script(_MESSAGES_LUA)

    @classmethod
    def from_url(cls, url: str, prefix: str = "smuta", timeout: float = 5.0) -> RedisStore:
        """A store with its own client; `close` closes it. A Redis that stops
        answering (a network cut that sends no reset) fails a call after
        `timeout` seconds with `StoreUnavailable`, instead of hanging the update,
        or every timer, until TCP gives up (``?socket_timeout=`` in the URL wins)."""
        client = Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        return cls(client, prefix, owns_client=True)

    # keys --------------------------------------------------------------

    def _table_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:table"

    def _log_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:log"

    def _msgs_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:msgs"

    @property
    def _deadlines_key(self) -> str:
        return f"{self.prefix}:deadlines"

    def _user_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}"

    def _user_tables_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}:tables"

    # games -------------------------------------------------------------

    async def load(self, chat_id: int) -> Table | None:
        with _guard():
            v, data = await _a(self._r.hmget(self._table_key(chat_id), ["v", "data"]))
        if data is None:
            return None
        table = Table.model_validate_json(data)
        table.version = int(_str(v))
        return table

    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        with _guard():
            async with self._r.pipeline(transaction=False) as pipe:
                pipe.hmget(self._table_key(chat_id), ["v", "data"])
                pipe.hgetall(self._msgs_key(chat_id))
                (v, data), raw = await pipe.execute()
        ids = {_str(k): int(_str(m)) for k, m in raw.items()}
        if data is None:
            return None, ids
        table = Table.model_validate_json(data)
        table.version = int(_str(v))
        return table, ids

    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        chat = table.chat_id
        expected = table.version
        data = table.model_copy(update={"version": expected + 1}).model_dump_json()
        timer = _timer(table)
        args: list[str] = [
            str(expected),
            data,
            str(table.game_no),
            str(chat),
            "" if timer is None else repr(float(timer)),
            str(self.ttl_of(table) or 0),
            table.status,
            *(c.model_dump_json() for c in commands),
        ]
        keys = [
            self._table_key(chat),
            self._log_key(chat),
            self._deadlines_key,
            self._msgs_key(chat),
        ]
        with _guard():
            ok = await self._save_script(keys=keys, args=args)
        if int(ok) != 1:
            metrics.cas_conflict()
            return False
        table.version = expected + 1
        return True

    async def delete(self, chat_id: int) -> None:
        tk = self._table_key(chat_id)
        with _guard():
            async with self._r.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(tk)
                        data = await _a(pipe.hget(tk, "data"))
                        users = _seated(data)
                        _multi(pipe)
                        pipe.delete(tk, self._log_key(chat_id), self._msgs_key(chat_id))
                        pipe.zrem(self._deadlines_key, str(chat_id))
                        for uid in users:
                            pipe.srem(self._user_tables_key(uid), str(chat_id))
                        await pipe.execute()
                        return
                    except redis.exceptions.WatchError:
                        continue

    async def log(self, chat_id: int) -> list[Command]:
        with _guard():
            items = await _a(self._r.lrange(self._log_key(chat_id), 0, -1))
        return [Command.model_validate_json(item) for item in items]

    async def due(self, now: float, limit: int = 100) -> list[int]:
        if limit <= 0:
            return []
        with _guard():
            members = await _a(
                self._r.zrange(self._deadlines_key, "-inf", now, byscore=True, offset=0, num=limit)
            )
        return [int(_str(m)) for m in members]

    async def messages(self, chat_id: int) -> dict[str, int]:
        with _guard():
            raw = await _a(self._r.hgetall(self._msgs_key(chat_id)))
        return {_str(k): int(_str(v)) for k, v in raw.items()}

    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        keep = {k: str(v) for k, v in ids.items() if v is not None}
        drop = [k for k, v in ids.items() if v is None]
        args = [str(len(drop)), *drop]
        for name, value in keep.items():
            args += [name, value]
        with _guard():
            version = await self._messages_script(
                keys=[self._msgs_key(chat_id), self._table_key(chat_id)], args=args
            )
        return int(version)

    # users -------------------------------------------------------------

    async def user(self, user_id: int) -> UserPrefs:
        with _guard():
            lang, started = await _a(self._r.hmget(self._user_key(user_id), ["lang", "started"]))
        return UserPrefs.model_validate(
            {
                "user_id": user_id,
                "lang": None if lang is None else _str(lang),
                "started": started is not None and _str(started) == "1",
            }
        )

    async def save_user(self, prefs: UserPrefs) -> None:
        key = self._user_key(prefs.user_id)
        with _guard():
            async with self._r.pipeline(transaction=True) as pipe:
                if prefs.lang is None:
                    pipe.hdel(key, "lang")
                else:
                    pipe.hset(key, "lang", prefs.lang)
                pipe.hset(key, "started", "1" if prefs.started else "0")
                await pipe.execute()

    async def user_tables(self, user_id: int) -> set[int]:
        with _guard():
            members = await _a(self._r.smembers(self._user_tables_key(user_id)))
        return {int(_str(m)) for m in members}

    async def link_user(self, user_id: int, chat_id: int, linked: bool = True) -> None:
        key = self._user_tables_key(user_id)
        with _guard():
            if linked:
                await _a(self._r.sadd(key, str(chat_id)))
            else:
                await _a(self._r.srem(key, str(chat_id)))

    # group → supergroup ------------------------------------------------

    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        if old_chat_id == new_chat_id:
            return False
        old_tk, new_tk = self._table_key(old_chat_id), self._table_key(new_chat_id)
        old_lk, new_lk = self._log_key(old_chat_id), self._log_key(new_chat_id)
        old_mk, new_mk = self._msgs_key(old_chat_id), self._msgs_key(new_chat_id)
        dl = self._deadlines_key
        with _guard():
            async with self._r.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        # Watching the old record makes a save that lands while we
                        # copy abort the move (and we retry), so no move is lost.
                        await pipe.watch(old_tk, new_tk, old_lk, old_mk)
                        v, data, g, status = await _a(pipe.hmget(old_tk, ["v", "data", "g", "s"]))
                        if data is None or await _a(pipe.exists(new_tk)):
                            await cast(Any, pipe).unwatch()
                            return False
                        log = await _a(pipe.lrange(old_lk, 0, -1))
                        msgs = await _a(pipe.hgetall(old_mk))
                        timer = await _a(pipe.zscore(dl, str(old_chat_id)))
                        table = Table.model_validate_json(data)
                        table.chat_id = new_chat_id
                        table.version = int(_str(v))
                        users = _seated(data)
                        if users:
                            await pipe.watch(*(self._user_tables_key(u) for u in users))
                        linked = [
                            u
                            for u in users
                            if await _a(pipe.sismember(self._user_tables_key(u), str(old_chat_id)))
                        ]
                        _multi(pipe)
                        pipe.delete(new_lk, new_mk)
                        mapping = {"v": _str(v), "data": table.model_dump_json()}
                        if g is not None:
                            mapping["g"] = _str(g)
                        if status is not None:
                            mapping["s"] = _str(status)
                        pipe.hset(new_tk, mapping=mapping)
                        if log:
                            pipe.rpush(new_lk, *log)
                        if msgs:
                            pipe.hset(new_mk, mapping=msgs)
                        pipe.zrem(dl, str(old_chat_id))
                        if timer is not None:
                            pipe.zadd(dl, {str(new_chat_id): timer})
                        for u in linked:
                            pipe.srem(self._user_tables_key(u), str(old_chat_id))
                            pipe.sadd(self._user_tables_key(u), str(new_chat_id))
                        pipe.delete(old_tk, old_lk, old_mk)
                        await pipe.execute()
                        return True
                    except redis.exceptions.WatchError:
                        continue

    # health -----------------------------------------------------------

    async def ping(self) -> None:
        with _guard():
            await _a(self._r.ping())

    async def count_games(self) -> dict[str, int]:
        """SCANs the game records (``<prefix>:{*}:table``, 1000 keys a step) and
        reads each one's status; a record saved before statuses were kept
        beside it is read whole, once, until its next save."""
        counts: dict[str, int] = {}
        pattern = f"{self.prefix}:{{*}}:table"
        with _guard():
            batch: list[Any] = []
            async for key in self._r.scan_iter(match=pattern, count=1000):
                batch.append(key)
                if len(batch) >= 1000:
                    await self._count(batch, counts)
                    batch = []
            if batch:
                await self._count(batch, counts)
        return counts

    async def _count(self, keys: list[Any], counts: dict[str, int]) -> None:
        async with self._r.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, "s")
            found = await pipe.execute()
        legacy = [k for k, s in zip(keys, found, strict=True) if s is None]
        for s in found:
            if s is not None:
                counts[_str(s)] = counts.get(_str(s), 0) + 1
        if legacy:
            async with self._r.pipeline(transaction=False) as pipe:
                for key in legacy:
                    pipe.hget(key, "data")
                for data in await pipe.execute():
                    if data is not None:  # expired meanwhile: not counted
                        status = Table.model_validate_json(data).status
                        counts[status] = counts.get(status, 0) + 1

    async def close(self) -> None:
        if self._owns:
            with _guard():
                await self._r.aclose()


def _seated(data: Any) -> list[int]:
    """User ids of every seat in a stored record (JSON), empty when there is none."""
    if data is None:
        return []
    table = Table.model_validate_json(data)
    return sorted({s.user_id for s in table.seats if s.user_id is not None})


__all__ = ["RedisStore"]
