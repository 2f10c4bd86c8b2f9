"""What an admin sees of a running bot: /healthz, /readyz, /metrics, and the
count of updates in hand that a shutdown drains.

- /readyz answers 503 while Redis is down (through a proxy the test cuts) and
  200 again once it is back; also while the ticker is stuck or the process stops.
- /metrics, scraped after a short game, shows the counters moved: updates by
  kind and outcome, Telegram errors by kind, lost compare-and-set saves, games
  by status; and, each in a test of its own, the pace's waits, the timers'
  lateness and the computer's moves.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from prometheus_client.parser import text_string_to_metric_families

from bot.handlers.observe import UpdateObserver
from bot.ops import metrics, probe
from bot.ops.health import Health
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from bot.telling.timers import Ticker
from engine import pending
from engine.ai.easy import choose
from tests.bot.harness import Harness, people
from tests.bot.helpers import faults
from tests.bot.helpers.health import beating, client_of, until

GROUP = -100432
SEED = 20261130

proxied = faults.proxied  # a RedisStore through a TCP proxy the test can cut


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Health], Awaitable[TestClient[Any, Any]]]]:
    clients: list[TestClient[Any, Any]] = []

    async def start(health: Health) -> TestClient[Any, Any]:
        client = await client_of(health)
        clients.append(client)
        return client

    yield start
    for client in clients:
        await client.close()


# ====================================================================== health and readiness
async def test_healthz_answers_and_readyz_needs_a_store_a_ticking_ticker_and_no_stop(
    serve: Callable[[Health], Awaitable[TestClient[Any, Any]]],
) -> None:
    ticker = SimpleNamespace(last_beat=None)
    health = Health(MemoryStore(), ticker, beat_within=5.0)
    client = await serve(health)
    assert (await client.get("/healthz")).status == 200

    response = await client.get("/readyz")
    assert response.status == 503
    assert "ticker" in (await response.json())["checks"], "a ticker that never turned"

    ticker.last_beat = time.monotonic()
    response = await client.get("/readyz")
    assert response.status == 200, await response.text()
    assert metrics.sample("smuta_ready") == 1

    ticker.last_beat = time.monotonic() - 60  # stuck for a minute
    response = await client.get("/readyz")
    assert response.status == 503 and "ticker" in (await response.json())["checks"]
    assert metrics.sample("smuta_ready") == 0

    ticker.last_beat = time.monotonic()
    health.stopping = True
    response = await client.get("/readyz")
    assert response.status == 503
    assert (await response.json())["checks"] == {"process": "shutting down"}
    assert (await client.get("/healthz")).status == 200, "alive while it stops"


async def test_the_container_probe_asks_the_health_port(monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m bot.ops.probe` (the Docker and compose healthchecks): 0 when the
    check answers 200, 1 when it answers 503 or nobody listens."""
    ticker = beating()
    health = Health(MemoryStore(), ticker)
    port = await health.start("127.0.0.1", 0)
    try:
        monkeypatch.setenv("HEALTH_HOST", "0.0.0.0")  # a wildcard: asked on 127.0.0.1
        monkeypatch.setenv("HEALTH_PORT", str(port))
        assert await asyncio.to_thread(probe.main, []) == 0
        assert await asyncio.to_thread(probe.main, ["readyz"]) == 0
        health.stopping = True
        assert await asyncio.to_thread(probe.main, ["healthz"]) == 0
        assert await asyncio.to_thread(probe.main, ["readyz"]) == 1
        assert await asyncio.to_thread(probe.main, ["livez"]) == 2
    finally:
        await health.stop()
    assert await asyncio.to_thread(probe.main, ["healthz"]) == 1, "nobody listens"


async def test_readyz_fails_while_redis_is_down_and_recovers_after(
    proxied: tuple[faults.TcpProxy, RedisStore],
    serve: Callable[[Health], Awaitable[TestClient[Any, Any]]],
) -> None:
    """The real ticker runs throughout (it survives the outage and keeps
    turning): only the store's check fails, then passes again."""
    proxy, store = proxied
    h = Harness(store)
    ticker = Ticker(h.app.games, h.app.telling.carrier, interval=0.05)
    running = asyncio.create_task(ticker.run())
    try:
        health = Health(store, ticker, ping_timeout=1.0)
        client = await serve(health)

        async def status() -> tuple[int, dict[str, Any]]:
            response = await client.get("/readyz")
            return response.status, await response.json()

        async def ready() -> bool:
            return (await status())[0] == 200

        await until(ready, "/readyz to pass before the outage")
        await proxy.cut()
        code, body = await status()
        assert code == 503, body
        assert set(body["checks"]) == {"store"}, body
        assert metrics.sample("smuta_ready") == 0
        assert (await client.get("/healthz")).status == 200, "alive, only not ready"

        await proxy.restore()
        await until(ready, "/readyz to pass once Redis is back")
        assert metrics.sample("smuta_ready") == 1
        assert not running.done(), "the ticker died with the store"
    finally:
        ticker.stop()
        await running


async def test_the_drain_waits_for_updates_in_hand_and_is_bounded() -> None:
    observer = UpdateObserver()
    release = asyncio.Event()

    async def handler(event: Any, data: dict[str, Any]) -> str:
        await release.wait()
        return "done"

    from tests.bot.fake_telegram import Updates, person

    update = Updates().message(GROUP, person(1), "/table")
    task = asyncio.create_task(observer(handler, update, {}))
    await asyncio.sleep(0)
    assert observer.in_hand == 1
    assert await observer.drain(0.01) == 1, "the bound: it gives up waiting"
    assert not task.done()
    waiting = asyncio.create_task(observer.drain(600))
    await asyncio.sleep(0)
    assert not waiting.done(), "the drain waits while an update is in hand"
    release.set()
    assert await waiting == 0
    assert await task == "done"
    assert await observer.drain(600) == 0, "nothing in hand: no wait"


# ====================================================================== /metrics
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(text: str) -> Samples:
    """Every sample of a /metrics page, by name and labels."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def short_game(h: Harness, steps: int = 8) -> None:
    """Анна and Борис and one computer seat: a few moves each, people by button,
    the computer by its timer."""
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris], computers=1, seed=SEED)
    users = {anna.id: anna, boris.id: boris}
    moves = {"people": 0, "computer": 0}
    for _ in range(60):
        if min(moves.values()) >= 2 and sum(moves.values()) >= steps:
            return
        table = await h.table(GROUP)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        user_id = table.seats[decision.seat].user_id
        if user_id is None:
            await h.tick(h.defaults.computer_pause + 0.5)
            moves["computer"] += 1
        else:
            await h.answer(users[user_id], GROUP, choose(table.state.seed, decision))
            moves["people"] += 1
    raise AssertionError("the short game did not get its moves")


async def test_metrics_after_a_short_game_show_the_counters_moved(
    store: Store, serve: Callable[[Health], Awaitable[TestClient[Any, Any]]]
) -> None:
    h = Harness(store)
    health = Health(store, beating(), games_every=0)  # the games counted at each scrape
    client = await serve(health)
    before = scrape(await (await client.get("/metrics")).text())

    await short_game(h)
    # a lost compare-and-set: two copies of the record, both saved
    first, second = await h.table(GROUP), await h.table(GROUP)
    assert await store.save(first) and not await store.save(second)
    # a person who blocked the bot sends /start: the reply fails with 403
    blocked = people("Вера")[0]
    h.tg.blocked.add(blocked.id)
    await h.say(blocked.id, blocked, "/start")

    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    after = scrape(await response.text())

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("smuta_update_seconds_count", kind="message") >= 4  # /start ×3, /newgame
    assert moved("smuta_update_seconds_count", kind="callback_query") >= 5  # lobby, answers
    assert moved("smuta_update_seconds_sum", kind="callback_query") > 0
    assert moved("smuta_updates_total", kind="callback_query", outcome="handled") >= 5
    assert moved("smuta_updates_total", kind="message", outcome="error") == 1  # Вера's /start
    assert moved("smuta_telegram_errors_total", method="sendMessage", kind="forbidden") >= 1
    assert moved("smuta_cas_conflicts_total") == 1
    assert value(after, "smuta_updates_in_flight") == 0
    # the gauge counts this store's games (each test has a store of its own)
    assert value(after, "smuta_games", status="playing") == 1
    assert value(after, "smuta_games", status="lobby") == 0
    assert value(after, "process_resident_memory_bytes") > 0
    # labels stay impersonal: no chat, user or game id anywhere
    ids = {str(GROUP), str(SEED), *(str(p.id) for p in people("Анна", "Борис", "Вера"))}
    for name, labels in after:
        if name.startswith("smuta_"):
            assert not ids & {v for _, v in labels}, (name, labels)


async def test_the_games_gauge_counts_lobbies_and_running_games(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_lobby(GROUP, anna, [boris])
    await h.open_game(GROUP - 1, vera, [], computers=1)
    await h.open_game(GROUP - 2, boris, [], computers=1)
    await h.say(GROUP - 2, boris, "/stop")
    confirm = h.last_with_button(GROUP - 2, "st:")
    from bot.words.keyboards import StopCb

    await h.press(boris, GROUP - 2, confirm, StopCb(game=1, confirm=True).pack())
    assert await store.count_games() == {"lobby": 1, "playing": 1, "finished": 1}
    health = Health(store, beating(), games_every=3600)
    await health.refresh_games()
    assert metrics.sample("smuta_games", {"status": "lobby"}) == 1
    assert metrics.sample("smuta_games", {"status": "playing"}) == 1
    await h.press(anna, GROUP, (await store.messages(GROUP))["lobby"], _go(await h.table(GROUP)))
    await health.refresh_games()  # within `games_every`: kept as it was
    assert metrics.sample("smuta_games", {"status": "playing"}) == 1
    await health.refresh_games(force=True)
    assert metrics.sample("smuta_games", {"status": "playing"}) == 2
    assert metrics.sample("smuta_games", {"status": "lobby"}) == 0


async def test_redis_counts_a_record_saved_before_statuses_were_kept_beside_it(
    redis_store: RedisStore,
) -> None:
    h = Harness(redis_store)
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    await h.open_lobby(GROUP - 1, boris, [])
    assert await redis_store.count_games() == {"playing": 1, "lobby": 1}
    # as an older bot saved it: no status field, only the record's JSON
    client = redis_store._r
    await client.hdel(redis_store._table_key(GROUP), "s")
    assert await redis_store.count_games() == {"playing": 1, "lobby": 1}


def _go(table: Any) -> str:
    from bot.words.keyboards import LobbyCb

    return LobbyCb(action="go", game=table.game_no).pack()


# ------------------------------------------------------------------ pace, timers, computer
async def test_metrics_show_the_pace_wait_time() -> None:
    h = Harness(MemoryStore())
    before = metrics.sample("smuta_pace_wait_seconds_count", {"chat": "group"})
    await short_game(h)
    assert metrics.sample("smuta_pace_wait_seconds_count", {"chat": "group"}) > before


async def test_metrics_show_the_timer_lateness() -> None:
    h = Harness(MemoryStore())
    before = metrics.sample("smuta_timer_lateness_seconds_count")
    await short_game(h)
    assert metrics.sample("smuta_timer_lateness_seconds_count") >= before + 2


async def test_metrics_count_the_computer_moves() -> None:
    h = Harness(MemoryStore())
    before = metrics.sample("smuta_computer_moves_total", {"why": "computer"})
    await short_game(h)
    assert metrics.sample("smuta_computer_moves_total", {"why": "computer"}) >= before + 2
