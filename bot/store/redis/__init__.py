"""`Store` over Redis (redis-py asyncio). Key layout: see `bot.store`.

`RedisStore` is one mixin a concern, each a module of this package:

- `games` — a chat's record (its compare-and-set save), log and message ids
- `history` — finished games, the chat's game numbers, /replay numbers, and
  a finished game's publishing outside its chat
- `ratings` — the rating queue, the figures, the games set aside
- `people` — a person's preferences and tables, a chat's settings, who is
  called to its lobbies, forgetting a person
- `moving` — a group become a supergroup: its game and its home moved
- `timers` — the timers' index (`due`)
- `updates` — an update's claim, and `Store.once_within`
- `channels` — the chats' pub/sub channels (the Mini App's feed)
- `health` — readiness and the games gauge
- `base` — what they share: the client, the keys, the registered scripts,
  how a save and what follows it are sent (`_run_saving`), closing

and the plumbing: `client` (the bounded pools and cluster), `guard` (Redis's
errors told as the store's; `claimed_first`), `scripts` (each ``lua/<name>.lua``
loaded by name and registered for the client: one node's or a cluster's).

Mixins, not a store that hands each call to a part: the concerns share one
client, one key layout and one set of scripts, and call into each other (a
finishing save publishes its game, `forget_user` deletes the person's
practice game, any call may carry the update's claim). As mixins of one
object each method reads as it did — ``self._table_key``, ``self._publish``
— and what a test reaches into (keys, a step cut between two others) is on
the store itself. A store of parts would hand the same shared state to each
part and list the 39 methods of `Store` once more as calls passed on. Each
mixin builds on `base.RedisBase` and names as its bases the concerns it
calls (`Games(History, Updates)`, `People(Updates)`), so mypy checks every
call across them.

Each call of `Store` that settles the running update's claim first says so
where it is defined (``@claimed_first``, `bot.store.redis.guard`): all but
the reads that carry the claim themselves and the claim's own calls.

Round trips: see `bot.store.redis.games` for a press's (`load`, `save`);
`delete` (a script) and `migrate` (copy-then-delete: four round trips, see
its notes) are rare.

Redis Cluster: every atomic step touches one hash slot (`tests/bot/test_slots.py`
keeps it so). The save script writes the chat's keys alone (``{<chat>}``);
what it means outside them follows it, a step each: the timers' index
(``<prefix>:deadlines``, a zset of chats) lowered to the record's timer
(``ZADD LT``), and the running update's claim made final. The index holds a
lower bound of each chat's timer, never more: a save only lowers it, after
its record (two savers' lowerings in any order leave the lower of the two,
which is at most either record's timer); the record keeps its own timer
(``d``), and `due` — the one that raises an entry — raises it to that, only
if it is still the score it read, then reads the record again (see `due`).
On one node the follow-ups ride in the save's round trip, sent right behind
it; on a cluster they follow its answer (a round trip more), since two
nodes keep no order between them. A finished game's publishing follows its
save the same way (`RedisStore._publish`), the rating commit is three
one-slot steps (`bot.store.redis.ratings`), and `migrate` is copy-then-delete.
`RedisStore.from_cluster` runs the store on a cluster (``REDIS_CLUSTER``):
there its transactions are one-slot scripts, scripts in a pipeline are sent
whole, the feed subscribes on one node and readiness asks every master
(`one_node` False; deploy/README.md, "Going to Redis Cluster").
"""

from __future__ import annotations

from bot.store.redis.channels import Channels
from bot.store.redis.client import (
    POOL_CONNECTIONS,
    BlockingSentinelPool,
    BoundedCluster,
    BoundedPool,
)
from bot.store.redis.games import Games
from bot.store.redis.guard import cancelled_meanwhile
from bot.store.redis.health import WRITE_ROOM, Health
from bot.store.redis.moving import Moving
from bot.store.redis.people import People
from bot.store.redis.ratings import Ratings
from bot.store.redis.timers import Timers


class RedisStore(Games, People, Ratings, Moving, Timers, Channels, Health):
    """Works with clients built with or without ``decode_responses``.

    With `wait_replicas`, each save is followed, in the same round trip, by
    ``WAIT wait_replicas wait_ms``: the person is told of a move once a replica
    has it too (a failover then keeps it). A WAIT that times out still
    answers, counted in ``smuta_redis_wait_timeouts_total``."""

    kind = "redis"
    claims_with_reads = True


__all__ = [
    "POOL_CONNECTIONS",
    "WRITE_ROOM",
    "BlockingSentinelPool",
    "BoundedCluster",
    "BoundedPool",
    "RedisStore",
    "cancelled_meanwhile",
]
