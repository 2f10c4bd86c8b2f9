"""Webhook mode: an aiohttp server that checks Telegram's secret token."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.app import App
from bot.config import Settings


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
    SimpleRequestHandler(
        dispatcher=app.dispatcher, bot=app.bot, secret_token=settings.webhook_secret
    ).register(web_app, path=webhook_path(settings))
    setup_application(web_app, app.dispatcher, bot=app.bot)
    return web_app


async def serve(app: App, settings: Settings) -> None:
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
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
