"""The next game: /notify calls a person in private when a lobby opens in the
group (one message per subscriber per lobby, with a join button).

A subscriber the bot cannot write to (never started it, or blocked it: 403)
is asked in the group to start the bot — once, until they are reached again.

A chat's subscribers are called at most once every `CALL_INTERVAL` seconds,
whoever opens lobbies and however often (one claim in the store, shared by
every process): opening and cancelling lobbies in a loop calls nobody twice.
Nobody already seated in the new lobby is called.

The calls go after the lobby is shown, in a task of their own (one per
lobby), so whoever typed /newgame never waits for them; `idle` waits until
every call under way has gone (a test, and shutdown with `drain`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.ops import logs
from bot.service.base import Actor, Links, Records, Refusal, Reply
from bot.service.outbox import Outboxes
from bot.service.views import LOBBY
from bot.store import StoreUnavailable
from bot.store.models import Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.words.i18n import Translator
from bot.words.render import Renderer
from bot.words.screen import Button, keyboard
from engine import Command

log = logging.getLogger(__name__)

#: a chat's subscribers are called at most once in this many seconds
CALL_INTERVAL = 15 * 60
ON = "1"
ASKED = "asked"


class Notify:
    def __init__(
        self,
        records: Records,
        messenger: Messenger,
        outboxes: Outboxes,
        render: Renderer,
        tr: Translator,
        links: Links,
    ) -> None:
        self.records = records
        self.store = records.store
        self.messenger = messenger
        self.outboxes = outboxes
        self.render = render
        self.tr = tr
        self.links = links
        # the calls under way, one task per lobby (kept here so none is collected)
        self._calls: set[asyncio.Task[None]] = set()

    async def subscribe(self, chat_id: int, actor: Actor, on: bool) -> Reply:
        if not on:
            await self.store.subscribe(chat_id, actor.user_id, None)
            return Reply("notify-off")
        prefs = await self.store.user(actor.user_id)
        if not prefs.started:
            await self.store.subscribe(chat_id, actor.user_id, f"{ASKED}:{actor.name}")
            return Reply("notify-start-bot", url=await self.links.deep_link("notify"))
        await self.store.subscribe(chat_id, actor.user_id, f"{ON}:{actor.name}")
        return Reply("notify-on")

    async def lobby_opened(self, table: Table) -> None:
        """A lobby opened and is shown: its calls start, off the opener's path."""
        task = asyncio.create_task(
            self._calling(table), name=f"notify {table.chat_id}:{table.game_no}"
        )
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _calling(self, table: Table) -> None:
        try:
            await self.call(table)
        except StoreUnavailable as e:
            log.warning("lobby %s: store unavailable, calls cut short: %s", table.chat_id, e)
        except Exception:
            log.exception("lobby %s: the calls failed", table.chat_id)

    async def idle(self) -> None:
        """Until every call under way has gone (what a test waits for)."""
        while self._calls:
            await asyncio.gather(*self._calls, return_exceptions=True)

    async def drain(self, timeout: float) -> int:
        """At shutdown: let the calls under way finish for up to `timeout`
        seconds; how many lobbies' calls were cut off."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), timeout)
        left = list(self._calls)
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        return len(left)

    async def call(self, table: Table) -> int:
        """Tell every subscriber not seated in the lobby; the lobby then shows
        how many were told."""
        subs = await self.store.subscribers(table.chat_id)
        seated = set(table.people)
        if not set(subs) - seated:
            return 0
        now = self.records.clock.now()
        if not await self.store.claim(f"notify:{table.chat_id}", now, CALL_INTERVAL):
            log.info("lobby %s: its subscribers were called less than a while ago", table.chat_id)
            return 0
        link = await self.links.deep_link(f"join_{table.chat_id}_{table.game_no}")
        called = 0
        unreached: dict[int, str] = {}
        for user_id, value in sorted(subs.items()):
            state, _, name = value.partition(":")
            if user_id in seated:
                continue
            prefs = await self.store.user(user_id)
            if not prefs.started:
                if state != ASKED:
                    unreached[user_id] = name
                continue
            lang = prefs.lang or table.lang
            text = self.tr.t(
                lang, "notify-lobby", chat=self.render.header(lang, table).removeprefix("💬 ")
            )
            markup = keyboard([Button(self.tr.t(lang, "btn-join"), url=link)])
            try:
                await self.messenger.send(user_id, text, markup)
            except Unreachable:
                if state != ASKED:
                    unreached[user_id] = name
                continue
            except Undelivered as e:
                log.warning("could not call %s to %s: %s", logs.person(user_id), table.chat_id, e)
                continue
            called += 1
            if state == ASKED:
                await self.store.subscribe(table.chat_id, user_id, f"{ON}:{name}")
        for user_id, name in unreached.items():
            await self.store.subscribe(table.chat_id, user_id, f"{ASKED}:{name}")
        if unreached:
            start = await self.links.deep_link("notify")
            who = ", ".join(
                f'<a href="tg://user?id={int(u)}">{self.render.person(table.lang, n)}</a>'
                for u, n in unreached.items()
            )
            self.outboxes.post(
                table.chat_id, self.tr.t(table.lang, "notify-unreachable", players=who, link=start)
            )
        if called:
            game = table.game_no

            def count(t: Table) -> list[Command]:
                if t.status != "lobby":
                    raise Refusal("err-no-lobby")
                t.called = called
                return []

            try:
                await self.records.change(table.chat_id, count, game=game, stale="err-no-lobby")
            except Refusal:
                return called
            self.outboxes.show(table.chat_id, LOBBY)
        return called
