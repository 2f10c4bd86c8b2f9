"""The bot as a real process (python -m bot) against a fake Bot API."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from tests.bot.fake_bot_api import user

ROOT = Path(__file__).resolve().parents[3]  # the repository


TOKEN = "123456:TEST"


ANNA, BORIS = user(101, "Анна"), user(102, "Борис")  # play in A


LONG, SHORT = 60, 10  # TURN_TIMEOUT = CHOICE_TIMEOUT; 10 is the least Settings allow


T = TypeVar("T")


class BotProcess:
    """`python -m bot` with its output (logging goes to stderr) kept line by line."""

    def __init__(
        self, name: str, env: dict[str, str], python: str = sys.executable, cwd: Path = ROOT
    ) -> None:
        self.name = name
        self.env = env
        self.python = python  # another interpreter: an installed copy of the bot
        self.cwd = cwd
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._grew = asyncio.Event()  # set (and replaced) at each new line

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            self.python,
            "-m",
            "bot",
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip())
            grew, self._grew = self._grew, asyncio.Event()
            grew.set()
        self._grew.set()  # the output ended: a waiter looks one last time

    async def wait_line(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """The first output line matching `pattern` (a regex), as soon as it is
        written. `timeout` only bounds a wait for a line that never comes."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for line in self.lines[seen:]:
                found = re.search(pattern, line)
                if found:
                    return found
            seen = len(self.lines)
            if self._reader is not None and self._reader.done():
                raise AssertionError(f"{self.name} ended without a line like {pattern!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name} wrote no line like {pattern!r} in {timeout}s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._grew.wait(), left)

    async def health_url(self, timeout: float = 60.0) -> str:
        """The health port's base URL, from the line the bot logs when it listens."""
        found = await self.wait_line(r"health and metrics on (http://[0-9.]+:\d+)", timeout)
        return found.group(1)

    async def wait_exit(self, timeout: float) -> int:
        """The exit code, once the process has exited on its own. `timeout` only
        bounds a process that never exits (it is then killed)."""
        assert self.proc is not None
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.proc.kill()
            await self._reap()
            raise AssertionError(f"{self.name} did not exit within {timeout}s") from None
        return await self._reap()

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    first_update = 0  # index into `FakeBotAPI.queued` of the first update it is handed

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> int:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.kill()
        return await self._reap()

    async def stop(self, grace: float = 120.0) -> int:
        """SIGTERM, then SIGKILL if it has not exited within `grace` seconds (a
        bound for a process that hangs, not a window it must fit on a busy machine)."""
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), grace)
            except TimeoutError:
                self.proc.kill()
        return await self._reap()

    async def _reap(self) -> int:
        assert self.proc is not None
        code = await self.proc.wait()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)
        return code


def bot_env(api_url: str, redis_url: str, timeout: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        BOT_TOKEN=TOKEN,
        BOT_API_URL=api_url,
        REDIS_URL=redis_url,
        WEBHOOK_URL="",  # polling, whatever a local .env says
        DEFAULT_LANG="ru",
        TURN_TIMEOUT=str(timeout),
        CHOICE_TIMEOUT=str(timeout),
        COMPUTER_PAUSE="0.2",
        HEALTH_HOST="127.0.0.1",
        HEALTH_PORT="0",  # any free port: test runs side by side never clash
        LOG_FORMAT="text",
        LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    return env


async def until(check: Callable[[], Awaitable[T | None]], timeout: float, what: str) -> T:
    """Poll an async check every 50 ms until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.05)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _clean(proc: BotProcess) -> None:
    bad = [ln for ln in proc.lines if " ERROR " in ln or "Traceback" in ln or '"ERROR"' in ln]
    assert not bad, "\n".join(bad)
