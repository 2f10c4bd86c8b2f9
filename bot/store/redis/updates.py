"""Short-lived keys: an update's claim (`bot.store.delivery`: a lease while
it is handled, made final when done) — taken with the update's first read
(`Updates._read`), or on its own by a call that writes first
(`bot.store.redis.guard.claimed_first`), made final behind a save
(`Updates._claim_step`) — and what is done at most once a while
(`Store.once_within`, no update's claim)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis.exceptions

from bot.store import UPDATE_TTL
from bot.store.delivery import DONE, Claim, Delivery
from bot.store.delivery import current as current_delivery
from bot.store.redis.base import RedisBase
from bot.store.redis.client import Pipe
from bot.store.redis.guard import as_str, claimed_first, millis, refuses_writes, store_errors
from bot.store.redis.scripts import lua


def _claim_of(got: Any) -> Claim:
    """What SET NX GET on an update's key found (`Updates._lease`); a
    Redis that cannot write (full, read-only, without replicas in sync)
    leaves the update unclaimed."""
    if isinstance(got, redis.exceptions.ResponseError):
        if refuses_writes(got):
            return "unclaimed"
        raise got
    if isinstance(got, Exception):
        raise got
    if got is None:
        return "won"
    held = as_str(got)
    # (``done:<token>``: made final by a save, delivered.lua's ``saved``)
    return "done" if held in (DONE, "1") or held.startswith(DONE + ":") else "held"


class Updates(RedisBase):
    """The update's claim, and what is done at most once a while."""

    def _update_key(self, update_id: int) -> str:
        return f"{self.prefix}:update:{update_id}"

    def _lease(self, pipe: Pipe, delivery: Delivery, final: bool = False) -> None:
        """SET NX GET: nil when it was free (now this handling's lease, or
        ``done`` when `final`); else what holds it — a lease's token, ``done``
        (``1``: a claim from before leases, final too)."""
        key = self._update_key(delivery.update_id)
        if final:
            pipe.set(key, DONE, nx=True, get=True, ex=UPDATE_TTL)
        else:
            pipe.set(key, delivery.token, nx=True, get=True, px=millis(delivery.lease))

    async def first_delivery(self, delivery: Delivery, final: bool = False) -> Claim:
        with store_errors():
            async with self._r.pipeline(transaction=False) as pipe:
                self._lease(pipe, delivery, final)
                [got] = await pipe.execute(raise_on_error=False)
            return _claim_of(got)

    async def _delivered(self, delivery: Delivery, what: str) -> int:
        args = [delivery.token, what, str(UPDATE_TTL), str(millis(delivery.lease))]
        with store_errors():
            done = await self._delivered_script(
                keys=[self._update_key(delivery.update_id)], args=args
            )
        return int(done)

    async def renew_delivery(self, delivery: Delivery) -> bool:
        return await self._delivered(delivery, "renew") == 1

    async def finish_delivery(self, delivery: Delivery) -> None:
        await self._delivered(delivery, "done")

    async def release_delivery(self, delivery: Delivery) -> None:
        await self._delivered(delivery, "release")

    async def _read(self, *reads: Callable[[Pipe], object]) -> list[Any]:
        """`reads` in one round trip — with the running update's claim, when
        nobody has made it yet (`bot.store.delivery`: a lost claim raises
        `Redelivered`, and nothing was changed; a claim Redis cannot write —
        full, read-only — leaves the update unclaimed and the reads stand)."""
        delivery = current_delivery()
        claiming = delivery is not None and delivery.take()
        try:
            with store_errors():
                async with self._r.pipeline(transaction=False) as pipe:
                    for read in reads:
                        read(pipe)
                    if claiming:
                        assert delivery is not None
                        self._lease(pipe, delivery)
                    got = await pipe.execute(raise_on_error=False)
                claim = _claim_of(got.pop()) if claiming else None
                for result in got:
                    if isinstance(result, Exception):
                        raise result
        except BaseException as e:
            if claiming:
                assert delivery is not None
                delivery.failed(e)
            raise
        if claim is not None:
            assert delivery is not None
            delivery.made(claim)
        return list(got)

    def _claim_step(self, delivery: Delivery, what: str) -> tuple[str, ...]:
        """``delivered.lua`` as one command (EVAL: pipelined where a script
        the node lacks could not be loaded in between)."""
        args = [delivery.token, what, str(UPDATE_TTL), str(millis(delivery.lease))]
        return ("EVAL", lua("delivered"), "1", self._update_key(delivery.update_id), *args)

    # something done at most once a while (not an update's claim)

    @claimed_first
    async def once_within(self, name: str, now: float, seconds: int) -> bool:
        args = [repr(float(now)), repr(float(now + seconds)), str(max(1, seconds))]
        with store_errors():
            ok = await self._once_script(keys=[f"{self.prefix}:claim:{name}"], args=args)
        return int(ok) == 1
