"""Carrying out: where what a service command decided is sent, and nowhere else.

A command returns its effects as plain data (`bot.service.outcome`); the
`Carrier` carries them out, in order — for the courier
(`bot.handlers.courier`) once a person has their answer (a press, a command,
the Mini App), for the ticker (`bot.telling.timers`) once a timer fired. It
hands a told change to the sender (`Sender.deliver`), what a chat reads to
the chat's outbox (at the chat's pace), and private messages, files and
pictures to Telegram at once. Where what follows depends on how a send went,
it is done here: a file's follow-up message, how each /notify call went
handed back to `Notify.called`.

It also runs what goes on in tasks of their own, off everyone's path:

- /notify's calls to a lobby just opened (`CallSubscribers`), after it is
  shown: whoever opened it never waits for them;
- each person's review of a finished game, after its result went out
  (`after_result`, which `Sender.finish` calls: `bot.service.reviews`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, assert_never

from bot.ops import logs, metrics
from bot.service.notify import Notify
from bot.service.outcome import (
    CallSubscribers,
    CatchUp,
    ChatSteps,
    ClearButtons,
    Edit,
    Effect,
    FileTo,
    Invite,
    PhotoTo,
    StaleButtons,
    Tell,
    ToPerson,
    Went,
)
from bot.service.rematch import Rematch
from bot.service.reviews import MAX_WAITING, RESULT_WAIT, Reviews
from bot.store import StoreUnavailable
from bot.store.models import Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.telling.outbox import Outboxes
from bot.telling.sender import Sender

log = logging.getLogger(__name__)


class Background:
    """Tasks of one kind under way, kept so that none is collected."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self.tasks)

    def start(self, work: Coroutine[Any, Any, None], name: str | None = None) -> None:
        task = asyncio.create_task(work, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def idle(self) -> None:
        """Until every task under way has ended (what a test waits for)."""
        while self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)

    async def drain(self, timeout: float = 0.0) -> int:
        """At shutdown: let the tasks under way end for up to `timeout` seconds
        (none: cut off at once); how many were cut off."""
        if timeout > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.idle(), timeout)
        left = list(self.tasks)
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        return len(left)


class Carrier:
    """Carries out effects: the one place a service command's decisions are sent."""

    def __init__(
        self,
        sender: Sender,
        outboxes: Outboxes,
        messenger: Messenger,
        notify: Notify,
        reviews: Reviews,
        rematch: Rematch,
    ) -> None:
        self.sender = sender
        self.outboxes = outboxes
        self.messenger = messenger
        self.notify = notify
        self.reviews = reviews
        self.rematch = rematch
        self.calls = Background()  # /notify's calls under way, one task a lobby
        self.reviewing = Background()  # games whose reviews are under way

    # ------------------------------------------------------------------ effects
    async def carry_out(self, effects: tuple[Effect, ...]) -> None:
        """Carry out `effects`, one after another, in order."""
        for effect in effects:
            await self.carry(effect)

    async def carry(self, effect: Effect) -> None:
        match effect:
            case Edit():
                await self.messenger.edit(
                    effect.chat_id, effect.message_id, effect.text, effect.keys
                )
            case Tell():
                await self.sender.deliver(effect)
            case CatchUp():
                await self.sender.catch_up(effect.table, effect.ids, effect.decision)
            case StaleButtons():
                await self.messenger.drop_buttons(effect.user_id, effect.message_id)
            case ToPerson():
                await self.send(effect)
            case FileTo():
                await self.send_file(effect)
            case PhotoTo():
                await self.send_photo(effect)
            case ChatSteps():
                self.queue(effect)
            case ClearButtons():
                self.outboxes.drop_buttons(effect.chat_id, effect.message_id)
            case Invite():
                for invitation in await self.rematch.invitations(effect):
                    await self.send(invitation)
            case CallSubscribers():
                table = effect.table
                name = f"notify {table.chat_id}:{table.game_no}"
                self.calls.start(self._calling(table), name)
            case _:
                assert_never(effect)

    def queue(self, effect: ChatSteps) -> None:
        """A chat's steps, into its outbox in order (nothing waits for them here)."""
        for step in effect.steps:
            self.sender.to_outbox(effect.chat_id, step)

    # ------------------------------------------------------------------ in private
    async def send(self, message: ToPerson) -> Went:
        """A message to a person; how it went (not delivered: logged, let go)."""
        try:
            await self.messenger.send(
                message.user_id, message.text, message.keys, quiet=message.quiet
            )
        except Unreachable:
            log.info("%s cannot be written to", logs.person(message.user_id))
            return "unreachable"
        except Undelivered as e:
            log.warning("gave up sending to %s: %s", logs.person(message.user_id), e)
            return "failed"
        return "sent"

    async def send_file(self, file: FileTo) -> None:
        """A file, then what follows it: `sent` once it went, else `failed`."""
        try:
            await self.messenger.send_file(file.user_id, file.name, file.content, file.caption)
        except (Unreachable, Undelivered) as e:
            log.info("a file to %s was not delivered: %s", logs.person(file.user_id), e)
            then = file.failed
        else:
            then = file.sent
        if then is not None:
            await self.send(then)

    async def send_photo(self, photo: PhotoTo) -> None:
        try:
            await self.messenger.send_photo(
                photo.user_id, photo.png, photo.caption, photo.keys, quiet=photo.quiet
            )
        except Unreachable:
            log.info("a picture was not sent: the bot may not write to its person")
        except Undelivered as e:
            log.info("a picture was not delivered: %s", e)

    # ------------------------------------------------------------------ in tasks of their own
    async def _calling(self, table: Table) -> None:
        """A new lobby's calls: whom `Notify.calls` names, each sent; how each
        went back to `Notify.called`, whose effects follow."""
        try:
            calls = await self.notify.calls(table)
            went: list[Went] = []
            for call in calls:
                went.append(
                    "unreachable" if call.message is None else await self.send(call.message)
                )
            await self.carry_out(await self.notify.called(table, calls, went))
        except StoreUnavailable as e:
            log.warning("lobby %s: store unavailable, calls cut short: %s", table.chat_id, e)
        except Exception:
            log.exception("lobby %s: the calls failed", table.chat_id)

    def after_result(self, table: Table, told: asyncio.Future[None]) -> None:
        """The game's result is handed to the group's outbox (`told`: done once
        it went out): its people's reviews are made and sent after it, in a
        task of their own (see `bot.service.reviews`)."""
        if not self.reviews.due(table):
            return
        if len(self.reviewing) >= MAX_WAITING:
            log.warning("too many games wait for their reviews: this one gets none")
            metrics.review_skipped()
            return
        self.reviewing.start(self._reviewing(table.model_copy(deep=True), told))

    async def _reviewing(self, table: Table, told: asyncio.Future[None]) -> None:
        try:
            # the result first: nothing of the reviews comes before it (nor
            # takes the worker from its picture)
            await asyncio.wait_for(asyncio.shield(told), RESULT_WAIT)
            async for review in self.reviews.made(table):
                await self.send_photo(review)
        except TimeoutError:
            log.warning("the result in %s was not told in time: no reviews", table.chat_id)
        except Exception:
            log.warning(
                "the reviews of a game in %s could not be made", table.chat_id, exc_info=True
            )

    # ------------------------------------------------------------------ waiting
    async def idle(self) -> None:
        """Until nothing is under way off a handler's path: the calls to new
        lobbies, then every group's outbox (which those calls feed), then the
        reviews after a result (which wait for it to go out)."""
        await self.calls.idle()
        await self.outboxes.idle()
        await self.reviewing.idle()

    async def drain(self, timeout: float) -> None:
        """At shutdown, within `timeout` seconds in all: the calls to new
        lobbies still going (they feed the outboxes), then what the groups are
        still to be told, at their pace; what is cut off is logged."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        cut = await self.calls.drain(max(0.5, until - loop.time()))
        if cut:
            log.warning("%d lobby call(s) cut off at shutdown", cut)
        cut = await self.outboxes.drain(max(0.5, until - loop.time()))
        if cut:
            log.warning("%d group(s) not told everything at shutdown", cut)
        cut = await self.reviewing.drain()  # a review is no game's business: not waited for
        if cut:
            log.info("%d game(s)' reviews given up at shutdown", cut)
