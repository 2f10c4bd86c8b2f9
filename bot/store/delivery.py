"""An update's claim, made in the same round trip as its first read.

Each update is handled once however often Telegram delivers it: its id is
claimed in the store (`Store.first_delivery`, SET NX) and a redelivery is
dropped (`bot.handlers.once`). Made on its own, that claim is one more round
trip for every update — a third of what a press costs. A store that can
(`Store.claims_with_reads`: Redis) makes it instead together with the
update's first read, in the same pipeline: the update's handler runs until it
first reads the store, and a redelivery stops there (`Redelivered`) before it
has changed anything. A store call that writes, or reads without room for the
claim, makes the claim on its own first. An update that never touches the
store is claimed as its handler ends.

The claim rides in a context variable the handler's tasks inherit: whichever
of them calls the store first makes it, the others wait for its outcome.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextvars import ContextVar


class Redelivered(Exception):
    """The update is being handled, or was, already (here or by another
    process): its handler stops before its first read of the store."""


class Delivery:
    """One update's claim: not made yet, under way, or made (won or lost)."""

    def __init__(self, update_id: int) -> None:
        self.update_id = update_id
        self._outcome: asyncio.Future[bool] | None = None
        self.over = False  # its handling ended: tasks it left behind claim nothing

    @property
    def won(self) -> bool:
        """Whether this handling holds the update's claim (to give back on failure)."""
        o = self._outcome
        return o is not None and o.done() and o.exception() is None and o.result()

    def take(self) -> bool:
        """Whether the caller makes the claim now, with the read it is about to
        make (nobody has yet); then it must call `made` or `failed`."""
        if self._outcome is not None:
            return False
        self._outcome = asyncio.get_running_loop().create_future()
        return True

    def made(self, won: bool) -> None:
        assert self._outcome is not None
        if not self._outcome.done():
            self._outcome.set_result(won)
        if not won:
            raise Redelivered(self.update_id)

    def failed(self, error: BaseException) -> None:
        """The round trip that carried the claim failed: nobody knows whether
        it was made — those waiting for it fail alike."""
        assert self._outcome is not None
        if not self._outcome.done():
            self._outcome.set_exception(error)
            self._outcome.exception()  # retrieved: it is raised where it matters

    async def settle(self, claim: Callable[[int], Awaitable[bool]]) -> None:
        """Make the claim with `claim` when nobody has; wait for it when someone
        is making it. Raises `Redelivered` when it was lost."""
        if self.take():
            try:
                won = await claim(self.update_id)
            except BaseException as e:
                self.failed(e)
                raise
            self.made(won)
            return
        assert self._outcome is not None
        # (shielded: one waiter cancelled does not cancel the claim for the
        # others; a claim made already is awaited without a pause)
        if not await asyncio.shield(self._outcome):
            raise Redelivered(self.update_id)


_DELIVERY: ContextVar[Delivery | None] = ContextVar("smuta_delivery", default=None)


def begin(update_id: int) -> Delivery:
    """The running handler's update, to be claimed with its first read."""
    delivery = Delivery(update_id)
    _DELIVERY.set(delivery)
    return delivery


def current() -> Delivery | None:
    """The running handler's delivery (None outside an update's handling, and
    in the tasks a handling left behind once it is over)."""
    delivery = _DELIVERY.get()
    return None if delivery is None or delivery.over else delivery


def end(delivery: Delivery) -> None:
    """The update's handling is over (settled, or failed)."""
    delivery.over = True
    if _DELIVERY.get() is delivery:
        _DELIVERY.set(None)
