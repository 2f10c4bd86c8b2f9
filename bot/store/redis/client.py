"""The clients the store runs on: one node's connection pool (plain or found
through Sentinel) and a Redis Cluster's client, each bounded to a number of
calls at once so a burst waits its turn instead of failing or opening a
connection each."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.asyncio.connection import AbstractConnection, BlockingConnectionPool
from redis.asyncio.sentinel import SentinelConnectionPool

#: the store's client: one node's (a primary, maybe with replicas), or a
#: cluster's — told apart where it matters (`isinstance`), never cast
Client = Redis | RedisCluster
#: a pipeline of either
Pipe = Pipeline | ClusterPipeline


#: a process's connections to Redis at most (`RedisStore.from_url`): an
#: update's calls go one after another, so this many updates, timers, streams
#: opening and the feed's subscriber are served at once; more wait their turn
POOL_CONNECTIONS = 64


class BoundedPool(BlockingConnectionPool):
    """`BlockingConnectionPool` that waits only when it must: while a
    connection is free (or may be opened) and nobody waits for one, it is
    taken at once — no lock, no timer, as redis-py's plain pool takes it; a
    call finding all ``max_connections`` busy, or others waiting, goes the
    blocking way and waits its turn (so none is overtaken). The blocking
    pool's own way costs every call a condition and a timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = 0

    async def get_connection(
        self, command_name: object = None, *keys: object, **options: object
    ) -> AbstractConnection:
        if self._waiting or not self.can_get_connection():
            self._waiting += 1
            try:
                return await super().get_connection()  # type: ignore[no-untyped-call,no-any-return]
            finally:
                self._waiting -= 1
        connection: AbstractConnection = self.get_available_connection()  # type: ignore[no-untyped-call]
        try:
            await self.ensure_connection(connection)
        except BaseException:
            await self.release(connection)
            raise
        return connection


class BlockingSentinelPool(SentinelConnectionPool, BoundedPool):
    """The primary's connections as Sentinel names it (asked again on each new
    connection: a promoted replica is found by itself), at most
    ``max_connections`` of them: a call when all are busy waits its turn, as
    with `BlockingConnectionPool` (`POOL_CONNECTIONS`)."""


#: set while a call holds one of `BoundedCluster`'s turns: a call inside it
#: (a pipeline's redirected command sent again) goes without a turn of its own
_holding_turn: contextvars.ContextVar[bool] = contextvars.ContextVar("turn", default=False)


class BoundedCluster(RedisCluster):
    """`RedisCluster` serving at most ``max_connections`` calls at once, as
    `BoundedPool` does for one node: a call when all are busy waits its turn
    (up to `wait` seconds, then fails as a connection not had). Each call
    holds at most one connection a master, so no master is ever asked for
    more than that many — redis-py's cluster has no waiting of its own: a
    call past a master's ``max_connections`` fails at once (a burst of pages
    opening would be told that Redis is down)."""

    def __init__(self, *args: Any, wait: float = 5.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._turns = asyncio.Semaphore(int(kwargs.get("max_connections", POOL_CONNECTIONS)))
        self._wait = wait

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if _holding_turn.get():
            yield
            return
        if self._turns.locked():
            try:
                async with asyncio.timeout(self._wait):
                    await self._turns.acquire()
            except TimeoutError:
                raise redis.exceptions.ConnectionError("No connection available.") from None
        else:
            await self._turns.acquire()
        held = _holding_turn.set(True)
        try:
            yield
        finally:
            _holding_turn.reset(held)
            self._turns.release()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self.turn():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if shard_hint:
            return super().pipeline(transaction, shard_hint)
        return _BoundedClusterPipeline(self, transaction)  # type: ignore[abstract]


class _BoundedClusterPipeline(ClusterPipeline):
    """A pipeline of `BoundedCluster`: its round trip takes one turn."""

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        client = self.cluster_client
        assert isinstance(client, BoundedCluster)
        async with client.turn():
            return await super().execute(raise_on_error, allow_redirections)
