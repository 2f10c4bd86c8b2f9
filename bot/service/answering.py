"""Presses this process holds and has not answered yet.

A press's answerCallbackQuery stops the spinner on the person's button, so it
is the first request a press causes. A handler answers before it asks Telegram
for anything else, but a group's outbox works in a task of its own and could
edit the lobby or the table a press changed before the press's answer went
out. So each press is held from the moment its handler starts until it is
answered (or the handler ends), and an outbox waits, bounded by `wait`
seconds, for the presses held when its next request is due — only those: a
stream of new presses never starves a group.
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar

#: how long an outbox waits at most for the presses in hand to be answered
ANSWER_WAIT = 1.0

#: the press the running handler holds (set by `Unanswered.hold`)
_PRESS: ContextVar[asyncio.Future[None] | None] = ContextVar("unanswered_press", default=None)


class Unanswered:
    def __init__(self, wait: float = ANSWER_WAIT) -> None:
        self.wait = wait
        self._held: set[asyncio.Future[None]] = set()

    def hold(self) -> asyncio.Future[None]:
        """A press starts being handled (in this task's context)."""
        press: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._held.add(press)
        press.add_done_callback(self._held.discard)
        _PRESS.set(press)
        return press

    @staticmethod
    def release(press: asyncio.Future[None] | None = None) -> None:
        """`press` (by default the running handler's) is answered or done."""
        press = press if press is not None else _PRESS.get()
        if press is not None and not press.done():
            press.set_result(None)

    async def answered(self) -> None:
        """Until the presses held now are answered, `wait` seconds at most."""
        held = [p for p in self._held if not p.done()]
        if held:
            await asyncio.wait(held, timeout=self.wait)
