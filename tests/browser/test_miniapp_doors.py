"""The page in a real browser when the server says no: a refusal (the
process's streams are full; the user's stream went to a newer page) is told
in the server's own words, never as a lost network — and a lost network is
still told as one."""

from __future__ import annotations

from typing import Any

from tests.bot.fake_telegram import person
from tests.bot.harness import until
from tests.browser.helpers import (
    GROUP,
    NAMES,
    SCREENSHOTS,
    WAIT_MS,
    app_server,
    browser_harness,
    open_page,
)


async def notice_of(page: Any, text: str) -> None:
    """Until the page's notice says `text`."""
    await page.page.locator("#notice", has_text=text).wait_for(state="visible", timeout=WAIT_MS)


async def test_the_page_tells_a_refusal_from_a_lost_network(browser: Any) -> None:
    h = browser_harness()
    users = [person(200 + i, name) for i, name in enumerate(NAMES[:2])]
    await h.open_game(GROUP, users[0], users[1:], seed=4)
    table = await h.table(GROUP)
    webapp = h.app.webapp
    assert webapp is not None
    busy, offline = h.tr.t("ru", "app-busy"), h.tr.t("ru", "app-offline")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with app_server(h) as server:
        webapp.max_streams = 0  # every stream refused: the process is full
        async with open_page(browser, server, h, users[0]) as page:
            await page.shows(table.version)  # the state is no stream: it is drawn
            await notice_of(page, busy)
            assert offline not in await page.page.locator("#notice").inner_text()
            await page.page.screenshot(path=str(SCREENSHOTS / "refused-busy.png"))
        webapp.max_streams = 100

        # the network, lost: the stream's request never reaches the server (the
        # route is there before the page loads: its first stream meets it)
        lost = {"**/api/events*": lambda route: route.abort()}
        async with open_page(browser, server, h, users[0], routes=lost) as page:
            await page.shows(table.version)
            await notice_of(page, offline)

        # a newer page of the same person takes the stream: the older says so
        webapp.max_user_streams = 1
        async with open_page(browser, server, h, users[0]) as older:
            await older.shows(table.version)
            await until(lambda: len(webapp.streams.get(users[0].id, ())) == 1)  # its stream is open
            async with open_page(browser, server, h, users[0]) as newer:
                await newer.shows(table.version)
                await notice_of(older, h.tr.t("ru", "app-elsewhere"))
                decision = await h.decision(GROUP)
                assert decision is not None
                await h.answer(users[decision.seat], GROUP, decision.options[0])
                newest = await h.table(GROUP)
                await newer.shows(newest.version)
                assert await older.version() == table.version, "the older page stopped"
                assert newer.errors == []
