"""The dispatcher: every router, in order, with the services in its workflow data.

`build_dispatcher` makes a fresh dispatcher (tests build one per "process").
Services come in through the dispatcher's workflow data, each by name: the
service's parts (``play``, ``lobby``, ``seats``… `Games.parts`), the
``courier`` (how a handler answers and carries out what a command decided)
and ``tr`` (the `Translator`); a handler declares what it uses, and no
handler takes the whole service (``games`` is there for the middlewares
that guard every update). Handlers only translate
between Telegram and the service; they decide no rule."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher
from aiogram.types import CallbackQuery, ErrorEvent, TelegramObject

from bot.handlers.admission import Admission
from bot.handlers.channels import channel_router
from bot.handlers.courier import Courier
from bot.handlers.help import common_router
from bot.handlers.home import home_router
from bot.handlers.lobby import lobby_router
from bot.handlers.once import LeaseWait, OncePerUpdate
from bot.handlers.ordering import ChatOrder
from bot.handlers.private import private_router
from bot.handlers.table import table_router
from bot.service.games import Games
from bot.store import StoreFull, StoreNoReplicas, StoreReadOnly, StoreUnavailable
from bot.store.delivery import lease_for
from bot.words.i18n import Translator

log = logging.getLogger(__name__)


async def answer_first(
    handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
    event: TelegramObject,
    data: dict[str, Any],
) -> Any:
    """A press is held from its handler's start until it is answered (or the
    handler ends): the outboxes wait for its answer to go first."""
    assert isinstance(event, CallbackQuery)
    unanswered = data["courier"].outboxes.unanswered
    unanswered.hold(event.id)
    try:
        return await handler(event, data)
    finally:
        unanswered.release(event.id)


def build_dispatcher(
    games: Games,
    tr: Translator,
    courier: Courier,
    observer: BaseMiddleware | None = None,
    admission: Admission | None = None,
    update_lease: float = lease_for(8.0),
) -> Dispatcher:
    """A fresh dispatcher with every router and the services in its workflow
    data, and `courier` (the one the Mini App uses too); `observer` (an outer
    update middleware) sees every update first, also while it waits for its
    turn; `admission` (by default a new one) bounds the updates handled at
    once and sheds the presses past capacity."""
    # no FSM: nothing of it is used, and without it nothing before `ChatOrder`
    # yields to the event loop (see `bot.handlers.ordering`)
    dp = Dispatcher(games=games, tr=tr, courier=courier, disable_fsm=True)
    dp.workflow_data.update(games.parts())  # each part by name (see the module's notes)
    if observer is not None:
        dp.update.outer_middleware(observer)
    once = OncePerUpdate(games.store, update_lease)
    # a redelivery waits for another's lease here, holding no slot and no turn
    dp.update.outer_middleware(LeaseWait(once))
    admission = admission or Admission(tr)
    dp.update.outer_middleware(admission)  # past capacity, a press is shed at once
    dp.update.outer_middleware(ChatOrder(admission.refuse))
    # inside the chat's turn: nothing before `ChatOrder` may wait on the store
    # a redelivery is dropped, or waits for the lease of the handling under way
    dp.update.outer_middleware(once)
    dp.callback_query.outer_middleware(answer_first)  # held until answered (see Unanswered)
    dp.include_routers(
        channel_router(),  # first: a channel's post acts as nobody
        lobby_router(),
        table_router(),
        private_router(),
        home_router(),
        common_router(),
    )

    @dp.errors()
    async def on_error(event: ErrorEvent, bot: Bot) -> bool:
        update = event.update
        if isinstance(event.exception, StoreNoReplicas):
            # the primary keeps no write its replicas lack: reads go on, nothing was saved
            log.warning("store without replicas in sync while handling update %s", update.update_id)
            key = "err-store-noreplicas"
        elif isinstance(event.exception, StoreReadOnly):
            # a replica answered: reads go on, nothing of the update was saved
            log.warning("store read-only while handling update %s", update.update_id)
            key = "err-store-readonly"
        elif isinstance(event.exception, StoreFull):
            # nothing of the update was saved: the person is told so, and may retry
            log.warning("store full while handling update %s", update.update_id)
            key = "err-store-full"
        elif isinstance(event.exception, StoreUnavailable):
            log.warning("store unavailable while handling update %s", update.update_id)
            key = "err-unavailable"
        else:
            log.exception("update %s failed", update.update_id, exc_info=event.exception)
            key = "err-internal"
        text = tr.t(games.defaults.lang, key)
        try:
            if update.callback_query is not None:
                await update.callback_query.answer(text[:200], show_alert=True)
            elif update.message is not None:
                await update.message.reply(text)
        except Exception:  # the apology itself may fail (Telegram down): nothing more to do
            log.debug("could not report the error", exc_info=True)
        return True

    return dp
