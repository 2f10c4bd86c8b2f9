"""An update's claim: a short lease while it is handled, made final when done.

Each update is handled once however often Telegram delivers it. Its id is
claimed in the store (`Store.first_delivery`) with a lease — a token of this
handling's, kept `lease` seconds (longer than ``DRAIN_SECONDS``, and renewed
while the handling runs) — and made final once the handling is done
(`Store.finish_delivery`: kept `UPDATE_TTL`); a handling that fails gives it
back (`Store.release_delivery`). A redelivery that finds the claim final is
dropped; one that finds a lease waits for it (`bot.handlers.once`): the lease
is made final (dropped then) or runs out — its process was killed, nothing
gave it back — and the redelivery is handled, once, by whichever process
takes the lease next.

The final write rides, where it can, with the update's first save of a
chat's record (Redis: sent right behind the save's script in its round trip
on one node — the claim made final as ``done:<token>``, given back to the
handling as its lease when the save lost its compare-and-set; on a cluster
sent once the save answered that it was made): the handling's work is in the
store from then on — a process killed after it leaves a redelivery nothing to
do but find the press stale, so it is dropped. An update that saves no record
makes its claim final as it ends.

Made on its own, the claim is one more round trip for every update — a third
of what a press costs. A store that can (`Store.claims_with_reads`: Redis)
makes it instead together with the update's first read, in the same
pipeline: the update's handler runs until it first reads the store, and a
redelivery stops there (`Redelivered`) before it has changed anything. A
store call that writes, or reads without room for the claim, makes the claim
on its own first. An update that never touches the store is claimed (final
at once) as its handler ends.

A store that cannot write — Redis full, or read-only — cannot claim: the
update is handled unclaimed (`Delivery.unclaimed`), so a read-only command
still answers, and its first write fails as it would anyway (told plainly).

The claim rides in a context variable the handler's tasks inherit: whichever
of them calls the store first makes it, the others wait for its outcome.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Literal

#: what claiming an update found: it is this handling's now; another's lease
#: holds it (being handled, or its process died: wait); handled already; or
#: the store cannot write (handled without a claim)
Claim = Literal["won", "held", "done", "unclaimed"]
#: what an update's claim holds once it was handled (both stores)
DONE = "done"

#: how long an update's lease lasts, at least (it is renewed every third of it)
LEASE_SECONDS_MIN = 2.0


def lease_for(drain_seconds: float) -> float:
    """The lease of an update being handled: longer than ``DRAIN_SECONDS`` (a
    process stopping lets the updates in hand run that long, and must not
    lose them to another process meanwhile) — twice it, and 2 s more."""
    return 2 * drain_seconds + LEASE_SECONDS_MIN


class Redelivered(Exception):
    """The update is being handled, or was, already (here or by another
    process): its handler stops before its first read of the store.
    `held`: another handling's lease holds it (it may yet fail, or its
    process may be dead): wait for the lease, then try again."""

    def __init__(self, update_id: int, held: bool = False) -> None:
        super().__init__(update_id)
        self.update_id = update_id
        self.held = held


class Delivery:
    """One update's claim: not made yet, under way, or made (won or lost)."""

    def __init__(self, update_id: int, lease: float = lease_for(8.0)) -> None:
        self.update_id = update_id
        self.lease = lease
        self.token = secrets.token_hex(6)  # this handling's, in its lease
        self._outcome: asyncio.Future[Claim] | None = None
        self.over = False  # its handling ended: tasks it left behind claim nothing
        self.final = False  # made final already, by a save (`Store.save`)

    @property
    def outcome(self) -> Claim | None:
        o = self._outcome
        if o is None or not o.done() or o.exception() is not None:
            return None
        return o.result()

    @property
    def won(self) -> bool:
        """Whether this handling holds the update's lease (to make final when
        done, to give back on failure)."""
        return self.outcome == "won"

    @property
    def finishable(self) -> bool:
        """Whether a save may make the claim final with its own write: this
        handling holds the lease, and nothing has made it final yet."""
        return self.won and not self.final

    @property
    def unclaimed(self) -> bool:
        """Whether it runs without a claim (the store could not write one)."""
        return self.outcome == "unclaimed"

    @property
    def settled(self) -> bool:
        return self.outcome is not None

    def take(self) -> bool:
        """Whether the caller makes the claim now, with the read it is about to
        make (nobody has yet); then it must call `made` or `failed`."""
        if self._outcome is not None:
            return False
        self._outcome = asyncio.get_running_loop().create_future()
        return True

    def made(self, claim: Claim) -> None:
        assert self._outcome is not None
        if not self._outcome.done():
            self._outcome.set_result(claim)
        _raise_lost(self.update_id, claim)

    def failed(self, error: BaseException) -> None:
        """The round trip that carried the claim failed: nobody knows whether
        it was made — those waiting for it fail alike."""
        assert self._outcome is not None
        if not self._outcome.done():
            self._outcome.set_exception(error)
            self._outcome.exception()  # retrieved: it is raised where it matters

    async def settle(self, claim: Callable[[Delivery], Awaitable[Claim]]) -> None:
        """Claim the update once for every read racing for it ("settle" who
        holds it): make the claim with `claim` when nobody has; wait for it when someone
        is making it. Raises `Redelivered` when it was lost."""
        if self.take():
            try:
                got = await claim(self)
            except BaseException as e:
                self.failed(e)
                raise
            self.made(got)
            return
        assert self._outcome is not None
        # (shielded: one waiter cancelled does not cancel the claim for the
        # others; a claim made already is awaited without a pause)
        _raise_lost(self.update_id, await asyncio.shield(self._outcome))


def _raise_lost(update_id: int, claim: Claim) -> None:
    if claim == "done":
        raise Redelivered(update_id)
    if claim == "held":
        raise Redelivered(update_id, held=True)


_DELIVERY: ContextVar[Delivery | None] = ContextVar("smuta_delivery", default=None)


def begin(update_id: int, lease: float = lease_for(8.0), held: Delivery | None = None) -> Delivery:
    """The running handler's update, to be claimed with its first read — or
    `held`, a delivery whose lease is taken already (while waiting for another's)."""
    delivery = held if held is not None else Delivery(update_id, lease)
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
