"""The sender: a told change's screens (`Tell`, laid out by the service's
`Teller`) sent — each person's private screens at once, side by side, the
chat's message ids kept; the group's steps handed to its outbox; the game's
result posted once — and a prompt its player never got sent anew
(`catch_up`). The carrier (`bot.telling.carrying`) is what calls it, for the
courier and the ticker alike.

A prompt's message id is kept as the seat's prompt once it landed (and which
decision it shows: `shown_as`); a person the bot cannot write to (403) is
named in the group once a game (`_tell_unreachable`) — what follows a send is
done here, never by the service."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import assert_never

from bot.ops import logs
from bot.service.base import Conflict, until_saved
from bot.service.bookkeeping import result_marked_told
from bot.service.outcome import (
    ChatStep,
    CloseTurn,
    Closing,
    Discard,
    FixView,
    Note,
    PostPicture,
    PostText,
    Private,
    Prompt,
    RepostView,
    Reread,
    ShowView,
    Tell,
)
from bot.service.telling import Teller
from bot.service.views import TABLE
from bot.store import Store, StoreFull, StoreUnavailable
from bot.store.models import Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.telling.outbox import Outboxes
from bot.words.keyboards import rematch_keyboard
from bot.words.screen import Keyboard
from engine import Decision

log = logging.getLogger(__name__)


def prompt_ids(decision: Decision, message_id: int | None) -> dict[str, int | None]:
    """The chat's message ids after `decision`'s prompt went out as `message_id`:
    the seat's prompt, and which decision it shows (so a prompt that never went
    out can be told from one that did: see `Sender.catch_up`)."""
    if message_id is None:
        return {}
    return shown_as(decision.seat, decision.id, message_id)


def shown_as(seat: int, decision: int, message_id: int) -> dict[str, int | None]:
    """The seat's prompt is message `message_id`, showing decision `decision`."""
    return {f"prompt:{seat}": message_id, f"shown:{seat}": decision}


class _ToldAlready(Exception):
    """The result was handed to the group already (or the record moved on)."""


class Sender:
    """Sends what a saved change is told as (see the module's notes)."""

    def __init__(
        self,
        teller: Teller,
        store: Store,
        messenger: Messenger,
        outboxes: Outboxes,
        deep_link: Callable[[str], Awaitable[str]],
        on_finish: Callable[[], Awaitable[None]] | None = None,
        on_result: Callable[[Table, asyncio.Future[None]], None] | None = None,
    ) -> None:
        self.teller = teller  # what the screens are (a prompt sent anew, the group's log)
        self.store = store
        self.messenger = messenger
        self.outboxes = outboxes
        self.render = teller.render
        self.tr = teller.tr
        self.app = teller.app  # the Mini App (None: no app buttons or links)
        self.pictures = teller.pictures  # the result's picture (None: text only)
        self.deep_link = deep_link
        # after a game's end is told (the chat's home rates it: `Games.game_finished`)
        self.on_finish = on_finish
        # after a game's result is handed to the outbox, with what is done once
        # it went out (each player's review: `Carrier.after_result`)
        self.on_result = on_result

    # ================================================================== telling a move
    async def deliver(self, tell: Tell) -> None:
        """Send what a `Tell` lays out — the one place a told change goes out,
        from a press, the Mini App or a timer: the private screens at once,
        side by side, and the chat's message ids brought up to date; then the
        group's steps to its outbox; then, once, the game's result."""
        table = tell.table
        chat = table.chat_id
        if self.app is not None and (tell.group or tell.view_first):
            await self.app.know_username()  # the group's table links to the app
        if tell.view_first is not None:
            await self.outboxes.show_now(chat, tell.view_first, fresh=True)
        updates: dict[str, int | None] = dict.fromkeys(tell.forget)
        await asyncio.gather(*(self.carry(table, screen, updates) for screen in tell.private))
        if updates:
            await self._remember(chat, updates)
        if table.day_new and table.status == "playing":
            # a game at own pace may outlive its people's links to it (what
            # /games and /hand read): its daily message renews them
            try:
                for user_id in table.humans:
                    await self.store.link_user(user_id, chat)
            except StoreUnavailable:
                log.warning("chat %s: its people's links were not renewed today", chat)
        for step in tell.group:
            if isinstance(step, CloseTurn):
                self.outboxes.close(
                    chat, step.view, list(step.lines), self.teller.log_text(table.lang)
                )
            else:
                self.to_outbox(chat, step)
        if tell.finish:
            await self.finish(table)

    def to_outbox(self, chat_id: int, step: ChatStep) -> None:
        """One of a chat's steps into its outbox, in its turn (nothing waits
        for it here): a told change's, or a command's (`Carrier.queue`)."""
        match step:
            case ShowView():
                self.outboxes.show(chat_id, step.view)
            case RepostView():
                self.outboxes.repost(chat_id, step.view, ring=step.ring)
            case FixView():
                self.outboxes.fix(chat_id, step.view, step.text, or_post=step.or_post)
            case PostText():
                self.outboxes.post(chat_id, step.text, quiet=step.quiet)
            case PostPicture():
                pictures = self.pictures
                picture = pictures.of_table(step.table) if pictures is not None else None
                self.outboxes.post(chat_id, step.caption, quiet=step.quiet, picture=picture)
            case Reread():
                self.outboxes.forget(chat_id)
            case Discard():
                self.outboxes.discard(chat_id)
            case _:
                assert_never(step)

    async def _remember(self, chat_id: int, ids: dict[str, int | None]) -> None:
        """The chat's message ids are bookkeeping: a store that refuses writes
        (full, read-only) loses them, not what was just sent — a prompt's
        buttons answer all the same (the next prompt is sent anew), and /hand
        works while the store is full."""
        try:
            await self.store.set_messages(chat_id, ids)
        except StoreFull as e:
            log.warning("chat %s: its message ids not kept (%s)", logs.chat(chat_id), e)

    async def carry(
        self, table: Table, screen: Private, updates: dict[str, int | None] | None = None
    ) -> int | None:
        """Send one private screen; a prompt's message is noted in `updates`
        (the seat's prompt and which decision it shows). Returns the message
        it landed in (None: not delivered)."""
        match screen:
            case Closing():
                await self.messenger.edit(screen.user_id, screen.message_id, screen.text)
                return screen.message_id
            case Note():
                return await self.send_private(
                    table, screen.seat, screen.text, screen.keys, ring=screen.ring
                )
            case Prompt():
                user_id = table.seats[screen.seat].user_id
                landed: int | None = None
                if screen.edit is not None and user_id is not None:
                    edited = await self.messenger.edit(
                        user_id, screen.edit, screen.text, screen.keys
                    )
                    landed = screen.edit if edited else None
                if landed is None:
                    landed = await self.send_private(
                        table, screen.seat, screen.text, screen.keys, ring=screen.ring
                    )
                    if landed is not None and screen.replaces is not None:
                        old = screen.replaces
                        await self.messenger.edit(old.user_id, old.message_id, old.text)
                if updates is not None and landed is not None:
                    updates.update(shown_as(screen.seat, screen.decision, landed))
                return landed

    async def finish(self, table: Table) -> None:
        """The game's result and «Ещё партию», once: whoever marks the result
        told first posts it."""
        assert table.state is not None
        if not await self.result_told(table):
            return  # another process (its timer: this one was slow) posted it
        for user_id in table.people:
            await self.store.link_user(user_id, table.chat_id, linked=False)
        # a group's game offers «Ещё партию» (a practice game starts anew with /practice)
        markup = (
            None
            if table.practice
            else rematch_keyboard(table.game_no, self.tr.t(table.lang, "btn-rematch"))
        )
        # a group's result carries the game's picture: the final table and the
        # points turn by turn (a practice game's private chat: the text alone)
        picture = (
            self.pictures.of_table(table)
            if self.pictures is not None and not table.practice
            else None
        )
        told = self.outboxes.post(
            table.chat_id, self.render.result(table, table.state), markup, picture=picture
        )
        if self.on_result is not None:
            self.on_result(table, told)
        if table.tutor is not None:  # the tutor's last word: where the game is played
            self.outboxes.post(table.chat_id, self.tr.t(table.lang, "tutor-end"))
        if self.on_finish is not None:
            await self.on_finish()

    async def result_told(self, table: Table) -> bool:
        """The game's result is handed to the group: the record stops waiting
        for it (and its timer goes). False when it was told already — by
        another process, or the record moved on."""

        async def attempt() -> Table | None:
            t = await self.store.load(table.chat_id)
            if t is None or t.game_no != table.game_no or not t.result_untold:
                raise _ToldAlready
            result_marked_told(t)
            return t if await self.store.save(t) else None

        try:
            t = await until_saved(attempt, table.chat_id)
        except (_ToldAlready, Conflict):
            return False
        # known to the outbox like every save here: the final table it is
        # about to show stays known (not read again, nor shown twice)
        self.outboxes.know(t)
        return True

    async def send_private(
        self,
        table: Table,
        seat: int,
        text: str,
        markup: Keyboard | None = None,
        ring: bool = False,
    ) -> int | None:
        """A message to a seat's person, without a sound unless it must `ring`
        (see the module's notes)."""
        user_id = table.seats[seat].user_id
        if user_id is None:
            return None
        try:
            return await self.messenger.send(user_id, text, markup, quiet=not ring)
        except Undelivered as e:
            # a prompt that never arrived is sent again (see `catch_up`)
            log.warning("gave up sending to %s: %s", logs.person(user_id), e)
            return None
        except Unreachable:
            await self._tell_unreachable(table, seat, user_id)
            return None

    async def _tell_unreachable(self, table: Table, seat: int, user_id: int) -> None:
        """The group is told once a game (kept with the chat's message ids, so
        every process knows); /start or /hand in the private chat forgets it."""
        told = f"unreachable:{user_id}"
        if (await self.store.messages(table.chat_id)).get(told) == table.game_no:
            return
        await self.store.set_messages(table.chat_id, {told: table.game_no})
        link = await self.deep_link("play")
        self.outboxes.post(
            table.chat_id,
            self.tr.t(
                table.lang,
                "err-unreachable",
                player=self.render.mention(table, seat),
                link=link,
            ),
        )

    async def send_prompt(
        self,
        table: Table,
        decision: Decision,
        ids: dict[str, int],
        ring: bool = False,
    ) -> int | None:
        """Send a decision's prompt to its player as a new message (ringing
        when they are newly asked: `ring`); the seat's older prompt in `ids`
        points to it (see `prompt`). Returns the new message's id."""
        screen = self.teller.prompt(table, decision, ids, ring=ring)
        return None if screen is None else await self.carry(table, screen)

    async def drop_prompts(self, table: Table, ids: dict[str, int]) -> dict[str, int | None]:
        """Every prompt of the chat loses its buttons; returns the message ids
        to forget (the prompts and which decision each showed)."""
        drops = []
        for key, message_id in ids.items():
            if key.startswith("prompt:"):
                user_id = table.seats[int(key.split(":")[1])].user_id
                if user_id is not None:
                    drops.append(self.messenger.drop_buttons(user_id, message_id))
        await asyncio.gather(*drops)
        return {key: None for key in ids if key.startswith(("prompt:", "shown:"))}

    async def catch_up(self, table: Table, ids: dict[str, int], decision: Decision) -> None:
        """Show `decision`'s prompt, which its player never got — the move
        before it was saved but not told (the process died, Redis's answer to
        the save was lost, Telegram kept failing: `Play.owed` tells it). Old
        prompts lose their buttons, the prompt is sent and kept as the seat's,
        the table is brought up to date."""
        updates = await self.drop_prompts(table, ids)
        # the prompt they were owed: asked as it should have been
        sent = await self.send_prompt(table, decision, {}, ring=True)
        updates.update(prompt_ids(decision, sent))
        await self.store.set_messages(table.chat_id, updates)
        # the move was saved unknown to the outbox (its save's answer lost, its
        # process gone): the table is read again, not shown as it was
        self.outboxes.forget(table.chat_id)
        self.outboxes.show(table.chat_id, TABLE)
