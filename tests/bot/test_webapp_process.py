"""`python -m bot` with ``WEBAPP_URL``: the app is served on its own port in
polling mode, and on the webhook's server in webhook mode; the private chats'
menu button opens it; SIGTERM still ends the process cleanly (and the app's
port with it)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from tests.bot.fake_bot_api import FakeBotAPI
from tests.bot.fake_telegram import person
from tests.bot.helpers.processes import LONG, TOKEN, BotProcess, _clean, _free_port, bot_env, until
from tests.bot.webapp_client import auth, init_data

APP = "https://smuta.example/app"


@asynccontextmanager
async def running(proc: BotProcess) -> AsyncIterator[BotProcess]:
    """The process started; its output printed if the test fails; killed if
    it is still running at the end."""
    await proc.start()
    try:
        yield proc
    except BaseException:
        print(f"----- {proc.name} output -----\n{proc.output}\n")
        raise
    finally:
        if proc.alive():
            await proc.kill()


async def _page(http: aiohttp.ClientSession, url: str) -> int:
    try:
        async with http.get(url) as response:
            return response.status
    except aiohttp.ClientConnectionError:
        return 0


async def _serves(http: aiohttp.ClientSession, base: str) -> None:
    await until(lambda: _page(http, f"{base}/app/"), 120, "the app's page")
    async with http.get(f"{base}/app/") as page:
        assert page.status == 200
        assert "default-src 'none'" in page.headers["Content-Security-Policy"]
        assert "telegram-web-app.js" in await page.text()
    anna = person(7, "Анна")
    signed = auth(init_data(anna, time.time(), token=TOKEN))
    async with http.get(f"{base}/app/api/games", headers=signed) as games:
        assert games.status == 200 and (await games.json())["games"] == []
    async with http.get(f"{base}/app/api/games", headers=auth("forged")) as refused:
        assert refused.status == 401


async def test_python_m_bot_serves_the_app_on_its_own_port_when_polling() -> None:
    port = _free_port()
    fresh = aiohttp.TCPConnector(force_close=True)
    async with FakeBotAPI(TOKEN) as api, aiohttp.ClientSession(connector=fresh) as http:
        env = bot_env(api.url, "", LONG)
        env.update(WEBAPP_URL=APP, WEBAPP_HOST="127.0.0.1", WEBAPP_PORT=str(port))
        async with running(BotProcess("app bot", env)) as proc:
            await api.wait_for(lambda: api.arrived("getUpdates"), 120, "the bot to poll")
            await _serves(http, f"http://127.0.0.1:{port}")
            menu: list[Any] = await api.wait_for(
                lambda: api.of("setChatMenuButton"), 60, "the menu button"
            )
            button = menu[0].params["menu_button"]
            assert '"web_app"' in button and f"{APP}/" in button
            assert await proc.stop(60) == 0
            assert await _page(http, f"http://127.0.0.1:{port}/app/") == 0, "still listening"
            _clean(proc)


async def test_python_m_bot_serves_the_app_on_the_webhook_server() -> None:
    port = _free_port()
    fresh = aiohttp.TCPConnector(force_close=True)
    async with FakeBotAPI(TOKEN) as api, aiohttp.ClientSession(connector=fresh) as http:
        env = bot_env(api.url, "", LONG)
        env.update(
            WEBHOOK_URL=f"http://127.0.0.1:{port}/tg/hook",
            WEBHOOK_SECRET="s3cret",
            WEBHOOK_HOST="127.0.0.1",
            WEBHOOK_PORT=str(port),
            WEBAPP_URL=APP,
            WEBAPP_HOST="127.0.0.1",
            WEBAPP_PORT=str(port),
        )
        async with running(BotProcess("webhook app bot", env)) as proc:
            await _serves(http, f"http://127.0.0.1:{port}")
            assert await proc.stop(60) == 0
            _clean(proc)
