"""The group's outbox: what a group is told, in order, at the group's pace.

A person never waits for the group: a press is answered and the next prompt
sent first, and what the group reads is put into its outbox, which a worker
task empties at the pace Telegram allows a group (about a request a second,
20 new messages a minute). What waits there:

- `post`: a new message (a notice, a reply, the result), in its turn;
- `show`: a *view* — the table, the lobby — brought up to date. It is rendered
  from the newest saved record only when its turn comes, and a `show` already
  waiting takes any later one in, so a burst of moves costs one edit (the
  latest wins) and never a backlog;
- `repost`: the view as a new message, which the view's edits then follow;
- `fix`: the view's message gets a text for good (a closed turn's last lines,
  "the game has started"); `show`s still waiting to edit it are dropped;
- `drop_buttons` of a group message.

Distinct messages keep their order: a closed turn's last lines, then the new
table. Nothing here is needed for a game to go on: an op that fails is logged
and the next move (or the catch-up, `Teller.catch_up`) shows the table again.
The message ids of views live in the store, so any process edits the same
table; after an edit the record's version is read back in the same round
trip, and a newer move saved meanwhile (maybe by another process, whose edit
this one may have landed after) is shown again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.store import Store, StoreUnavailable
from bot.store.models import Table
from bot.telegram.messenger import Messenger, Undelivered, Unreachable
from bot.telegram.pace import Pace

log = logging.getLogger(__name__)

#: a view's text and buttons for a record, or None when the record has none to show
View = Callable[[Table], tuple[str, InlineKeyboardMarkup | None] | None]


@dataclass
class Post:
    text: str
    markup: InlineKeyboardMarkup | None = None
    reply_to: int | None = None
    new_message = True


@dataclass
class Show:
    view: str
    new_message = False


@dataclass
class Repost:
    view: str
    new_message = True


@dataclass
class Fix:
    view: str
    text: str
    markup: InlineKeyboardMarkup | None = None
    or_post: bool = False  # no message to fix (or it is gone): post the text instead
    new_message = False


@dataclass
class DropButtons:
    message_id: int
    new_message = False


Op = Post | Show | Repost | Fix | DropButtons


class Outbox:
    """One group's queue and the worker that empties it."""

    def __init__(self, chat_id: int, owner: Outboxes) -> None:
        self.chat_id = chat_id
        self.owner = owner
        self.queue: deque[Op] = deque()
        self.task: asyncio.Task[None] | None = None

    def put(self, op: Op) -> None:
        if isinstance(op, Show) and self._showing(op.view):
            return  # the one waiting renders the newest record when it goes
        if isinstance(op, Fix):
            # those would edit the very message this fixes
            waiting = [q for q in self.queue if not (isinstance(q, Show) and q.view == op.view)]
            self.queue = deque(waiting)
        self.queue.append(op)
        if self.task is None:
            self.task = asyncio.create_task(self._work(), name=f"outbox {self.chat_id}")

    def _showing(self, view: str) -> bool:
        """Whether the queue's last op about `view` renders it when it goes."""
        for q in reversed(self.queue):
            if isinstance(q, Show | Repost) and q.view == view:
                return True
            if isinstance(q, Fix) and q.view == view:
                return False
        return False

    async def _work(self) -> None:
        try:
            while self.queue:
                # wait for the group's slot first, and only then take what to
                # send: whatever arrived meanwhile is in it
                await self.owner.pace.wait_free(self.chat_id, self.queue[0].new_message)
                if not self.queue:
                    break
                op = self.queue.popleft()
                try:
                    await self.owner.run(self, op)
                except StoreUnavailable as e:
                    log.warning("group %s: store unavailable, %s not told: %s", self.chat_id, op, e)
                except Exception:
                    log.exception("group %s: %s failed", self.chat_id, op)
        except asyncio.CancelledError:
            self.queue.clear()  # cut off at shutdown
            raise
        finally:
            self.task = None
            self.owner.done(self)


class Outboxes:
    """Every group's outbox, and how each op is carried out."""

    def __init__(self, store: Store, messenger: Messenger, pace: Pace) -> None:
        self.store = store
        self.messenger = messenger
        self.pace = pace
        self.views: dict[str, View] = {}
        self._boxes: dict[int, Outbox] = {}

    # ------------------------------------------------------------------ telling
    def add_view(self, name: str, view: View) -> None:
        self.views[name] = view

    def _box(self, chat_id: int) -> Outbox:
        box = self._boxes.get(chat_id)
        if box is None:
            box = self._boxes[chat_id] = Outbox(chat_id, self)
        return box

    def post(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> None:
        self._box(chat_id).put(Post(text, markup, reply_to))

    def show(self, chat_id: int, view: str) -> None:
        self._box(chat_id).put(Show(view))

    def repost(self, chat_id: int, view: str) -> None:
        self._box(chat_id).put(Repost(view))

    def fix(
        self,
        chat_id: int,
        view: str,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        or_post: bool = False,
    ) -> None:
        self._box(chat_id).put(Fix(view, text, markup, or_post))

    def drop_buttons(self, chat_id: int, message_id: int) -> None:
        self._box(chat_id).put(DropButtons(message_id))

    async def show_now(self, chat_id: int, view: str, fresh: bool = False) -> None:
        """The view shown at once, not in its turn — for a chat without a pace
        where it must come before what is sent next (a practice game's table
        before its first prompt)."""
        if await self._show(chat_id, view, fresh):
            self.show(chat_id, view)

    def discard(self, chat_id: int) -> None:
        """Forget what waits for a group the bot may no longer write to."""
        box = self._boxes.get(chat_id)
        if box is not None:
            box.queue.clear()

    def pending(self, chat_id: int) -> int:
        box = self._boxes.get(chat_id)
        return len(box.queue) if box is not None else 0

    # ------------------------------------------------------------------ waiting
    def done(self, box: Outbox) -> None:
        """A worker ended with its queue empty (nothing is put between its
        last look at the queue and this call: no await lies between)."""
        if self._boxes.get(box.chat_id) is box:
            del self._boxes[box.chat_id]

    def _tasks(self) -> list[asyncio.Task[None]]:
        return [b.task for b in self._boxes.values() if b.task is not None]

    async def idle(self) -> None:
        """Until every outbox is empty (what a test waits for)."""
        while tasks := self._tasks():
            await asyncio.gather(*tasks, return_exceptions=True)

    async def drain(self, timeout: float) -> int:
        """At shutdown: let the outboxes empty for up to `timeout` seconds; how
        many groups still had something to say (cut off)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), timeout)
        left = self._tasks()
        for task in left:
            task.cancel()
        return len(left)

    # ------------------------------------------------------------------ carrying out
    async def run(self, box: Outbox, op: Op) -> None:
        chat_id = box.chat_id
        if isinstance(op, Post):
            await self._send(chat_id, op.text, op.markup, op.reply_to)
        elif isinstance(op, Show | Repost):
            if await self._show(chat_id, op.view, fresh=isinstance(op, Repost)):
                box.put(Show(op.view))
        elif isinstance(op, Fix):
            ids = await self.store.messages(chat_id)
            message_id = ids.get(op.view)
            fixed = message_id is not None and await self.messenger.edit(
                chat_id, message_id, op.text, op.markup
            )
            if not fixed and op.or_post:
                await self._send(chat_id, op.text, op.markup)
        else:
            await self.messenger.drop_buttons(chat_id, op.message_id)

    async def _send(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        reply_to: int | None = None,
    ) -> int | None:
        try:
            return await self.messenger.send(chat_id, text, markup, reply_to)
        except Unreachable:
            log.warning("cannot write to group %s", chat_id)
        except Undelivered as e:
            # the next move edits the table, or sends it anew
            log.warning("gave up sending to group %s: %s", chat_id, e)
        return None

    async def _show(self, chat_id: int, view: str, fresh: bool) -> bool:
        """Render the view from the newest record and edit its message (or send
        a new one); True when a newer move was saved meanwhile (maybe by
        another process, whose edit this one may have landed after)."""
        table, ids = await self.store.load_with_messages(chat_id)
        shown = self.views[view](table) if table is not None else None
        if table is None or shown is None:
            return False
        text, markup = shown
        message_id = None if fresh else ids.get(view)
        updates: dict[str, int | None] = {}
        if message_id is None or not await self.messenger.edit(chat_id, message_id, text, markup):
            sent = await self._send(chat_id, text, markup)
            if sent is None:
                return False
            updates[view] = sent
        latest = await self.store.set_messages(chat_id, updates)
        return latest > table.version
