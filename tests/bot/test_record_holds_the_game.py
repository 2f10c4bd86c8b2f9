"""The record holds the game, never its screens (issue 39, item 1).

Every record the bot saves, through whole games with every feature on — a
group game with hints, reviews and someone leaving and coming back, a
practice game read line by line and in full («Подробнее»), the tutor played
by a newcomer who does something else than it suggests — holds no rendered
text: no HTML, no line of `locales/`, nothing in words but the names people
and the chat gave. Every other string is an identifier (an event's key, a
card's id, a colour, a tutor's step). And since lines are drawn from the
seats when told, /forgetme blanks one seat and renames nobody else — not
even a player whose name contains the forgotten one's.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from aiogram.types import User

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.words.keyboards import DetailsCb, ForgetCb, LobbyCb, SettingsCb
from engine import pending
from tests.bot.fake_telegram import chat
from tests.bot.harness import Harness, people, person

GROUP = -100_4242
#: what an identifier in the record looks like: keys, card ids, colours, steps
IDENTIFIER = re.compile(r"^[A-Za-z0-9_.:\-]*$")


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


def words_in(saved: str) -> set[str]:
    """The strings of a saved record that are not identifiers, less the names
    its people and its chat were given."""
    record = json.loads(saved)
    named = {s["name"] for s in record.get("seats", [])} | {record.get("title", "")}
    return {s for s in strings(record) if not IDENTIFIER.match(s) and s not in named}


class Saves:
    """Every record a store saves, as it saves it."""

    def __init__(self, store: Store) -> None:
        self.records: list[str] = []
        real = store.save

        async def save(table: Table, *args: Any, **kwargs: Any) -> bool:
            self.records.append(table.to_json())
            return await real(table, *args, **kwargs)

        store.save = save  # type: ignore[method-assign]

    def check(self) -> None:
        assert self.records, "nothing was saved"
        for saved in self.records:
            assert "<" not in saved, "a saved record holds HTML"
            assert not words_in(saved), f"a saved record holds words: {words_in(saved)}"


async def play_some(
    h: Harness, chat_id: int, users: list[User], rng: random.Random, moves: int, hint: bool = False
) -> None:
    """`moves` answers, each person choosing at random (`hint`: asking their
    prompt's «💡 Подсказка» first, when it has one)."""
    for _ in range(moves):
        table = await h.table(chat_id)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
        if hint:
            prompt = (await h.store.messages(chat_id))[f"prompt:{decision.seat}"]
            asked = [d for _, d in h.buttons(user.id, prompt) if d.startswith("hn:")]
            if asked:
                await h.press(user, user.id, prompt, asked[0])
        await h.answer(user, chat_id, decision.options[rng.randrange(len(decision.options))])


async def play_on(h: Harness, chat_id: int, users: list[User], rng: random.Random) -> None:
    """Every person answers their prompts with a random choice until the game ends."""
    for _ in range(2000):
        table = await h.table(chat_id)
        if table.status != "playing":
            return
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        seat = table.seats[decision.seat]
        if seat.user_id is None or seat.left or seat.away:
            await h.tick(h.defaults.computer_pause)
            continue
        user = next(u for u in users if u.id == seat.user_id)
        await h.answer(user, chat_id, decision.options[rng.randrange(len(decision.options))])
    raise AssertionError("the game never ended")


async def test_a_group_game_with_hints_and_a_leave_saves_no_words(store: Store) -> None:
    h = Harness(store)
    saves = Saves(store)
    anna, boris, vera = users = people("Анна", "Борис", "Вера")
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="hints").pack())
    await h.open_game(GROUP, anna, [boris, vera], seed=11)
    assert (await h.table(GROUP)).hints
    rng = random.Random(11)
    await play_some(h, GROUP, users, rng, 12, hint=True)  # a few moves, each hinted first
    assert sum(s.hints for s in (await h.table(GROUP)).seats) > 0, "no hint was asked"
    await h.leave_game(vera, GROUP)  # the computer plays her seat…
    await h.say(vera.id, vera, "/back")  # …until she takes it back
    await play_on(h, GROUP, users, rng)
    assert (await h.table(GROUP)).status == "finished"
    saves.check()


@pytest.mark.parametrize("full", [False, True])
async def test_a_practice_game_read_in_full_saves_no_words(full: bool) -> None:
    store = MemoryStore()
    h = Harness(store)
    saves = Saves(store)
    anna = person(501, "Анна")
    await h.start_practice(anna, computers=3, seed=4)
    rng = random.Random(4)
    details = 0
    for _ in range(120):
        table = await h.table(anna.id)
        if table.status != "playing":
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:  # a computer's move
            await h.tick(h.defaults.computer_pause)
            continue
        if full:  # «Подробнее» under her prompt, when it sums something up
            ids = await h.store.messages(anna.id)
            data = [
                d
                for _, d in h.buttons(anna.id, ids[f"prompt:{decision.seat}"])
                if d.startswith("dt:") and DetailsCb.unpack(d).full
            ]
            if data:
                await h.press(anna, anna.id, ids[f"prompt:{decision.seat}"], data[0])
                details += 1
        await h.answer(anna, anna.id, decision.options[rng.randrange(len(decision.options))])
    assert details > 0 or not full, "«Подробнее» was never offered"
    saves.check()


async def test_the_tutor_strayed_from_saves_no_words() -> None:
    store = MemoryStore()
    h = Harness(store)
    saves = Saves(store)
    anna = person(601, "Анна")
    await h.say(anna.id, anna, "/start")
    await h.say(anna.id, anna, "/learn")
    table = await h.table(anna.id)
    assert table.tutor is not None
    # she does something else than suggested, all game long
    await play_on(h, anna.id, [anna], random.Random(6))
    saves.check()


async def test_forgetting_a_player_renames_nobody_else(store: Store) -> None:
    """Ан asks to be forgotten mid-game; Анна's name, which holds his, stays
    in every line told after, and his seat reads «игрок»."""
    h = Harness(store)
    an, anna, vera = person(701, "Ан"), person(702, "Анна"), person(703, "Вера")
    users = [an, anna, vera]
    await h.open_game(GROUP, an, [anna, vera], seed=3)
    await play_some(h, GROUP, users, random.Random(3), 6)
    before = await h.table(GROUP)
    await h.say(an.id, an, "/forgetme")
    await h.press(an, an.id, h.last_with_button(an.id, "fg:"), ForgetCb(confirm=True).pack())
    table = await h.table(GROUP)
    seat = before.seat_of(an.id)
    assert seat is not None
    assert table.seats[seat].user_id is None and table.seats[seat].name == ""
    others = [s for i, s in enumerate(table.seats) if i != seat]
    assert [s.name for s in others] == [s.name for i, s in enumerate(before.seats) if i != seat]
    render = h.app.games.teller.render
    assert render.name("ru", table, seat) == "игрок"
    assert "Анна" in render.name("ru", table, table.seat_of(anna.id) or 0)
    # what the group's table says now: Анна still, never «игрокна»
    assert table.state is not None
    lines = "\n".join(render.turn_lines(table, table.state))
    assert "игрокна" not in lines
    assert "игрокна" not in h.app.games.views.table_text(table)


def balanced(text: str) -> bool:
    """Every HTML tag Telegram reads opens and closes in order."""
    stack: list[str] = []
    for closing, name in re.findall(r"<(/?)([a-z]+)[^>]*>", text):
        if not closing:
            stack.append(name)
        elif not stack or stack.pop() != name:
            return False
    return not stack


@pytest.mark.parametrize("forgotten", ["Ян", "b"])
async def test_forgetting_renames_no_other_seat_nor_the_title(store: Store, forgotten: str) -> None:
    """Issue 41 item 5, in a running game of the group «Клуб Яна»: «Ян»
    forgotten leaves «Янина» and the title whole; a person named «b» forgotten
    breaks no <b> of any message — a seat is forgotten, never a string."""
    h = Harness(store)
    gone, janina, vera = person(711, forgotten), person(712, "Янина"), person(713, "Вера")
    users = [gone, janina, vera]
    for user in users:
        await h.say(user.id, user, "/start")
    newgame = h.updates.message(GROUP, gone, "/newgame")
    assert newgame.message is not None
    titled = newgame.message.model_copy(update={"chat": chat(GROUP, "Клуб Яна")})
    await h.feed(newgame.model_copy(update={"message": titled}))
    table = await h.table(GROUP)
    assert table.title == "Клуб Яна"
    lobby = (await store.messages(GROUP))["lobby"]
    for guest in (janina, vera):
        await h.press(guest, GROUP, lobby, LobbyCb(action="join", game=table.game_no).pack())
    h.app.games.seeds = random.Random(5)
    await h.press(gone, GROUP, lobby, LobbyCb(action="go", game=table.game_no).pack())
    await play_some(h, GROUP, users, random.Random(5), 6)
    before = await h.table(GROUP)
    await h.say(gone.id, gone, "/forgetme")
    await h.press(gone, gone.id, h.last_with_button(gone.id, "fg:"), ForgetCb(confirm=True).pack())
    since = len(h.tg.requests)
    rng = random.Random(6)
    for _ in range(12):  # play on: the computer in the forgotten seat, the others by hand
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        who = table.seats[decision.seat].user_id
        if who is None:
            await h.tick(5)
            continue
        person_ = janina if who == janina.id else vera
        await h.answer(person_, GROUP, decision.options[rng.randrange(len(decision.options))])
    table = await h.table(GROUP)
    assert table.title == "Клуб Яна"
    assert [s.name for s in table.seats if s.user_id is not None] == ["Янина", "Вера"]
    assert [s.name for s in before.seats if s.user_id in (janina.id, vera.id)] == ["Янина", "Вера"]
    assert table.state is not None
    views = h.app.games.views
    shown = [views.table_text(table), *h.app.games.teller.render.turn_lines(table, table.state)]
    told = [getattr(r, "text", None) or getattr(r, "caption", None) for r in h.tg.requests[since:]]
    for text in [*shown, *(t for t in told if t)]:
        assert "игрокина" not in text and "Клуб игрока" not in text, text
        assert "игрок>" not in text and balanced(text), text
    assert any("Клуб Яна" in t for t in told if t)  # Янина's prompts still name the group


async def test_a_game_saved_before_the_record_kept_no_screens_plays_on() -> None:
    """A running game saved by the bot before this change (its rendered lines
    in the record, its «ℹ️» reasons in words) loads after the deploy: its
    lines go, and its players go on answering."""
    store = MemoryStore()
    h = Harness(store)
    anna, boris = users = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris], seed=8)
    saved = json.loads(Table.from_json(store._tables[GROUP].data).to_json())
    saved["turn_log"] = ["🏠 Анна выкладывает 🔴 Лорда."]
    saved["closed_log"] = None
    saved["reasons"] = {"0": {"decision": [1, 2], "held": ["hand_full limit=7"], "told": []}}
    for seat in saved["seats"]:
        seat.update(story=["✔️ 🏠 Выложить → 🔴 Лорд"], news=[], closing=None)
        seat.update(seen=[], details=[], digest=[])
    store._tables[GROUP].data = json.dumps(saved, ensure_ascii=False).encode()  # plain JSON
    table = await h.table(GROUP)
    assert table.reasons == {}  # in words: noted anew at the next turn prompt
    assert table.state is not None
    before = table.version
    decision = pending(table.state)
    assert decision is not None
    user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
    await h.say(user.id, user, "/hand")  # the prompt anew, from the loaded record
    await h.answer(user, GROUP, decision.options[0])
    after = await h.table(GROUP)
    assert after.version == before + 1
    assert "turn_log" not in Table.from_json(store._tables[GROUP].data).to_json()
