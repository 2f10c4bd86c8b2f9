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

#: how long an outbox waits at most for the presses in hand to be answered
ANSWER_WAIT = 1.0


class Unanswered:
    """The presses in hand, by their callback query's id."""

    def __init__(self, wait: float = ANSWER_WAIT) -> None:
        self.wait = wait
        self._held: dict[str, asyncio.Future[None]] = {}

    def hold(self, press_id: str) -> None:
        """The press `press_id` starts being handled."""
        self._held[press_id] = asyncio.get_running_loop().create_future()

    def release(self, press_id: str) -> None:
        """The press `press_id` is answered, or its handling is over."""
        press = self._held.pop(press_id, None)
        if press is not None and not press.done():
            press.set_result(None)

    async def answered(self) -> None:
        """Until the presses held now are answered, `wait` seconds at most."""
        held = [p for p in self._held.values() if not p.done()]
        if held:
            await asyncio.wait(held, timeout=self.wait)
