"""The group keeps up with the game, however fast it is played.

Three people press as fast as the bot answers, through the real dispatcher,
with the real pace (a new group message every 3 s at most, 20 a minute, a
request a second) on the event loop's clock, which `looptime` makes virtual:
a whole game's minutes pass in a moment, and every wait is the pace's own.

- The result reaches the group at most `CATCH_UP` seconds after the last press
  (closed turns waiting merge into one message, only the newest table goes);
- no minute carries more than 20 new group messages;
- no turn's lines are lost: every line of every closed turn is in the group.

And the replies' lane: 120 /cards from one member don't hold the table back,
and are answered once.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from aiogram import Bot
from aiogram.methods import EditMessageText, SendMessage, SendPhoto, TelegramMethod
from aiogram.types import InlineKeyboardMarkup

from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.telegram.pace import Pace
from engine import pending
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.harness import Harness, answer_data, people

GROUP = -100777
CATCH_UP = 20.0  # seconds from the last press to the result in the group
PER_MINUTE = 20  # new group messages in any minute, at most
#: how long after the bot answered a press the next one comes (the bot's own
#: answer takes no time on this clock: a person's reaction does)
PRESS_GAP = 0.3
PEOPLE = people("Анна", "Борис", "Вера")


class TimedTelegram(FakeTelegram):
    """Notes the loop's (virtual) time of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[float] = []

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        self.at.append(asyncio.get_running_loop().time())
        return await super().make_request(bot, method, timeout)


def real_pace() -> Pace:
    loop = asyncio.get_running_loop()
    return Pace(clock=loop.time, sleep=asyncio.sleep)


def is_result(request: Any) -> bool:
    markup = request.reply_markup
    return isinstance(markup, InlineKeyboardMarkup) and any(
        (b.callback_data or "").startswith("rm:") for row in markup.inline_keyboard for b in row
    )


async def play_fast(h: Harness, gap: float) -> tuple[list[Table], float]:
    """Every decision answered with its first option, `gap` seconds after the
    last press was answered; the records that closed a turn, and the moment of
    the last press."""
    users = {u.id: u for u in PEOPLE}
    closed: list[Table] = []
    last = 0.0
    for _ in range(3000):
        table = await h.table(GROUP)
        if table.status == "finished":
            return closed, last
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        seat = table.seats[decision.seat]
        assert seat.user_id is not None
        ids = await h.store.messages(GROUP)
        await asyncio.sleep(gap)
        last = asyncio.get_running_loop().time()
        data = answer_data(table, decision, decision.options[0])
        message = ids[f"prompt:{decision.seat}"]
        await h.press(users[seat.user_id], seat.user_id, message, data, settle=False)
        now = await h.table(GROUP)
        if (
            h.app.games.teller.render.closed_lines(now, now.state) is not None
            and now.version == table.version + 1
        ):
            closed.append(now)
    raise AssertionError("the game never ended")


async def game_at_real_pace() -> tuple[Harness, TimedTelegram]:
    """Анна's game with Борис and Вера (seed 7), the group at Telegram's real pace."""
    tg = TimedTelegram()
    h = Harness(MemoryStore(), tg=tg, pace=real_pace)
    anna, boris, vera = PEOPLE
    await h.open_game(GROUP, anna, [boris, vera], seed=7)
    return h, tg


@pytest.mark.looptime
async def test_the_group_keeps_up_with_people_pressing_as_fast_as_the_bot_answers() -> None:
    h, tg = await game_at_real_pace()
    start = len(tg.requests)
    loop = asyncio.get_running_loop()
    began = loop.time()

    closed, last_press = await play_fast(h, PRESS_GAP)
    await h.settle()

    group = [
        (t, r)
        for t, r in zip(tg.at[start:], tg.requests[start:], strict=True)
        if isinstance(r, SendMessage | SendPhoto | EditMessageText) and r.chat_id == GROUP
    ]
    # the result is a picture with its text as the caption
    results = [t for t, r in group if isinstance(r, SendMessage | SendPhoto) and is_result(r)]
    assert len(results) == 1, "the result was told once"
    behind = results[0] - last_press
    news = [t for t, r in group if isinstance(r, SendMessage | SendPhoto)]
    busiest = max(
        (len([t for t in news[i:] if t < first + 60.0]) for i, first in enumerate(news)),
        default=0,
    )
    print(
        f"\ngame of {len(closed)} closed turns played in {last_press - began:.0f} s; "
        f"result {behind:.1f} s after the last press; {len(news)} new group messages, "
        f"{len(group) - len(news)} edits; busiest minute {busiest}"
    )
    assert behind <= CATCH_UP, f"the result came {behind:.1f} s after the last press"
    assert busiest <= PER_MINUTE, f"{busiest} new group messages in one minute"
    assert all(b >= a for a, b in itertools.pairwise(t for t, _ in group))

    # no turn's lines lost: each is in a group message as it reads now
    now = "\n".join(text for (chat, _), text in tg.texts.items() if chat == GROUP)
    lost = [
        line
        for turn in closed
        for line in h.app.games.teller.render.closed_lines(turn, turn.state) or []
        if line not in now
    ]
    assert not lost, lost[:3]


@pytest.mark.looptime
async def test_a_members_flood_of_commands_holds_the_table_back_no_more() -> None:
    h, tg = await game_at_real_pace()
    vera = PEOPLE[2]
    await h.settle()
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    start = len(tg.requests)

    for _ in range(120):  # Вера floods the group with /cards
        await h.say(GROUP, vera, "/cards", settle=False)
    # then a move: the group's table must not wait for her 120 replies
    seat = table.seats[decision.seat]
    assert seat.user_id is not None
    ids = await h.store.messages(GROUP)
    mover = next(u for u in PEOPLE if u.id == seat.user_id)
    data = answer_data(table, decision, decision.options[0])
    await h.press(mover, seat.user_id, ids[f"prompt:{decision.seat}"], data, settle=False)
    await h.settle()

    told = [
        r
        for r in tg.requests[start:]
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == GROUP
    ]
    replies = [r for r in told if isinstance(r, SendMessage) and r.reply_parameters]
    table_at = next(
        i for i, r in enumerate(told) if not (isinstance(r, SendMessage) and r.reply_parameters)
    )
    assert len(replies) == 1, f"{len(replies)} replies to one member's 120 /cards"
    assert table_at <= 1, "the table went out before (or right after) the first reply"
