"""The service's plumbing: who acts, what they are told back, the
compare-and-set change every update goes through, and sending.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything.
"""

from __future__ import annotations

import html
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from aiogram.types import InlineKeyboardMarkup

from bot.i18n import Translator
from bot.messenger import Messenger, Undelivered, Unreachable
from bot.models import Lang, Table
from bot.render import Renderer
from bot.store import Store
from engine import Command

log = logging.getLogger(__name__)


class Clock(Protocol):
    def now(self) -> float: ...


@dataclass(frozen=True)
class Actor:
    """Who pressed or typed: a Telegram user."""

    user_id: int
    name: str
    lang_code: str | None = None


@dataclass(frozen=True)
class Reply:
    """A short answer to the person who acted (a callback alert or a chat reply)."""

    key: str
    alert: bool = False
    url: str | None = None
    lang: Lang | None = None  # the reader's language when the service knows it


class Refusal(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Conflict(Exception):
    """Saving lost the race too many times."""


@dataclass
class Defaults:
    lang: Lang = "ru"
    turn_timeout: int = 90
    choice_timeout: int = 60
    computer_pause: float = 1.5


Change = Callable[[Table], list[Command]]
IsAdmin = Callable[[int, int], Awaitable[bool]]


class Service:
    """The plumbing every part of the game service shares."""

    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        tr: Translator,
        clock: Clock,
        bot_username: Callable[[], Awaitable[str]],
        is_admin: IsAdmin,
        defaults: Defaults | None = None,
        seeds: random.Random | None = None,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.tr = tr
        self.render = Renderer(tr)
        self.clock = clock
        self.bot_username = bot_username
        self.is_admin = is_admin
        self.defaults = defaults or Defaults()
        self.seeds = seeds or random.SystemRandom()

    async def _change(
        self,
        chat_id: int,
        change: Change,
        loaded: tuple[Table, dict[str, int]] | None = None,
    ) -> tuple[Table, dict[str, int]]:
        """Load, apply `change`, save with compare-and-set; retry on a lost race.

        Returns the saved record and the chat's message ids (read in the same
        round trip as the record). `loaded` — a record the caller has just read —
        saves the first load."""
        for _ in range(8):
            if loaded is not None:
                (table, ids), loaded = loaded, None
            else:
                found, ids = await self.store.load_with_messages(chat_id)
                if found is None:
                    raise Refusal("err-no-game")
                table = found
            commands = change(table)
            table.updated_at = self.clock.now()
            if await self.store.save(table, commands):
                return table, ids
        raise Conflict(chat_id)

    async def _may_manage(self, table: Table, user_id: int) -> bool:
        return user_id == table.creator_id or await self.is_admin(table.chat_id, user_id)

    async def deep_link(self, payload: str) -> str:
        return f"https://t.me/{await self.bot_username()}?start={payload}"

    async def _send_group(
        self, table: Table, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        try:
            return await self.messenger.send(table.chat_id, text, markup)
        except Unreachable:
            log.warning("cannot write to group %s", table.chat_id)
            return None
        except Undelivered as e:
            # the rest of the move's messages still go; the table is edited
            # (or sent anew) with the next move
            log.warning("gave up sending to group %s: %s", table.chat_id, e)
            return None

    async def _send_private(
        self, table: Table, seat: int, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        user_id = table.seats[seat].user_id
        if user_id is None:
            return None
        try:
            return await self.messenger.send(user_id, text, markup)
        except Undelivered as e:
            # a prompt that never arrived is sent again (see `_catch_up`)
            log.warning("gave up sending to %s: %s", user_id, e)
            return None
        except Unreachable:
            # the group is told once a game (kept with the chat's message ids, so
            # every process knows); /start or /hand in the private chat forgets it
            told = f"unreachable:{user_id}"
            if (await self.store.messages(table.chat_id)).get(told) == table.game_no:
                return None
            link = await self.deep_link("play")
            notice = await self._send_group(
                table,
                self.tr.t(
                    table.lang,
                    "err-unreachable",
                    player=html.escape(table.seats[seat].name),
                    link=link,
                ),
            )
            if notice is not None:
                await self.store.set_messages(table.chat_id, {told: table.game_no})
            return None
