"""A chat's game: its record (compare-and-set on its version, `Games.save`),
its log, its message ids, and its end (`Games.delete`).

Round trips: `load` is one (HMGET; `load_with_messages` a read-only script
that also says whether another primary saved the record, `Table.adrift`),
`save` is one (EVALSHA of a script that does the compare-and-set and the log
append in one atomic step, with the timers' index and the update's claim
sent behind it in the same round trip) — the save that finishes a game four:
it first reads the game's log (at the version it expects) to pack it for the
history (`bot.store.packing`), and after the save publishes the game outside
its chat (`History._publish`: its /replay number, rating queue entry and
players' index, one slot a step). `delete` is a script.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from bot.ops import metrics
from bot.store import HISTORY_KEEP, VIEWS_MOVED, StoreUnavailable, is_view
from bot.store.delivery import current as current_delivery
from bot.store.models import Table, record_of
from bot.store.packing import command_of, log_line, pack_log, record_json, seated_users
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors
from bot.store.redis.history import History
from bot.store.redis.scripts import lua
from bot.store.redis.updates import Updates
from engine import Command

log = logging.getLogger(__name__)


class Games(History, Updates):
    """A chat's record, log and message ids. A finishing save publishes its
    game (`History`); a save makes the update's claim final (`Updates`)."""

    async def load(self, chat_id: int) -> Table | None:
        [(v, data)] = await self._read(lambda p: p.hmget(self._table_key(chat_id), ["v", "data"]))
        if data is None:
            return None
        table = Table.from_json(data)
        table.version = int(as_str(v))
        return table

    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        got, raw = await self._read(
            lambda p: p.eval(lua("load"), 1, self._table_key(chat_id)),
            lambda p: p.hgetall(self._msgs_key(chat_id)),
        )
        ids = {as_str(k): int(as_str(m)) for k, m in raw.items()}
        if not got:
            return None, ids
        v, data, adrift = got
        table = Table.from_json(data)
        table.version = int(as_str(v))
        table.adrift = int(adrift) == 1
        return table, ids

    @claimed_first
    async def save(self, table: Table, commands: Sequence[Command] = ()) -> bool:
        chat = table.chat_id
        expected = table.version
        data = table.model_copy(update={"version": expected + 1}).to_stored()
        timer = table.next_timer()
        lines = [log_line(c) for c in commands]
        delivery = current_delivery()
        finishing = delivery if delivery is not None and delivery.finishable else None
        record = record_of(table)
        packed = ""
        if record is not None:
            kept = await self._log_before(table)
            if kept is None:  # someone else saved first
                metrics.cas_conflict()
                return False
            packed = pack_log([*kept, *lines])
        args: list[str | bytes] = [
            str(expected),
            data,
            str(table.game_no),
            "" if timer is None else repr(float(timer)),
            str(self.ttl_of(table)),
            table.status,
            "" if record is None else record_json(record),
            str(HISTORY_KEEP),
            "0" if table.practice else "1",
            packed,
            *lines,
        ]
        keys = [
            self._table_key(chat),
            self._log_key(chat),
            self._msgs_key(chat),
            self._history_key(chat),
        ]
        ref = f"{chat}:{table.game_no}"
        # a save that finishes a game first marks it to be published (sent
        # ahead): a cut between the save and the publishing leaves the mark,
        # and `publish_finished` finishes the work
        before = [("ZADD", self._unpublished_key, repr(time.time()), ref)] if record else []
        # what the save means outside its chat's slot, one slot a step, after
        # it: the timers' index lowered to the record's timer (a lower bound:
        # `due` raises it by the record's ``d``), and the running update's
        # claim made final — no round trip of its own (`bot.store.delivery`)
        after: list[tuple[str, ...]] = []
        # (lowered to the save's telling check, sooner: `Table.telling_checked_at`)
        lowest = min(
            (t for t in (timer, table.telling_checked_at()) if t is not None), default=None
        )
        if lowest is not None:
            after.append(("ZADD", self._deadlines_key, "LT", repr(float(lowest)), str(chat)))
        if table.practice:
            # a game without a clock, kept where a rollback is looked for
            # (`untimed_adrift`): no timer would come back to it
            untimed = not table.timed and table.status == "playing"
            after.append(("SADD" if untimed else "SREM", self._untimed_key, str(chat)))
        if finishing is not None:
            after.append(self._claim_step(finishing, "saved"))
        with store_errors():
            got = await self._run_saving(self._save_script, keys, args, before, after)
        version = int(got[0])
        if not version:
            metrics.cas_conflict()
            if finishing is not None and self.one_node:
                # (made final behind a save that lost: the lease is the
                # handling's again, for the retry it is about to make)
                await self._delivered(finishing, "unsaved")
            return False
        if finishing is not None:
            finishing.final = True
        table.version = version
        table.adrift = False  # saved under this primary
        if record is not None:
            dropped = [int(as_str(n)) for n in got[2:]]
            try:
                with store_errors():
                    await self._publish(record, chat, int(got[1]) == 1, dropped, version)
            except StoreUnavailable as e:
                # the save is made, and told as made: its publishing, cut here,
                # is finished by `publish_finished` (the mark stays)
                log.warning("a finished game's publishing was cut (%s)", type(e).__name__)
        return True

    async def _log_before(self, table: Table) -> list[str] | None:
        """The log a save that finishes `table`'s game adds to, read at the
        version it expects (None: the record has moved on, the save would lose);
        empty when the history has the game already (the save adds nothing)."""
        chat = table.chat_id
        keys = [self._table_key(chat), self._history_key(chat), self._log_key(chat)]
        with store_errors():
            (v, g), kept, log = await self._log_before_script(keys=keys, args=[str(table.game_no)])
        if int(as_str(v or "0")) != table.version:
            return None
        if kept or g is None or as_str(g) != str(table.game_no):
            return []
        return [as_str(line) for line in log]

    @claimed_first
    async def delete(self, chat_id: int) -> None:
        """The chat's keys go in one step of their own slot; the timer before
        them, the seated people's links after them, each a step of its own
        (Redis Cluster: no step spans slots). What a step between may leave is
        harmless: a timer of a record gone is dropped by `due`, a link to a
        game gone is skipped by whoever reads it — while a timer removed
        *after* the record could be a new game's, saved meanwhile."""
        tk = self._table_key(chat_id)
        with store_errors():
            await awaited(self._r.zrem(self._deadlines_key, str(chat_id)))
            # the record read and its keys deleted in one step (``delete.lua``)
            keys = [tk, self._log_key(chat_id), self._msgs_key(chat_id)]
            users = seated_users(await self._delete_script(keys=keys))
            if users:
                async with self._r.pipeline(transaction=False) as pipe:
                    for uid in users:
                        pipe.srem(self._user_tables_key(uid), str(chat_id))
                    await pipe.execute()

    @claimed_first
    async def log(self, chat_id: int) -> list[Command]:
        with store_errors():
            items = await awaited(self._r.lrange(self._log_key(chat_id), 0, -1))
        return [command_of(item) for item in items]

    @claimed_first
    async def messages(self, chat_id: int) -> dict[str, int]:
        with store_errors():
            raw = await awaited(self._r.hgetall(self._msgs_key(chat_id)))
        return {as_str(k): int(as_str(v)) for k, v in raw.items()}

    @claimed_first
    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        keep = {k: str(v) for k, v in ids.items() if v is not None}
        drop = [k for k, v in ids.items() if v is None]
        # a view's new message is told to other processes (see `bot.store`'s notes)
        told = f"{VIEWS_MOVED}{self.process}" if any(is_view(k) for k in ids) else ""
        args = [str(self.record_ttl), told, str(len(drop)), *drop]
        for name, value in keep.items():
            args += [name, value]
        with store_errors():
            version = await self._messages_script(
                keys=[self._msgs_key(chat_id), self._table_key(chat_id)], args=args
            )
        return int(version)

    async def untimed_adrift(self) -> list[int]:
        """The untimed practice games' chats (``untimed``), each record asked
        whether another primary saved it last (``adrift.lua``, read-only, on
        its own slot): a chat whose record is gone leaves the set. One
        pipeline for the lot — the set holds only practice games in play
        without a clock."""
        with store_errors():
            members = [int(as_str(m)) for m in await awaited(self._r.smembers(self._untimed_key))]
            if not members:
                return []
            async with self._r.pipeline(transaction=False) as pipe:
                for chat in members:
                    pipe.eval(lua("adrift"), 1, self._table_key(chat))
                found = [int(x) for x in await pipe.execute()]
            gone = [str(c) for c, f in zip(members, found, strict=True) if f < 0]
            if gone:
                await awaited(self._r.srem(self._untimed_key, *gone))
        return [c for c, f in zip(members, found, strict=True) if f == 1]
