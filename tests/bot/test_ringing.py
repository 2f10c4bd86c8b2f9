"""Only what asks a person rings in their private chat (issue 24, "Noise"),
through the dispatcher in both languages, over whole games:

- a prompt rings when its reader is newly asked: their turn starts, or
  someone else's move asks them to choose (a смута, an order, a computer's
  move, a timer);
- everything else in private is silent: the hand at the start, a prompt
  edited or sent anew while they go on choosing, /hand's answer, a reminder,
  replies to their commands, a practice game's lobby, table and result.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from aiogram.methods import SendMessage

from benchmarks.chat_volume import GROUP, play_game
from bot.store import Store
from bot.store.models import Table
from bot.words.keyboards import LobbyCb
from engine import Decision, pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, decisions_of, is_prompt


def private_sends(requests: list[Any]) -> list[SendMessage]:
    return [
        r
        for r in requests
        if isinstance(r, SendMessage) and isinstance(r.chat_id, int) and r.chat_id > 0
    ]


def rings(r: SendMessage) -> bool:
    return r.disable_notification is not True


@pytest.mark.parametrize(("seed", "lang"), [(3, "ru"), (8, "en")])
async def test_in_a_group_game_only_being_newly_asked_rings(seed: int, lang: str) -> None:
    asked_by_others = Counter[int]()

    async def step(h: Harness, since: int, answered: Decision, before: Table, after: Table) -> None:
        assert before.state is not None and after.state is not None
        for r in private_sends(h.tg.requests[since:]):
            seat = after.seat_of(r.chat_id)  # type: ignore[arg-type]
            if not rings(r):
                continue
            now = pending(after.state)
            assert now is not None and decisions_of(r.reply_markup) == {now.id}, r.text
            turn_began = after.state.turn != before.state.turn and after.state.current == seat
            assert turn_began or answered.seat != seat, f"rang for one going on: {r.text!r}"
            if not turn_began:
                asked_by_others[r.chat_id] += 1  # type: ignore[index]

    h, volume = await play_game(3, seed, lang, step=step)
    table = await h.table(GROUP)
    assert table.status == "finished"
    people = [s.user_id for s in table.seats if s.user_id is not None]
    sends = private_sends(h.tg.requests)
    ringing = Counter(r.chat_id for r in sends if rings(r))
    quiet = Counter(r.chat_id for r in sends if not rings(r))
    print(f"private, per person: ringing {dict(ringing)}, silent {dict(quiet)}; {volume}")
    for user_id in people:
        assert ringing[user_id] >= 1, "a person's turn started without a sound"
        assert quiet[user_id] >= 1, "the hand at the start and the replies are silent"
    assert sum(asked_by_others.values()) >= 1, "nobody was asked by someone else's move"
    # the hands of the start are silent; the first decider's prompt rings
    start = [r for r in sends if "✋" in r.text and not is_prompt(r.reply_markup)]
    assert start and not any(rings(r) for r in start)
    # /hand answers without a sound
    someone = person(people[0], "Анна", lang)  # type: ignore[arg-type]
    since = len(h.tg.requests)
    await h.say(someone.id, someone, "/stats")
    await h.say(someone.id, someone, "/rules")
    assert private_sends(h.tg.requests[since:]) and not any(
        rings(r) for r in private_sends(h.tg.requests[since:])
    )


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_hand_and_a_reminder_are_silent_and_a_turn_rings(store: Store, lang: str) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    table = await h.open_game(-100333, anna, [boris], seed=5, lang=lang)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider, other = (anna, boris) if decision.seat == 0 else (boris, anna)
    first = [r for r in private_sends(h.tg.requests) if r.chat_id == decider.id][-1]
    assert is_prompt(first.reply_markup) and rings(first), "the first turn rings"
    hand = [r for r in private_sends(h.tg.requests) if r.chat_id == other.id][-1]
    assert not rings(hand), "the hand at the start is silent"

    since = len(h.tg.requests)
    await h.say(decider.id, decider, "/hand")
    await h.tick(table.turn_timeout - 10)  # the reminder
    sent = private_sends(h.tg.requests[since:])
    assert len(sent) >= 2 and not any(rings(r) for r in sent), [r.text for r in sent]


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_practice_rings_only_when_its_person_is_asked(store: Store, lang: str) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    lobby, game = await h.open_practice(anna)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    for n in range(40):
        table = await h.table(anna.id)
        if table.status != "playing" or table.state is None:
            break
        decision = pending(table.state)
        assert decision is not None
        if table.state.players[decision.seat].computer:
            await h.tick(h.defaults.computer_pause + 1)
        else:
            await h.answer(anna, anna.id, choose(table.state.seed + n, decision))
    sends = private_sends(h.tg.requests)
    ringing = [r for r in sends if rings(r)]
    assert ringing and all(is_prompt(r.reply_markup) for r in ringing), [
        r.text[:80] for r in ringing
    ]
    tables = [r for r in sends if not is_prompt(r.reply_markup) and "lb:" not in str(r)]
    assert tables and not any(rings(r) for r in tables)
