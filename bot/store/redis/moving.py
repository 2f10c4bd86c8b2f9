"""A group become a supergroup: its game moved to the new chat id
(`Moving.migrate`, copy-then-delete, each step a script on one chat's slot)
and its home — settings, history, figures, subscribers — with it
(`Moving.migrate_home`)."""

from __future__ import annotations

from typing import Any

from bot.store.models import ChatProfile, GameRecord, Table
from bot.store.packing import record_json, seated_users
from bot.store.redis.base import RedisBase
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors
from bot.store.redis.scripts import lua


class Moving(RedisBase):
    """A chat's game and home moved to its new id."""

    @claimed_first
    async def migrate(self, old_chat_id: int, new_chat_id: int) -> bool:
        """Copy-then-delete, each step on one slot (Redis Cluster), four round
        trips:

        1. read the old record — version v, JSON, log, message ids, time left —
           and the new id's record, in one pipeline of one-slot reads;
        2. copy it under the new id (``copy.lua``, on the new chat's slot),
           marked as a copy from the old chat at version v;
        3. delete the old keys (``drop.lua``, on the old chat's slot) only if
           the old record is still at v with the message ids read — else back
           to 1, and the copy (nobody played on it) is written anew;
        4. the timer and the seated people's links, one pipeline: the timers'
           index lowered to the new record's timer (as a save does: a save
           there meanwhile lowers it for its own), each person's link moved
           in their own set; the old id's entry is `due`'s to take out.

        No acknowledged move is lost: a save that lands on the old id after 1
        changes its version, so 3 refuses and the move starts again with it; a
        save after 3 finds no record at the version it expects and is refused
        (a button of the old group finds no game there). The one loss left:
        the old and the new id both saved within the same round trip of a move
        (a late press in the old group, a press in the new one): the copy
        played on is kept, the old id's later save dropped.

        A cut between two steps leaves play going on, and the update handled
        again (`bot.store.delivery`: a redelivery after a kill) finishes the
        move — none of it done twice:
        - after 2: both records. The old one is still the game (its timer
          fires there, the new id has none yet, so nothing acts twice); the
          new id shows it too. Moving again rewrites the copy from the old
          one (or keeps it, if it was played on), then goes on with 3.
        - after 3: the copy alone, no timer under the new id yet (the old
          one's is dropped by `due`: its record is gone). Moving again finds
          the old id empty and the new id's record a copy from it: it does
          4 and answers True, as the first time.
        - inside 4: each command is of one key — the new id's timer in the
          index or not yet; a link moved or not (a link to a gone game is
          skipped by whoever reads it). Moving again does 4 anew.

        The copy keeps the record's version, its ``g``, ``s`` and ``r`` (its
        versions go on from where they were) and the time it has left.
        False when there is nothing to move, or the new id holds another game."""
        if old_chat_id == new_chat_id:
            return False
        while True:
            old, new = await self._migrate_read(old_chat_id, new_chat_id)
            if old is None:
                # nothing at the old id: moved already (a cut after its delete,
                # or the update handled again) — or never anything to move
                if new is None or new[2] != str(old_chat_id):
                    return False
                now = new[0], new[1]
                users = seated_users(now[1])
                break
            copied = await self._migrate_copy(old_chat_id, new_chat_id, old)
            if copied is None:
                return False
            if await self._migrate_drop(old_chat_id, old):
                now = copied
                users = seated_users(old["data"])
                break
        await self._migrate_links_and_timer(old_chat_id, new_chat_id, now, users)
        return True

    async def _migrate_read(
        self, old_chat_id: int, new_chat_id: int
    ) -> tuple[dict[str, Any] | None, tuple[int, str | bytes, str | None] | None]:
        """Step 1: the old record (None: none) and the new id's (version,
        JSON, ``from``; None: none), in one round trip of one-slot reads."""
        old_tk = self._table_key(old_chat_id)
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                pipe.hmget(old_tk, ["v", "data", "g", "s", "r"])
                pipe.lrange(self._log_key(old_chat_id), 0, -1)
                pipe.hgetall(self._msgs_key(old_chat_id))
                pipe.pttl(old_tk)  # ms; < 0: none
                pipe.hmget(self._table_key(new_chat_id), ["v", "data", "from"])
                (
                    (v, data, g, status, primary),
                    log,
                    msgs,
                    left,
                    (nv, ndata, origin),
                ) = await pipe.execute()
        new = None
        if ndata is not None:
            new = (int(as_str(nv or "0")), ndata, None if origin is None else as_str(origin))
        if data is None:
            return None, new
        old = {
            "v": int(as_str(v or "0")),
            "data": data,  # as kept: compressed (`Table.to_stored`)
            "g": "" if g is None else as_str(g),
            "s": "" if status is None else as_str(status),
            "r": "" if primary is None else as_str(primary),
            "log": [as_str(line) for line in log],
            "msgs": {as_str(k): as_str(m) for k, m in msgs.items()},
            "left": int(left),
        }
        return old, new

    async def _migrate_copy(
        self, old_chat_id: int, new_chat_id: int, old: dict[str, Any]
    ) -> tuple[int, str | bytes] | None:
        """Step 2 (``copy.lua``): the new id's record after it (version, the record as kept);
        None when the new id holds another game."""
        table = Table.from_json(old["data"])
        table.chat_id = new_chat_id
        table.version = old["v"]
        msgs: dict[str, str] = old["msgs"]
        args = [
            str(old_chat_id),
            str(old["v"]),
            table.to_stored(),
            old["g"],
            old["s"],
            old["r"],
            str(old["left"]),
            str(len(msgs)),
            *(x for pair in msgs.items() for x in pair),
            *old["log"],
        ]
        keys = [
            self._table_key(new_chat_id),
            self._log_key(new_chat_id),
            self._msgs_key(new_chat_id),
        ]
        with store_errors():
            got = await self._copy_script(keys=keys, args=args)
        if int(got[0]) == 0:
            return None
        return int(as_str(got[1])), got[2]

    async def _migrate_drop(self, old_chat_id: int, old: dict[str, Any]) -> bool:
        """Step 3 (``drop.lua``): the old keys deleted if the old record is
        still the one copied; False: it moved on."""
        msgs: dict[str, str] = old["msgs"]
        keys = [
            self._table_key(old_chat_id),
            self._log_key(old_chat_id),
            self._msgs_key(old_chat_id),
        ]
        args = [str(old["v"]), *(x for pair in msgs.items() for x in pair)]
        with store_errors():
            return int(await self._drop_script(keys=keys, args=args)) == 1

    async def _migrate_links_and_timer(
        self, old_chat_id: int, new_chat_id: int, now: tuple[int, str | bytes], users: list[int]
    ) -> None:
        """Step 4: one pipeline of one-key commands — the timers' index lowered
        to the new record's timer (as a save does, after the record it
        follows: a save since lowers it for its own), and each person's link
        moved (``relink.lua``). The old id's entry is left to `due`, which
        takes out an entry whose record is gone."""
        timer = Table.from_json(now[1]).next_timer()
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                if timer is not None:
                    pipe.zadd(self._deadlines_key, {str(new_chat_id): timer}, lt=True)
                for uid in users:
                    pipe.eval(
                        lua("relink"),
                        1,
                        self._user_tables_key(uid),
                        str(old_chat_id),
                        str(new_chat_id),
                    )
                await pipe.execute()

    # a chat's home -----------------------------------------------------

    @claimed_first
    async def migrate_home(self, old_chat_id: int, new_chat_id: int) -> None:
        """The chat's home copied under its new id, then the global maps told,
        then the old copy deleted — in one round trip, a step a key or a
        chat's keys (Redis Cluster: no step spans slots), in that order: a
        cut between steps leaves the old home beside a copy, never neither,
        and the update asked again (its claim given back) copies it anew."""
        if old_chat_id == new_chat_id:
            return
        old, new = old_chat_id, new_chat_id
        with store_errors():
            profile = await awaited(self._r.get(self._profile_key(old)))
            history = {
                as_str(k): as_str(v)
                for k, v in (await awaited(self._r.hgetall(self._history_key(old)))).items()
            }
            stats = await awaited(self._r.hgetall(self._stats_key(old)))
            subs = await awaited(self._r.hgetall(self._subs_key(old)))
            users: set[int] = {int(as_str(u)) for u in subs}
            for field, raw in list(history.items()):
                if field.startswith("r:"):
                    record = GameRecord.model_validate_json(raw)
                    record.chat_id = new
                    history[field] = record_json(record)
                    users |= {s.user_id for s in record.seats if s.user_id is not None}
            async with self._r.pipeline(transaction=False) as pipe:
                if profile is not None:
                    moved = ChatProfile.model_validate_json(profile)
                    moved.chat_id = new
                    pipe.set(self._profile_key(new), moved.model_dump_json())
                if history:
                    pipe.hset(self._history_key(new), mapping=history)
                if stats:
                    pipe.hset(self._stats_key(new), mapping=stats)
                if subs:
                    pipe.hset(self._subs_key(new), mapping=subs)
                numbers = {
                    value: f"{new}:{field[2:]}"
                    for field, value in history.items()
                    if field.startswith("n:")
                }
                if numbers:
                    pipe.hset(f"{self.prefix}:replay:index", mapping=numbers)
                pipe.hset(f"{self.prefix}:moved", str(old), str(new))
                pipe.delete(
                    self._profile_key(old),
                    self._history_key(old),
                    self._stats_key(old),
                    self._subs_key(old),
                )
                await pipe.execute()
            # the sets: the old chat's id becomes the new one's, where it was
            for u in users:
                for kind in ("played", "stats", "subs"):
                    key = self._user_set_key(u, kind)
                    if await awaited(self._r.srem(key, str(old))):
                        await awaited(self._r.sadd(key, str(new)))
