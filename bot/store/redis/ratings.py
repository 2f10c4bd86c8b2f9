"""Ratings: the queue of finished games to rate, the figures overall and in
each chat, and the games set aside.

The rating commit, in three steps of one slot each (Redis Cluster: no step
spans slots). Before, one script popped the queue's head and wrote the
overall figures, the chat's and each rated person's "stats" set — four slots
and more. Now:

1. the queue's slot (``rating_take.lua``): if the game is still the queue's
   head, its new figures (computed from the figures as they were before it)
   are stored beside the queue — HSETNX-like: the first stored stays, and
   every process committing this head gets back *that* one and applies it,
   whatever it computed itself. Not the head: lost (someone else rated it).
2. one step a stats key, in that key's slot (``rating_apply.lua``, pipelined:
   one round trip for all): the stored figures written unless this rating
   was applied to that key already; the people's "stats" sets are SADDed
   (the same twice as once).
3. the queue's slot (``pop.lua``): the head popped (if it still is: whoever
   gets there first) and its stored figures dropped.

A cut (a kill, a lost connection) between them leaves the head in the queue
with its stored figures: the next worker, of any process, meets it at the
head and finishes it with the stored figures (`finish_rating`) — it never
computes again from figures that may hold half of it. The figures stored
first were computed from clean ones: nothing writes figures for a head
before its figures are stored, and a head is popped only once its figures
are written to every key (step 3 follows a step 2 that succeeded), so the
figures read after seeing the head hold every older game, wholly.

Applied once a key: step 1 gives each head a number that grows along the
queue (the later of the primary's clock in µs and the last number given
plus one, ``~last``), stored with its figures; each stats hash keeps the
number of the last rating written to it (``~applied``, a field no player key
can be: those are ``u<id>``/``c<level>``). Step 2 writes only a number above
it. Numbers are given in queue order (a head gets its number while it is
the head, and the next game is the head only once this one is popped, after
all its keys are written), so "applied ≥ mine" means this rating, or a later
one written over it, is there already. A bare "last applied == this head"
would not do: a process slow between its steps 1 and 2 could write a popped
game's figures over a later game's. The clock in the number keeps it
growing if ``~last`` were ever lost (a failover to a replica behind), as the
save's versions do; a head set aside drops its stored figures with it (a
process that already holds them may still write them: a set-aside game is
one whose rating raised, and nothing raises once the figures are stored).

The stored figures live in a hash of the queue's own slot
(`RedisBase._results_key`, named with a tag found to hash there:
`bot.store.redis.base._same_slot_tag`).

A rating set aside, in two steps of one key each (Redis Cluster: no step
spans slots), sent in one round trip: the game joins the set-aside list
(once, ``aside.lua``), then leaves the queue's head (if it is still there:
the head is the compare-and-set, ``pop.lua``). A cut between leaves it on
both — the worker meets it at the head again and sets it aside again,
listed once — never on neither; a head that had moved (another process took
the game) takes back the listing this call made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import redis.exceptions

from bot.store import ASIDE_KEEP
from bot.store.models import PlayerStats
from bot.store.redis.base import RedisBase
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors

#: the fields of a stats hash that are not a player's figures (`~applied`)
_STATS_MARK = "~"


class Ratings(RedisBase):
    """The rating queue, the figures, the games set aside."""

    @claimed_first
    async def rating_head(self) -> str | None:
        with store_errors():
            head = await awaited(self._r.lindex(self._queue_key, 0))
        return None if head is None else as_str(head)

    @claimed_first
    async def stats(self, chat_id: int | None, keys: Sequence[str] = ()) -> dict[str, PlayerStats]:
        key = self._stats_key(chat_id)
        with store_errors():
            if keys:
                values = await awaited(self._r.hmget(key, list(keys)))
                found = dict(zip(keys, values, strict=True))
            else:
                found = {as_str(k): v for k, v in (await awaited(self._r.hgetall(key))).items()}
        return {
            k: PlayerStats.model_validate_json(v)
            for k, v in found.items()
            if v is not None and not k.startswith(_STATS_MARK)
        }

    @claimed_first
    async def commit_rating(
        self,
        head: str,
        chat_id: int,
        overall: Sequence[PlayerStats],
        local: Sequence[PlayerStats],
        users: Sequence[int],
    ) -> bool:
        """Three round trips, a slot each (see this module's notes): the
        figures stored by the queue's head (or the ones stored there first),
        written to each stats key, the head popped."""
        figures = {
            "chat": chat_id,
            "overall": [[p.key, p.model_dump_json()] for p in overall],
            "local": [[p.key, p.model_dump_json()] for p in local],
            "users": list(users),
        }
        return await self._commit_stored(head, json.dumps(figures, separators=(",", ":")))

    @claimed_first
    async def finish_rating(self, head: str) -> bool:
        return await self._commit_stored(head, "")

    async def _commit_stored(self, head: str, figures: str) -> bool:
        queue = [self._queue_key, self._results_key]
        with store_errors():
            stored = await self._rating_take_script(keys=queue, args=[head, figures])
            if stored is None:
                return False
            number, _, raw = as_str(stored).partition(" ")
            await self._write_figures(number, json.loads(raw))
            await self._pop_script(keys=queue, args=[head])
        return True

    async def _write_figures(self, number: str, figures: dict[str, Any]) -> None:
        """The rating's second step: its stored figures written to each stats
        key (each in its own slot), unless there already, in one round trip.
        EVALSHA is sent bare — a `Script` in a pipeline asks SCRIPT EXISTS
        first, a round trip more each time — and a Redis that lost its
        scripts (restarted) has it loaded and everything sent again: a write
        made twice is made once (``~applied``; SADD)."""
        chat = int(figures["chat"])
        for _ in range(2):
            async with self._r.pipeline(transaction=False) as pipe:
                for key, pairs in (
                    (self._stats_key(None), figures["overall"]),
                    (self._stats_key(chat), figures["local"]),
                ):
                    if pairs:
                        flat = [x for pair in pairs for x in pair]
                        sha = self._rating_apply_script.sha  # (a cluster's pipeline has no evalsha)
                        pipe.execute_command("EVALSHA", sha, 1, key, number, *flat)
                for uid in figures["users"]:
                    pipe.sadd(self._user_set_key(int(uid), "stats"), str(chat))
                results = await pipe.execute(raise_on_error=False)
            if not any(isinstance(r, redis.exceptions.NoScriptError) for r in results):
                break
            self._rating_apply_script.sha = as_str(
                await awaited(self._r.script_load(self._rating_apply_script.script))
            )
        for result in results:
            if isinstance(result, Exception):
                raise result

    @claimed_first
    async def set_aside_rating(self, head: str) -> bool:
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                aside = [f"{self.prefix}:rating:aside"]
                await self._aside_script(keys=aside, args=[head, str(ASIDE_KEEP)], client=pipe)
                queue = [self._queue_key, self._results_key]
                await self._pop_script(keys=queue, args=[head], client=pipe)
                listed, popped = await pipe.execute()
            if int(listed) == 1 and int(popped) == 0:
                await awaited(self._r.lrem(aside[0], -1, head))
        return int(popped) == 1

    @claimed_first
    async def set_aside(self) -> list[str]:
        with store_errors():
            found = await awaited(self._r.lrange(f"{self.prefix}:rating:aside", 0, -1))
        return [as_str(x) for x in found]

    @claimed_first
    async def stat_chats(self, user_id: int) -> set[int]:
        with store_errors():
            found = await awaited(self._r.smembers(self._user_set_key(user_id, "stats")))
        return {int(as_str(m)) for m in found}
