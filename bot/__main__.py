"""`python -m bot`: run the bot — long polling, or a webhook server when WEBHOOK_URL is set."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from aiogram import Bot
from aiogram.exceptions import TelegramNetworkError, TelegramServerError

from bot.app import build_app, freeze_startup_objects, make_bot, make_store, register_commands
from bot.config import Settings
from bot.games import Defaults

TICKER_GRACE = 5.0  # seconds a tick under way may take to finish at shutdown
OUTBOX_GRACE = 5.0  # seconds the groups' outboxes may take to empty at shutdown


async def reach_api(bot: Bot) -> None:
    """Wait, with backoff, until the Bot API answers: a network blip at start is
    no reason to die (polling itself retries once it runs)."""
    delay = 1.0
    while True:
        try:
            await bot.me()
            return
        except (TelegramNetworkError, TelegramServerError) as e:
            logging.getLogger("bot").warning(
                "Bot API not reachable (%s); retrying in %.0fs", e, delay
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 60.0)


async def main() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    settings = Settings()
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
    )
    freeze_startup_objects()
    ticker = asyncio.create_task(app.ticker.run())
    # the commands menu is optional: a slow or refusing server never delays serving
    menu = asyncio.create_task(register_commands(bot, app.games.tr))
    try:
        if settings.webhook_url:
            from bot.webhook import serve

            # `docker stop` sends SIGTERM: finish what is in hand, then exit
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)
            await serve(app, settings, stop)
        else:
            # aiogram stops polling on SIGTERM / SIGINT and lets handlers finish
            await reach_api(bot)
            await bot.delete_webhook(drop_pending_updates=False)
            await app.dispatcher.start_polling(bot)
    finally:
        menu.cancel()
        app.ticker.stop()
        try:
            await asyncio.wait_for(ticker, TICKER_GRACE)
        except TimeoutError:
            logging.getLogger("bot").warning("a timer was still running at shutdown")
        cut = await app.games.outboxes.drain(OUTBOX_GRACE)
        if cut:
            logging.getLogger("bot").warning("%d group(s) not told everything at shutdown", cut)
        await store.close()
        await bot.session.close()
        logging.getLogger("bot").info("stopped")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
