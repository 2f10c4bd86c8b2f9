"""The timers' index (``<prefix>:deadlines``, a zset of chats): any process
finds the chats whose game's timer is due (`Timers.due`).

The index holds a lower bound of each chat's timer, never more: a save only
lowers it, after its record (``ZADD LT``; two savers' lowerings in any order
leave the lower of the two, which is at most either record's timer); the
record keeps its own timer (``d``), and `due` — the one that raises an entry
— raises it to that, only if it is still the score it read, then reads the
record again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from bot.store.models import Table
from bot.store.redis.base import RedisBase
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors

#: reads of the index one `due` makes at most, while what it reads is entries
#: raised (lower bounds below their records' timers) rather than chats due
DUE_ROUNDS = 4


class Timers(RedisBase):
    """Which chats' timers are due."""

    @claimed_first
    async def due(self, now: float, limit: int = 100) -> list[int]:
        """The chats whose timer is due. The timers' index (a zset of chats)
        holds for each at most its record's timer: a save lowers it after
        writing the record (``ZADD LT``), never raises it — only here is it
        raised, to the timer the record keeps (its ``d``), or the chat taken
        out when the record has none. Each step is one slot (Redis Cluster):
        the due chats, then each one's record, then the entries raised — each
        only if its score is still the one read (``retime.lua``) — then the
        records read again, and an entry lowered once more for a record saved
        between the two reads (its own lowering may have come before ours).
        First, a save's follow-ups that a cut left here (`_follow`) go again.

        Entries raised do not count against `limit`: the index is read again
        past the chats found due (up to `DUE_ROUNDS` reads) — every timer a
        game moved on from (a move answered before its deadline, a timer just
        fired) leaves such an entry, earlier than the chats truly due, and
        a tick that found only those would start nothing (measured: 1,000
        timeouts due at once started 50 a tick, `benchmarks.waiting`)."""
        if limit <= 0:
            return []
        key = self._deadlines_key
        with store_errors():
            if self._unfollowed:
                unfollowed, self._unfollowed = self._unfollowed, []
                await self._follow(unfollowed)
            due: list[int] = []
            for _ in range(DUE_ROUNDS):
                wanted = limit - len(due)
                found = await awaited(
                    self._r.zrange(
                        key,
                        "-inf",
                        repr(float(now)),
                        byscore=True,
                        offset=len(due),  # (those found due stay ahead)
                        num=wanted,
                        withscores=True,
                    )
                )
                chats = [int(as_str(m)) for m, _ in found]
                timers = await self._timers_of(chats) if chats else []
                off: list[tuple[int, float, str]] = []  # (chat, score read, its record's timer)
                for chat, (_, score), timer in zip(chats, found, timers, strict=True):
                    if timer != "" and float(timer) <= now:
                        due.append(chat)
                    else:
                        off.append((chat, float(score), timer))
                if off:
                    # each looked at by the one process that raised it
                    self._raised.update(dict.fromkeys(await self._retime(off)))
                if len(found) < wanted or not off:
                    break  # none left, or as many as asked for
        return list(dict.fromkeys(due))  # (once each, should the index move meanwhile)

    @claimed_first
    async def checks(self, now: float) -> list[int]:
        """The chats whose entries `due` raised since last asked: a save's
        telling check come due (`Table.telling_checked_at`), or a timer the
        game moved on from — either way looked at once."""
        await asyncio.sleep(0)
        raised, self._raised = list(self._raised), {}
        return raised

    async def _timers_of(self, chats: Sequence[int]) -> list[str]:
        """Each chat's record's timer (`_timers_from`), read in one pipeline."""
        async with self._r.pipeline(transaction=False) as pipe:
            for chat in chats:
                pipe.hmget(self._table_key(chat), ["v", "d"])
            got = await pipe.execute()
        return await self._timers_from(chats, got)

    async def _timers_from(self, chats: Sequence[int], got: Sequence[Any]) -> list[str]:
        """Each chat's record's timer from its HMGET of ``v`` and ``d``: its
        ``d`` ("": none, or no record); a record saved before timers were kept
        there (or copied by `migrate`) has it read from its JSON."""
        timers = ["" if v is None or d is None else as_str(d) for v, d in got]
        unkept = [i for i, (v, d) in enumerate(got) if v is not None and d is None]
        if unkept:
            async with self._r.pipeline(transaction=False) as pipe:
                for i in unkept:
                    pipe.hget(self._table_key(chats[i]), "data")
                for i, data in zip(unkept, await pipe.execute(), strict=True):
                    timer = None if data is None else Table.from_json(data).next_timer()
                    timers[i] = "" if timer is None else repr(float(timer))
        return timers

    async def _retime(self, off: Sequence[tuple[int, float, str]]) -> list[int]:
        """The index's entries raised to their records' timers (or taken out),
        then the records read again — after the raise: on one node in its
        pipeline, behind it; on a cluster once it answered — and an entry
        lowered again for any record saved meanwhile. Returns the chats whose
        entries this call raised (not another process first)."""
        key = self._deadlines_key
        chats = [chat for chat, _, _ in off]
        async with self._r.pipeline(transaction=False) as pipe:
            for chat, score, timer in off:
                await self._retime_script(
                    keys=[key], args=[str(chat), repr(score), timer], client=pipe
                )
            if self.one_node:
                for chat in chats:
                    pipe.hmget(self._table_key(chat), ["v", "d"])
            got = await pipe.execute()
        if self.one_node:
            again = await self._timers_from(chats, got[len(off) :])
        else:
            again = await self._timers_of(chats)
        lower = [
            (chat, now)
            for (chat, _, was), now in zip(off, again, strict=True)
            if now not in ("", was)
        ]
        if lower:
            await self._pipelined([("ZADD", key, "LT", now, str(chat)) for chat, now in lower])
        return [chat for chat, raised in zip(chats, got[: len(off)], strict=True) if raised == 1]
