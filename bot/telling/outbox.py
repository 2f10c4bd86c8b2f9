"""The group's outbox: what a group is told, in order, at the group's pace.

A person never waits for the group: a press is answered and the next prompt
sent first, and what the group reads is put into its outbox, which a worker
task empties at the pace Telegram allows a group (about a request a second;
a new message every 3 s, 20 a minute: `bot.telegram.pace`). Two lanes:

**The game's lane** comes first:

- `post`: a new message (a notice, the result: a picture with its caption), in its turn;
- `show`: a *view* — the table, the lobby — brought up to date. It is rendered
  from the newest record only when its turn comes, and a `show` already
  waiting takes any later one in, so a burst of moves costs one edit (the
  latest wins) and never a backlog;
- `repost`: the view as a new message, which the view's edits then follow.
  Only the newest is ever sent: a `repost` waiting is replaced by the next;
- `fix`: the view's message gets a text for good ("the game has started");
  `show`s still waiting to edit it are dropped;
- `close`: a closed turn's lines, for good, in the view's message. Closed
  turns waiting behind each other merge into one message, and a turn closed
  while the table that follows the last one has not gone out yet is added to
  that last message (while it fits Telegram's 4096 characters; else it is a
  new message): however fast people or computers play, a group that is
  behind catches up in a few requests. When even one turn's lines don't fit,
  the oldest are summarised by a line that says how many were left out —
  never cut mid-line;
- `drop_buttons` of a group message.

**The replies' lane** — replies to commands in the group (/cards, /rules,
/top…) — is served only when the game's lane is empty, so no member can hold
the table back. It keeps at most `REPLIES_MAX` replies (the oldest give way),
an identical reply waiting takes a new one in, and a person's new reply
without buttons replaces their older one still waiting
(`smuta_outbox_dropped_total{why}` counts what was dropped).

A view may be *quiet* (the table): its new messages go without a sound
(`disable_notification`), unless a `repost` asks it to ring (a game's start).

What a view shows is rendered from the record this process just saved
(`know`, called after every compare-and-set save), and the message ids the
outbox showed are kept beside it (`KNOWN_CHATS` chats, the least recently
used forgotten): a group's edit costs no store round trip, and only a new
message costs a write (`set_messages`). That memory is trusted only while
the process follows the chat on the store's feed (`bot.store.feed`: one
Redis subscription a process, a chat's channel joined when its group is
first shown). When another process saves the chat (`moved`) or sends one of
its views anew (`views_moved`), what is known is read again before its next
use, and a view this process edited just before it heard of a newer save
(`HEARD_WITHIN`), or is editing, is shown again: its edit may have landed
after theirs. Nothing here is needed for a game to go on: an op that fails
is logged and the next move (or the catch-up, `Sender.catch_up`) shows the
table again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Protocol

from bot.ops import metrics
from bot.service.outcome import LogText
from bot.service.pictures import Drawing
from bot.store import Store, StoreUnavailable
from bot.store.feed import Feed
from bot.store.models import Table
from bot.telegram.messenger import EDITED, GONE, Messenger, Undelivered, Unreachable
from bot.telegram.pace import Pace
from bot.telling.answering import Unanswered
from bot.words.screen import CAPTION_MAX, Keyboard, Shown

log = logging.getLogger(__name__)


class Views(Protocol):
    """The group's views by name (`bot.service.views.GroupViews`)."""

    def draw(self, name: str, table: Table) -> tuple[str, Keyboard | None] | None:
        """View `name` of `table`, or None when the record has none to show."""
        ...

    def quiet(self, name: str) -> bool:
        """Whether the view's new messages go without a sound."""
        ...

    def __contains__(self, name: object) -> bool:
        """Whether `name` is a view's (its message id is the view's message)."""
        ...


REPLIES_MAX = 10  # command replies a group's outbox keeps waiting (the oldest give way)
SHOWN_KEPT = 4  # messages per chat whose last text an outbox remembers (its views')
KNOWN_CHATS = 1000  # chats whose record and message ids an outbox keeps in memory
#: how late the feed may tell of another process's save: a view shown here
#: this shortly before is shown again (its edit may have landed after theirs)
HEARD_WITHIN = 1.0
#: seconds a message waits for its picture to be drawn (then it goes as text)
PICTURE_WAIT = 20.0


@dataclass
class Post:
    text: str
    markup: Keyboard | None = None
    reply_to: int | None = None
    quiet: bool = False
    picture: Drawing | None = None  # the text goes as this picture's caption
    #: done once the message went out — or failed, or was dropped (see `Outboxes.post`)
    told: asyncio.Future[None] | None = None
    new_message = True


def _settled(op: object) -> None:
    """A post's `told` is done: it went out, failed, or will never go."""
    told = getattr(op, "told", None)
    if told is not None and not told.done():
        told.set_result(None)


@dataclass
class Said:
    """A queued reply to someone's command in the group (what the bot said
    back; it goes in the replies' lane, after the game's own messages)."""

    text: str
    markup: Keyboard | None
    reply_to: int | None
    user_id: int | None
    picture: Drawing | None = None  # the text goes as this picture's caption
    new_message = True


@dataclass
class Show:
    view: str
    new_message = False


@dataclass
class Repost:
    view: str
    ring: bool = False  # notify with sound: a quiet view's new message rings all the same
    new_message = True


@dataclass
class Fix:
    """An edit in place: the view's message set to `text` (fixed, not reposted)."""

    view: str
    text: str
    markup: Keyboard | None = None
    or_post: bool = False  # no message to fix (or it is gone): post the text instead
    new_message = False


@dataclass
class Close:
    view: str
    lines: list[str]
    text: LogText
    new_message = False


@dataclass
class DropButtons:
    message_id: int
    new_message = False


Op = Post | Show | Repost | Fix | Close | DropButtons


@dataclass
class Known:
    """An outbox's cache of one chat: the newest record it saw, the message
    ids of its views, and the newest version the feed spoke of."""

    table: Table | None
    ids: dict[str, int]
    heard: int = 0  # the newest version the feed (the store's pub/sub) announced
    stale: bool = False  # read again before the next use
    following: bool = False  # the feed tells this process of other processes' saves
    closed: dict[str, tuple[int, list[str]]] = field(default_factory=dict)  # view → last close
    edited: tuple[str, float] | None = None  # the view last shown here, and when (loop time)
    #: message id → the text and buttons this process last put there: an edit
    #: to the same is not sent (Telegram refuses it, and it spends the pace)
    shown: dict[int, Shown] = field(default_factory=dict)

    def showing(self, message_id: int, text: str, markup: Keyboard | None) -> bool:
        return self.shown.get(message_id) == (text, markup)

    def showed(self, message_id: int, text: str, markup: Keyboard | None) -> None:
        self.shown.pop(message_id, None)  # the most recent last
        self.shown[message_id] = (text, markup)
        while len(self.shown) > SHOWN_KEPT:
            del self.shown[next(iter(self.shown))]

    @property
    def version(self) -> int:
        return self.table.version if self.table is not None else 0

    @property
    def fresh(self) -> bool:
        return self.following and not self.stale and self.heard <= self.version


class Outbox:
    """One group's lanes and the worker that empties them."""

    def __init__(self, chat_id: int, owner: Outboxes) -> None:
        self.chat_id = chat_id
        self.owner = owner
        self.queue: deque[Op] = deque()
        self.replies: deque[Said] = deque()
        self.task: asyncio.Task[None] | None = None
        self.doing: Op | Said | None = None  # the op being carried out

    def put(self, op: Op) -> None:
        if isinstance(op, Show) and self._showing(op.view):
            return  # the one waiting renders the newest record when it goes
        if isinstance(op, Repost):
            op.ring |= self._drop(op.view, (Show, Repost))  # only the newest goes
        elif isinstance(op, Fix):
            self._drop(op.view, (Show,))  # those would edit the very message this fixes
        elif isinstance(op, Close):
            # the table this waited to follow is not sent: the next one is; the
            # turn's lines join the waiting ones (or the last closed message)
            ring = self._drop(op.view, (Show, Repost))
            if ring:
                self.owner.ring_next(self.chat_id, op.view)
            if self._merged(op):
                self._start()
                return
        self.queue.append(op)
        self._start()

    def clear(self) -> None:
        """Drop everything waiting (what waits on a post is let go)."""
        for op in self.queue:
            _settled(op)
        self.queue.clear()
        self.replies.clear()

    def say(self, said: Said) -> None:
        if any(w.text == said.text and w.markup == said.markup for w in self.replies):
            metrics.outbox_dropped("same")
            self._start()
            return
        if said.markup is None and said.user_id is not None:
            older = [w for w in self.replies if w.user_id == said.user_id and w.markup is None]
            for w in older:
                self.replies.remove(w)
                metrics.outbox_dropped("newer")
        self.replies.append(said)
        while len(self.replies) > REPLIES_MAX:
            self.replies.popleft()
            metrics.outbox_dropped("full")
        self._start()

    def _start(self) -> None:
        if self.task is None and (self.queue or self.replies):
            self.task = asyncio.create_task(self._work(), name=f"outbox {self.chat_id}")

    def _drop(self, view: str, kinds: tuple[type, ...]) -> bool:
        """Take the ops of `kinds` about `view` waiting after its last fix or
        close out of the queue; whether one of them was a repost that rang."""
        kept: list[Op] = []
        rang = False
        cut = True
        for op in reversed(self.queue):
            about = getattr(op, "view", None) == view
            if about and isinstance(op, Fix | Close):
                cut = False
            if cut and about and isinstance(op, kinds):
                rang |= isinstance(op, Repost) and op.ring
                continue
            kept.append(op)
        self.queue = deque(reversed(kept))
        return rang

    def _merged(self, op: Close) -> bool:
        """Add `op`'s lines to a close of the same view still waiting (the last
        op about the view), when all of them fit one message."""
        for waiting in reversed(self.queue):
            if getattr(waiting, "view", None) != op.view:
                continue
            if not isinstance(waiting, Close):
                return False
            lines = waiting.lines + op.lines
            if not op.text(lines)[1]:
                return False
            waiting.lines, waiting.text = lines, op.text
            return True
        return False

    def _showing(self, view: str) -> bool:
        """Whether the queue's last op about `view` renders it when it goes."""
        for q in reversed(self.queue):
            if isinstance(q, Show | Repost) and q.view == view:
                return True
            if isinstance(q, Fix | Close) and q.view == view:
                return False
        return False

    def _next(self) -> Op | Said | None:
        if self.queue:
            return self.queue[0]
        return self.replies[0] if self.replies else None

    async def _work(self) -> None:
        try:
            while (head := self._next()) is not None:
                # wait for the group's slot first, and only then take what to
                # send: whatever arrived meanwhile is in it (the game's first)
                await self.owner.pace.wait_free(self.chat_id, head.new_message)
                await self.owner.unanswered.answered()  # a press's answer goes first
                op: Op | Said
                if self.queue:
                    op = self.queue.popleft()
                elif self.replies:
                    op = self.replies.popleft()
                else:
                    break
                self.doing = op
                try:
                    await self.owner.run(self, op)
                except StoreUnavailable as e:
                    log.warning("group %s: store unavailable, %s not told: %s", self.chat_id, op, e)
                except Exception:
                    log.exception("group %s: %s failed", self.chat_id, type(op).__name__)
                finally:
                    self.doing = None
                    _settled(op)
        except asyncio.CancelledError:
            self.clear()  # cut off at shutdown
            raise
        finally:
            self.task = None
            self.owner.done(self)


class Outboxes:
    """Every group's outbox, and how each op is carried out."""

    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        pace: Pace,
        views: Views,
        feed: Feed | None = None,
    ) -> None:
        self.store = store
        self.messenger = messenger
        self.pace = pace
        self.views = views  # what the group's view messages show (`bot.service.views`)
        self.feed = feed
        self.unanswered = Unanswered()  # presses in hand: their answers go first
        self._boxes: dict[int, Outbox] = {}
        self._known: OrderedDict[int, Known] = OrderedDict()
        self._ring: set[tuple[int, str]] = set()  # (chat, view): its next repost rings
        self._following: set[asyncio.Task[None]] = set()
        self._subscribing: set[int] = set()  # chats whose following is under way
        if feed is not None:
            feed.listen(self)

    # ------------------------------------------------------------------ telling
    def _box(self, chat_id: int) -> Outbox:
        box = self._boxes.get(chat_id)
        if box is None:
            box = self._boxes[chat_id] = Outbox(chat_id, self)
        return box

    def post(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
        picture: Drawing | None = None,
    ) -> asyncio.Future[None]:
        """A new message in its turn; with a `picture`, the picture with the
        text as its caption (the text alone if the picture fails). Returns
        what is done once it went out (or failed, or was dropped: the group
        was discarded, the outbox cut off at shutdown) — what must follow it
        in another chat waits on that (a review after its game's result)."""
        told: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._box(chat_id).put(Post(text, markup, reply_to, quiet, picture, told))
        return told

    def reply(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        reply_to: int | None = None,
        user_id: int | None = None,
        picture: Drawing | None = None,
    ) -> None:
        """A reply to a command in the group, in the replies' lane (see the
        module's notes): sent once the game's lane is empty, maybe collapsed."""
        self._box(chat_id).say(Said(text, markup, reply_to, user_id, picture))

    def show(self, chat_id: int, view: str) -> None:
        self._box(chat_id).put(Show(view))

    def repost(self, chat_id: int, view: str, ring: bool = False) -> None:
        if (chat_id, view) in self._ring:
            self._ring.discard((chat_id, view))
            ring = True
        self._box(chat_id).put(Repost(view, ring))

    def ring_next(self, chat_id: int, view: str) -> None:
        """A repost that was to ring was replaced: the next one rings instead."""
        self._ring.add((chat_id, view))

    def fix(
        self,
        chat_id: int,
        view: str,
        text: str,
        markup: Keyboard | None = None,
        or_post: bool = False,
    ) -> None:
        self._box(chat_id).put(Fix(view, text, markup, or_post))

    def close(self, chat_id: int, view: str, lines: list[str], text: LogText) -> None:
        """A closed turn's `lines` go into the view's message for good (merged
        with other closed turns waiting: see the module's notes)."""
        self._box(chat_id).put(Close(view, list(lines), text))

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
            box.clear()
        self._drop_known(chat_id)

    def replacing(self, chat_id: int) -> None:
        """A new game is about to be saved in place of the chat's record: what
        is known of the last one goes, unless some of it waits to be sent (its
        views are then read again before their next use, as after any save
        another process made)."""
        if not self.pending(chat_id):
            self.discard(chat_id)

    def pending(self, chat_id: int) -> int:
        box = self._boxes.get(chat_id)
        return len(box.queue) + len(box.replies) if box is not None else 0

    # ------------------------------------------------------------------ what is known
    def know(self, table: Table) -> None:
        """A record this process just saved. Trusted when it follows the last
        version known here; else what is known is read again before its next use."""
        known = self._known.get(table.chat_id)
        if known is None:
            return  # nothing shown here yet: the first show reads it
        if known.table is not None and known.version + 1 == table.version:
            known.table = table
            self._known.move_to_end(table.chat_id)
        else:
            self.forget(table.chat_id)

    def forget(self, chat_id: int) -> None:
        """What is known of the chat is read again before its next use (what
        this process showed there is kept: the closed turns' messages)."""
        known = self._known.get(chat_id)
        if known is not None:
            known.stale = True

    def _drop_known(self, chat_id: int) -> None:
        known = self._known.pop(chat_id, None)
        self._ring = {r for r in self._ring if r[0] != chat_id}
        if known is not None and known.following:
            self._unfollow(chat_id)

    def _remember(self, chat_id: int, table: Table | None, ids: dict[str, int]) -> Known:
        old = self._known.pop(chat_id, None)
        known = Known(table, {k: v for k, v in ids.items() if k in self.views})
        if old is not None:
            # (not the closed turns' message: another process may have moved on from it)
            known.following, known.heard = old.following, old.heard
            known.edited = old.edited
            if old.table is not None and table is not None and old.version == table.version:
                # nobody saved since: nobody showed anything newer in its messages
                known.shown = old.shown
        self._known[chat_id] = known
        if not known.following:
            self._follow(chat_id, known)
        while len(self._known) > KNOWN_CHATS:
            evicted, gone = self._known.popitem(last=False)
            if gone.following:
                self._unfollow(evicted)
        return known

    def _follow(self, chat_id: int, known: Known) -> None:
        if self.feed is None:  # one process: nobody else saves
            known.following = True
            return
        if chat_id in self._subscribing:
            return
        feed = self.feed
        self._subscribing.add(chat_id)

        async def follow() -> None:
            try:
                await feed.follow(chat_id)
            except StoreUnavailable as e:
                log.warning("group %s: cannot hear of other processes' saves: %s", chat_id, e)
                return
            finally:
                self._subscribing.discard(chat_id)
            now = self._known.get(chat_id)
            if now is None:  # forgotten meanwhile
                await feed.unfollow(chat_id)
                return
            # heard of from now on; what was read before may have missed a
            # save: read once more, then trusted
            now.following, now.stale = True, True

        self._track(follow())

    def _unfollow(self, chat_id: int) -> None:
        if self.feed is not None:
            self._track(self.feed.unfollow(chat_id))

    def _track(self, work: object) -> None:
        task = asyncio.ensure_future(work)  # type: ignore[call-overload]
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    def moved(self, chat_id: int, version: int) -> None:
        """The feed: a save of the chat published `version` (maybe this
        process's own, whose `know` may not have come yet: heard a moment later)."""
        with contextlib.suppress(RuntimeError):  # no loop: nothing to tell
            asyncio.get_running_loop().call_soon(self._heard, chat_id, version)

    def _heard(self, chat_id: int, version: int) -> None:
        known = self._known.get(chat_id)
        if known is None or version <= known.version:
            return
        known.heard = max(known.heard, version)
        box = self._boxes.get(chat_id)
        doing = box.doing if box is not None else None
        if isinstance(doing, Show | Repost):
            # our edit, under way, may land after theirs: show the newest once more
            self.show(chat_id, doing.view)
        elif known.edited is not None and self._now() - known.edited[1] < HEARD_WITHIN:
            # our last edit ended after their save may have been published (the
            # feed tells of it a moment later): it may have landed after theirs
            self.show(chat_id, known.edited[0])

    def views_moved(self, chat_id: int) -> None:
        """The feed: another process sent one of the chat's views anew (its
        message id changed): read again before the next use."""
        self.forget(chat_id)

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    def gap(self) -> None:
        """The feed may have missed saves: nothing known is trusted."""
        for known in self._known.values():
            known.stale = True

    async def _fresh(self, chat_id: int) -> Known:
        """What is known of the chat, read (record and message ids in one round
        trip) when this process cannot vouch for it."""
        known = self._known.get(chat_id)
        if known is not None and known.fresh:
            self._known.move_to_end(chat_id)
            return known
        table, ids = await self.store.load_with_messages(chat_id)
        return self._remember(chat_id, table, ids)

    # ------------------------------------------------------------------ waiting
    def done(self, box: Outbox) -> None:
        """A worker ended with its lanes empty (nothing is put between its
        last look at them and this call: no await lies between)."""
        if self._boxes.get(box.chat_id) is box:
            del self._boxes[box.chat_id]

    def _tasks(self) -> list[asyncio.Task[None]]:
        return [b.task for b in self._boxes.values() if b.task is not None]

    async def idle(self) -> None:
        """Until every outbox is empty (what a test and a shutdown wait for;
        cancelling the wait leaves the outboxes at work)."""
        while tasks := self._tasks():
            await asyncio.wait(tasks)

    async def drain(self, timeout: float) -> int:
        """At shutdown: let the outboxes empty for up to `timeout` seconds; how
        many groups still had something to say (cut off). Returns once the
        ones cut off have stopped (before the store closes under them)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), timeout)
        left = self._tasks()
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        following = list(self._following)
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
        return len(left)

    # ------------------------------------------------------------------ carrying out
    async def run(self, box: Outbox, op: Op | Said) -> None:
        chat_id = box.chat_id
        if isinstance(op, Post | Said) and op.picture is not None:
            quiet = op.quiet if isinstance(op, Post) else False
            await self._send_picture(chat_id, op.picture, op.text, op.markup, quiet)
        elif isinstance(op, Post):
            await self._send(chat_id, op.text, op.markup, op.reply_to, op.quiet)
        elif isinstance(op, Said):
            await self._send(chat_id, op.text, op.markup, op.reply_to)
        elif isinstance(op, Show | Repost):
            ring = isinstance(op, Repost) and op.ring
            if await self._show(chat_id, op.view, fresh=isinstance(op, Repost), ring=ring):
                box.put(Show(op.view))
        elif isinstance(op, Fix):
            known = await self._fresh(chat_id)
            message_id = known.ids.get(op.view)
            fixed = message_id is not None and await self._edit(
                known, chat_id, message_id, op.text, op.markup
            )
            if not fixed and op.or_post:
                await self._send(chat_id, op.text, op.markup)
        elif isinstance(op, Close):
            await self._close(chat_id, op)
        else:
            seen = self._known.get(chat_id)
            if seen is not None:  # what it shows is no longer what was put there
                seen.shown.pop(op.message_id, None)
            await self.messenger.drop_buttons(chat_id, op.message_id)

    async def _close(self, chat_id: int, op: Close) -> None:
        """The closed turn's lines into the view's message — added to the lines
        it holds when it is the last closed one still (no table followed it
        yet) and all fit; else a new message."""
        known = await self._fresh(chat_id)
        message_id = known.ids.get(op.view)
        last = known.closed.get(op.view)
        lines = op.lines
        if message_id is not None and last is not None and last[0] == message_id:
            text, whole = op.text(last[1] + op.lines)
            if whole:
                lines = last[1] + op.lines
            else:
                message_id = None  # full: the turn gets a message of its own
        text, _ = op.text(lines)
        edited = message_id is not None and await self._edit(known, chat_id, message_id, text)
        if edited:
            assert message_id is not None
            known.closed[op.view] = (message_id, lines)
            return
        sent = await self._send(chat_id, text, quiet=self.views.quiet(op.view))
        if sent is None:
            return
        known.showed(sent, text, None)
        # the view's message holds closed lines for good: its next close adds
        # to this one, its next show is a new message
        known.closed[op.view] = (sent, lines)
        known.ids[op.view] = sent
        await self.store.set_messages(chat_id, {op.view: sent})

    async def _edit(
        self,
        known: Known,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Keyboard | None = None,
    ) -> bool:
        """Edit a message to `text` and `markup` — not sent when it shows just
        that already (True: it does); False when the message is gone."""
        if known.showing(message_id, text, markup):
            return True
        edited = await self.messenger.change(chat_id, message_id, text, markup)
        if edited == EDITED:
            known.showed(message_id, text, markup)
        else:  # what it shows is not known (Telegram kept failing), or it is gone
            known.shown.pop(message_id, None)
        return edited != GONE

    async def _send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
    ) -> int | None:
        try:
            # a private chat's (a practice game's) table, lobby and result make
            # no sound: only its prompts ring (`bot.service.telling`)
            quiet = quiet or chat_id > 0
            return await self.messenger.send(chat_id, text, markup, reply_to, quiet)
        except Unreachable:
            log.warning("cannot write to group %s", chat_id)
        except Undelivered as e:
            # the next move edits the table, or sends it anew
            log.warning("gave up sending to group %s: %s", chat_id, e)
        return None

    async def _send_picture(
        self,
        chat_id: int,
        picture: Drawing,
        caption: str,
        markup: Keyboard | None,
        quiet: bool,
    ) -> int | None:
        """The picture with `caption` — waited for at most `PICTURE_WAIT`
        seconds; the caption alone as a message when it is not drawn by then,
        could not be drawn, or Telegram refuses the photo."""
        png: bytes | None = None
        try:
            png = await asyncio.wait_for(asyncio.shield(picture), PICTURE_WAIT)
        except TimeoutError:
            log.warning(
                "a picture for %s took over %ss: the text goes alone", chat_id, PICTURE_WAIT
            )
        except Exception:
            log.warning("a picture for %s could not be drawn", chat_id, exc_info=True)
        if png is not None and len(caption) <= CAPTION_MAX:
            try:
                quiet = quiet or chat_id > 0
                return await self.messenger.send_photo(chat_id, png, caption, markup, quiet)
            except Unreachable:
                log.warning("cannot write to group %s", chat_id)
                return None
            except Undelivered as e:
                log.warning(
                    "a picture to %s was not delivered: %s; the text goes alone", chat_id, e
                )
        return await self._send(chat_id, caption, markup, quiet=quiet)

    async def _show(self, chat_id: int, view: str, fresh: bool, ring: bool = False) -> bool:
        """Render the view from the newest record known and edit its message
        (or send a new one); True when a newer move was saved meanwhile (maybe
        by another process, whose edit this one may have landed after)."""
        known = await self._fresh(chat_id)
        table = known.table
        shown = self.views.draw(view, table) if table is not None else None
        if table is None or shown is None:
            return False
        text, markup = shown
        message_id = None if fresh else known.ids.get(view)
        if message_id is not None and message_id == known.closed.get(view, (None,))[0]:
            message_id = None  # it holds closed turns for good: the view goes anew
        if message_id is not None and known.showing(message_id, text, markup):
            return False  # it shows just that: nothing to send
        edited = message_id is not None and await self._edit(
            known, chat_id, message_id, text, markup
        )
        if edited:
            known.edited = (view, self._now())
            if known.following:
                return False  # the feed tells of a newer save
            latest = await self.store.set_messages(chat_id, {})
            return latest > table.version
        quiet = self.views.quiet(view) and not ring
        sent = await self._send(chat_id, text, markup, quiet=quiet)
        if sent is None:
            return False
        known.showed(sent, text, markup)
        known.edited = (view, self._now())
        known.ids[view] = sent
        latest = await self.store.set_messages(chat_id, {view: sent})
        if latest > table.version:
            known.heard = max(known.heard, latest)
            return True
        return False
