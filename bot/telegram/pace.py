"""The outbound pace: stay inside Telegram's limits before Telegram has to say so.

- a group receives at most `group_per_minute` new messages a minute (20), and
  no two requests to one group come closer than `group_gap` seconds (about one
  a second, edits included);
- a group's new messages are spread out, not sent 20 at once and then none
  for a minute: one every `group_new_gap` seconds (3), with a burst of
  `group_burst` (3) after a quiet spell — a generic cell rate algorithm (GCRA),
  whose "theoretical arrival time" each new message moves on by the gap.
  Edits don't count;
- all chats together get at most `overall_per_second` requests a second (30).

A request *reserves* its slot at once (no await between looking and booking),
then sleeps until the slot; the call policy (`bot.telegram.call_policy`) holds a chat's
lock meanwhile, so requests to one chat keep their order. A group's outbox
first waits until the group is *free* (`wait_free`, booking nothing) and only
then decides what to send, so a burst of moves costs one table edit.
Time and sleep are injected for tests.

What it keeps is bounded: a group's entries (its last minute of new messages,
its last request, its GCRA arrival time) are dropped once none of them can
delay a request any more — at most once a `prune_every` seconds, a pass over
the groups it knows — so the maps hold the groups heard from in the last
minute, not every group since the start.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.ops import metrics


def is_group(chat_id: int) -> bool:
    return chat_id < 0


@dataclass
class Pace:
    group_per_minute: int = 20
    group_gap: float = 1.0
    overall_per_second: int = 30
    group_new_gap: float = 3.0
    group_burst: int = 3
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    _overall: list[float] = field(default_factory=list)  # booked moments, sorted
    _group_sends: defaultdict[int, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    _group_last: dict[int, float] = field(default_factory=dict)
    _group_tat: dict[int, float] = field(default_factory=dict)  # GCRA: theoretical arrival
    prune_every: float = 60.0
    _pruned_at: float = float("-inf")

    def _spread(self, chat_id: int, slot: float) -> float:
        """The first moment from `slot` on a new message to the group keeps its spread."""
        tat = self._group_tat.get(chat_id)
        if tat is None:
            return slot
        return max(slot, tat - (self.group_burst - 1) * self.group_new_gap)

    def reserve(self, chat_id: int, new_message: bool) -> float:
        """Book the earliest moment this request may go; returns that moment."""
        now = self.clock()
        if now - self._pruned_at >= self.prune_every:
            self.prune(now)
        slot = now
        if is_group(chat_id):
            last = self._group_last.get(chat_id)
            if last is not None:
                slot = max(slot, last + self.group_gap)
            if new_message:
                slot = self._spread(chat_id, slot)
                sends = self._group_sends[chat_id]
                while sends and sends[0] <= now - 60.0:
                    sends.popleft()
                if len(sends) >= self.group_per_minute:
                    slot = max(slot, sends[-self.group_per_minute] + 60.0)
        slot = self._overall_slot(now, slot)
        if is_group(chat_id):
            if new_message:
                self._group_sends[chat_id].append(slot)
                tat = self._group_tat.get(chat_id, slot)
                self._group_tat[chat_id] = max(tat, slot) + self.group_new_gap
            self._group_last[chat_id] = slot
        return slot

    def prune(self, now: float) -> None:
        """Forget the groups whose entries can no longer delay a request: every
        new message older than the minute, the last request a gap ago, the GCRA
        arrival time passed (a group forgotten is paced exactly as one kept)."""
        self._pruned_at = now
        for chat_id in [c for c, last in self._group_last.items() if last + self.group_gap <= now]:
            sends = self._group_sends.get(chat_id)
            if sends and sends[-1] > now - 60.0:
                continue
            if self._group_tat.get(chat_id, now) > now:
                continue
            del self._group_last[chat_id]
            self._group_sends.pop(chat_id, None)
            self._group_tat.pop(chat_id, None)

    def groups_kept(self) -> int:
        """How many groups the pace keeps entries for."""
        return len(self._group_last.keys() | self._group_sends.keys() | self._group_tat.keys())

    def free_at(self, chat_id: int, new_message: bool) -> float:
        """The earliest moment a request to the chat could go, booking nothing
        (the overall limit aside: it only ever delays by a fraction of a second)."""
        now = self.clock()
        if not is_group(chat_id):
            return now
        slot = now
        last = self._group_last.get(chat_id)
        if last is not None:
            slot = max(slot, last + self.group_gap)
        if new_message:
            slot = self._spread(chat_id, slot)
            sends = [t for t in self._group_sends.get(chat_id, ()) if t > now - 60.0]
            if len(sends) >= self.group_per_minute:
                slot = max(slot, sends[-self.group_per_minute] + 60.0)
        return slot

    async def wait_free(self, chat_id: int, new_message: bool) -> None:
        """Sleep until a request to the chat could go (see `free_at`)."""
        delay = self.free_at(chat_id, new_message) - self.clock()
        if delay > 0:
            await self.sleep(delay)

    def _overall_slot(self, now: float, slot: float) -> float:
        """The first moment from `slot` on with room in every one-second window around it."""
        booked = self._overall
        del booked[: bisect.bisect_right(booked, now - 1.0)]
        limit = self.overall_per_second
        while True:
            before = bisect.bisect_right(booked, slot) - bisect.bisect_left(booked, slot - 1.0)
            after = bisect.bisect_right(booked, slot + 1.0) - bisect.bisect_left(booked, slot)
            if before < limit and after < limit:
                break
            # move past the earliest booking of the crowded window
            crowded = bisect.bisect_left(booked, slot - 1.0 if before >= limit else slot)
            slot = booked[crowded] + 1.0 + 1e-6
        bisect.insort(booked, slot)
        return slot

    async def wait(self, chat_id: int, new_message: bool) -> None:
        slot = self.reserve(chat_id, new_message)
        delay = slot - self.clock()
        metrics.pace_waited(delay, chat_id)
        if delay > 0:
            await self.sleep(delay)
