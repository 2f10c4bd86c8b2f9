"""Webhook mode: an aiohttp server that checks Telegram's secret token.

Telegram gets its answer at once and the update is handled in the background
(aiogram's default: a chat waiting for its pace never holds up Telegram's
connections). On shutdown the server stops taking updates, then lets the ones
in hand finish (up to `DRAIN_SECONDS`) before the bot's session closes.
"""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urlsplit

from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.app import App
from bot.config import Settings

log = logging.getLogger(__name__)
DRAIN_SECONDS = 8.0  # within `docker stop`'s default 10 s before it kills


class DrainingRequestHandler(SimpleRequestHandler):
    """aiogram's handler, but closing waits for the updates still being handled
    instead of pulling the session from under them."""

    async def close(self) -> None:
        pending = set(self._background_feed_update_tasks)
        if pending:
            log.info("waiting for %d update(s) in hand", len(pending))
            _, late = await asyncio.wait(pending, timeout=DRAIN_SECONDS)
            if late:
                log.warning("%d update(s) still running at shutdown", len(late))
        await super().close()


def webhook_path(settings: Settings) -> str:
    assert settings.webhook_url is not None
    return urlsplit(settings.webhook_url).path or "/"


def make_web_app(app: App, settings: Settings) -> web.Application:
    """The aiohttp application that takes Telegram's updates at the webhook's
    path; a request without the right ``X-Telegram-Bot-Api-Secret-Token``
    header is answered 401 and never reaches the dispatcher. Binds no port and
    tells Telegram nothing (that is `serve`)."""
    if not settings.webhook_secret:
        # without a secret anyone who learns the URL could post forged updates
        # (press any player's buttons): refuse to serve rather than accept them
        raise ValueError("webhook mode needs WEBHOOK_SECRET")
    web_app = web.Application()
    DrainingRequestHandler(
        dispatcher=app.dispatcher, bot=app.bot, secret_token=settings.webhook_secret
    ).register(web_app, path=webhook_path(settings))
    setup_application(web_app, app.dispatcher, bot=app.bot)
    return web_app


async def serve(app: App, settings: Settings, stop: asyncio.Event) -> None:
    """Serve the webhook until `stop` is set, then shut down gracefully."""
    assert settings.webhook_url is not None
    web_app = make_web_app(app, settings)
    await app.bot.set_webhook(
        settings.webhook_url,
        secret_token=settings.webhook_secret,
        allowed_updates=app.dispatcher.resolve_used_update_types(),
    )
    runner = web.AppRunner(web_app)
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    try:
        await stop.wait()
        log.info("stopping: no new updates")
    finally:
        await runner.cleanup()
