"""Webhook mode: an aiohttp server that checks Telegram's secret token.

Telegram gets its answer once the update is handled — within `ANSWER_WITHIN`
seconds at most (Telegram waits 60 s): a handling that takes longer goes on
in the background and Telegram is answered then. So a process killed while
it handles an update answers nothing, and Telegram delivers the update again
— to this process once it is back, or to another behind the same address —
where it is handled once (`bot.handlers.once`: the killed handling's lease
runs out). On shutdown the server stops taking updates, then lets the ones
in hand finish (up to ``DRAIN_SECONDS``) before the bot's session closes; one
still unfinished then is cut off unanswered, and Telegram delivers it again.

A body that carries the right secret but is no update — no JSON, JSON nested
deeper than an update nests, a float where an update has integers, or an
object Telegram's types refuse — is answered 400 before the dispatcher sees
it (`updates_only`), with one INFO line and nothing of the body: never a 500
and a traceback that quotes it.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Any
from urllib.parse import urlsplit

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from pydantic import ValidationError

from bot.app import App
from bot.config import Settings
from bot.ops.http import BadBody, bounded_json, harden

log = logging.getLogger(__name__)


#: Telegram is answered within this many seconds of an update's arrival, the
#: update handled or not (Telegram waits 60 s, then delivers it again)
ANSWER_WITHIN = 50.0


class DrainingRequestHandler(SimpleRequestHandler):
    """aiogram's handler, answering Telegram once the update is handled (at
    most `ANSWER_WITHIN` seconds on); closing (which closes the bot's
    session) first waits, up to `drain_seconds` in all, for the updates still
    being handled, then for the calls to new lobbies and the groups' outboxes
    they fed, instead of pulling the session from under them."""

    def __init__(
        self, dispatcher: Dispatcher, bot: Bot, secret_token: str, app: App, drain_seconds: float
    ) -> None:
        super().__init__(
            dispatcher=dispatcher, bot=bot, secret_token=secret_token, handle_in_background=False
        )
        self.app = app
        self.drain_seconds = drain_seconds

    async def _handle_request(self, bot: Bot, request: web.Request) -> web.Response:
        """The update handled, then answered (a handling past `ANSWER_WITHIN`
        goes on in the background: aiogram's own bound, with its warning)."""
        update = await request.json(loads=bot.session.json_loads)
        result: TelegramMethod[Any] | None = await self.dispatcher.feed_webhook_update(
            bot, update, _timeout=ANSWER_WITHIN, **self.data
        )
        return web.Response(body=self._build_response_writer(bot=bot, result=result))

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + self.drain_seconds
        await self.app.observer.drain(self.drain_seconds)
        await self.app.telling.drain(max(0.5, until - loop.time()))
        await super().close()

    def verify_secret(self, telegram_secret_token: str, bot: Bot) -> bool:
        """Compared as bytes: a header that is not ASCII (aiohttp gives its
        undecodable bytes as surrogates) is a wrong secret — 401 — where
        comparing it as text would raise (500, and a traceback per request)."""
        if not self.secret_token:
            return True  # never here: `make_web_app` refuses to run without a secret
        given = telegram_secret_token.encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, self.secret_token.encode("utf-8"))


#: an update nests a few levels (a message in a reply in a message, entities,
#: keyboards): far less than this
UPDATE_DEPTH = 32
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: once the drain is over, the answers of updates handled meanwhile get this
#: long to go out before the server's connections close
ANSWERED_ON_SHUTDOWN = 2.0


def updates_only(path: str, hook: DrainingRequestHandler) -> Middleware:
    """A middleware: a POST to the webhook's path with the right secret whose
    body is no update is answered 400 (a wrong secret is still the handler's
    401: nothing is told to who cannot prove they are Telegram)."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method != "POST" or request.path != path:
            return await handler(request)
        if not hook.verify_secret(request.headers.get(SECRET_HEADER, ""), hook.bot):
            return await handler(request)
        try:
            raw = await request.read()  # kept: the handler's request.json() reads it again
            Update.model_validate(bounded_json(raw, UPDATE_DEPTH), context={"bot": hook.bot})
        except (BadBody, ValidationError) as e:
            why = e.__class__.__name__ if isinstance(e, ValidationError) else str(e)
            log.info("webhook: refused a body that is no update (%s)", why)
            return web.Response(status=400, text="Bad Request")
        return await handler(request)

    return check


def webhook_path(settings: Settings) -> str:
    assert settings.webhook_url is not None
    return urlsplit(settings.webhook_url).path or "/"


def make_web_app(app: App, settings: Settings) -> web.Application:
    """The aiohttp application that takes Telegram's updates at the webhook's
    path; a request without the right ``X-Telegram-Bot-Api-Secret-Token``
    header is answered 401 and never reaches the dispatcher. Binds no port and
    tells Telegram nothing (that is `serve`)."""
    if settings.webhook_secret is None:
        # Settings refuse this already; without a secret anyone who learns the
        # URL could post forged updates (press any player's buttons)
        raise ValueError("webhook mode needs WEBHOOK_SECRET")
    harden()
    handler = DrainingRequestHandler(
        dispatcher=app.dispatcher,
        bot=app.bot,
        secret_token=settings.webhook_secret.get_secret_value(),
        app=app,
        drain_seconds=settings.drain_seconds,
    )
    path = webhook_path(settings)
    web_app = web.Application(middlewares=[updates_only(path, handler)])
    handler.register(web_app, path=path)
    if app.webapp is not None and settings.webapp_on_webhook_server:
        app.webapp.add_routes(web_app, settings.webapp_path)
    setup_application(web_app, app.dispatcher, bot=app.bot)
    return web_app


async def serve(app: App, settings: Settings, stop: asyncio.Event) -> None:
    """Serve the webhook until `stop` is set, then shut down gracefully."""
    assert settings.webhook_url is not None and settings.webhook_secret is not None
    web_app = make_web_app(app, settings)
    await app.bot.set_webhook(
        settings.webhook_url,
        secret_token=settings.webhook_secret.get_secret_value(),
        allowed_updates=app.dispatcher.resolve_used_update_types(),
    )
    # no access log: the Mini App's requests name people. The updates in hand
    # are drained (on shutdown, up to DRAIN_SECONDS) before the connections
    # close: one still open then is cut off unanswered, for Telegram to retry
    runner = web.AppRunner(web_app, access_log=None, shutdown_timeout=ANSWERED_ON_SHUTDOWN)
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    try:
        await stop.wait()
        log.info("stopping: no new updates")
    finally:
        await runner.cleanup()
