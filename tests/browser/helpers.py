"""The Mini App's page in a real browser: the server, the harness, opening a page."""

from __future__ import annotations

import json
import os
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from aiogram.types import User
from aiohttp.test_utils import TestServer

from bot.store.memory import MemoryStore
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from engine import pending
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness
from tests.bot.webapp_client import BASE_URL, PREFIX, init_data

ROOT = Path(__file__).resolve().parents[2]


SCREENSHOTS = Path(os.environ.get("SMUTA_SCREENSHOTS", ROOT / "build" / "screenshots"))


GROUP = -100555


TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"


PHONE = {"width": 390, "height": 844}


#: Telegram's own light and dark themes (what themeParams carries)
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
}


DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор")


#: what a page may take to show something (a guard against a hang, not a wait)
WAIT_MS = 10_000


def stub_telegram(
    data: str, scheme: str, theme: dict[str, str], start_param: str | None = None
) -> str:
    """A stand-in for telegram-web-app.js: the Telegram.WebApp a page sees
    (`start_param`: a Direct Link's ``startapp``)."""
    unsafe = {} if start_param is None else {"start_param": start_param}
    return (
        STUB.replace("$DATA", json.dumps(data))
        .replace("$UNSAFE", json.dumps(unsafe))
        .replace("$SCHEME", json.dumps(scheme))
        .replace("$THEME", json.dumps(theme))
    )


STUB = """
window.Telegram = { WebApp: {
  initData: $DATA,
  initDataUnsafe: $UNSAFE,
  colorScheme: $SCHEME,
  themeParams: $THEME,
  handlers: {},
  onEvent: function (name, f) { (this.handlers[name] = this.handlers[name] || []).push(f); },
  ready: function () { this.isReady = true; },
  expand: function () {},
  HapticFeedback: { selectionChanged: function () {} },
  switchTheme: function (scheme, theme) {
    this.colorScheme = scheme;
    this.themeParams = theme;
    (this.handlers.themeChanged || []).forEach(function (f) { f(); });
  }
} };
"""


def telegram_fragment(data: str, theme: dict[str, str]) -> str:
    """What Telegram appends to a Mini App's address when it opens it."""
    return "#" + urlencode(
        {
            "tgWebAppData": data,
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "tdesktop",
            "tgWebAppThemeParams": json.dumps(theme),
        }
    )


class Page:
    """A page of the app opened as `user`, and what its console reported."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    async def shows(self, version: int) -> None:
        """Until the page has drawn the record's `version`."""
        # (selectors, not wait_for_function: the page's CSP forbids eval, and
        # the tests keep the CSP on to see it break nothing)
        await self.page.wait_for_selector(f'body[data-version="{version}"]', timeout=WAIT_MS)

    async def version(self) -> int:
        return int(await self.page.evaluate("document.body.dataset.version || '0'"))

    async def background(self) -> str:
        return str(await self.page.evaluate("getComputedStyle(document.body).backgroundColor"))


@asynccontextmanager
async def app_server(h: Harness) -> AsyncIterator[TestServer]:
    assert h.app.webapp is not None
    server = TestServer(h.app.webapp.application(PREFIX), host="127.0.0.1")
    await server.start_server()
    try:
        yield server
    finally:
        await h.app.webapp.close()
        await server.close()


@asynccontextmanager
async def open_page(
    browser: Any,
    server: TestServer,
    h: Harness,
    user: User,
    scheme: str = "light",
    viewport: dict[str, int] = PHONE,
    path: str = f"/?chat={GROUP}",
    start_param: str | None = None,
    in_address: bool = True,
    routes: dict[str, Any] | None = None,
) -> AsyncIterator[Page]:
    """The app opened as `user`: by default from a «🃏 Стол» button (the chat
    in the URL); `path` "/" and a `start_param`: from a Direct Link; "/" alone:
    from the menu button. `in_address`: Telegram's initData and colours in the
    page's address too, as Telegram opens a Mini App (else only in
    ``Telegram.WebApp``, as after a reload). `routes`: a pattern's handler,
    installed before the page loads (so its first request meets it)."""
    context = await browser.new_context(viewport=viewport, device_scale_factor=2)
    theme = DARK if scheme == "dark" else LIGHT
    data = init_data(user, h.clock.now())
    stub = stub_telegram(data, scheme, theme, start_param)
    fragment = telegram_fragment(data, theme) if in_address else ""

    async def telegram_js(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    await context.route(TELEGRAM_JS, telegram_js)
    for pattern, handler in (routes or {}).items():
        await context.route(pattern, handler)
    page = Page(await context.new_page())
    try:
        await page.page.goto(str(server.make_url(PREFIX + path)) + fragment)
        yield page
    finally:
        await context.close()


@cache
def plain_translator() -> Translator:
    """The bot's own texts (the harness's mark each card with its id)."""
    return Translator()


def browser_harness() -> Harness:
    return Harness(MemoryStore(), tr=plain_translator(), app=AppLinks(BASE_URL))  # type: ignore[arg-type]


async def six_player_table(h: Harness, seed: int = 12) -> list[User]:
    """Six people play a while (houses laid, castles built where they can: the
    seed's game has one by then), until the first of them has a turn's
    action to choose."""
    users = [person(200 + i, name) for i, name in enumerate(NAMES)]
    await h.open_game(GROUP, users[0], users[1:], seed=seed)
    rng = random.Random(seed)
    for _ in range(400):
        table = await h.table(GROUP)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        if decision.seat == 0 and decision.kind == "action" and table.state.turn >= 14:
            break
        options = list(decision.options)
        builds = [o for o in options if o[0] == "build"]
        lays = [o for o in options if o[0] == "lay"]
        draws = [o for o in options if o[0] in ("draw", "order")]
        pick = rng.random()
        if builds:
            option = builds[0]
        elif lays and pick < 0.6:
            option = rng.choice(lays)
        elif draws and pick < 0.9:
            option = rng.choice(draws)
        else:
            option = rng.choice(options)
        await h.answer(users[decision.seat], GROUP, option)
    return users
