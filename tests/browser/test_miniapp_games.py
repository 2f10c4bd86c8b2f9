"""The Mini App switches between a person's games (issue 40, item 3): in a
real browser, Anna — at a group's table and at her practice game at once —
opens the group's game, sees both games named above the table (the one shown
marked), taps her practice game and gets its table and hand; the group's game
moving on then leaves the page on her practice game (its stream was let go),
and a tap there answers the practice game alone."""

from __future__ import annotations

from typing import Any

from engine import pending
from tests.bot.fake_telegram import person
from tests.browser.helpers import GROUP, WAIT_MS, app_server, browser_harness, open_page


async def test_the_app_switches_between_a_persons_games(browser: Any) -> None:
    h = browser_harness()
    anna, boris = person(200, "Анна"), person(201, "Борис")
    await h.open_game(GROUP, anna, [boris], seed=6)
    practice = await h.start_practice(anna, computers=1, seed=1)
    for _ in range(20):  # the computer's moves, until Anna's turn in her practice game
        decision = pending(practice.state)  # type: ignore[arg-type]
        if decision is not None and decision.seat == 0:
            break
        await h.tick(h.defaults.computer_pause + 1)
        practice = await h.table(anna.id)
    group = await h.table(GROUP)
    async with app_server(h) as server, open_page(browser, server, h, anna) as page:
        p = page.page
        await p.wait_for_selector(
            f'body[data-chat="{GROUP}"][data-version="{group.version}"]', timeout=WAIT_MS
        )
        await p.wait_for_selector("#games:not([hidden]) .game", timeout=WAIT_MS)
        names = await p.locator("#games .game").all_inner_texts()
        assert sorted(names) == sorted([group.title, practice.title])
        current = p.locator('#games .game[aria-current="true"]')
        assert await current.inner_text() == group.title

        # to the practice game: its table, its hand
        await p.locator(f'#games .game[data-chat="{anna.id}"]').click()
        practice = await h.table(anna.id)
        await p.wait_for_selector(
            f'body[data-chat="{anna.id}"][data-version="{practice.version}"]', timeout=WAIT_MS
        )
        await p.wait_for_selector(
            f'#games .game[data-chat="{anna.id}"][aria-current="true"]', timeout=WAIT_MS
        )
        assert practice.state is not None
        hand = practice.state.players[0].hand
        assert await p.locator("#hand .card").count() == len(hand)

        # the group's game moves on: the page stays on the practice game
        group = await h.table(GROUP)
        assert group.state is not None
        decision = pending(group.state)
        assert decision is not None
        mover = anna if group.seats[decision.seat].user_id == anna.id else boris
        await h.answer(mover, GROUP, decision.options[0])
        moved = await h.table(GROUP)
        assert moved.version > group.version
        # (the page's own stream would draw a new version of the chat it follows:
        # its data says the practice game's, still)
        await p.wait_for_selector(
            f'body[data-chat="{anna.id}"][data-version="{practice.version}"]', timeout=WAIT_MS
        )

        # a tap in the practice game answers it, and moves the group's not at all
        decision = pending(practice.state)
        assert decision is not None and decision.seat == 0
        for _ in range(6):
            if (await h.table(anna.id)).version != practice.version:
                break
            picks = p.locator("#hand .card.pick, .house .card.pick, .who.pick")
            if await picks.count():
                await picks.first.click()
            else:
                await p.locator("#choice .opt:not(.back)").first.click()
            await p.wait_for_selector(
                f'body:not([data-version="{practice.version}"]), '
                "#choice .opt:not(.back):not(:disabled)",
                timeout=WAIT_MS,
            )
        await p.wait_for_selector(
            f'body[data-chat="{anna.id}"]:not([data-version="{practice.version}"])',
            timeout=WAIT_MS,
        )
        await h.settle()
        assert (await h.table(anna.id)).version > practice.version
        assert (await h.table(GROUP)).version == moved.version

        # and back to the group's game, at its newest
        await p.locator(f'#games .game[data-chat="{GROUP}"]').click()
        await p.wait_for_selector(
            f'body[data-chat="{GROUP}"][data-version="{moved.version}"]', timeout=WAIT_MS
        )
        assert page.errors == []
