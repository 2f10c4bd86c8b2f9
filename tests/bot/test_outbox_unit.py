"""The group's outbox on its own (`bot.telling.outbox`): its lanes, merges,
rings and waits, driven directly with a fake store, a fake messenger and the
pace on a fake clock — no dispatcher, no Telegram, no Redis, a few
milliseconds a test.

Each test holds one promise of the module's notes that a slip in the code
would break quietly (the group is told something, only in the wrong order,
twice, or not whole): the game's lane before the replies', the oldest reply
giving way when the lane is full, closed turns merged only while they fit a
message, a game start's ring kept when a closed turn replaces its table, the
wait for a press's answer bounded, and computer turns in a row costing one
closed message and one new table — not a table each.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.store.models import Table
from bot.telegram.messenger import EDITED, Edit
from bot.telegram.pace import Pace
from bot.telling.answering import Unanswered
from bot.telling.outbox import REPLIES_MAX, Outboxes
from bot.words.screen import Keyboard
from tests.bot.harness import until

GROUP = -100_901
TABLE = "table"
MAX_TEXT = 4096  # Telegram's limit for a message's text
LONG = 1500  # a line this long: two fit one message, three do not


@dataclass
class Request:
    """What the outbox asked of Telegram, in order."""

    kind: str  # "send" or "edit"
    message_id: int
    text: str
    quiet: bool = False


class FakeStore:
    """All the outbox asks of a store: the record with its message ids, and
    setting ids (which answers the record's version)."""

    def __init__(self, table: Table, ids: dict[str, int] | None = None) -> None:
        self.table = table
        self.ids = dict(ids or {})

    async def load_with_messages(self, chat_id: int) -> tuple[Table | None, dict[str, int]]:
        return self.table, dict(self.ids)

    async def set_messages(self, chat_id: int, ids: dict[str, int | None]) -> int:
        for name, mid in ids.items():
            if mid is None:
                self.ids.pop(name, None)
            else:
                self.ids[name] = mid
        return self.table.version


class FakeMessenger:
    """Records every request; each waits for its slot on the pace (as the
    call policy makes them) and, while `hold` is set, hangs until released."""

    def __init__(self, pace: Pace, first_id: int = 100) -> None:
        self.pace = pace
        self.requests: list[Request] = []
        self.next_id = first_id
        self.hold = False
        self.held = asyncio.Event()  # a request is hanging
        self.release = asyncio.Event()

    async def _door(self, chat_id: int, new_message: bool) -> None:
        await self.pace.wait(chat_id, new_message)
        if self.hold:
            self.held.set()
            await self.release.wait()

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        reply_to: int | None = None,
        quiet: bool = False,
    ) -> int:
        await self._door(chat_id, True)
        self.next_id += 1
        self.requests.append(Request("send", self.next_id, text, quiet))
        return self.next_id

    async def change(
        self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None
    ) -> Edit:
        await self._door(chat_id, False)
        self.requests.append(Request("edit", message_id, text))
        return EDITED

    async def drop_buttons(self, chat_id: int, message_id: int) -> None:
        await self._door(chat_id, False)
        self.requests.append(Request("edit", message_id, ""))

    def sent(self) -> list[str]:
        return [r.text for r in self.requests if r.kind == "send"]


def fake_pace() -> Pace:
    """The real pace on a clock that moves only when it sleeps."""
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds
        await asyncio.sleep(0)  # a sleep lets others run, however short

    return Pace(clock=lambda: now[0], sleep=sleep)


def log_text(lines: list[str]) -> tuple[str, bool]:
    """Closed lines as one message, as the teller makes it (`Teller.log_text`):
    all of them when they fit; else the latest that fit under a line saying
    how many were left out."""
    whole = "\n".join(lines)
    if len(whole) <= MAX_TEXT:
        return whole, True
    room = MAX_TEXT - len("(left out: 9999)") - 1
    kept: list[str] = []
    for line in reversed(lines):
        room -= len(line) + 1
        if room < 0:
            break
        kept.append(line)
    return "\n".join([f"(left out: {len(lines) - len(kept)})", *reversed(kept)]), False


def table_view(table: Table) -> tuple[str, Keyboard | None]:
    return f"the table at version {table.version}", None


class OneView:
    """The group's views as the outbox is given them: here only a quiet table."""

    def draw(self, name: str, table: Table) -> tuple[str, Keyboard | None] | None:
        assert name == TABLE
        return table_view(table)

    def quiet(self, name: str) -> bool:
        return name == TABLE

    def __contains__(self, name: object) -> bool:
        return name == TABLE


def outboxes(ids: dict[str, int] | None = None) -> tuple[Outboxes, FakeStore, FakeMessenger]:
    pace = fake_pace()
    store = FakeStore(
        Table(chat_id=GROUP, game_no=1, creator_id=1, status="playing", version=7), ids
    )
    messenger = FakeMessenger(pace)
    boxes = Outboxes(store, messenger, pace, OneView())  # type: ignore[arg-type]
    return boxes, store, messenger


def boxes_table(boxes: Outboxes) -> Table:
    store = boxes.store
    assert isinstance(store, FakeStore)
    return store.table


def line(turn: int, length: int = LONG) -> str:
    head = f"turn {turn}: "
    return head + "·" * (length - len(head))


def turn_ends(boxes: Outboxes, lines: list[str]) -> None:
    """What a turn's end is told as (`Teller.lay_out`, sent by `Sender.deliver`):
    its lines closed in the table's message, the new turn's table as a new one."""
    boxes.close(GROUP, TABLE, lines, log_text)
    boxes.repost(GROUP, TABLE)


def closed_lines(requests: list[Request]) -> list[str]:
    """Every line of the closed turns' messages, as the group reads them last
    (an edited message counts with its final text), in the messages' order."""
    final: dict[int, str] = {}
    for r in requests:
        if r.text.startswith("turn ") or r.text.startswith("(left out"):
            final.pop(r.message_id, None)
            final[r.message_id] = r.text
    return [x for text in final.values() for x in text.split("\n")]


async def test_the_games_messages_go_before_every_reply_waiting() -> None:
    """Replies to commands are served only when the game's lane is empty: a
    /rules asked before a move is told after the move's messages."""
    boxes, _, tg = outboxes()
    boxes.reply(GROUP, "the rules", user_id=1)
    boxes.post(GROUP, "Анна passes")
    boxes.reply(GROUP, "the cards", user_id=2)
    boxes.post(GROUP, "Борис wins")
    await boxes.idle()
    assert tg.sent() == ["Анна passes", "Борис wins", "the rules", "the cards"]


async def test_the_games_message_put_while_a_reply_is_under_way_goes_next() -> None:
    boxes, _, tg = outboxes()
    tg.hold = True
    boxes.reply(GROUP, "the top", user_id=1)
    boxes.reply(GROUP, "the rules", user_id=2)
    await tg.held.wait()  # the first reply is being sent
    boxes.post(GROUP, "Анна passes")
    tg.hold = False
    tg.release.set()
    await boxes.idle()
    assert tg.sent() == ["the top", "Анна passes", "the rules"]


async def test_a_full_replies_lane_lets_its_oldest_give_way() -> None:
    """`REPLIES_MAX` replies wait at most; one more pushes out the oldest —
    the group reads the newest answers, not stale ones."""
    boxes, _, tg = outboxes()
    asked = [f"reply {i}" for i in range(REPLIES_MAX + 3)]
    for i, text in enumerate(asked):
        boxes.reply(GROUP, text, user_id=i)  # each from someone else: none replaces another
    await boxes.idle()
    assert tg.sent() == asked[-REPLIES_MAX:]


async def test_closed_turns_waiting_merge_only_while_they_fit_one_message() -> None:
    """Three turns close while the group waits: the first two fit one message
    (the table's, edited), the third gets one of its own — never a message
    past 4,096 characters, never a line summarised away."""
    boxes, _, tg = outboxes({TABLE: 1})
    lines = [line(i) for i in range(3)]
    for one in lines:
        turn_ends(boxes, [one])
    await boxes.idle()
    assert all(len(r.text) <= MAX_TEXT for r in tg.requests)
    assert closed_lines(tg.requests) == lines, "every closed line is read, once, in order"
    first, second, table = tg.requests
    assert (first.kind, first.message_id, first.text) == ("edit", 1, "\n".join(lines[:2]))
    assert (second.kind, second.text) == ("send", lines[2])
    assert (table.kind, table.text) == ("send", table_view(boxes_table(boxes))[0])


async def test_a_turn_closed_after_the_last_is_added_to_its_message_only_if_it_fits() -> None:
    """A turn closed while the table after the last closed one has not gone
    out is added to the last closed message — while it fits."""
    boxes, _, tg = outboxes({TABLE: 1})
    tg.hold = True
    turn_ends(boxes, [line(0, 100), line(1)])
    await tg.held.wait()  # the first turn's lines are being edited in
    turn_ends(boxes, [line(2, 100)])  # fits: into the same message
    tg.hold = False
    tg.release.set()
    await boxes.idle()
    turn_ends(boxes, [line(3)])  # the table went out: the next close edits it
    await boxes.idle()
    assert [(r.kind, r.message_id) for r in tg.requests[:2]] == [("edit", 1), ("edit", 1)]
    assert tg.requests[1].text == "\n".join([line(0, 100), line(1), line(2, 100)])

    # now one that does not fit the last closed message: a message of its own
    boxes, _, tg = outboxes({TABLE: 1})
    tg.hold = True
    turn_ends(boxes, [line(0), line(1)])
    await tg.held.wait()
    turn_ends(boxes, [line(2)])
    tg.hold = False
    tg.release.set()
    await boxes.idle()
    assert all(len(r.text) <= MAX_TEXT for r in tg.requests)
    assert closed_lines(tg.requests) == [line(0), line(1), line(2)]
    assert [(r.kind, r.message_id) for r in tg.requests[:2]] == [("edit", 1), ("send", 101)]


async def test_a_close_that_replaces_the_starts_table_keeps_its_ring() -> None:
    """A game's start reposts the table ringing; when a turn closes before
    that table went out, the table is not sent — the next one rings instead
    (the group would hear nothing of a game that started)."""
    boxes, _, tg = outboxes({TABLE: 1})
    boxes.repost(GROUP, TABLE, ring=True)  # the game starts
    turn_ends(boxes, [line(0, 100)])  # a computer's first turn, at once
    await boxes.idle()
    new = [r for r in tg.requests if r.kind == "send"]
    assert len(new) == 1 and new[0].text == table_view(boxes_table(boxes))[0]
    assert not new[0].quiet, "the start's table rings"
    # and a table after that is quiet again (the view is quiet)
    turn_ends(boxes, [line(1, 100)])
    await boxes.idle()
    assert tg.requests[-1].kind == "send" and tg.requests[-1].quiet


async def test_a_press_never_answered_holds_the_group_back_only_for_the_bounded_wait() -> None:
    """The outbox waits for the presses in hand to be answered, but at most
    `Unanswered.wait`: a handler stuck before its answer never silences the
    group. (The wait here is 10 ms; the guard is far above it.)"""
    boxes, _, tg = outboxes()
    boxes.unanswered = Unanswered(wait=0.01)
    boxes.unanswered.hold("press-1")  # held, and never answered
    boxes.post(GROUP, "Анна passes")
    await until(lambda: bool(tg.requests), timeout=2.0)
    assert tg.sent() == ["Анна passes"]
    assert "press-1" in boxes.unanswered._held  # still unanswered: the wait was what ended


async def test_computer_turns_in_a_row_cost_one_closed_message_and_one_table() -> None:
    """Computers play five turns while the group's request hangs: once it is
    through, their lines go in one edit of the table's message and the newest
    table in one new message — not a table a turn."""
    boxes, _, tg = outboxes({TABLE: 1})
    tg.hold = True
    boxes.show(GROUP, TABLE)
    await tg.held.wait()  # the table's edit is under way
    lines = [line(i, 60) for i in range(5)]
    for one in lines:
        turn_ends(boxes, [one])
        boxes.show(GROUP, TABLE)
    tg.hold = False
    tg.release.set()
    await boxes.idle()
    edit, closed, table = tg.requests
    assert (edit.kind, edit.message_id) == ("edit", 1)
    assert (closed.kind, closed.message_id, closed.text) == ("edit", 1, "\n".join(lines))
    assert table.kind == "send" and table.text == table_view(boxes_table(boxes))[0]
