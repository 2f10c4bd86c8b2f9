"""A real browser for the Mini App's tests: Debian's Chromium (``apt-get
install chromium``; `.ci/run` installs it), driven by Playwright. Without it
the tests are skipped — unless ``CI`` is set, where they fail: CI must test
the page in a browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
import pytest_asyncio

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def missing(why: str) -> NoReturn:
    """Skip for want of `why` — or fail, under CI."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{why}, and CI is set: CI must test the page in a browser", pytrace=False)
    pytest.skip(why)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The page tests run on one event loop a worker, the session's: the
    browser they share lives on it (each test opens its own context, closed
    after it: nothing a page did reaches the next test)."""
    here = Path(__file__).parent
    on_session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if item.path.is_relative_to(here) and pytest_asyncio.is_async_test(item):
            item.add_marker(on_session_loop, append=False)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    """One Chromium a worker for every page test: launching it takes about
    a second, each test's own context a few milliseconds."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        missing("Playwright is not installed (pip install -e '.[dev]')")
    if shutil.which(CHROMIUM) is None:
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()
