"""Calling the Mini App's API as the page does: ``initData`` signed the way
Telegram signs it, sent in the ``Authorization`` header, over aiohttp's test
client (a real HTTP server on a local port)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
import re
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from aiogram.types import User
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.service import journal
from bot.store.models import Seat, Table, packed
from bot.webapp.payload import Payloads
from bot.webapp.server import WebApp
from engine import GameSetup, apply, new_game, pending
from engine.ai.easy import choose

TOKEN = "42:TEST"  # the harness's bot
PREFIX = "/app"
BASE_URL = "https://smuta.example/app"
#: six players with full names (the chat shows the first and last name)
FULL_NAMES = (
    "Анастасия Петрова",
    "Константин Волков",
    "Екатерина Смирнова",
    "Александр Иванов",
    "Мария Кузнецова",
    "Владимир Соколов",
)
#: a stream's next event comes within this (a guard against a hang, not a wait)
EVENT_TIMEOUT = 10.0


def init_data(
    user: User, auth_date: float, token: str = TOKEN, start_param: str | None = None
) -> str:
    """``initData`` as Telegram gives it to a page: the fields, and their HMAC
    keyed with the bot's token (core.telegram.org/bots/webapps)."""
    fields = {
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "auth_date": str(int(auth_date)),
        "user": json.dumps(
            {
                "id": user.id,
                "first_name": user.first_name,
                "language_code": user.language_code or "ru",
            },
            ensure_ascii=False,
            separators=(",", ":"),
        ),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def auth(data: str) -> dict[str, str]:
    return {"Authorization": f"tma {data}"}


class AppClient:
    """One HTTP client of one bot process's Mini App."""

    def __init__(self, client: TestClient[Any, Any], now: Any) -> None:
        self.client = client
        self.now = now  # the bot's clock: initData is signed "now"

    def headers(self, user: User) -> dict[str, str]:
        return auth(init_data(user, self.now()))

    async def state(self, user: User, chat_id: int) -> tuple[int, dict[str, Any]]:
        r = await self.client.get(f"{PREFIX}/api/state?chat={chat_id}", headers=self.headers(user))
        return r.status, await r.json()

    async def raw_state(self, user: User, chat_id: int) -> tuple[int, str]:
        r = await self.client.get(f"{PREFIX}/api/state?chat={chat_id}", headers=self.headers(user))
        return r.status, await r.text()

    async def answer(
        self, user: User, chat_id: int, game: int, decision: int, option: int
    ) -> tuple[int, dict[str, Any]]:
        r = await self.client.post(
            f"{PREFIX}/api/answer",
            headers=self.headers(user),
            json={"chat": chat_id, "game": game, "decision": decision, "option": option},
        )
        return r.status, await r.json()

    @asynccontextmanager
    async def stream(
        self, user: User, chat_id: int, last: int | None = None
    ) -> AsyncIterator[Stream]:
        headers = self.headers(user)
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        r = await self.client.get(f"{PREFIX}/api/events?chat={chat_id}", headers=headers)
        try:
            yield Stream(r)
        finally:
            r.close()


class Stream:
    """A server-sent events stream, read event by event."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, int, dict[str, Any]]:
        """The next event (comments skipped): its name, id and data."""
        while True:
            block = await asyncio.wait_for(self.response.content.readuntil(b"\n\n"), EVENT_TIMEOUT)
            text = block.decode()
            if text.startswith(":"):
                continue
            name = re.search(r"^event: (.*)$", text, re.M)
            ident = re.search(r"^id: (\d+)$", text, re.M)
            data = "".join(re.findall(r"^data: (.*)$", text, re.M))
            return (
                name.group(1) if name else "message",
                int(ident.group(1)) if ident else 0,
                json.loads(data) if data else {},
            )


@asynccontextmanager
async def serving(webapp: WebApp, now: Any) -> AsyncIterator[AppClient]:
    """The app of one bot process on a local port, and a client for it."""
    server = TestServer(webapp.application(PREFIX))
    async with TestClient(server) as client:
        try:
            yield AppClient(client, now)
        finally:
            await webapp.close()


def crowded_states(
    payloads: Payloads, seeds: Iterable[int], names: Sequence[str], rng: random.Random
) -> Iterator[tuple[str, bytes]]:
    """Every seat's and a spectator's state as the app sends it (JSON), at every
    decision of random 6-player games played to the end (crowded tables: every
    card a player could lay is laid sooner or later); with each, the kind of
    the decision pending."""
    for seed in seeds:
        state, _ = new_game(GameSetup(players=6, seed=seed))
        table = Table(
            chat_id=-100200,
            game_no=1,
            title="Группа с длинным названием",
            status="playing",
            creator_id=1,
            seats=[Seat(user_id=i + 1, name=names[i]) for i in range(6)],
            state=state,
            log=[packed(journal.note("log-away", 0))] * 12,  # a turn's worth of the group's lines
        )
        while (decision := pending(state)) is not None:
            for seat in (*range(6), None):
                view = payloads.table(table, seat, "ru", 0.0)
                body = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
                yield decision.kind, body.encode()
            apply(state, decision.seat, decision.id, choose(rng.getrandbits(32), decision))
