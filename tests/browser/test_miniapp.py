"""The Mini App's page in a real browser (headless Chromium), against the real
bot: a stub ``Telegram.WebApp`` (what Telegram's ``telegram-web-app.js`` gives
a page) carries ``initData`` signed with the bot's token, and the page talks
to the bot's own app server over HTTP — the state, the live stream, answers.

Screenshots of a 6-player table, light and dark, are saved to
``build/screenshots/`` (``SMUTA_SCREENSHOTS`` to put them elsewhere)."""

from __future__ import annotations

import json
from typing import Any

from bot.webapp.payload import plain
from engine import pending
from tests.bot.fake_telegram import person
from tests.bot.harness import decisions_of
from tests.browser.helpers import (
    DARK,
    GROUP,
    NAMES,
    SCREENSHOTS,
    WAIT_MS,
    app_server,
    browser_harness,
    open_page,
    six_player_table,
)


async def test_a_six_player_table_is_drawn_and_a_tap_answers(browser: Any) -> None:
    h = browser_harness()
    users = await six_player_table(h)
    anna = users[0]
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None and decision.seat == 0
    assert h.app.webapp is not None
    offered = h.app.webapp.payloads.table(table, 0, "ru", 0.0)["decision"]
    top = [offered["texts"][i] for i in offered["levels"][0]["lines"]]
    prompt = (await h.store.messages(GROUP))["prompt:0"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with app_server(h) as server:
        for scheme in ("light", "dark"):
            async with open_page(browser, server, h, anna, scheme) as page:
                await page.shows(table.version)
                p = page.page
                assert await p.locator(".player").count() == 6
                assert await p.locator("#hand .card").count() == len(table.state.players[0].hand)
                houses = sum(len(pl.houses) for pl in table.state.players)
                assert await p.locator(".house").count() == houses
                castles = sum(1 for pl in table.state.players for x in pl.houses if x.castle)
                assert castles and await p.locator(".house .castle").count() == castles
                lines = await p.locator("#choice p").all_inner_texts()
                assert lines == top, "the prompt's question, as in the chat"
                assert await p.locator("#choice .opt").count() >= 2
                assert await page.background() == (
                    "rgb(255, 255, 255)" if scheme == "light" else "rgb(23, 33, 43)"
                )
                await p.screenshot(path=str(SCREENSHOTS / f"table-6-{scheme}.png"))
                assert page.errors == []

        # a phone 360 px wide: nothing sticks out sideways
        async with open_page(
            browser, server, h, anna, viewport={"width": 360, "height": 740}
        ) as page:
            await page.shows(table.version)
            wide = await page.page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert wide <= 0, f"{wide}px of sideways scrolling at 360 px"
            await page.page.screenshot(path=str(SCREENSHOTS / "table-6-360.png"))

        # a tap answers: a card the menu offers is highlighted; tapping it (or
        # the option's button) goes down the prompt's levels to an answer
        async with open_page(browser, server, h, anna) as page:
            await page.shows(table.version)
            p = page.page
            await p.locator("#choice .opt", has_text="Выложить").first.click()
            for _ in range(6):
                if await page.version() != table.version:
                    break
                picks = p.locator("#hand .card.pick, .house .card.pick, .who.pick")
                if await picks.count():
                    await picks.first.click()
                else:
                    await p.locator("#choice .opt:not(.back)").first.click()
                await p.wait_for_selector(
                    f'body:not([data-version="{table.version}"]), '
                    "#choice .opt:not(.back):not(:disabled)",
                    timeout=WAIT_MS,
                )
            await p.wait_for_selector(
                f'body:not([data-version="{table.version}"])', timeout=WAIT_MS
            )
            await h.settle()
            moved = await h.table(GROUP)
            assert moved.version > table.version
            command = (await h.store.log(GROUP))[-1]
            assert command.seat == 0 and command.option is not None
            assert command.option[0] == "lay"
            # the very prompt in the chat shows the choice made in the app
            assert "✔️" in h.tg.texts[(anna.id, prompt)]
            # its buttons gone (or, Anna asked again at once, the next question's)
            assert decision.id not in decisions_of(h.tg.markups.get((anna.id, prompt)))
            await page.shows(moved.version)
            assert page.errors == []


async def test_a_move_made_in_the_chat_appears_without_reload(browser: Any) -> None:
    h = browser_harness()
    users = [person(200 + i, name) for i, name in enumerate(NAMES[:3])]
    await h.open_game(GROUP, users[0], users[1:], seed=4)
    watcher = person(300, "Зритель")
    async with app_server(h) as server, open_page(browser, server, h, watcher) as page:
        table = await h.table(GROUP)
        await page.shows(table.version)
        assert await page.page.locator("#hand").is_hidden(), "a spectator has no hand"
        for _ in range(3):
            decision = await h.decision(GROUP)
            assert decision is not None
            await h.answer(users[decision.seat], GROUP, decision.options[0])
            newest = await h.table(GROUP)
            await page.shows(newest.version)
            # the move's line, as the group read it (a turn's «▶️ Ход N» header
            # is the app's title of the turn, not a line of it)
            render = h.app.games.teller.render
            assert newest.state is not None
            group_read = [
                *(render.closed_lines(newest, newest.state) or []),
                *render.turn_lines(newest, newest.state),
            ]
            line = plain([x for x in group_read if not x.startswith("▶️")][-1])
            # the newest turn comes first, its lines in the order they happened
            newest_turn = page.page.locator("#log .turn").first
            log = await newest_turn.locator("li").all_inner_texts()
            assert log[-1] == line, "the move's line is shown"
            # and a screen reader is told it, in one line
            assert line in await page.page.locator("#live").inner_text()
        assert page.errors == []


async def test_the_theme_follows_telegram_and_a_card_tells_what_it_does(browser: Any) -> None:
    h = browser_harness()
    users = [person(200 + i, name) for i, name in enumerate(NAMES[:2])]
    await h.open_game(GROUP, users[0], users[1:], seed=6)
    table = await h.table(GROUP)
    assert table.state is not None
    async with app_server(h) as server, open_page(browser, server, h, users[0]) as page:
        await page.shows(table.version)
        assert await page.background() == "rgb(255, 255, 255)"
        await page.page.evaluate(f"Telegram.WebApp.switchTheme('dark', {json.dumps(DARK)})")
        await page.page.wait_for_selector('html[data-scheme="dark"]', timeout=WAIT_MS)
        assert await page.background() == "rgb(23, 33, 43)"
        # a card that answers nothing: its /card text
        hand = table.state.players[0].hand
        card = page.page.locator(f'#hand .card[data-card="{hand[0]}"]:not(.pick)')
        if await card.count() == 0:
            card = page.page.locator("#hand .card:not(.pick)")
        await card.first.click()
        sheet = page.page.locator("#card h3")
        await sheet.wait_for(timeout=WAIT_MS)
        assert (await sheet.inner_text()).strip()
        assert (await page.page.locator("#card .about").inner_text()).strip()
        await page.page.locator("#card .opt").click()
        await page.page.locator("#card").wait_for(state="hidden", timeout=WAIT_MS)
        assert page.errors == []


async def test_a_direct_link_and_the_menu_button_open_the_players_game(browser: Any) -> None:
    """A Direct Link names the chat in its ``startapp`` (the page's URL has
    none); the menu button names nothing, and the page opens the one game the
    player has."""
    h = browser_harness()
    users = [person(200 + i, name) for i, name in enumerate(NAMES[:2])]
    await h.open_game(GROUP, users[0], users[1:], seed=6)
    table = await h.table(GROUP)
    async with app_server(h) as server:
        watcher = person(300, "Зритель")
        async with open_page(
            browser, server, h, watcher, path="/", start_param=str(GROUP), in_address=False
        ) as page:
            await page.shows(table.version)
            assert await page.page.locator(".player").count() == 2
            assert await page.page.locator("#hand").is_hidden()
            assert page.errors == []
        async with open_page(browser, server, h, users[1], path="/", in_address=False) as page:
            await page.shows(table.version)
            hand = table.state.players[1].hand  # type: ignore[union-attr]
            assert await page.page.locator("#hand .card").count() == len(hand)
            assert page.errors == []
