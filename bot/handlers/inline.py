"""Magic filters (``F.chat.type…``) checked on the event loop.

aiogram runs a filter that is not a coroutine function — a bare ``F…`` among
them — with ``asyncio.to_thread``: a hop to a worker thread and back for
every handler it is tried on, each message passing several. `Inline` wraps
one in a coroutine, so it is resolved where the update is handled.
"""

from __future__ import annotations

from typing import Any

from aiogram.filters import Filter
from magic_filter import MagicFilter


class Inline(Filter):
    """`rule` resolved on the event loop; passes when what it resolves to is true."""

    __slots__ = ("rule",)

    def __init__(self, rule: MagicFilter) -> None:
        self.rule = rule

    async def __call__(self, event: Any) -> bool:
        return bool(self.rule.resolve(event))
