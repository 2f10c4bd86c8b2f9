"""What every call of the Redis store goes through: its errors told as the
store's (`store_errors`), and — for every call of `Store` but the few that carry it
themselves — the running update's claim settled first (`claimed_first`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import redis.exceptions

from bot.store import Store, StoreFull, StoreNoReplicas, StoreReadOnly, StoreUnavailable
from bot.store.delivery import current as current_delivery

UNAVAILABLE = (
    redis.exceptions.ConnectionError,  # includes BusyLoadingError
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)


#: a Redis Cluster that cannot serve a slot now (a master down and not yet
#: replaced, slots not covered): an outage, as a lost connection is
_CLUSTER_DOWN = (
    redis.exceptions.ClusterDownError,  # (a ResponseError: told apart first)
    redis.exceptions.SlotNotCoveredError,
)

T = TypeVar("T")
S = TypeVar("S", bound=Store)
P = ParamSpec("P")


def awaited(result: Awaitable[T] | T) -> Awaitable[T]:
    """redis-py types each command as sync-or-async; on the asyncio client it is async."""
    return cast(Awaitable[T], result)


def as_str(value: Any) -> str:
    """A reply's value as text, from a client with or without ``decode_responses``."""
    return value.decode() if isinstance(value, bytes) else str(value)


def millis(seconds: float) -> int:
    """`seconds` as whole milliseconds, at least one (a PX or a script's ms)."""
    return max(1, round(seconds * 1000))


def is_full(error: redis.exceptions.ResponseError) -> bool:
    """Redis refused a write for want of memory (``OOM command not allowed…``),
    told directly, from inside a script, or as the reason a MULTI was discarded."""
    if isinstance(error, redis.exceptions.OutOfMemoryError):
        return True
    text = str(error)
    return "OOM " in text or "used memory > 'maxmemory'" in text


def no_replicas(error: redis.exceptions.ResponseError) -> bool:
    """The primary refused a write for want of replicas in sync (``NOREPLICAS``)."""
    return "NOREPLICAS" in str(error)


def refuses_writes(error: redis.exceptions.ResponseError) -> bool:
    """Redis answered but will write nothing now: full, a read-only replica,
    or a primary without replicas in sync."""
    return is_full(error) or isinstance(error, redis.exceptions.ReadOnlyError) or no_replicas(error)


def cancelled_meanwhile() -> None:
    """Raise the running task's cancellation if a call of the Redis client
    returned without it. The client sends with ``asyncio.wait_for`` when it has
    a socket timeout, and on Python 3.11 ``wait_for`` returns the send's result
    when the task is cancelled as the send completes, dropping the cancellation
    (python/cpython#86296): a timer loop told to stop then ticks on for good, a
    drained outbox is never done, ``asyncio.timeout`` never times out."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError()


@contextmanager
def store_errors() -> Iterator[None]:
    try:
        yield
        cancelled_meanwhile()
    except _CLUSTER_DOWN as e:
        raise StoreUnavailable(str(e) or type(e).__name__) from e
    except redis.exceptions.ResponseError as e:
        if is_full(e):
            raise StoreFull("Redis is full (maxmemory): nothing was written") from e
        if isinstance(e, redis.exceptions.ReadOnlyError):
            raise StoreReadOnly("Redis is read-only (a replica): nothing was written") from e
        if no_replicas(e):
            raise StoreNoReplicas("Redis has too few replicas in sync: nothing was written") from e
        raise
    except UNAVAILABLE as e:
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            # the call was cancelled as it timed out, and the client told it as a
            # timeout: it is the cancellation, which must not pass for an outage
            raise asyncio.CancelledError() from e
        raise StoreUnavailable(str(e) or type(e).__name__) from e


def claimed_first(
    call: Callable[Concatenate[S, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, T]]:
    """A call of the store that makes the running update's claim on its own
    first (`bot.store.delivery`), or waits for the read making it: nothing is
    written for an update before it is known to be its first delivery (a lost
    claim raises `Redelivered` before the call sends anything).

    Written on every method of `Store` but those that carry the claim
    themselves: the reads that make it in their own round trip (`load`,
    `load_with_messages`, `user`: `RedisStore._read`) and the claim's own
    calls (`first_delivery`, `renew_delivery`, `finish_delivery`,
    `release_delivery`). ``tests/bot/test_delivery.py`` makes every call
    written with it for an update handled already, and finds each stopped
    by the claim before it sent anything else."""

    @functools.wraps(call)
    async def claimed(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        delivery = current_delivery()
        if delivery is not None:
            await delivery.settle(self.first_delivery)
        return await call(self, *args, **kwargs)

    return claimed
