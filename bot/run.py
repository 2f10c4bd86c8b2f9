"""Running the bot: long polling, or a webhook server when WEBHOOK_URL is set.

Both modes stop alike on SIGTERM (``docker stop``) or SIGINT: at once they take
no new updates, /readyz answers 503 and the timers start no new tick; the
updates in hand, the timers firing and the groups' outboxes may finish for up
to ``DRAIN_SECONDS``; then the store and the Bot API session close and the
process exits 0.

(aiogram's own `start_polling` stops differently: it closes the session while
handlers still run, and `asyncio.run` then cancels them. So polling runs here
without aiogram's signal handling, and the drain waits for the handlers first.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError, TelegramServerError
from aiohttp import web

from bot.app import (
    App,
    build_app,
    freeze_startup_objects,
    make_bot,
    make_store,
    register_commands,
    register_menu_button,
)
from bot.config import Settings
from bot.ops import logs
from bot.ops.health import Health
from bot.service.games import Defaults
from bot.service.thinking import Thinker
from bot.store.delivery import lease_for
from bot.webapp.server import WebApp
from bot.words.app import AppLinks

log = logging.getLogger("bot")


async def reach_api(bot: Bot, stop: asyncio.Event) -> bool:
    """Wait, with backoff, until the Bot API answers: a network blip at start is
    no reason to die (polling itself retries once it runs). False: stopped first."""
    delay = 1.0
    while not stop.is_set():
        try:
            await bot.me()
            return True
        except (TelegramNetworkError, TelegramServerError) as e:
            log.warning("Bot API not reachable (%s); retrying in %.0fs", e, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), delay)
            delay = min(delay * 2, 60.0)
    return False


#: updates in the process at once (handled or waiting their turn): polling
#: fetches no more until one ends. Past capacity `bot.handlers.admission` sheds
#: presses long before this; it bounds the memory a burst of commands can take.
TASK_LIMIT = 1000


async def poll(app: App, stop: asyncio.Event, drain_seconds: float) -> None:
    """Long polling until `stop`; then no new updates, and the ones in hand
    finish (up to `drain_seconds`) while the session is still open."""
    dp = app.dispatcher
    polling = asyncio.create_task(
        dp.start_polling(
            app.bot,
            handle_signals=False,
            close_bot_session=False,
            tasks_concurrency_limit=TASK_LIMIT,
        )
    )
    stopping = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({polling, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
    if polling in done:
        polling.result()  # polling ended on its own: raise what ended it
        return
    try:
        await dp.stop_polling()
    except RuntimeError:  # stopped before polling had even started
        polling.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await polling
    log.info("polling stopped: no new updates")
    await app.observer.drain(drain_seconds)


async def serve_webapp(webapp: WebApp, settings: Settings) -> web.AppRunner:
    """The Mini App on a port of its own (WEBAPP_HOST, WEBAPP_PORT); no
    access log (its lines hold the caller's address, and a private chat's id —
    a person's — in the query)."""
    runner = web.AppRunner(webapp.application(settings.webapp_path), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, settings.webapp_host, settings.webapp_port).start()
    return runner


async def menus(app: App, settings: Settings) -> None:
    """The commands menu, and the Mini App as the private chats' menu button."""
    await register_commands(app.bot, app.games.tr)
    links = app.games.app
    if links is not None:
        await register_menu_button(app.bot, links, app.games.tr, settings.default_lang)


async def run(settings: Settings) -> int:
    logs.setup(settings.log_level, settings.log_format)
    logs.set_pseudonym_key(settings.bot_token.get_secret_value())  # stable across restarts
    if settings.sentry_dsn is not None:
        logs.init_sentry(settings.sentry_dsn.get_secret_value())
    bot = make_bot(settings)
    store = make_store(settings)
    app = build_app(
        bot,
        store,
        Defaults(
            lang=settings.default_lang,
            turn_timeout=settings.turn_timeout,
            choice_timeout=settings.choice_timeout,
            computer_pause=settings.computer_pause,
        ),
        thinker=Thinker(settings.computer_workers),
        app_links=(
            AppLinks(settings.webapp_url, settings.miniapp_short_name)
            if settings.webapp_url
            else None
        ),
        webapp_auth_max_age=settings.webapp_auth_max_age,
        update_lease=lease_for(settings.drain_seconds),
        review_cpu=settings.review_cpu_seconds,
    )
    app.games.pictures.warm()  # the drawing process starts beside the bot, not at a result
    health = Health(store, app.ticker)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    stopped_at: list[float] = []

    def on_signal(sig: signal.Signals) -> None:
        if stop.is_set():
            log.info("%s: already stopping", sig.name)
            return
        log.info("%s: stopping (up to %.0fs for what is in hand)", sig.name, settings.drain_seconds)
        stopped_at.append(loop.time())
        health.stopping = True
        app.ticker.stop()  # the tick under way finishes; no new one starts
        stop.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)

    ticker: asyncio.Task[None] | None = None
    menu: asyncio.Task[None] | None = None
    webapp: web.AppRunner | None = None
    try:
        try:
            await health.start(settings.health_host, settings.health_port)
        except OSError as e:
            log.error(
                "cannot listen on %s:%s for /healthz, /readyz, /metrics (%s): "
                "set HEALTH_HOST and HEALTH_PORT",
                settings.health_host,
                settings.health_port,
                e,
            )
            return 1
        if app.webapp is not None and not settings.webapp_on_webhook_server:
            try:
                webapp = await serve_webapp(app.webapp, settings)
            except OSError as e:
                log.error(
                    "cannot listen on %s:%s for the Mini App (%s): set WEBAPP_HOST and WEBAPP_PORT",
                    settings.webapp_host,
                    settings.webapp_port,
                    e,
                )
                return 1
        freeze_startup_objects()
        ticker = asyncio.create_task(app.ticker.run())
        # the commands menu is optional: a slow or refusing server never delays serving
        menu = asyncio.create_task(menus(app, settings))
        if settings.webhook_url:
            from bot.webhook import serve

            await serve(app, settings, stop)
        elif await reach_api(bot, stop):
            await bot.delete_webhook(drop_pending_updates=False)
            await poll(app, stop, settings.drain_seconds)
    finally:
        health.stopping = True
        if menu is not None:
            menu.cancel()
        app.ticker.stop()
        if ticker is not None:
            since = loop.time() - (stopped_at[0] if stopped_at else loop.time())
            try:
                await asyncio.wait_for(ticker, max(0.5, settings.drain_seconds - since))
            except TimeoutError:
                log.warning("a timer was still running at shutdown")
        if app.webapp is not None:  # its streams end; its answers are told
            await app.webapp.close()
        if webapp is not None:
            await webapp.cleanup()
        # the lobby calls and what the groups are still to be told, in what time is left
        since = loop.time() - (stopped_at[0] if stopped_at else loop.time())
        await app.telling.drain(max(0.5, settings.drain_seconds - since))
        await app.close_feed()
        await health.stop()
        app.games.thinker.close()
        app.games.pictures.close()
        await store.close()
        await bot.session.close()
        log.info("stopped")
    return 0
