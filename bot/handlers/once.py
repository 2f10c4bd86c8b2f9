"""Each update is handled once, however often Telegram delivers it — also
when the process handling it is killed.

Telegram delivers an update again when it got no answer in time: a webhook's
retry (the webhook answers only once the update is handled: `bot.webhook`),
or a poller killed before it confirmed what it took. Handled twice, a press
would cycle a setting twice or answer a prompt the player already left.
`OncePerUpdate`, an outer middleware on the dispatcher's ``update`` observer,
claims the update's id in the store (shared by every bot process) as a short
lease while it is handled (`bot.store.delivery`), renewed every third of it
while the handling runs, made final when it is done, and given back when it
fails. A redelivery that finds it final is dropped; one that finds a lease
waits until the lease is made final (dropped then), given back, or runs out —
the process holding it was killed and told nobody — and is then handled, by
whichever process takes the lease first. A store that can makes the claim
with the update's first read: no round trip of its own before the handling,
and a redelivery stops at that read, before anything is written.

A redelivery waits for another handling's lease *outside* its chat's turn
and its place among the updates handled at once (`LeaseWait`, the outermost
of these middlewares: `OncePerUpdate` raises `LeaseHeld` out through
`ChatOrder` and `Admission`): a process killed mid-update, whose lease runs
for seconds, holds back neither that chat's other presses nor anyone
else's — the redelivery takes its turn again once it has the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.ops import metrics
from bot.store import Store, StoreUnavailable
from bot.store import delivery as deliveries
from bot.store.delivery import Delivery, Redelivered, lease_for

log = logging.getLogger(__name__)

#: a redelivery waits for another handling's lease at most this many leases
#: (a handling alive and renewing that long is stuck: it keeps the update)
WAIT_LEASES = 10
#: how often, in seconds, a redelivery waiting for another handling's lease
#: asks the store again (at most a quarter of the lease)
WAIT_STEP = 0.5
#: the handler data's key of a delivery whose lease `LeaseWait` took
TAKEN = "taken_delivery"


class LeaseHeld(Exception):
    """Another handling holds the update's lease: its delivery waits for it
    outside the chat's turn and the admission's slot (`LeaseWait`)."""

    def __init__(self, update_id: int) -> None:
        super().__init__(update_id)
        self.update_id = update_id


class Renewal:
    """A handling's lease kept while it runs: a timer a third of the lease
    away, which starts renewing only for a handling still under way then —
    almost every update is over long before, and costs a timer, not a task."""

    def __init__(self, once: OncePerUpdate, delivery: Delivery) -> None:
        self._task: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(
            delivery.lease / 3, self._start, once, delivery
        )

    def _start(self, once: OncePerUpdate, delivery: Delivery) -> None:
        self._task = asyncio.create_task(once.renew(delivery), name="update lease")

    def cancel(self) -> None:
        self._timer.cancel()
        if self._task is not None:
            self._task.cancel()


class OncePerUpdate(BaseMiddleware):
    def __init__(self, store: Store, lease: float = lease_for(8.0)) -> None:
        self.store = store
        self.lease = lease

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        held: Delivery | None = data.pop(TAKEN, None)  # taken while waiting (`LeaseWait`)
        try:
            return await self._once(handler, event, data, held)
        except Redelivered as e:
            if not e.held:
                log.info("update %s delivered again: ignored", event.update_id)
                metrics.update_redelivered()
                return None
        # another handling holds its lease: wait for it, out of the chat's turn
        raise LeaseHeld(event.update_id)

    async def _once(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: Update,
        data: dict[str, Any],
        held: Delivery | None,
    ) -> Any:
        delivery = deliveries.begin(event.update_id, self.lease, held)
        renewing = Renewal(self, delivery)
        try:
            if not self.store.claims_with_reads:
                await delivery.settle(self.store.first_delivery)
            result = await handler(event, data)
        except BaseException:
            renewing.cancel()
            if delivery.won:
                with contextlib.suppress(StoreUnavailable):  # it runs out by itself
                    await self.store.release_delivery(delivery)
            raise
        finally:
            deliveries.end(delivery)
        renewing.cancel()
        try:
            if not delivery.settled:  # it never touched the store: claimed final at once
                delivery.take()
                delivery.made(await self.store.first_delivery(delivery, final=True))
            elif delivery.finishable:  # (not made final with a save already)
                await self.store.finish_delivery(delivery)
        except Redelivered:
            pass  # another delivery of it ran meanwhile; this one is over all the same
        except StoreUnavailable as e:
            # handled, but not marked so: a redelivery within the lease waits for
            # it, a later one is handled again (the store refuses writes now)
            log.warning("update %s handled, its claim not made final: %s", event.update_id, e)
        return result

    async def renew(self, delivery: Delivery) -> None:
        """Every third of the lease, while the handling runs, its lease starts again."""
        with contextlib.suppress(StoreUnavailable):
            while True:
                if delivery.final:  # made so by a save: no lease left to keep
                    return
                if delivery.won and not await self.store.renew_delivery(delivery):
                    return
                await asyncio.sleep(delivery.lease / 3)

    async def wait(self, update_id: int) -> Delivery | None:
        """Another handling holds the update's lease: poll until it is final
        (None: the update was handled), or free — given back, or run out — and
        this delivery has taken it (the delivery to handle it with)."""
        step = min(WAIT_STEP, self.lease / 4)
        loop = asyncio.get_running_loop()
        until = loop.time() + WAIT_LEASES * self.lease
        log.info("update %s is being handled elsewhere: waiting for its lease", update_id)
        while loop.time() < until:
            await asyncio.sleep(step)
            probe = Delivery(update_id, self.lease)
            claim = await self.store.first_delivery(probe)
            if claim == "done":
                log.info("update %s delivered again: ignored", update_id)
                metrics.update_redelivered()
                return None
            if claim in ("won", "unclaimed"):
                log.info("update %s: its lease ran out unfinished, handled here", update_id)
                metrics.update_taken_over()
                probe.take()
                probe.made(claim)
                return probe
        log.warning("update %s: still held by another handling: ignored", update_id)
        return None


class LeaseWait(BaseMiddleware):
    """The outermost of the update middlewares that hold something (before
    `Admission` and `ChatOrder`): an update whose lease another handling
    holds (`LeaseHeld`) waits here, holding nothing, until it is handled
    elsewhere (dropped) or its lease is free and taken — then it goes
    through the chain again with that delivery (`TAKEN`). On its first pass
    nothing here yields before `ChatOrder` takes the chat's turn."""

    def __init__(self, once: OncePerUpdate) -> None:
        self.once = once

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        while True:
            try:
                return await handler(event, data)
            except LeaseHeld as e:
                taken = await self.once.wait(e.update_id)
                if taken is None:
                    return None
                data[TAKEN] = taken
