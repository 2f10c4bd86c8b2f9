"""A harness with the Mini App's server, and a game's page."""

from __future__ import annotations

import re
from typing import Any

from aiogram.types import User

from bot.store import Store
from bot.words.app import AppLinks
from tests.bot.harness import Harness, people
from tests.bot.webapp_client import (
    BASE_URL,
)

GROUP = -100777
#: a card id as the harness's texts and the app's JSON carry it
CARD_ID = re.compile(r"(?<![A-Za-z0-9_])([hos]\d+)(?![0-9])")


LINKS = AppLinks(BASE_URL)


def app_harness(store: Store, links: AppLinks = LINKS) -> Harness:
    return Harness(store, app=links)


def webapp_of(h: Harness) -> Any:
    assert h.app.webapp is not None
    return h.app.webapp


async def game_of(h: Harness, n: int, seed: int = 3) -> list[User]:
    players = people(*(f"Игрок{i}" for i in range(n)))
    await h.open_game(GROUP, players[0], players[1:], seed=seed)
    return players
