"""Every door of the bot is bounded — the Mini App's HTTP API and the webhook,
attacked the way issue 26's review did, through a real HTTP server.

- a user's streams: a fifth page takes the place of the oldest (a page closed
  without a word keeps no slot from the next), which is told so;
- a process's streams: capped, 503 with ``Retry-After``; reads rate-limited,
  429 with ``Retry-After`` — each with its own words, not the network's;
- an answer's body is bounded before it is parsed; a header over 8 KB is a
  clean 400: never a 500, never a traceback in the log;
- the Redis pool is bounded, and every connection a stream used is back;
- every private response says ``no-store``; no response names aiohttp;
- the webhook answers a body that is no update 400.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import pytest
from aiogram.types import User
from aiohttp import ClientSession
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.run import serve_webapp
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from bot.webapp.limits import RateLimit
from bot.webapp.server import STREAMS_PER_USER
from bot.webhook import make_web_app
from bot.words.app import AppLinks
from tests.bot.conftest import REDIS_URL
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, people, until
from tests.bot.helpers.webhooks import HOOK_PATH, SECRET, SECRET_HEADER, as_json, webhook_settings
from tests.bot.webapp_client import BASE_URL, PREFIX, AppClient, auth, init_data, serving

GROUP = -100778


async def game(h: Harness) -> list[User]:
    players = people("Анна", "Борис")
    await h.open_game(GROUP, players[0], players[1:], seed=3)
    return players


def webapp_of(h: Harness) -> Any:
    assert h.app.webapp is not None
    return h.app.webapp


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing was logged at ERROR, and no line carries a traceback."""
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


async def move(h: Harness, users: list[User]) -> None:
    decision = await h.decision(GROUP)
    assert decision is not None
    await h.answer(users[decision.seat], GROUP, decision.options[0])


# ====================================================================== streams
async def test_a_fifth_page_takes_the_oldest_pages_stream(store: Store) -> None:
    """Four pages closed without a word (the server has not noticed yet) keep
    no slot from the fifth: it opens, and the oldest stream ends, telling its
    page why in the page's own words (it does not reconnect: no «no network»)."""
    h = Harness(store, app=AppLinks(BASE_URL))
    users = await game(h)
    anna = users[0]
    webapp = webapp_of(h)
    async with serving(webapp, h.clock.now) as app, AsyncExitStack() as pages:
        streams = [
            await pages.enter_async_context(app.stream(anna, GROUP))
            for _ in range(STREAMS_PER_USER)
        ]
        for stream in streams:
            assert (await stream.next())[0] == "state"
        async with app.stream(anna, GROUP) as fifth:
            assert fifth.response.status == 200
            assert (await fifth.next())[0] == "state"
            name, _, data = await streams[0].next()
            assert name == "replaced"
            assert data == {"text": h.tr.t("ru", "app-elsewhere")}
            assert await streams[0].response.content.read() == b"", "and it ends"
            assert len(webapp.streams[anna.id]) == STREAMS_PER_USER
            assert webapp.open_streams == STREAMS_PER_USER
        # the other three still hear the game
        await move(h, users)
        for stream in streams[1:]:
            assert (await stream.next())[0] == "state"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_process_serves_so_many_streams_then_says_it_is_busy(lang: str) -> None:
    h = Harness(MemoryStore(), app=AppLinks(BASE_URL))
    users = await game(h)
    anna, boris = (person(u.id, u.first_name, lang) for u in users)
    webapp = webapp_of(h)
    webapp.max_streams = 1
    async with serving(webapp, h.clock.now) as app:
        async with app.stream(anna, GROUP) as first:
            assert (await first.next())[0] == "state"
            r = await app.client.get(
                f"{PREFIX}/api/events?chat={GROUP}", headers=app.headers(boris)
            )
            assert r.status == 503
            assert int(r.headers["Retry-After"]) > 0
            assert r.headers["Cache-Control"] == "no-store"
            body = await r.json()
            assert body == {"ok": False, "error": "app-busy", "text": h.tr.t(lang, "app-busy")}
            assert body["text"] != h.tr.t(lang, "app-offline"), "a refusal, not a lost network"
            assert webapp.open_streams == 1
        await move(h, users)  # her closed page's stream finds out as it writes
        await until(lambda: webapp.open_streams == 0)
        async with app.stream(boris, GROUP) as his:
            assert his.response.status == 200, "the slot is free again"


@pytest.mark.parametrize("path", ["state", "card", "events", "games"])
async def test_reads_are_rate_limited_per_user(path: str) -> None:
    h = Harness(MemoryStore(), app=AppLinks(BASE_URL))
    anna, boris = await game(h)
    webapp = webapp_of(h)
    webapp.reads = RateLimit(burst=3, per_second=0.5)
    url = f"{PREFIX}/api/{path}?chat={GROUP}&topic=lord"
    async with serving(webapp, h.clock.now) as app:
        statuses = []
        for _ in range(4):
            r = await app.client.get(url, headers=app.headers(anna))
            statuses.append(r.status)
            if r.status == 200 and path == "events":
                r.close()
        assert statuses == [200, 200, 200, 429]
        assert r.headers["Retry-After"] == "2"
        assert r.headers["Cache-Control"] == "no-store"
        assert await r.json() == {
            "ok": False,
            "error": "app-too-fast",
            "text": h.tr.t("ru", "app-too-fast"),
        }
        r = await app.client.get(url, headers=app.headers(boris))
        assert r.status == 200, "another user is not held back"
        r.close()


# ====================================================================== bodies and headers
#: bodies of an answer that are no answer: too big a number, too deep, no
#: integer, no JSON at all
NO_ANSWERS = {
    "1e999": b'{"chat": -100778, "game": 1, "decision": 1, "option": 1e999}',
    "float": b'{"chat": -100778, "game": 1, "decision": 1, "option": 0.5}',
    "nan": b'{"chat": -100778, "game": 1, "decision": 1, "option": NaN}',
    "bool": b'{"chat": -100778, "game": 1, "decision": 1, "option": true}',
    "2**64": b'{"chat": -100778, "game": 1, "decision": 1, "option": 18446744073709551616}',
    "string": b'{"chat": -100778, "game": 1, "decision": 1, "option": "0"}',
    "deep": b"[" * 2000 + b"]" * 2000,
    "deep object": b'{"chat": ' + b'{"a": ' * 50 + b"1" + b"}" * 51,
    "array": b"[-100778, 1, 1, 0]",
    "no JSON": b"{chat: 1",
    "not UTF-8": b'{"chat": "\xff"}',
}


async def test_an_answer_that_is_no_answer_is_400_and_logs_no_traceback(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    h = Harness(store, app=AppLinks(BASE_URL))
    anna, _ = await game(h)
    webapp = webapp_of(h)
    webapp.answers = RateLimit(burst=10**6, per_second=0)
    table = await h.table(GROUP)
    caplog.set_level(logging.DEBUG)
    async with serving(webapp, h.clock.now) as app:
        for what, body in NO_ANSWERS.items():
            r = await app.client.post(
                f"{PREFIX}/api/answer",
                data=body,
                headers={**app.headers(anna), "Content-Type": "application/json"},
            )
            assert r.status == 400, what
            assert r.headers["Cache-Control"] == "no-store"
            assert (await r.json())["error"] == "err-bad-button", what
        r = await app.client.post(
            f"{PREFIX}/api/answer",
            data=b'{"chat": ' + b" " * 5000 + b"1}",
            headers=app.headers(anna),
        )
        assert r.status == 413

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: read to find out
            for _ in range(10):
                yield b" " * 1000

        r = await app.client.post(f"{PREFIX}/api/answer", data=chunks(), headers=app.headers(anna))
        assert r.status == 413 and r.headers["Cache-Control"] == "no-store"
    no_traceback(caplog)
    assert (await h.table(GROUP)).version == table.version, "nothing changed"


async def test_answers_are_counted_before_their_body_is_read() -> None:
    """A flood of bodies that are no answer is held back as answers are: the
    parser is not the rate limit's price."""
    h = Harness(MemoryStore(), app=AppLinks(BASE_URL))
    anna, _ = await game(h)
    async with serving(webapp_of(h), h.clock.now) as app:
        statuses = []
        for _ in range(10):
            r = await app.client.post(
                f"{PREFIX}/api/answer", data=NO_ANSWERS["deep"], headers=app.headers(anna)
            )
            statuses.append(r.status)
        assert set(statuses) == {400, 429}
        assert "Retry-After" in r.headers


async def raw_request(app: AppClient, request: bytes) -> bytes:
    """`request` as it is sent, on a connection of its own; the answer's bytes."""
    assert app.client.port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", app.client.port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()


async def test_a_header_over_8_kb_is_a_clean_400_and_logs_neither_traceback_nor_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = Harness(MemoryStore(), app=AppLinks(BASE_URL))
    await game(h)
    caplog.set_level(logging.DEBUG)
    secret = "user%3D%7B%22id%22%3A700100200%7D"
    huge = b"Authorization: tma " + (secret * 400).encode() + b"\r\n"
    async with serving(webapp_of(h), h.clock.now) as app:
        answer = await raw_request(
            app, b"GET " + PREFIX.encode() + b"/api/games HTTP/1.1\r\nHost: x\r\n" + huge + b"\r\n"
        )
        garbage = await raw_request(app, b"\x16\x03\x01 not http\r\n\r\n")
    head = answer.split(b"\r\n\r\n")[0].decode()
    assert head.startswith("HTTP/1.") and " 400 " in head.splitlines()[0]
    assert "aiohttp" not in head and "Server: smuta" in head
    assert b"aiohttp" not in garbage and garbage.startswith(b"HTTP/1.")
    no_traceback(caplog)
    assert "700100200" not in caplog.text
    assert "refused a request that is no valid HTTP: LineTooLong (400)" in caplog.text


# ====================================================================== headers
async def test_every_private_response_says_no_store_and_none_names_aiohttp(store: Store) -> None:
    h = Harness(store, app=AppLinks(BASE_URL))
    anna, _ = await game(h)
    stranger = person(301, "Чужой")
    h.tg.outsiders.add((GROUP, stranger.id))
    table = await h.table(GROUP)
    async with serving(webapp_of(h), h.clock.now) as app:
        calls = {
            "games": app.client.get(f"{PREFIX}/api/games", headers=app.headers(anna)),
            "state": app.client.get(f"{PREFIX}/api/state?chat={GROUP}", headers=app.headers(anna)),
            "card": app.client.get(
                f"{PREFIX}/api/card?chat={GROUP}&topic=lord", headers=app.headers(anna)
            ),
            "no card": app.client.get(
                f"{PREFIX}/api/card?chat={GROUP}&topic=nothing", headers=app.headers(anna)
            ),
            "answer": app.client.post(
                f"{PREFIX}/api/answer",
                json={"chat": GROUP, "game": table.game_no, "decision": 0, "option": 0},
                headers=app.headers(anna),
            ),
            "unsigned": app.client.get(f"{PREFIX}/api/state?chat={GROUP}"),
            "stranger": app.client.get(
                f"{PREFIX}/api/state?chat={GROUP}", headers=app.headers(stranger)
            ),
            "no game": app.client.get(
                f"{PREFIX}/api/state?chat=-100999", headers=app.headers(anna)
            ),
        }
        for what, call in calls.items():
            r = await call
            assert r.headers.get("Cache-Control") == "no-store", what
            assert "aiohttp" not in r.headers.get("Server", ""), what
        async with app.stream(anna, GROUP) as stream:
            assert stream.response.headers["Cache-Control"] == "no-store"
            assert "aiohttp" not in stream.response.headers.get("Server", "")
        page = await app.client.get(f"{PREFIX}/")
        assert page.headers["Cache-Control"] == "no-cache", "the page is everyone's: kept, checked"
        for r in (page, await app.client.get("/nothing-here")):
            assert "aiohttp" not in r.headers.get("Server", "")


# ====================================================================== the Redis pool
@pytest.fixture
async def pooled(redis_store: RedisStore) -> AsyncIterator[RedisStore]:
    """A store as the bot makes it (`RedisStore.from_url`), with a pool of 8,
    under the test's prefix (`redis_store` deletes its keys afterwards)."""
    store = RedisStore.from_url(REDIS_URL, redis_store.prefix, max_connections=8)
    yield store
    await store.close()


def pool_of(store: RedisStore) -> Any:
    return store._r.connection_pool


async def test_many_streams_open_and_close_and_every_connection_is_back(
    pooled: RedisStore,
) -> None:
    """Forty pages open at once over a pool of eight: each waits its turn for
    a connection (none is refused, none is opened beyond the eight); once the
    pages are gone and the server has noticed (the next move's write fails),
    the pool has as many in use as before they came."""
    h = Harness(pooled, app=AppLinks(BASE_URL))
    users = await game(h)
    webapp = webapp_of(h)
    webapp.reads = RateLimit(burst=10**6, per_second=0)
    pool = pool_of(pooled)
    viewers = [person(5000 + i, f"Зритель{i}") for i in range(40)]
    async with serving(webapp, h.clock.now) as app:
        async with app.stream(viewers[0], GROUP) as stream:  # the feed's subscriber comes
            await stream.next()
        await until(lambda: webapp.open_streams == 0)
        base = len(pool._in_use_connections)
        async with AsyncExitStack() as pages:
            streams = await asyncio.gather(
                *(pages.enter_async_context(app.stream(v, GROUP)) for v in viewers)
            )
            assert all(s.response.status == 200 for s in streams)
            for stream in streams:
                assert (await stream.next())[0] == "state"
            assert webapp.open_streams == len(viewers)
            assert len(pool._in_use_connections) + len(pool._available_connections) <= 8
        await move(h, users)  # the closed pages' streams find out as they write
        await until(lambda: webapp.open_streams == 0)
        assert webapp.streams == {}
        assert len(pool._in_use_connections) == base
        assert len(pool._in_use_connections) + len(pool._available_connections) <= 8


async def test_the_bots_redis_client_has_a_bounded_pool() -> None:
    """(No call is made: the pool is what `bot.app` builds for REDIS_URL.)"""
    store = RedisStore.from_url(REDIS_URL)
    try:
        pool = pool_of(store)
        assert 0 < pool.max_connections <= 128
        assert pool.timeout is not None, "a call waits its turn, for a while"
    finally:
        await store.close()


# ====================================================================== the webhook
NO_UPDATES = {
    "no JSON": b"{update_id: 1",
    "deep": b"[" * 2000 + b"]" * 2000,
    "no object": b"[1, 2]",
    "no update": b'{"update_id": "one"}',
    "NaN": b'{"update_id": NaN}',
}


async def test_the_webhook_answers_a_body_that_is_no_update_400_and_logs_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = Harness(MemoryStore())
    anna = person(101, "Анна")
    caplog.set_level(logging.DEBUG)
    async with TestClient(TestServer(make_web_app(h.app, webhook_settings()))) as client:
        for what, body in NO_UPDATES.items():
            r = await client.post(HOOK_PATH, data=body, headers={SECRET_HEADER: SECRET})
            assert r.status == 400, what
            assert "aiohttp" not in r.headers.get("Server", "")
            r = await client.post(HOOK_PATH, data=body, headers={SECRET_HEADER: "wrong"})
            assert r.status == 401, f"{what}: a wrong secret learns nothing more"
        # an update with a float in it (a location) is an update
        update = as_json(h.updates.message(anna.id, anna, "/start"))
        update["message"]["location"] = {"latitude": 55.75, "longitude": 37.62}
        r = await client.post(HOOK_PATH, data=json.dumps(update), headers={SECRET_HEADER: SECRET})
        assert r.status == 200
        update = as_json(h.updates.message(anna.id, anna, "/start"))
        r = await client.post(HOOK_PATH, json=update, headers={SECRET_HEADER: SECRET})
        assert r.status == 200

        async def welcomed() -> bool:
            return bool(h.tg.sent(anna.id))

        await until_async(welcomed)
    no_traceback(caplog)


async def until_async(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        assert loop.time() < end, "never happened"
        await asyncio.sleep(0.01)


async def test_the_served_app_writes_no_access_log_line_naming_its_caller(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """As `bot.run` serves it: a practice's chat id in the query is a person's
    id, and the access log would write it, with the caller's address."""
    h = Harness(MemoryStore(), app=AppLinks(BASE_URL))
    anna = person(700100200, "Анна")
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        bot_token="42:TEST",
        webapp_url=BASE_URL,
        webapp_host="127.0.0.1",
        webapp_port=0,
    )
    caplog.set_level(logging.DEBUG)
    runner = await serve_webapp(webapp_of(h), settings)
    try:
        (site,) = runner.sites
        address = site.name  # http://127.0.0.1:<port>
        async with (
            ClientSession() as http,
            http.get(
                f"{address}{PREFIX}/api/state?chat={anna.id}",
                headers=auth(init_data(anna, h.clock.now())),
            ) as r,
        ):
            assert r.status == 403  # her practice chat, with no practice in it
    finally:
        await webapp_of(h).close()
        await runner.cleanup()
    assert str(anna.id) not in caplog.text
