"""An outage told once a while, not once a failure: a full or unreachable
store fails every timer every tick (twice a second), and the log would say so
each time. `OutageLog` tells the first failure, then at most one line every
`every` seconds (with how many failures it did not tell), and the end of the
outage once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable


class OutageLog:
    def __init__(
        self,
        log: logging.Logger,
        what: str,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = log
        self.what = what  # what fails, as the log names it ("timers")
        self.every = every
        self.clock = clock
        self.since: float | None = None  # when the outage began (None: none)
        self._told_at = 0.0
        self._untold = 0

    def failed(self, reason: str, level: int = logging.WARNING) -> None:
        """One more failure: told if it is the first, or `every` seconds
        after the last one told."""
        now = self.clock()
        if self.since is None:
            self.since = now
        elif now - self._told_at < self.every:
            self._untold += 1
            return
        more = f" ({self._untold} more failures since)" if self._untold else ""
        self.log.log(level, "%s: %s wait%s", reason, self.what, more)
        self._told_at, self._untold = now, 0

    def ok(self) -> None:
        """It works again: the end of an outage is told once."""
        if self.since is not None:
            lasted = self.clock() - self.since
            self.log.warning("%s go on: the store is back after %.0fs", self.what, lasted)
            self.since, self._untold = None, 0
