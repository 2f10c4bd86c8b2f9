"""The Mini App: how fast a 6-player table shows, how big it is, how fast a
move reaches many open viewers.

    python -m benchmarks.webapp paint  [--loads 20]
    python -m benchmarks.webapp size   [--games 20]
    python -m benchmarks.webapp fanout [--viewers 100] [--moves 60] [--redis URL]

- `paint`: the real bot (embedded store) serves the app on a local port; six
  people have played a while (`tests.browser.test_miniapp.six_player_table`);
  headless Chromium (Debian's, as the browser tests) opens the page at 390×844
  as the player whose turn it is, `--loads` times cold (each in a fresh
  context: no cache, a new renderer) and `--loads` times warm (the same tab
  again). Per load, from navigation start: `first_paint_ms` (the browser's
  first contentful paint — nothing with content is drawn before the table, so
  this is the table on screen) and `table_drawn_ms` (the table, hand and choice
  built: the page's `table-drawn` mark); and the bytes of each response;
  `load_average`: the machine's 1-minute load before, then 1/5/15-minute after.
  Telegram's ``telegram-web-app.js`` is the tests' stub, handed over by
  Playwright (a local round trip through its driver).
- `size`: `--games` random 6-player games played to the end through the
  engine; at every decision, every seat's and a spectator's `api/state`
  payload as the server sends it: max and p99 bytes, raw and gzipped.
- `fanout`: one 6-player game, `--viewers` open `api/events` streams (the six
  players and spectators) over real HTTP, `--moves` moves made through the
  dispatcher; with `--redis`, the store and the live feed go through Redis
  pub/sub. Per event delivered: the delay from the save that made it (the
  store's save returning) to the viewer reading it. Prints events expected and
  delivered, and the delay's p50 / p99 / max. The viewers' HTTP clients run in
  the bot's own process and event loop (one core for everything).

Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import time
import uuid
from typing import Any

import aiohttp

from benchmarks.press_roundtrips import forget_prefix
from bot.app import freeze_startup_objects
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.webapp.limits import RateLimit
from bot.webapp.payload import Payloads
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from engine.ai.easy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness
from tests.bot.webapp_client import (
    BASE_URL,
    FULL_NAMES,
    PREFIX,
    auth,
    crowded_states,
    init_data,
    serving,
)
from tests.browser.conftest import ARGS, CHROMIUM
from tests.browser.helpers import (
    GROUP,
    LIGHT,
    NAMES,
    PHONE,
    TELEGRAM_JS,
    app_server,
    browser_harness,
    six_player_table,
    stub_telegram,
    telegram_fragment,
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def spread(values: list[float]) -> dict[str, float]:
    return {
        "min": round(min(values), 1) if values else 0.0,
        "p50": round(percentile(values, 0.5), 1),
        "p99": round(percentile(values, 0.99), 1),
        "max": round(max(values), 1) if values else 0.0,
    }


# ====================================================================== paint
#: once the browser has painted: its first contentful paint (nothing with
#: content is drawn before the table: the page's texts all come with it) and
#: the moment the table was drawn
PAINTED = """() => new Promise((resolve) => {
  const look = () => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    const table = performance.getEntriesByName("table-drawn")[0];
    if (paint && table) resolve({paint: paint.startTime, table: table.startTime});
    else requestAnimationFrame(look);
  };
  look();
})"""


async def paint(loads: int) -> dict[str, Any]:
    """Cold: each load in a fresh browser context (no cache, a new renderer
    that loads its fonts); warm: the same tab opens the page again (the
    fonts loaded, the page revalidated: 304)."""
    from playwright.async_api import async_playwright

    load_before = os.getloadavg()[:1]  # the 1-minute load average, before and after (1, 5, 15 min)
    h = browser_harness()
    users = await six_player_table(h)
    table = await h.table(GROUP)
    assert h.app.webapp is not None
    # forty loads as one person in a minute are past the reads' rate limit: a
    # refused load would wait 5 s for its retry and measure that
    h.app.webapp.reads = RateLimit(burst=10**6, per_second=0)
    cold: dict[str, list[float]] = {"paint": [], "table": []}
    warm: dict[str, list[float]] = {"paint": [], "table": []}
    data = init_data(users[0], h.clock.now())
    stub = stub_telegram(data, "light", LIGHT)

    async def telegram_js(route: Any) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=stub)

    async def load(page: Any, into: dict[str, list[float]] | None) -> None:
        await page.goto(opened)
        await page.wait_for_selector(f'body[data-version="{table.version}"]')
        marks = await page.evaluate(PAINTED)
        if into is not None:
            into["paint"].append(marks["paint"])
            into["table"].append(marks["table"])
        await page.goto("about:blank")

    async with app_server(h) as server, async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        url = str(server.make_url(f"{PREFIX}/?chat={GROUP}"))
        opened = url + telegram_fragment(data, LIGHT)  # as Telegram opens it
        for i in range(loads + 1):  # the first warms the browser up: not counted
            context = await browser.new_context(viewport=PHONE)
            await context.route(TELEGRAM_JS, telegram_js)
            page = await context.new_page()
            await load(page, cold if i else None)
            await context.close()
        context = await browser.new_context(viewport=PHONE)
        await context.route(TELEGRAM_JS, telegram_js)
        page = await context.new_page()
        for i in range(loads + 1):
            await load(page, warm if i else None)
        await browser.close()
        webapp = h.app.webapp
        assert webapp is not None
        async with aiohttp.ClientSession() as http:
            headers = {**auth(init_data(users[0], h.clock.now())), "Accept-Encoding": "identity"}
            async with http.get(url.replace("/?", "/api/state?"), headers=headers) as r:
                state = await r.read()
        sizes = {
            "page": len(webapp.page.html),
            "page_gzip": len(webapp.page.gzipped),
            "state_with_words": len(state),
            "state_with_words_gzip": len(gzip.compress(state)),
        }
    return {
        "figure": "paint",
        "players": 6,
        "loads": loads,
        "load_average": [round(x, 2) for x in (*load_before, *os.getloadavg())],
        "cold": {"first_paint_ms": spread(cold["paint"]), "table_drawn_ms": spread(cold["table"])},
        "warm": {"first_paint_ms": spread(warm["paint"]), "table_drawn_ms": spread(warm["table"])},
        "bytes": sizes,
    }


# ====================================================================== size
def size(games: int) -> dict[str, Any]:
    tr = Translator()
    render = Renderer(tr)
    payloads = Payloads(tr, render, Prompts(render, tr))
    raw: list[float] = []
    zipped: list[float] = []
    worst: tuple[int, str] = (0, "")
    for kind, body in crowded_states(payloads, range(games), FULL_NAMES, random.Random(1)):
        raw.append(len(body))
        zipped.append(len(gzip.compress(body)))
        worst = max(worst, (len(body), kind))
    return {
        "figure": "size",
        "players": 6,
        "games": games,
        "payloads": len(raw),
        "raw_bytes": spread(raw),
        "gzip_bytes": spread(zipped),
        "largest_at": worst[1],
    }


# ====================================================================== fan-out
async def fanout(viewers: int, moves: int, redis_url: str | None) -> dict[str, Any]:
    prefix = f"smuta-bench:{uuid.uuid4().hex}"
    store: Store = RedisStore.from_url(redis_url, prefix=prefix) if redis_url else MemoryStore()
    h = Harness(store, tr=Translator(), app=AppLinks(BASE_URL))  # type: ignore[arg-type]
    users = [person(200 + i, name) for i, name in enumerate(NAMES)]
    await h.open_game(GROUP, users[0], users[1:], seed=3)
    saved: dict[int, float] = {}
    real_save = store.save

    async def timed_save(table: Table, commands: Any = ()) -> bool:
        ok = await real_save(table, commands)
        if ok and table.chat_id == GROUP:
            saved[table.version] = time.perf_counter()
        return ok

    store.save = timed_save  # type: ignore[method-assign]
    freeze_startup_objects()  # as `python -m bot` does once it is built
    delays: list[float] = []
    by_move: dict[int, list[float]] = {}
    delivered = [0]
    webapp = h.app.webapp
    assert webapp is not None
    watchers = [*users, *(person(1000 + i, f"Зритель{i}") for i in range(viewers - len(users)))]
    start_version = (await h.table(GROUP)).version
    final: list[int] = []  # the last version, once the moves are made
    caught_up: set[int] = set()
    everyone = asyncio.Event()
    async with serving(webapp, h.clock.now) as app:
        opened = [0]
        ready = asyncio.Event()

        async def watch(i: int, user: Any) -> None:
            async with app.stream(user, GROUP, last=start_version) as stream:
                opened[0] += 1
                if opened[0] == len(watchers):
                    ready.set()
                while True:
                    _, version, _ = await stream.next()
                    at = time.perf_counter()
                    delivered[0] += 1
                    if version in saved:
                        delays.append((at - saved[version]) * 1000)
                        by_move.setdefault(version, []).append(delays[-1])
                    newest[i] = version
                    if final and version >= final[0]:
                        caught_up.add(i)
                        if len(caught_up) == len(watchers):
                            everyone.set()

        newest = [start_version] * len(watchers)
        tasks = [asyncio.create_task(watch(i, u)) for i, u in enumerate(watchers)]
        await ready.wait()
        await webapp.hub.idle()
        rng = random.Random(1)
        for _ in range(moves):
            decision = await h.decision(GROUP)
            if decision is None:
                break
            await h.answer(users[decision.seat], GROUP, choose(rng.getrandbits(32), decision))
        final.append((await h.table(GROUP)).version)
        caught_up.update(i for i, v in enumerate(newest) if v >= final[0])
        if len(caught_up) == len(watchers):
            everyone.set()
        await asyncio.wait_for(everyone.wait(), 60)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        last = final
    versions = last[0] - start_version
    await store.close()
    if redis_url:
        await forget_prefix(redis_url, prefix)
    return {
        "figure": "fanout",
        "store": "redis" if redis_url else "memory",
        "viewers": len(watchers),
        "moves": moves,
        "saves": versions,
        "events_delivered": delivered[0],
        "events_per_viewer": round(delivered[0] / len(watchers), 1),
        "record_reads": webapp.hub.loads,
        "delay_ms": spread(delays),
        # each move's last viewer: how long until everyone had it
        "slowest_viewer_ms": spread([max(v) for v in by_move.values()]),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Benchmarks of the Mini App.")
    parser.add_argument("figure", choices=("paint", "size", "fanout"))
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--redis", default=None)
    args = parser.parse_args()
    if args.figure == "paint":
        out = asyncio.run(paint(args.loads))
    elif args.figure == "size":
        out = size(args.games)
    else:
        out = asyncio.run(fanout(args.viewers, args.moves, args.redis))
    print(json.dumps(out, ensure_ascii=False))
