"""Each update is handled once, however often Telegram delivers it.

Telegram delivers an update again when it got no answer in time: a webhook's
retry, or a poller killed before it confirmed what it took. Handled twice, a
press would cycle a setting twice or answer a prompt the player already left.
`OncePerUpdate`, an outer middleware on the dispatcher's ``update`` observer,
claims the update's id in the store (shared by every bot process, kept for
`bot.store.UPDATE_TTL`) and drops a redelivery. A store that can makes the
claim with the update's first read (`bot.store.delivery`): no round trip of
its own, and a redelivery stops at that read, before anything is written.
An update whose handling fails gives its claim back, so a redelivery may try
again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.ops import metrics
from bot.store import Store
from bot.store import delivery as deliveries
from bot.store.delivery import Redelivered

log = logging.getLogger(__name__)


class OncePerUpdate(BaseMiddleware):
    def __init__(self, store: Store) -> None:
        self.store = store

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        if not isinstance(event, Update):
            return await handler(event, data)
        delivery = deliveries.begin(event.update_id)
        try:
            if not self.store.claims_with_reads:
                await delivery.settle(self.store.first_delivery)
            result = await handler(event, data)
            # an update that never read the store is claimed as it ends
            await delivery.settle(self.store.first_delivery)
            return result
        except Redelivered:
            log.info("update %s delivered again: ignored", event.update_id)
            metrics.update_redelivered()
            return None
        except BaseException:
            if delivery.won:
                await self.store.release_delivery(event.update_id)
            raise
        finally:
            deliveries.end(delivery)
