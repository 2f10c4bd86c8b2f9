"""A press is answered at once and a chat's updates keep their order.

- Updates of one chat are handled in the order Telegram sent them, other
  chats side by side: a batch that waited in the Bot API while the bot was
  down (`/newgame`, three `/join`, `/go`, handed to the dispatcher all at once,
  a task each, as polling does) gives a lobby with everyone and a started game.
- A group whose requests hang (its pace, flood control) holds up nobody:
  presses are answered and the next prompt is sent meanwhile.
- The group's outbox coalesces: many moves while one table edit is in flight
  cost one more edit, showing the newest table; turns that closed meanwhile
  get their lines merged into one message, then the newest table (in that order).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from aiogram import Bot
from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage, TelegramMethod
from aiogram.types import User

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore
from engine import pending
from tests.bot.fake_telegram import FakeTelegram, Hold
from tests.bot.harness import Harness, answer_data, asked, people

GROUP = -100888
OTHER_GROUP = -100889


class HeldGroups(FakeTelegram):
    """Requests to the chats in `hold` hang until `release` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.hold: set[int] = set()
        self.release = asyncio.Event()
        self.held = asyncio.Event()  # a request to a held chat is hanging

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        if getattr(method, "chat_id", None) in self.hold:
            self.held.set()
            await self.release.wait()
        return await super().make_request(bot, method, timeout)


def group_requests(tg: FakeTelegram, chat_id: int, since: int = 0) -> list[Any]:
    return [
        r
        for r in tg.requests[since:]
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == chat_id
    ]


async def test_a_batch_of_updates_that_waited_is_handled_in_order(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera, gleb = people("Анна", "Борис", "Вера", "Глеб")
    for user in (anna, boris, vera, gleb):
        await h.say(user.id, user, "/start")
    batch = [
        h.updates.message(GROUP, anna, "/newgame"),
        h.updates.message(GROUP, boris, "/join"),
        h.updates.message(GROUP, vera, "/join"),
        h.updates.message(GROUP, gleb, "/join"),
        h.updates.message(GROUP, anna, "/go"),
        # another group's batch, side by side
        h.updates.message(OTHER_GROUP, boris, "/newgame"),
        h.updates.message(OTHER_GROUP, gleb, "/join"),
    ]
    # as polling hands them over: a task each, in the order Telegram sent them
    tasks = [asyncio.create_task(h.app.dispatcher.feed_update(h.app.bot, u)) for u in batch]
    await asyncio.gather(*tasks)
    await h.settle()
    table = await h.table(GROUP)
    assert [s.user_id for s in table.seats] == [anna.id, boris.id, vera.id, gleb.id]
    assert table.status == "playing", "/go came last and started the game"
    other = await h.table(OTHER_GROUP)
    assert [s.user_id for s in other.seats] == [boris.id, gleb.id]
    assert other.status == "lobby"


async def decider(h: Harness, users: dict[int, User]) -> tuple[User, Table]:
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user_id = table.seats[decision.seat].user_id
    assert user_id is not None
    return users[user_id], table


async def press_first_option(h: Harness, users: dict[int, User]) -> tuple[User, Table]:
    """The decider presses the button of the decision's first option; the
    group is not waited for. Returns who pressed and the record before."""
    who, table = await decider(h, users)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    ids = await h.store.messages(GROUP)
    data = answer_data(table, decision, decision.options[0])
    await h.press(who, who.id, ids[f"prompt:{decision.seat}"], data, settle=False)
    return who, table


async def test_a_held_group_holds_up_no_press_and_its_table_is_coalesced(store: Store) -> None:
    tg = HeldGroups()
    h = Harness(store, tg=tg)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    users = {u.id: u for u in (anna, boris, vera)}
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    table_message = (await h.store.messages(GROUP))["table"]

    # the group's requests hang from now on (as if its pace or flood control held them)
    tg.hold.add(GROUP)
    since = len(tg.requests)
    closed: list[Table] = []
    moves = 0
    while not closed or moves < len(closed) + 3:
        before = len(tg.requests)
        _who, was = await press_first_option(h, users)
        moves += 1
        now = await h.table(GROUP)
        assert now.version == was.version + 1, "the move was saved"
        answers = [r for r in tg.requests[before:] if isinstance(r, AnswerCallbackQuery)]
        assert len(answers) == 1 and answers[0].text is None, "the press was answered at once"
        assert now.state is not None
        upcoming = pending(now.state)
        assert upcoming is not None
        next_user = now.seats[upcoming.seat].user_id
        assert next_user is not None
        sent = asked(tg, next_user, upcoming.id, before)
        assert len(sent) == 1, "the next decider got their prompt while the group hangs"
        if h.app.games.teller.render.closed_lines(now, now.state) is not None:
            closed.append(now)
    assert tg.held.is_set(), "the group's first request is hanging all this time"
    assert not group_requests(tg, GROUP, since), "nothing reached the group yet"

    tg.release.set()
    await h.settle()
    told = group_requests(tg, GROUP, since)
    newest = await h.table(GROUP)
    # the hanging edit, then the closed turns' lines merged into the message
    # the table was in, then one new table — the newest: the moves in between,
    # and the tables of the turns closed meanwhile, cost nothing more
    assert len(told) == 3, [type(r).__name__ for r in told]
    assert isinstance(told[0], EditMessageText) and told[0].message_id == table_message
    fix, new_table = told[1], told[2]
    assert isinstance(fix, EditMessageText) and fix.message_id == table_message
    lines = [
        line
        for turn in closed
        for line in h.app.games.teller.render.closed_lines(turn, turn.state) or []
    ]
    assert fix.text == h.app.games.teller.closed_turn_text(closed[0], lines)
    assert isinstance(new_table, SendMessage), "then the new turn's table comes"
    ids = await h.store.messages(GROUP)
    assert tg.texts[(GROUP, ids["table"])] == h.app.games.views.table_text(newest)
    assert h.pace.booked, "every group request still waited for its slot"


async def test_many_moves_in_one_turn_while_an_edit_hangs_cost_one_edit(store: Store) -> None:
    tg = HeldGroups()
    h = Harness(store, tg=tg)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    users = {u.id: u for u in (anna, boris, vera)}
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    # the seed's first player draws, lays a card, draws: two moves stay in the turn
    tg.hold.add(GROUP)
    since = len(tg.requests)
    start = await h.table(GROUP)
    for _ in range(2):
        await press_first_option(h, users)
    newest = await h.table(GROUP)
    assert newest.version == start.version + 2 and newest.turn_closed is None
    assert newest.state is not None and start.state is not None
    assert newest.state.turn == start.state.turn
    tg.release.set()
    await h.settle()
    told = group_requests(tg, GROUP, since)
    assert len(told) == 2, "the hanging edit and one edit with the newest table"
    assert all(isinstance(r, EditMessageText) for r in told)
    assert told[-1].text == h.app.games.views.table_text(newest)


# ====================================================================== shutdown
async def test_a_shutdown_drains_the_outboxes_before_the_store_closes(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Within its bound the drain lets every group be told; a group whose
    requests hang is cut off at the bound, and its worker has stopped when the
    drain returns — so closing the store then finds nothing still at work (no
    error logged because the store closed first)."""
    tg = HeldGroups()
    h = Harness(store, tg=tg)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    users = {u.id: u for u in (anna, boris, vera)}
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    await h.open_lobby(OTHER_GROUP, boris, [vera])
    outboxes = h.app.telling.outboxes

    # a move, not waited for: the drain tells the group its newest table (the
    # group's door held until the drain begins, so it is still to be told then)
    door = tg.holds[GROUP] = Hold()
    await press_first_option(h, users)
    assert outboxes.pending(GROUP) or outboxes._tasks(), "the group has something to be told"
    draining = asyncio.create_task(outboxes.drain(600))
    del tg.holds[GROUP]
    door.release.set()
    assert await draining == 0, "nothing cut off: the group was told"
    ids = await h.store.messages(GROUP)
    newest = await h.table(GROUP)
    assert tg.texts[(GROUP, ids["table"])] == h.app.games.views.table_text(newest)

    # a group whose requests hang: cut off at the bound, its worker stopped
    tg.hold.add(GROUP)
    await press_first_option(h, users)
    h.app.telling.outboxes.show(OTHER_GROUP, "lobby")
    await tg.held.wait()
    caplog.clear()
    assert await outboxes.drain(0.01) == 1, "the hanging group was cut off"
    assert not outboxes._tasks(), "every worker has stopped when the drain returns"
    await h.app.close_feed()
    await store.close()
    tg.release.set()  # what was cut off stays cut off
    await asyncio.gather(*asyncio.all_tasks() - {asyncio.current_task()}, return_exceptions=True)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


# ====================================================================== two processes
async def until(check: Any, what: str) -> None:
    """Until `check()` holds (the other process's news comes through the
    store's feed: Redis pub/sub, a moment later)."""
    async with asyncio.timeout(10):
        while not check():
            await asyncio.sleep(0.005)


@pytest.fixture(params=["memory", "redis"])
async def two_stores(
    request: pytest.FixtureRequest, redis_factory: Callable[[], Awaitable[RedisStore]]
) -> tuple[Store, Store]:
    """Two processes' stores over the same data: one embedded store both use,
    or two Redis clients on one key prefix."""
    if request.param == "memory":
        shared = MemoryStore()
        return shared, shared
    return await redis_factory(), await redis_factory()


async def test_a_table_another_process_sent_anew_is_the_one_this_process_edits(
    two_stores: tuple[Store, Store],
) -> None:
    """An outbox trusts what it knows of a group (no store read before an
    edit) only while the feed says nobody else changed it: when another
    process sends the table anew, this one edits that new message next, not
    the old one it sent (which may hold closed turns for good by then)."""
    tg = FakeTelegram()
    first = Harness(two_stores[0], tg=tg)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await first.open_game(GROUP, anna, [boris, vera], seed=11)
    mine = first.app.telling.outboxes
    mine.show(GROUP, "table")
    await first.settle()
    await until(lambda: mine._known[GROUP].fresh, "this process follows the group")
    old = mine._known[GROUP].ids["table"]

    second = Harness(two_stores[1], tg=tg, clock=first.clock)  # another process
    second.app.telling.outboxes.repost(GROUP, "table")
    await second.settle()
    new = (await two_stores[1].messages(GROUP))["table"]
    assert new != old
    await until(lambda: not mine._known[GROUP].fresh, "this process heard of it")

    since = len(tg.requests)
    mine.show(GROUP, "table")
    await first.settle()
    edits = [r for r in group_requests(tg, GROUP, since) if isinstance(r, EditMessageText)]
    assert [e.message_id for e in edits] == [new]
