"""The Mini App's story, accessibility, desktop layout and replay (issue 27
items 1–4) in a real browser (headless Chromium): the log holds every turn,
newest first, with the turns since the viewer's own last turn marked; the last
move is highlighted on the table and told to a screen reader; axe-core finds
no serious or critical violation, light and dark, phone and desktop; a
finished game's replay goes move by move to its end and names no card the
group had not seen by then."""

from __future__ import annotations

import json
import re
from typing import Any

from aiogram.types import User

from engine import Event, execute, new_game, pending
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, Witness, cards_named, public_zones
from tests.bot.helpers.finishing import play_to_the_end
from tests.browser.conftest import missing
from tests.browser.helpers import (
    GROUP,
    NAMES,
    PHONE,
    SCREENSHOTS,
    WAIT_MS,
    Page,
    app_server,
    browser_harness,
    open_page,
    six_player_table,
)

DESKTOP = {"width": 1280, "height": 800}
ROOT_DOCS = SCREENSHOTS.parents[1] / "docs"

#: what axe-core is asked: WCAG 2.0–2.2 A and AA (and the best practices,
#: which hold the target size and the region rules)
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}

#: every text on screen and its size; every control and its box (the page's
#: own elements: the screen-reader-only ones are 1 px by design)
MEASURE = """() => {
  const small = [], tiny = [];
  const visible = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !e.closest('.sr,[hidden]');
  };
  for (const e of document.querySelectorAll('body *')) {
    if (!visible(e)) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(getComputedStyle(e).fontSize) < 13)
      small.push(e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 30));
  }
  for (const e of document.querySelectorAll('button, input, a[href]')) {
    if (!visible(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 || r.height < 44)
      tiny.push(e.tagName + '.' + e.className + ' ' + Math.round(r.width) + 'x' +
        Math.round(r.height) + ': ' + e.textContent.slice(0, 30));
  }
  return {small, tiny};
}"""


async def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands."""
    try:
        from axe_playwright_python.async_playwright import Axe
    except ImportError:  # an environment installed before it was a dev dependency
        missing("axe-playwright-python is not installed (pip install -e '.[dev]')")
    results = await Axe().run(page.page, options=AXE_OPTIONS)
    found = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]} "
        f"{v['nodes'][0].get('failureSummary', '')}"
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


async def wcag_sizes(page: Page) -> dict[str, list[str]]:
    return dict(await page.page.evaluate(MEASURE))


async def lay_at_own_turn(h: Harness, users: list[User], turn: int) -> str:
    """Three people play (a card laid when one can, else the first option)
    until the first of them has a turn's action with a card to lay at `turn`
    or later; they lay it. The card's id."""
    for _ in range(600):
        table = await h.table(GROUP)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        lays = [o for o in decision.options if o[0] == "lay"]
        if decision.seat == 0 and decision.kind == "action" and table.state.turn >= turn and lays:
            await h.answer(users[0], GROUP, lays[0])
            return str(lays[0][1])
        await h.answer(users[decision.seat], GROUP, lays[0] if lays else decision.options[0])
    raise AssertionError("no card to lay")


TURN = re.compile(r"(\d+) ·")


def turn_numbers(titles: list[str]) -> list[int]:
    return [int(m[1]) for t in titles if (m := TURN.search(t))]


async def test_the_log_tells_every_turn_and_the_last_move_is_marked(browser: Any) -> None:
    h = browser_harness()
    users = [person(200 + i, name) for i, name in enumerate(NAMES[:3])]
    await h.open_game(GROUP, users[0], users[1:], seed=5)
    laid = await lay_at_own_turn(h, users, 10)
    table = await h.table(GROUP)
    assert table.state is not None
    now = table.state.turn
    async with app_server(h) as server, open_page(browser, server, h, users[0]) as page:
        await page.shows(table.version)
        p = page.page
        titles = await p.locator("#log .turn h4").all_inner_texts()
        # every turn, newest first (the running one, Anna's, has her card laid)
        assert turn_numbers(titles) == list(range(now, 0, -1))
        assert titles[-1] == "Раздача", "the deal ends the log"
        # marked: the two turns since Anna's last one (Вера's, then Борис's)
        new = await p.locator("#log ol.turns.new > li h4").all_inner_texts()
        assert turn_numbers(new) == [now - 1, now - 2]
        assert "Вера" in new[0] and "Борис" in new[1]
        assert await p.locator("#log h3.new").count() == 1
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        await p.locator("#log h2").scroll_into_view_if_needed()
        await p.screenshot(path=str(SCREENSHOTS / "log-3.png"))
        # the last move: said above the table, its card marked (in words too),
        # and told to a screen reader in one line
        last = p.locator(".house .card.last")
        assert await last.count() == 1
        assert await last.get_attribute("data-card") == laid
        assert "последний ход" in await last.locator(".sr").inner_text()
        said = await p.locator(".last-move").inner_text()
        assert said.startswith("Последний ход:") and "Анна" in said
        assert "Анна" in await p.locator(".player.moved .name").inner_text()
        # the timer names whose it is; the score is cards + castles
        assert "Анна" in await p.locator("#timer").inner_text()
        assert "Анна" in (await p.locator("#timer").get_attribute("aria-label") or "")
        figs = await p.locator(".player .figs").first.inner_text()
        assert re.search(r"⭐ \d+ = \d+ \+ 🏰 \d+", figs), figs
        # an order looks like none of the house cards: its word, no points
        for order in await p.locator("#hand .card.k-order").all():
            assert "приказ" in await order.inner_text()
            assert await order.locator(".pts").count() == 0
        # the next moves (no card laid) until Борис's turn: the highlight goes
        # with them, the screen reader hears each
        for _ in range(10):
            moved = await h.table(GROUP)
            assert moved.state is not None
            decision = pending(moved.state)
            assert decision is not None
            if decision.seat != 0:
                break
            calm = [o for o in decision.options if o[0] in ("draw", "order", "end")]
            await h.answer(users[0], GROUP, calm[0] if calm else decision.options[-1])
            moved = await h.table(GROUP)
            await page.shows(moved.version)
            live = await p.locator("#live").inner_text()
            assert live.strip() and "\n" not in live.strip()
        assert await p.locator(f'.card.last[data-card="{laid}"]').count() == 0
        assert page.errors == []


async def test_axe_finds_nothing_serious_light_and_dark_phone_and_desktop(browser: Any) -> None:
    """WCAG 2.2 AA as axe-core checks it (contrast, names, roles), and what it
    does not: text at least 13 px, every control at least 44 × 44 px."""
    h = browser_harness()
    users = await six_player_table(h)
    table = await h.table(GROUP)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    async with app_server(h) as server:
        for viewport, size in ((PHONE, "phone"), (DESKTOP, "desktop")):
            for scheme in ("light", "dark"):
                async with open_page(
                    browser, server, h, users[0], scheme, viewport=viewport
                ) as page:
                    await page.shows(table.version)
                    where = f"{size}, {scheme}"
                    assert await serious_violations(page) == [], where
                    sizes = await wcag_sizes(page)
                    assert sizes["small"] == [], f"{where}: text under 13 px"
                    assert sizes["tiny"] == [], f"{where}: controls under 44 px"
                    await page.page.screenshot(
                        path=str(SCREENSHOTS / f"table-6-{size}-{scheme}.png")
                    )
                    assert page.errors == []
        # a card's sheet open: a dialog with its name
        async with open_page(browser, server, h, users[0], viewport=PHONE) as page:
            await page.shows(table.version)
            await page.page.locator(".house .castle, #hand .card:not(.pick)").first.click()
            await page.page.locator("#card h3").wait_for(timeout=WAIT_MS)
            assert await serious_violations(page) == []


async def test_a_desktop_has_a_width_one_reads_and_the_hand_beside_the_table(
    browser: Any,
) -> None:
    h = browser_harness()
    users = await six_player_table(h)
    table = await h.table(GROUP)
    async with (
        app_server(h) as server,
        open_page(browser, server, h, users[0], viewport=DESKTOP) as page,
    ):
        await page.shows(table.version)
        p = page.page
        layout = await p.locator("#layout").bounding_box()
        board = await p.locator("#board").bounding_box()
        dock = await p.locator("#dock").bounding_box()
        assert layout and board and dock
        assert layout["width"] <= 1240
        assert dock["x"] >= board["x"] + board["width"], "the hand beside the table"
        assert dock["y"] < board["y"] + 100, "at its top, not under it"
        house = await p.locator(".house").first.bounding_box()
        assert house and house["width"] <= 200
        wide = await p.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0
        await p.screenshot(path=str(SCREENSHOTS / "table-6-desktop.png"))
        assert page.errors == []


def publicly_named(events: list[Event]) -> set[str]:
    return {c for e in events if e.to is None for c in cards_named(e.params)}


async def test_a_replay_goes_move_by_move_and_shows_only_what_the_group_saw(
    browser: Any,
) -> None:
    h = browser_harness()
    seen = Witness()
    anna, boris = person(200, "Анна"), person(201, "Борис")
    with seen.watching():
        await h.open_game(GROUP, anna, [boris], computers=1, seed=11)
        await play_to_the_end(h, GROUP, seen)
    record = (await h.store.history(GROUP, 1))[0]
    got = await h.store.game_by_number(record.number)
    assert got is not None
    _, commands = got
    # what the group had seen after each move: the cards face up then, and
    # every card a public event had named by then
    state, events = new_game(record.setup)
    public = [publicly_named(events) | public_zones(state)]
    for command in commands:
        public.append(public[-1] | publicly_named(execute(state, command)) | public_zones(state))
    total = len(commands)

    async def shown_cards(page: Page) -> set[str]:
        ids = await page.page.evaluate(
            "[...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card)"
        )
        return {str(c).split(".")[0] for c in ids}

    async with app_server(h) as server:
        path = f"/?replay={record.number}&move=3"
        async with open_page(browser, server, h, anna, path=path) as page:
            p = page.page
            await p.wait_for_selector(f'body[data-version="r{record.number}.3"]', timeout=WAIT_MS)
            assert "3" in await p.locator("#replay .where").inner_text()
            assert await shown_cards(page) <= public[3]
            # ▶ one move on, ◀ one back
            await p.locator("#replay .next").click()
            await p.wait_for_selector(f'body[data-version="r{record.number}.4"]', timeout=WAIT_MS)
            await p.locator("#replay .prev").click()
            await p.wait_for_selector(f'body[data-version="r{record.number}.3"]', timeout=WAIT_MS)
            # the slider, move by move: each frame names only what was public then
            slider = p.locator("#replay input[type=range]")
            assert await slider.get_attribute("max") == str(total)
            for k in sorted({0, 1, total // 3, total // 2, total - 1, total}):
                await slider.fill(str(k))
                await p.wait_for_selector(
                    f'body[data-version="r{record.number}.{k}"]', timeout=WAIT_MS
                )
                hidden = await shown_cards(page) - public[k]
                assert not hidden, f"move {k}: {hidden}"
                log = await p.locator("#log").inner_text()
                assert "Раздача" in log
            # the end: the result, ▶ disabled, the log's newest turn first
            assert await p.locator("#replay .next").is_disabled()
            assert await p.locator(".player.result").count() == 1
            assert set(json.dumps(await p.locator(".player.result").inner_text())) != set()
            await p.screenshot(path=str(SCREENSHOTS / "replay-end.png"))
            assert await serious_violations(page) == []
            assert page.errors == []
        # a Direct Link's startapp=rN_M (no chat, no replay in the address)
        async with open_page(
            browser, server, h, anna, path="/", start_param=f"r{record.number}_2", in_address=False
        ) as page:
            await page.page.wait_for_selector(
                f'body[data-version="r{record.number}.2"]', timeout=WAIT_MS
            )
            assert page.errors == []
        # one who did not play it is told so
        async with open_page(browser, server, h, person(300, "Карл"), path=path) as page:
            await page.page.locator("#notice").wait_for(timeout=WAIT_MS)
            assert await page.page.locator(".player").count() == 0
