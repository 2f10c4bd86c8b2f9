"""Per-user rate limits of the app's API: a token bucket each, kept for the
users seen lately only (at most `KEPT` buckets: the least recently used go)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

KEPT = 10_000


class RateLimit:
    """`burst` calls at once, then `per_second` on average, for each user."""

    def __init__(
        self, burst: float, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: OrderedDict[int, tuple[float, float]] = OrderedDict()

    def allow(self, user_id: int) -> bool:
        """Take one call from the user's bucket; False when it is empty."""
        now = self.clock()
        tokens, at = self._buckets.pop(user_id, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.per_second)
        allowed = tokens >= 1.0
        self._buckets[user_id] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > KEPT:
            self._buckets.popitem(last=False)
        return allowed

    def wait(self, user_id: int) -> float:
        """Seconds until the user's bucket holds a call again (0: it does)."""
        tokens, at = self._buckets.get(user_id, (self.burst, self.clock()))
        tokens = min(self.burst, tokens + (self.clock() - at) * self.per_second)
        return max(0.0, (1.0 - tokens) / self.per_second)
