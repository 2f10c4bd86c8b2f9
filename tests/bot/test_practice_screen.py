"""Practice that fits a screen (issue 24, item 1), through the real dispatcher,
in both languages:

- a whole seeded practice game against three computers, the person answering
  by a fixed rule: its «Ваш ход!» messages run at most 15 lines at the median
  and 22 at most, and show no card the person may not see;
- each computer turn since the person's last is one line of what changed:
  what it laid, the смута it drew, what it took and from whom — and, after a
  dash, what it did to the person («ваш дом 🟢 ушёл», «вы потеряли…»);
  a turn she is asked in the middle of goes on in her next message;
- «Подробнее» under the prompt shows those turns in full lines, at the same
  menu level with the same buttons, and «Короче» brings the line back; an old
  press, someone else's, or a forged one is refused with a short alert and
  changes nothing.

Every practice game here begins with `Harness.start_practice` (the one place
to change should a first /practice be something else); the computers'
choices in the set positions are scripted (`scripted`).
"""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Sequence
from typing import Any

import pytest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import User

from bot.service import journal
from bot.store.memory import MemoryStore
from bot.webapp.payload import Payloads
from bot.words.keyboards import DetailsCb, PromptCb
from bot.words.prompts import Prompts
from bot.words.shape import plain
from engine import Decision, Event, GameState, pending
from engine.ai.easy import choose
from engine.cards import catalog_for
from engine.core import Option, Refused
from engine.scenario import build, resolve
from tests.bot.fake_telegram import person
from tests.bot.harness import (
    MARK,
    Harness,
    Witness,
    cards_shown,
    decisions_of,
    may_see,
)

LANGS = ["ru", "en"]
NAMES = {"ru": "Анна", "en": "Anna"}
SEED = 24  # the transcript's game: the same deal and the same moves each run
MEDIAN_MAX, LINES_MAX = 15, 22


def unmarked(text: str) -> str:
    """A text as a person reads it: no tags, no test marks on the cards."""
    return MARK.sub("", plain(text))


def your_turn(h: Harness, lang: str, text: str | None) -> bool:
    return text is not None and h.tr.t(lang, "prompt-action", actions_taken=0) in text


# ====================================================================== the transcript
@pytest.mark.parametrize("lang", LANGS)
async def test_a_practice_game_against_three_computers_fits_a_screen(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    h = Harness(MemoryStore())
    anna = person(700, NAMES[lang], lang)
    witness = Witness()
    with witness.watching():
        table = await h.start_practice(anna, computers=3, seed=SEED)
        steps = 0
        while table.status != "finished":
            assert steps < 3000, "the game did not end"
            state = table.state
            assert state is not None
            decision = pending(state)
            assert decision is not None
            since = len(h.tg.requests)
            if table.seats[decision.seat].user_id is None:
                assert await h.tick(5) >= 1
            else:  # a fixed rule: the policy's choice, from the step's own seed
                await h.answer(anna, anna.id, choose(state.seed + steps, decision))
            steps += 1
            table = await h.table(anna.id)
            assert table.state is not None
            allowed = may_see(table.state, 0, witness.told(table.state, 0)) | witness.public
            for r in h.tg.requests[since:]:
                if isinstance(r, SendMessage | EditMessageText) and r.chat_id == anna.id:
                    hidden = cards_shown(r) - allowed
                    assert not hidden, f"{hidden} shown to {anna.first_name}:\n{r.text}"
    turns = [
        r
        for r in h.tg.requests
        if isinstance(r, SendMessage | EditMessageText)
        and r.chat_id == anna.id
        and your_turn(h, lang, r.text)
    ]
    new = [r for r in turns if isinstance(r, SendMessage)]
    lengths = [len(unmarked(r.text).split("\n")) for r in turns]
    assert len(new) >= 5, "too few turns to tell anything"
    median, most = statistics.median(lengths), max(lengths)
    with capsys.disabled():
        print(
            f"\n[{lang}] practice, 3 computers, seed {SEED}: {len(new)} «Ваш ход!» messages "
            f"({len(turns)} with their menu levels): lines median {median}, max {most}; "
            f"the new messages alone: median {statistics.median(new_lengths(new))}, "
            f"max {max(new_lengths(new))}"
        )
    assert median <= MEDIAN_MAX, lengths
    assert most <= LINES_MAX, lengths


def new_lengths(requests: Sequence[SendMessage]) -> list[int]:
    return [len(unmarked(r.text).split("\n")) for r in requests]


# ====================================================================== one line a turn
def scripted(h: Harness, answers: list[list[str]]) -> None:
    """The computers answer `answers` in order (card kinds as in
    `engine.scenario`; a decision the next one does not fit, and any after
    the last, is the turn's end when it may be, else the policy's): the
    position a test sets up plays out as it says."""
    left = list(answers)

    async def decide(
        state: GameState, decision: Decision, level: str, urgent: bool = False
    ) -> Option:
        if left:
            with contextlib.suppress(Refused):  # not this decision's: a later one's
                option = resolve(state, left[0])
                left.pop(0)
                return option
        if ("end",) in decision.options:
            return ("end",)
        return choose(state.seed, decision)

    h.app.games.play.thinker.decide = decide  # type: ignore[method-assign]


async def practice_at(h: Harness, anna: User, position: dict[str, Any]) -> None:
    """Anna's practice game put at `position` (her seat first), nothing told
    of it yet; her prompt for it."""
    await h.start_practice(anna, computers=len(position["players"]) - 1)
    table = await h.table(anna.id)
    table.state = build(position)
    journal.told_all(table)
    table.deadline = table.reminder = table.deadline_decision = None  # the dealt game's timer
    assert await h.store.save(table)
    await h.say(anna.id, anna, "/hand")


async def to_her_turn(h: Harness, anna: User) -> None:
    """Anna ends her turn; the computers play until her next one."""
    turn = (await h.table(anna.id)).state.turn  # type: ignore[union-attr]
    for _ in range(30):
        table = await h.table(anna.id)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if decision.seat == 0 and table.state.turn > turn:
            return
        if decision.seat == 0:
            await h.answer(anna, anna.id, ("end",))
        else:
            await h.tick(5)
    raise AssertionError("her turn never came back")


def live_prompt(h: Harness, anna: User) -> tuple[int, str]:
    """Anna's live prompt: its message id and text."""
    live = [
        (message, text)
        for (chat, message), text in h.tg.texts.items()
        if chat == anna.id and decisions_of(h.tg.markups.get((chat, message)))
    ]
    assert live, "she has no prompt"
    return live[-1]


def turn_lines(text: str) -> list[str]:
    """The lines between the prompt's header and its question."""
    lines = unmarked(text).split("\n")[1:]
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("🎯"))]


HOUSES_WITH_PLAGUE = {
    "hand": ["page.orange"],
    "houses": [
        {"colour": "green", "cards": ["plague.green", "lord.green"]},
        {"colour": "blue", "cards": ["lord.blue"]},
    ],
}
#: Anna ends her turn; the computer lays a Лорд and draws Чума, which takes
#: her house with a Чумовой
PESTILENCE = {
    "players": [HOUSES_WITH_PLAGUE, {"computer": True, "hand": ["lord.red"]}],
    "deck": ["pestilence", "lord.orange", "page.red", "page.blue"],
    "orders": [],
    "actions_left": 2,
    "actions_taken": 1,
}
PESTILENCE_LINE = {
    "ru": "Компьютер 1: выложил 🔴 Лорда, 🦠 Чума — ваш дом 🟢 ушёл",
    "en": "Computer 1: laid out 🔴 Lord, 🦠 Pestilence — your house 🟢 is gone",
}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_computer_turn_is_one_line_of_what_changed(store: Any, lang: str) -> None:
    h = Harness(store)
    anna = person(701, NAMES[lang], lang)
    scripted(h, [["lay", "lord.red"], ["draw"]])
    await practice_at(h, anna, PESTILENCE)
    await to_her_turn(h, anna)
    _, text = live_prompt(h, anna)
    assert turn_lines(text) == [PESTILENCE_LINE[lang]]


#: two computers: the first draws two cards (unseen) and plays Бал, taking
#: Anna's Рыцарь; the second lays a Чумовой into her house and draws Пир,
#: which hands her a card
TWO_TURNS = {
    "players": [
        {
            "hand": ["page.orange"],
            "houses": [{"colour": "red", "cards": ["lord.red", "knight.red"]}],
        },
        {"computer": True, "hand": ["ball"]},
        {"computer": True, "hand": ["plague.red"]},
    ],
    "deck": ["lord.blue", "page.blue", "feast", "merchant.green", "page.green", "lord.orange"],
    "orders": [],
    "actions_left": 2,
    "actions_taken": 1,
}
TWO_TURNS_LINES = {
    "ru": [
        "Компьютер 1: взял 2 карты, сыграл «Бал» — вы потеряли 🔴 Рыцаря",
        "Компьютер 2: вам подложили 🔴 Чумового",
    ],
    "en": [
        "Computer 1: drew 2 cards, played «Ball» — you lost 🔴 Knight",
        "Computer 2: 🔴 Plague Carrier laid on you",
    ],
}


@pytest.mark.parametrize("lang", LANGS)
async def test_each_computer_turn_gets_its_line_naming_only_what_she_may_see(
    store: Any, lang: str
) -> None:
    h = Harness(store)
    anna = person(702, NAMES[lang], lang)
    answers = [["draw"], ["draw"], ["play", "ball"], ["0", "knight.red"]]
    scripted(h, [*answers, ["lay", "plague.red", "0"]])
    await practice_at(h, anna, TWO_TURNS)
    await to_her_turn(h, anna)
    _, text = live_prompt(h, anna)
    lines = turn_lines(text)
    assert lines == TWO_TURNS_LINES[lang]


#: the computer lays a Наёмник, which draws Anna's only card out of her hand
#: (she is its only target), and draws from the deck: her card is named (she
#: knows it), the one it drew not
MERCENARY = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        {"computer": True, "hand": ["mercenary.red"]},
    ],
    "deck": ["lord.green", "page.red", "page.blue"],  # its draw, then hers
    "orders": [],
    "actions_left": 2,
    "actions_taken": 1,
}
MERCENARY_LINES = {
    "ru": [
        "Компьютер 1: выложил 🔴 Наёмника, взял карту — из вашей руки забрали 🟠 Пажа",
        "Ваш ход: вы взяли из колоды 🔴 Пажа",  # an empty hand draws as her turn starts
    ],
    "en": [
        "Computer 1: laid out 🔴 Mercenary, drew a card — 🟠 Page taken from your hand",
        "Your turn: you drew 🔴 Page",
    ],
}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_card_taken_from_her_hand_is_named_and_a_card_drawn_is_not(
    store: Any, lang: str
) -> None:
    h = Harness(store)
    anna = person(706, NAMES[lang], lang)
    scripted(h, [["lay", "mercenary.red"], ["draw"]])
    await practice_at(h, anna, MERCENARY)
    await to_her_turn(h, anna)
    _, text = live_prompt(h, anna)
    assert turn_lines(text) == MERCENARY_LINES[lang]
    table = await h.table(anna.id)
    assert table.state is not None
    cat = catalog_for(table.state.rules)
    drawn = {c for c in table.state.players[1].hand if cat[c].type == "lord"}  # the deck's top
    assert drawn and not drawn & set(MARK.findall(text))


#: the computer draws Заговор: it gives Anna its Лорд, and when the other
#: computer's turn to give comes — after her own answer, inside the same
#: computer turn — that one gives her a Паж
CONSPIRACY = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
        {"computer": True, "houses": [{"colour": "red", "cards": ["lord.red"]}]},
        {"computer": True, "houses": [{"colour": "green", "cards": ["page.green"]}]},
    ],
    "deck": ["conspiracy", "knight.red", "knight.blue", "page.red"],
    "orders": [],
    "actions_left": 2,
    "actions_taken": 1,
}
CONSPIRACY_LINES = {
    "ru": [
        "Компьютер 1: 🤫 Заговор — вы получили 🔴 Лорда",
        "Компьютер 1: 🤫 Заговор (продолжение) — вы получили 🟢 Пажа",
        "Компьютер 2: взял 2 карты",
    ],
    "en": [
        "Computer 1: 🤫 Conspiracy — you got 🔴 Lord",
        "Computer 1: 🤫 Conspiracy (continued) — you got 🟢 Page",
        "Computer 2: drew 2 cards",
    ],
}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_turn_she_is_asked_in_the_middle_of_goes_on_in_her_next_message(
    store: Any, lang: str
) -> None:
    h = Harness(store)
    anna = person(707, NAMES[lang], lang)
    scripted(h, [["draw"], ["lord.red", "0"], ["page.green", "0"], ["draw"], ["draw"]])
    await practice_at(h, anna, CONSPIRACY)
    heads: list[str] = []
    for _ in range(30):
        table = await h.table(anna.id)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if decision.seat != 0:
            await h.tick(5)
            continue
        if decision.kind == "action" and table.state.turn > 2:
            break
        message, text = live_prompt(h, anna)
        if decision.kind != "action" and message not in [m for m, _ in heads]:
            # a new message asks her inside the computer's turn: its first line
            heads.append((message, unmarked(text).split("\n")[1]))
        await h.answer(
            anna, anna.id, ("end",) if ("end",) in decision.options else decision.options[0]
        )
    message, text = live_prompt(h, anna)
    heads.append((message, turn_lines(text)[0]))
    assert [line for _, line in heads] == CONSPIRACY_LINES[lang]


# ====================================================================== «Подробнее»
def details_button(h: Harness, anna: User, message: int) -> tuple[str, DetailsCb]:
    found = [
        (text, DetailsCb.unpack(data))
        for text, data in h.buttons(anna.id, message)
        if data.startswith("dt:")
    ]
    assert len(found) == 1, h.buttons(anna.id, message)
    return found[0]


def alert(h: Harness) -> str | None:
    answer = h.tg.answers()[-1]
    return answer.text if answer.show_alert else None


@pytest.mark.parametrize("lang", LANGS)
async def test_details_show_the_turns_in_full_at_the_same_menu_level(store: Any, lang: str) -> None:
    h = Harness(store)
    anna = person(703, NAMES[lang], lang)
    scripted(h, [["lay", "lord.red"], ["draw"]])
    await practice_at(h, anna, PESTILENCE)
    await to_her_turn(h, anna)
    message, short = live_prompt(h, anna)
    label, cb = details_button(h, anna, message)
    assert label == h.tr.t(lang, "btn-details") and cb.full
    # a step into the menu first: «Подробнее» keeps her where she is
    decision = await h.decision(anna.id)
    assert decision is not None
    lay = [
        d
        for _, d in h.buttons(anna.id, message)
        if d.startswith("p:") and decision.options[PromptCb.unpack(d).option][0] == "lay"
    ]
    await h.press(anna, anna.id, message, lay[0])
    assert await h.decision(anna.id) == decision
    opened = h.tg.texts[(anna.id, message)]
    choices = [b for b in h.buttons(anna.id, message) if b[1].startswith("p:")]
    _, cb = details_button(h, anna, message)

    await h.press(anna, anna.id, message, cb.pack())
    full = unmarked(h.tg.texts[(anna.id, message)])
    table = await h.table(anna.id)
    state = table.state
    assert state is not None
    render = h.app.games.render
    lord = state.players[1].houses[0].cards[0]
    # the computer's turn line by line: the Лорд laid, Чума drawn, what it
    # does, Anna's green house going
    for event in (
        Event(key="lay", params={"seat": 1, "card": lord, "target": 1}),
        Event(key="deck.drew_smuta", params={"seat": 1, "smuta": "pestilence"}),
    ):
        assert unmarked(render.event(lang, table, state, event)) in full.split("\n"), full
    assert any(line.startswith("🦠") and NAMES[lang] in line for line in full.split("\n")), full
    assert PESTILENCE_LINE[lang] not in full
    # the same question and buttons below, and a way back
    assert unmarked(opened).split("\n")[-8:] == full.split("\n")[-8:]
    assert [b for b in h.buttons(anna.id, message) if b[1].startswith("p:")] == choices
    label, back = details_button(h, anna, message)
    assert label == h.tr.t(lang, "btn-details-less") and not back.full
    assert alert(h) is None

    await h.press(anna, anna.id, message, back.pack())
    assert h.tg.texts[(anna.id, message)] == opened
    assert short != opened and PESTILENCE_LINE[lang] in unmarked(opened)

    # /table and the Mini App still tell the turn line by line
    laid = unmarked(render.event(lang, table, state, Event(key="lay", params=lay_params(state))))
    since = len(h.tg.requests)
    await h.say(anna.id, anna, "/table")
    shown = [unmarked(r.text) for r in h.tg.sent(anna.id) if h.tg.requests.index(r) >= since]
    assert any(laid in text.replace("\n  ", " ") for text in shown), shown
    prompts = Prompts(render, h.tr)
    app = Payloads(h.tr, render, prompts).table(table, 0, lang, h.clock.now())
    assert laid in [unmarked(line) for line in app["log"]], app["log"]


def lay_params(state: GameState) -> dict[str, Any]:
    """The computer's Лорд laid into its own row (the only card it holds on the table)."""
    return {"seat": 1, "card": state.players[1].houses[0].cards[0], "target": 1}


@pytest.mark.parametrize("lang", LANGS)
async def test_an_old_or_foreign_details_press_is_refused_and_changes_nothing(
    store: Any, lang: str
) -> None:
    h = Harness(store)
    anna = person(704, NAMES[lang], lang)
    boris = person(705, "Борис" if lang == "ru" else "Boris", lang)
    await h.say(boris.id, boris, "/start")
    scripted(h, [["lay", "lord.red"], ["draw"]])
    await practice_at(h, anna, PESTILENCE)
    await to_her_turn(h, anna)
    message, text = live_prompt(h, anna)
    _, cb = details_button(h, anna, message)
    before = len(h.tg.requests)

    def untouched() -> None:
        assert h.tg.texts[(anna.id, message)] == text
        assert not [
            r for r in h.tg.requests[before:] if isinstance(r, SendMessage | EditMessageText)
        ]

    # someone else: in her chat (a forged update), or in his own with her button
    await h.press(boris, anna.id, message, cb.pack())
    assert alert(h) == h.tr.t(lang, "err-bad-button")
    await h.press(boris, boris.id, message, cb.pack())
    assert alert(h) == h.tr.t(lang, "err-not-seated")
    # a forged one: another game's number
    await h.press(anna, anna.id, message, cb.model_copy(update={"game": cb.game + 1}).pack())
    assert alert(h) == h.tr.t(lang, "err-old-game")
    untouched()

    # an old one: she draws, and the button she kept is for a decision gone by
    table = await h.table(anna.id)
    assert table.state is not None
    await h.answer(anna, anna.id, resolve(table.state, ["draw"]))
    message, text = live_prompt(h, anna)
    before = len(h.tg.requests)
    await h.press(anna, anna.id, message, cb.pack())
    assert alert(h) == h.tr.t(lang, "err-old-button")
    untouched()
