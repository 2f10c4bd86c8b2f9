"""A real browser for the Mini App's tests: Debian's Chromium (``apt-get
install chromium``; `.ci/run` installs it), driven by Playwright. Without it
the tests are skipped — unless ``CI`` is set, where they fail: CI must test
the page in a browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from typing import Any, NoReturn

import pytest

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


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
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
