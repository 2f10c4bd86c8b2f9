"""The store's client, its keys and its scripts, and how what a person is
told of is saved (`RedisBase._run_saving`): what every concern of
`RedisStore` builds on."""

from __future__ import annotations

import functools
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Self

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import parse_url
from redis.asyncio.sentinel import Sentinel
from redis.crc import key_slot

from bot.ops import metrics
from bot.store import Store, StoreUnavailable
from bot.store.redis.client import (
    POOL_CONNECTIONS,
    BlockingSentinelPool,
    BoundedCluster,
    BoundedPool,
    Client,
)
from bot.store.redis.guard import (
    UNAVAILABLE,
    awaited,
    claimed_first,
    no_replicas,
    store_errors,
)
from bot.store.redis.scripts import Script, register
from bot.store.redis.survivor import SLOW_SAVE_SECONDS, on_survivor, vouched_within

log = logging.getLogger(__name__)


# The stored figures of a rating being committed (`bot.store.redis.ratings`)
# live in a hash of the queue's own slot. The queue key has no hash tag (its
# slot is that of its whole name, and a finished game's publishing pushes to
# it under that name), so rather than renaming it — a migration of every
# deployment's queue — the hash is named with a tag found to hash to that
# same slot (`_same_slot_tag`): one slot, no rename.
@functools.cache
def _same_slot_tag(key: str) -> str:
    """A hash tag (``r<n>``, the smallest n) whose slot is `key`'s: a key named
    ``…{r<n>}`` lives in `key`'s slot though `key` has no tag. CRC16 reaches
    every one of the 16,384 slots before n = 160,000 (a tenth of a second, once)."""
    slot = key_slot(key.encode())
    n = 0
    while key_slot(f"r{n}".encode()) != slot:
        n += 1
    return f"r{n}"


class RedisBase(Store):
    """What `RedisStore`'s concerns share: the client (one node's or a
    cluster's), the key layout (`bot.store`), the registered scripts, the
    way a save and what follows it are sent (`_run_saving`), and closing."""

    def __init__(
        self,
        client: Client,
        prefix: str = "smuta",
        *,
        owns_client: bool = False,
        wait_replicas: int = 0,
        wait_ms: int = 100,
        sentinel: Sentinel | None = None,
        sentinel_master: str = "",
    ):
        #: one node's client or a cluster's, as it is: what only a cluster
        #: has (its nodes) is asked where `isinstance` says it is one
        self._r: Client = client
        self.prefix = prefix  # every key starts with "<prefix>:"
        self._owns = owns_client
        self.wait_replicas = wait_replicas
        self.wait_ms = wait_ms
        self._sentinel = sentinel  # closed with the store (its connections to the sentinels)
        self._sentinel_master = sentinel_master  # the name they monitor the primary by
        #: a save's follow-ups that failed (`_follow`), sent again by `due`
        self._unfollowed: list[tuple[str, ...]] = []
        #: the chats whose timers' index entries `due` raised, till `checks`
        #: (at most a tick's worth: `due` raises what it reads, `DUE_ROUNDS` reads)
        self._raised: dict[int, None] = {}
        #: one Redis node holds every key (a primary, maybe with replicas):
        #: commands pipelined on one connection run in the order sent. False on
        #: a cluster, whose nodes keep no order between them
        self.one_node = not isinstance(client, RedisCluster)
        #: this store's own name on the feed: what it publishes, its own feed skips
        self.process = uuid.uuid4().hex[:12]
        #: what must stop before the client closes (the process's feed)
        self.on_close: list[Callable[[], Awaitable[None]]] = []
        # the scripts called by their SHA, each ``lua/<name>.lua`` registered
        # for this client (`register`: on a cluster, one sent whole in a
        # pipeline); the few sent whole every time are `lua(name)` where sent
        self._save_script = register(client, "save")
        self._messages_script = register(client, "messages")
        self._rating_take_script = register(client, "rating_take")
        self._rating_apply_script = register(client, "rating_apply")
        self._profile_script = register(client, "profile")
        self._aside_script = register(client, "aside")
        self._pop_script = register(client, "pop")
        self._once_script = register(client, "once_within")
        self._delivered_script = register(client, "delivered")
        self._last_game_script = register(client, "last_game")
        self._number_script = register(client, "number")
        self._queue_script = register(client, "queue")
        self._retime_script = register(client, "retime")
        self._copy_script = register(client, "copy")
        self._drop_script = register(client, "drop")
        self._log_before_script = register(client, "log_before")
        self._delete_script = register(client, "delete")
        self._save_user_script = register(client, "save_user")
        self._link_script = register(client, "link")
        #: a cluster's nodes' own clients, for pub/sub (`pubsub`), by node name
        self._node_clients: dict[str, Redis] = {}
        self._next_node = 0

    @classmethod
    def from_url(
        cls,
        url: str,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ) -> Self:
        """A store with its own client; `close` closes it. A Redis that stops
        answering (a network cut that sends no reset) fails a call after
        `timeout` seconds with `StoreUnavailable`, instead of hanging the update,
        or every timer, until TCP gives up (``?socket_timeout=`` in the URL wins).
        The client keeps at most `max_connections` to Redis: a call when all
        are busy waits for one (up to `timeout`), so a burst — a thousand
        pages opening at once — queues instead of opening a connection each
        and keeping them all once it is over."""
        pool = BoundedPool.from_url(
            url,
            max_connections=max_connections,
            timeout=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return cls(
            Redis.from_pool(pool),
            prefix,
            owns_client=True,
            wait_replicas=wait_replicas,
            wait_ms=wait_ms,
        )

    @classmethod
    def from_sentinels(
        cls,
        sentinels: Sequence[tuple[str, int]],
        master: str,
        url: str | None = None,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
        wait_replicas: int = 1,
        wait_ms: int = 100,
    ) -> Self:
        """A store on the primary the `sentinels` name `master` (redis-py's
        asyncio `Sentinel`): each new connection asks them where it is, so
        when a replica is promoted the next call reaches it, by itself. `url`
        (``REDIS_URL``), when given, supplies the database and the password
        (its host is the sentinels' to say). The same bounds as `from_url`:
        `timeout` on every call and connection, at most `max_connections`."""
        options: dict[str, Any] = {}
        if url:
            options = {
                k: v for k, v in parse_url(url).items() if k in ("db", "username", "password")
            }
        sentinel = Sentinel(  # type: ignore[no-untyped-call]
            list(sentinels),
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        client = sentinel.master_for(
            master,
            connection_pool_class=BlockingSentinelPool,
            max_connections=max_connections,
            timeout=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            **options,
        )
        return cls(
            client,
            prefix,
            owns_client=True,
            wait_replicas=wait_replicas,
            wait_ms=wait_ms,
            sentinel=sentinel,
            sentinel_master=master,
        )

    @classmethod
    def from_cluster(
        cls,
        url: str,
        prefix: str = "smuta",
        timeout: float = 5.0,
        max_connections: int = POOL_CONNECTIONS,
        wait_replicas: int = 0,
        wait_ms: int = 100,
    ) -> Self:
        """A store on the Redis Cluster one of whose nodes `url` names (redis-py
        asyncio `RedisCluster`: it asks that node for the others and for who
        serves which slot, and follows the cluster when slots move or a
        replica is promoted). The same bounds as `from_url`: `timeout` on
        every call and connection, at most `max_connections` calls at once (a
        call more waits its turn, `BoundedCluster`). With `wait_replicas`,
        the save itself waits for its master's replicas (`_saved_on_its_master`);
        its follow-ups are other round trips on other nodes (`one_node`)."""
        client = BoundedCluster.from_url(
            url,
            max_connections=max_connections,
            wait=timeout,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return cls(client, prefix, owns_client=True, wait_replicas=wait_replicas, wait_ms=wait_ms)

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

    @property
    def _untimed_key(self) -> str:
        return f"{self.prefix}:untimed"

    def _user_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}"

    def _user_tables_key(self, user_id: int) -> str:
        return f"{self.prefix}:user:{{{user_id}}}:tables"

    def _profile_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:profile"

    def _history_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:history"

    def _stats_key(self, chat_id: int | None) -> str:
        if chat_id is None:
            return f"{self.prefix}:stats"
        return f"{self.prefix}:{{{chat_id}}}:stats"

    def _subs_key(self, chat_id: int) -> str:
        return f"{self.prefix}:{{{chat_id}}}:subs"

    def _user_set_key(self, user_id: int, kind: str) -> str:
        return f"{self.prefix}:user:{{{user_id}}}:{kind}"

    @property
    def _queue_key(self) -> str:
        return f"{self.prefix}:rating:queue"

    def _queued_key(self, ref: str) -> str:
        """A finished game's mark of being queued for its rating, in the
        queue's own slot (`_same_slot_tag`)."""
        return f"{self.prefix}:rating:queued:{{{_same_slot_tag(self._queue_key)}}}:{ref}"

    @property
    def _unpublished_key(self) -> str:
        return f"{self.prefix}:unpublished"

    @property
    def _results_key(self) -> str:
        """The figures of the ratings being committed, in the queue's slot."""
        plain = f"{self.prefix}:rating:results"
        if key_slot(plain.encode()) == key_slot(self._queue_key.encode()):
            return plain  # (a prefix with a hash tag of its own)
        return f"{plain}:{{{_same_slot_tag(self._queue_key)}}}"

    async def _run_saving(
        self,
        script: Script,
        keys: list[str],
        args: Sequence[str | bytes],
        before: Sequence[tuple[str, ...]] = (),
        after: Sequence[tuple[str, ...]] = (),
    ) -> list[Any]:
        """Run a script that saves what a person is told of: `before`'s
        commands sent ahead of it, `after`'s behind it (only once it saved),
        and with `wait_replicas` WAIT last. On one node all in one round trip
        — a connection's commands run in the order sent, so each of `after`
        lands after the save (it may have lost: `after` must be harmless
        then, or undone by the caller). On a cluster they are on other nodes,
        which keep no order between them: `before` first, then the script,
        then — if it saved — `after`, a round trip each. A script the primary
        lacks (a promoted replica's cache starts empty) is sent whole once,
        and the lot again (`before` and `after` must be safe to repeat).
        Through sentinels, a save whose WAIT fell short or whose round trip
        was slow is told only once they vouch for its primary (`_vouched`).
        Returns the script's answer."""
        if not self.one_node:
            if before:
                await self._pipelined(before)
            if self.wait_replicas:
                outcome = await self._saved_on_its_master(script, keys, args)
            else:
                outcome = list(await script(keys=keys, args=args))
            if after and int(outcome[0]):
                await self._follow(after)
            return outcome
        if not self.wait_replicas and not before and not after:
            return list(await script(keys=keys, args=args))
        node = self._r
        assert isinstance(node, Redis)  # (`one_node`)
        for _ in range(2):
            async with node.pipeline(transaction=False) as pipe:
                for command in before:
                    pipe.execute_command(*command)
                pipe.evalsha(script.sha, len(keys), *keys, *args)
                for command in after:
                    pipe.execute_command(*command)
                if self.wait_replicas:
                    pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms)
                if self._sentinel is not None:
                    # the connection taken here, so its server is known after
                    # (a reconnection inside `execute` asks the sentinels anew)
                    pipe.connection = await node.connection_pool.get_connection()  # type: ignore[no-untyped-call]
                connection = pipe.connection
                sent = time.monotonic()
                answers = await pipe.execute(raise_on_error=False)
                took = time.monotonic() - sent
            for answer in answers[: len(before)]:
                if isinstance(answer, Exception):
                    raise answer
            outcome = answers[len(before)]
            if isinstance(outcome, redis.exceptions.NoScriptError):
                script.sha = await awaited(self._r.script_load(script.script))
                continue
            if isinstance(outcome, Exception):
                if (
                    connection is not None
                    and isinstance(outcome, redis.exceptions.ResponseError)
                    and no_replicas(outcome)
                ):
                    # refused for want of replicas: perhaps a replica was
                    # promoted and this primary is left behind
                    await self._left_behind(connection.host, connection.port)
                raise outcome
            saved = bool(int(outcome[0]))
            short = False
            if self.wait_replicas and saved:
                replicas = answers[-1]
                # an error: the save is made (the script answered), only its copy is unknown
                short = isinstance(replicas, Exception) or int(replicas) < self.wait_replicas
                if short:
                    metrics.wait_timed_out()
            if saved and connection is not None and (short or took > SLOW_SAVE_SECONDS):
                await self._vouched(connection.host, connection.port)
            followed = answers[len(before) + 1 : len(before) + 1 + len(after)]
            if saved and any(isinstance(a, Exception) for a in followed):
                await self._follow(after)  # sent again on its own, once
            return list(outcome)
        raise redis.exceptions.NoScriptError("the save script could not be loaded")

    async def _saved_on_its_master(
        self, script: Script, keys: list[str], args: Sequence[str | bytes]
    ) -> list[Any]:
        """On a cluster with `wait_replicas`: the script and WAIT in one
        round trip to the master of its keys' slot, on one connection — so
        WAIT counts the replicas that have this save. A script the master
        lacks is sent whole once."""
        cluster = self._r
        assert isinstance(cluster, RedisCluster)
        for _ in range(2):
            master = cluster.get_node_from_key(keys[0])
            async with cluster.pipeline(transaction=False) as pipe:
                # (redis-py refuses `evalsha` in a cluster's pipeline: sent as a command)
                pipe.execute_command(
                    "EVALSHA", script.sha, len(keys), *keys, *args, target_nodes=master
                )
                pipe.execute_command("WAIT", self.wait_replicas, self.wait_ms, target_nodes=master)
                outcome, replicas = await pipe.execute(raise_on_error=False)
            if isinstance(outcome, redis.exceptions.NoScriptError):
                script.sha = await awaited(cluster.script_load(script.script))
                continue
            if isinstance(outcome, Exception):
                raise outcome
            if int(outcome[0]) and (
                isinstance(replicas, Exception) or int(replicas) < self.wait_replicas
            ):
                metrics.wait_timed_out()
            return list(outcome)
        raise redis.exceptions.NoScriptError("the save script could not be loaded")

    async def _left_behind(self, host: str, port: int) -> None:
        """When the sentinels do not vouch for `host`:`port` (a save there was
        refused), every connection of the pool is dropped: the next call asks
        them where the primary is, rather than staying with the old one till
        they make it a replica (seconds after it came back)."""
        assert self._sentinel is not None
        if not await on_survivor(self._sentinel, self._sentinel_master, (host, port)):
            await self._drop_connections()

    async def _drop_connections(self) -> None:
        """Every connection of the pool closed: the next call asks the
        sentinels where the primary is."""
        assert isinstance(self._r, Redis)  # (sentinels name one node)
        await self._r.connection_pool.disconnect()

    async def _vouched(self, host: str, port: int) -> None:
        """Raise `StoreUnavailable` unless the sentinels vouch that the save
        just made on `host`:`port` is on the primary that survives
        (`bot.store.redis.survivor`); then every connection of the pool is
        dropped, so the next call asks the sentinels where the primary is."""
        assert self._sentinel is not None
        if await vouched_within(self._sentinel, self._sentinel_master, (host, port)):
            return
        metrics.save_withdrawn()
        await self._drop_connections()
        raise StoreUnavailable("the save landed on a primary being failed over: not told")

    async def _pipelined(self, commands: Sequence[tuple[str, ...]]) -> None:
        """`commands` in one pipeline (no transaction); the first error raised."""
        async with self._r.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            answers = await pipe.execute(raise_on_error=False)
        for answer in answers:
            if isinstance(answer, Exception):
                raise answer

    async def _follow(self, after: Sequence[tuple[str, ...]]) -> None:
        """What follows a save that is made, sent on its own. The save stands
        and is told as made whatever this meets: what failed is kept and sent
        again by this process's next `due` (each step may come late: a lower
        bound lowered, a claim made final if still the handling's)."""
        try:
            await self._pipelined(after)
        except (redis.exceptions.RedisError, *UNAVAILABLE) as e:
            log.error("a save's follow-up failed (%s): sent again next tick", type(e).__name__)
            self._unfollowed.extend(after)

    @claimed_first
    async def close(self) -> None:
        while self.on_close:
            await self.on_close.pop()()
        if self._owns:
            with store_errors():
                await self._r.aclose()
        while self._node_clients:
            with store_errors():
                await self._node_clients.popitem()[1].aclose()
        if self._sentinel is not None:
            for client in self._sentinel.sentinels:
                with store_errors():
                    await client.aclose()
