"""The health and metrics port (``HEALTH_HOST:HEALTH_PORT``, default
127.0.0.1:8081), in polling and webhook mode alike — its own small aiohttp
server, never the webhook's port.

- ``GET /healthz``: 200 while the process runs and its event loop answers (a
  loop that is stuck answers nothing, and the probe times out). For Docker's
  ``HEALTHCHECK``, or a liveness probe.
- ``GET /readyz``: 200 when the bot can do its work — the store answers within
  `ping_timeout` and has room to write (Redis's ``INFO memory``: not at its
  ``maxmemory``; the embedded store always does), the timers' ticker turned
  within the last `beat_within` seconds, and the process is not shutting down;
  else 503. The JSON body says which check failed (the store's by its name:
  ``redis: no answer within 2s``, ``redis: full…``). The check runs to its end
  even when the asker hangs up, and sets the ready gauge either way. For a load
  balancer or a readiness probe, and the compose healthcheck.
- ``GET /metrics``: Prometheus text format, the registry of `bot.ops.metrics`. The
  games gauge is read from the store here, at most every `games_every` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot.ops import metrics
from bot.ops.http import harden

log = logging.getLogger(__name__)

BEAT_WITHIN = 15.0  # seconds: a ticker silent for longer is stuck (it turns every 0.5 s)
PING_TIMEOUT = 2.0
GAMES_EVERY = 30.0


class Checked(Protocol):
    """What health asks of the store: a ping, and the games by status. Any
    error either raises (an outage, a timeout, a full store) makes the store
    not ready."""

    kind: str  # what the store is (``redis``, ``memory``): /readyz names it

    async def ping(self) -> None: ...

    async def count_games(self) -> dict[str, int]: ...


def _consumed(task: asyncio.Future[dict[str, str]]) -> None:
    """A readiness check nobody awaits any more: its outcome is the gauge's."""
    if not task.cancelled():
        task.exception()


class Health:
    def __init__(
        self,
        store: Checked,
        ticker: Any,  # its ``last_beat``: time.monotonic() of its loop's last turn
        *,
        beat_within: float = BEAT_WITHIN,
        ping_timeout: float = PING_TIMEOUT,
        games_every: float = GAMES_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.ticker = ticker
        self.beat_within = beat_within
        self.ping_timeout = ping_timeout
        self.games_every = games_every
        self.clock = clock
        self.stopping = False  # set at shutdown: no longer ready
        self.port: int | None = None
        self._games_at: float | None = None
        self._runner: web.AppRunner | None = None

    # ------------------------------------------------------------------ checks
    async def problems(self) -> dict[str, str]:
        """What keeps the bot from being ready, by check; empty when it is
        ready. Sets the ready gauge — also when the caller is cancelled (an
        asker that hung up): the check goes on to its end, shielded."""
        check = asyncio.ensure_future(self._problems())
        try:
            return await asyncio.shield(check)
        except asyncio.CancelledError:
            check.add_done_callback(_consumed)  # it sets the gauge when it ends
            raise

    async def _problems(self) -> dict[str, str]:
        found: dict[str, str] = {}
        if self.stopping:
            found["process"] = "shutting down"
        kind = getattr(self.store, "kind", "store")
        try:
            async with asyncio.timeout(self.ping_timeout):
                await self.store.ping()
        except TimeoutError:
            found["store"] = f"{kind}: no answer within {self.ping_timeout:g}s"
        except Exception as e:
            found["store"] = f"{kind}: {str(e) or type(e).__name__}"
        beat = getattr(self.ticker, "last_beat", None)
        if beat is None:
            found["ticker"] = "has not turned yet"
        else:
            age = self.clock() - beat
            if age > self.beat_within:
                found["ticker"] = f"last turned {age:.0f}s ago"
        metrics.set_ready(not found)
        return found

    async def refresh_games(self, force: bool = False) -> None:
        """Set the games gauge from the store (at most every `games_every` s)."""
        now = self.clock()
        if not force and self._games_at is not None and now - self._games_at < self.games_every:
            return
        self._games_at = now
        try:
            counts = await asyncio.wait_for(self.store.count_games(), 10.0)
        except Exception as e:
            log.warning("could not count the games for /metrics: %s", e or type(e).__name__)
            return
        metrics.set_games(counts)

    # ------------------------------------------------------------------ HTTP
    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def _readyz(self, request: web.Request) -> web.Response:
        found = await self.problems()
        if found:
            return web.json_response({"status": "not ready", "checks": found}, status=503)
        return web.json_response({"status": "ready"})

    async def _metrics(self, request: web.Request) -> web.Response:
        await self.refresh_games()
        response = web.Response(body=generate_latest(metrics.REGISTRY))
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        return response

    def web_app(self) -> web.Application:
        harden()
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on host:port (0: any free port); returns the port."""
        # no access log: a probe every few seconds would drown the bot's own lines
        self._runner = web.AppRunner(self.web_app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        log.info(
            "health and metrics on http://%s:%d (/healthz, /readyz, /metrics)", host, self.port
        )
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
