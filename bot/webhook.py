"""Webhook mode: an aiohttp server that checks Telegram's secret token."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.app import App
from bot.config import Settings


async def serve(app: App, settings: Settings) -> None:
    assert settings.webhook_url is not None
    path = urlsplit(settings.webhook_url).path or "/"
    web_app = web.Application()
    SimpleRequestHandler(
        dispatcher=app.dispatcher, bot=app.bot, secret_token=settings.webhook_secret
    ).register(web_app, path=path)
    setup_application(web_app, app.dispatcher, bot=app.bot)
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
