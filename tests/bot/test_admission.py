"""Past capacity a press is shed at once — answered «🐢 Бот перегружен —
нажмите ещё раз» in the presser's language, counted, nothing changed — and
the updates it lets in are served as usual; commands are never shed.

Capacity is made small and held full on purpose: the admission's places are
one, and the update in that place waits at Telegram's door (a `Hold`) until
the test lets it go.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiogram.types import User

from bot.ops import metrics
from bot.store import Store
from bot.words.keyboards import PromptCb
from tests.bot.fake_telegram import Hold
from tests.bot.harness import Harness, people, until

GROUP = -100_777


def shed(why: str) -> float:
    return metrics.sample("smuta_updates_shed_total", {"why": why})


@asynccontextmanager
async def place_taken(h: Harness, user: User) -> AsyncIterator[asyncio.Task[None]]:
    """`user`'s /help holds the process's one place until the block ends
    (its reply waits at the door of `user`'s private chat)."""
    h.app.admission.limit = h.app.admission._free = 1
    door = h.tg.holds[user.id] = Hold()
    helping = asyncio.create_task(h.say(user.id, user, "/help", settle=False))
    await door.reached.wait()
    try:
        yield helping
    finally:
        door.release.set()
        del h.tg.holds[user.id]
        await helping
        await h.settle()


def press_task(h: Harness, user: User, message: int, data: str) -> asyncio.Task[None]:
    return asyncio.create_task(h.press(user, user.id, message, data, settle=False))


async def first_prompt(h: Harness, users: list[User]) -> tuple[User, int, str, int]:
    """Who must choose in the game, their prompt's id, a button of it, the decision's id."""
    table = await h.table(GROUP)
    decision = await h.decision(GROUP)
    assert decision is not None
    presser = next(u for u in users if table.seat_of(u.id) == decision.seat)
    message = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
    data = next(d for _, d in h.buttons(presser.id, message) if d.startswith("p:"))
    return presser, message, data, decision.id


async def test_a_press_past_capacity_is_answered_overloaded_and_changes_nothing(
    store: Store,
) -> None:
    h = Harness(store)
    users = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, users[0], users[1:], seed=3)
    presser, message, data, decision = await first_prompt(h, users)
    helper = next(u for u in users if u.id != presser.id)
    before = shed("queue")
    answered = len(h.tg.answers())

    async with place_taken(h, helper):
        h.app.admission.holding = 1.0  # an update holds its place a second: a press would wait
        await press_task(h, presser, message, data)  # answered without waiting for the place
        answers = h.tg.answers()[answered:]
        assert [a.text for a in answers] == [h.tr.t("ru", "overloaded")]
        assert shed("queue") == before + 1
        now = await h.decision(GROUP)
        assert now is not None and now.id == decision, "the shed press changed nothing"

    h.app.admission.holding = 0.005
    await h.press(presser, presser.id, message, data)  # pressed again, with room: served
    assert h.tg.answers()[-1].text != h.tr.t("ru", "overloaded")


async def test_a_press_whose_wait_runs_out_is_shed_in_its_own_language(store: Store) -> None:
    """The guess said it would fit, but the place stayed taken past the wait."""
    h = Harness(store)
    users = people("Анна", "Борис")
    english = users[1].model_copy(update={"language_code": "en"})
    await h.say(english.id, english, "/start")
    h.app.admission.max_wait = 0.05
    before = shed("late")
    async with place_taken(h, users[0]):
        h.app.admission.holding = 0.0  # the guess: it fits (a loaded machine's would not)
        old = PromptCb(chat=GROUP, game=1, decision=1, option=0, depth=1).pack()
        await asyncio.wait_for(press_task(h, english, 1, old), 10)
        assert h.tg.answers()[-1].text == h.tr.t("en", "overloaded")
        assert shed("late") == before + 1
        assert h.app.admission.waiting == 0, "the shed press left the line"


async def test_commands_wait_their_turn_and_are_never_shed(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.say(boris.id, boris, "/start")
    async with place_taken(h, anna):
        h.app.admission.holding = 1.0
        newgame = asyncio.create_task(h.say(GROUP, boris, "/newgame", settle=False))
        await until_waiting(h, 1)
        assert not newgame.done()
    await newgame
    await h.settle()
    assert (await h.table(GROUP)).status == "lobby", "the command was served once there was room"


async def test_the_line_keeps_each_chats_order(store: Store) -> None:
    """A full process lets its waiting updates in first come, first served:
    /newgame, then a join, then /go in one chat all land, in that order."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.say(user.id, user, "/start")
    async with place_taken(h, anna):
        first = asyncio.create_task(h.say(GROUP, anna, "/newgame", settle=False))
        await until_waiting(h, 1)
        second = asyncio.create_task(h.say(GROUP, boris, "/join", settle=False))
        await until_waiting(h, 2)
    await asyncio.gather(first, second)
    await h.settle()
    table = await h.table(GROUP)
    assert [s.user_id for s in table.seats] == [anna.id, boris.id]


async def test_a_flooded_chat_sheds_its_presses_past_its_line(store: Store) -> None:
    """Eight of one chat's updates wait for its lock; a ninth press is shed at
    once (the rest of the process's places stay free for the other chats)."""
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    door = h.tg.holds[anna.id] = Hold()
    helping = asyncio.create_task(h.say(anna.id, anna, "/help", settle=False))
    await door.reached.wait()  # anna's private chat's lock is held
    old = PromptCb(chat=GROUP, game=1, decision=1, option=0, depth=1).pack()
    before = shed("chat")
    line = [press_task(h, anna, 1, old) for _ in range(8)]
    await until(lambda: h.app.admission._free == h.app.admission.limit - 9)
    await asyncio.wait_for(press_task(h, anna, 1, old), 10)  # answered, not put in line
    assert h.tg.answers()[-1].text == h.tr.t("ru", "overloaded")
    assert shed("chat") == before + 1
    door.release.set()
    await asyncio.gather(helping, *line)
    overloaded = [a for a in h.tg.answers() if a.text == h.tr.t("ru", "overloaded")]
    assert len(overloaded) == 1, "the eight in line were each served"


async def until_waiting(h: Harness, n: int) -> None:
    await until(lambda: h.app.admission.waiting == n)
