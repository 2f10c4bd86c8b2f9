"""The next game: /notify calls a person in private when a lobby opens in the
group (one message per subscriber per lobby, with a join button).

A subscriber the bot cannot write to (never started it, or blocked it: 403)
is asked in the group to start the bot — once, until they are reached again.

A chat's subscribers are called at most once every `CALL_INTERVAL` seconds,
whoever opens lobbies and however often (one claim in the store, shared by
every process): opening and cancelling lobbies in a loop calls nobody twice.
Nobody already seated in the new lobby is called.

The calls go after the lobby is shown, in a task of their own (one per
lobby: the `CallSubscribers` effect a new lobby returns), so whoever typed
/newgame never waits for them. The carrier (`bot.telling.carrying`) runs
that task: it asks `calls` whom to call and with what, sends each call, and
hands how each went to `called`, which notes it and says what the group is
told.
"""

from __future__ import annotations

import logging

from bot.service.base import Actor, Conflict, Links, Records, Refusal, Reply
from bot.service.outcome import (
    Call,
    ChatStep,
    ChatSteps,
    Effect,
    PostText,
    ShowView,
    ToPerson,
    Went,
)
from bot.service.views import LOBBY
from bot.store.models import Table
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
        render: Renderer,
        tr: Translator,
        links: Links,
    ) -> None:
        self.records = records
        self.store = records.store
        self.render = render
        self.tr = tr
        self.links = links

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

    async def calls(self, table: Table) -> tuple[Call, ...]:
        """Whom a lobby just opened calls, and with what: every subscriber not
        seated in it (none when the chat's subscribers were called less than
        `CALL_INTERVAL` ago). One who never started the bot gets no message."""
        subs = await self.store.subscribers(table.chat_id)
        seated = set(table.people)
        if not set(subs) - seated:
            return ()
        now = self.records.clock.now()
        if not await self.store.once_within(f"notify:{table.chat_id}", now, CALL_INTERVAL):
            log.info("lobby %s: its subscribers were called less than a while ago", table.chat_id)
            return ()
        link = await self.links.deep_link(f"join_{table.chat_id}_{table.game_no}")
        calls: list[Call] = []
        for user_id, value in sorted(subs.items()):
            state, _, name = value.partition(":")
            if user_id in seated:
                continue
            prefs = await self.store.user(user_id)
            message = None
            if prefs.started:
                lang = prefs.lang or table.lang
                chat = self.render.header(lang, table).removeprefix("💬 ")
                text = self.tr.t(lang, "notify-lobby", chat=chat)
                markup = keyboard([Button(self.tr.t(lang, "btn-join"), url=link)])
                message = ToPerson(user_id, text, markup)
            calls.append(Call(user_id, message, state == ASKED, name))
        return tuple(calls)

    async def called(
        self, table: Table, calls: tuple[Call, ...], went: list[Went]
    ) -> tuple[Effect, ...]:
        """How each of `calls` went (`went`, in their order), noted: one reached
        after being asked to start the bot is subscribed again; one who cannot
        be reached is asked in the group to start it (once); the lobby then
        shows how many were called. Returns what the group is told."""
        called = 0
        unreached: dict[int, str] = {}
        for call, how in zip(calls, went, strict=True):
            if how == "unreachable":
                if not call.asked:
                    unreached[call.user_id] = call.name
            elif how == "sent":
                called += 1
                if call.asked:
                    await self.store.subscribe(table.chat_id, call.user_id, f"{ON}:{call.name}")
        steps: list[ChatStep] = []
        for user_id, name in unreached.items():
            await self.store.subscribe(table.chat_id, user_id, f"{ASKED}:{name}")
        if unreached:
            start = await self.links.deep_link("notify")
            who = ", ".join(
                f'<a href="tg://user?id={int(u)}">{self.render.person(table.lang, n)}</a>'
                for u, n in unreached.items()
            )
            text = self.tr.t(table.lang, "notify-unreachable", players=who, link=start)
            steps.append(PostText(text))
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
                pass  # the lobby closed or started meanwhile: nothing to count
            except Conflict:
                log.warning("lobby %s: its count of calls kept losing the race", table.chat_id)
            else:
                steps.append(ShowView(LOBBY))
        return (ChatSteps(table.chat_id, tuple(steps)),) if steps else ()
