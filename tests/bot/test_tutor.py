"""The first-game tutor (issue 24, item 2), through the dispatcher, in ru and en.

A scripted newcomer plays the tutor to its end, doing what each 🎓 sentence
suggests (and, where none does, laying cards into their own houses and
drawing), and the test checks that every promised step came exactly when it
mattered: each kind of action on a prompt that offers it, the castle when
they hold a Купец, each смута at the first prompt after it came up (or under
the move that drew it) — then the pointer to a group game. Leaving works at
any point and /learn starts it again; nothing of it is rated; a person's
second /practice is an ordinary practice game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import User

import bot.service.play
from bot.service import lessons
from bot.store import Store
from bot.words.help import rules_args
from bot.words.keyboards import ForgetCb, LangCb, StopCb
from engine import Decision, Event, GameState, pending
from engine.ai.easy import choose
from engine.cards import catalog_for
from tests.bot.harness import MARK, Harness, answer_data, decisions_of, is_prompt, people

TUTOR = "🎓 "
#: the action steps in the order the fixed deal brings them to a newcomer who
#: follows the tutor: their first turn (draw, the Лорд, an order), a full hand
#: at the next, the Купец's castle, Лазарет on the graveyard, the castle built
PLANNED = ["draw", "lay", "order", "discard", "castle", "play", "build", "own"]
#: the verb of the action each step has the person do (the castle and «own» only tell)
VERB = {"draw": "draw", "lay": "lay", "order": "order", "discard": "discard"}
VERB |= {"build": "build", "play": "play"}
LINE_MAX = 160  # a sentence is one short line


#: a whole game played once in each store and once in each language: the
#: stores keep the same record whatever its language, so their cross would
#: play each game twice more for nothing new
STORE_LANG = [("memory", "ru"), ("redis", "en")]


@dataclass
class Asked:
    """A decision the newcomer was asked, the tutor's steps on its prompt,
    and the смуты that had come up by then."""

    decision: Decision
    steps: list[str]
    cards: list[str | None]
    smuty_before: list[str]


@dataclass
class Run:
    asked: list[Asked] = field(default_factory=list)
    # every moment the newcomer read the tutor, in order: a prompt, or the
    # message a move of theirs closed — (how many смуты had come up, its steps)
    moments: list[tuple[int, list[str]]] = field(default_factory=list)
    smuty: list[str] = field(default_factory=list)  # every смута that came up, in order


@contextmanager
def smuty_watched(run: Run) -> Iterator[None]:
    """The смуты the engine starts, as the bot's calls to it return."""
    real = bot.service.play.apply

    def apply(state: GameState, *args: Any, **kwargs: Any) -> list[Event]:
        events: list[Event] = real(state, *args, **kwargs)
        run.smuty += [str(e.params["smuta"]) for e in events if e.key == "smuta.start"]
        return events

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bot.service.play, "apply", apply)
        yield


def step_patterns(h: Harness, lang: str) -> dict[str, re.Pattern[str]]:
    """Each step's sentence as a pattern (its card any card name)."""
    steps = [*lessons.STEPS, lessons.SMUTA, lessons.OWN]
    steps += [lessons.smuta_step(s) for s in lessons.SMUTY]
    marker = "\x00"
    patterns = {}
    for step in steps:
        text = h.tr.t(lang, f"tutor-{step}", card=marker, card_acc=marker, **rules_args())
        parts = [re.escape(p) for p in text.split(marker)]
        patterns[step] = re.compile("^" + re.escape(TUTOR) + "(.+?)".join(parts) + "$")
    return patterns


def steps_in(text: str, patterns: dict[str, re.Pattern[str]]) -> list[tuple[str, str | None]]:
    """The tutor's sentences in a message: (step, the card it names)."""
    found = []
    for line in text.split("\n"):
        if not line.startswith(TUTOR):
            continue
        assert len(line) <= LINE_MAX, line
        steps = [s for s, p in patterns.items() if p.match(line)]
        assert len(steps) == 1, f"not one step's sentence: {line!r}"
        cards = MARK.findall(line)
        found.append((steps[0], cards[0] if cards else None))
    return found


def newcomer(state: GameState, decision: Decision, told: dict[str, str | None]) -> Sequence[str]:
    """What the newcomer answers: what the tutor suggests; else a card laid
    into one of their own houses (the most points), or a draw, or the turn's end;
    outside a turn, a choice against an opponent when there is one."""
    options = decision.options
    seat = str(decision.seat)
    for step in ("draw", "order"):
        if step in told:
            return (step,)
    for step in ("lay", "discard", "build", "play"):
        if step in told:
            card = told[step]
            # a card laid out goes into the newcomer's own row
            return next(
                o
                for o in options
                if o[0] == step and card in (None, o[1]) and (step != "lay" or o[2] == seat)
            )
    if decision.kind == "action":
        cat = catalog_for(state.rules)
        own = {h.colour for h in state.players[decision.seat].houses}
        lays = [o for o in options if o[0] == "lay" and o[2] == seat and o[3] in own]
        if lays:
            return max(lays, key=lambda o: cat[o[1]].points)
        for option in (("draw",), ("end",)):
            if option in options:
                return option
        return options[0]
    against = [o for o in options if o[0].isdigit() and o[0] != seat]
    return against[0] if against else options[0]


def person_messages(h: Harness, user: User, since: int) -> list[SendMessage | EditMessageText]:
    return [
        r
        for r in h.tg.requests[since:]
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == user.id
    ]


async def first_lang(h: Harness, user: User, lang: str) -> None:
    await h.say(user.id, user, "/start")
    await h.press(user, user.id, 1, LangCb(lang=lang).pack())


async def play_to_the_end(h: Harness, user: User, lang: str, run: Run) -> None:
    """The newcomer answers every prompt of their tutor game until it ends."""
    patterns = step_patterns(h, lang)
    for _ in range(3000):
        table = await h.table(user.id)
        if table.status != "playing":
            return
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            assert await h.tick(2) >= 1
            continue
        shown = [
            r for r in person_messages(h, user, 0) if decision.id in decisions_of(r.reply_markup)
        ]
        assert shown, "the newcomer was not asked"
        found = steps_in(shown[0].text or "", patterns)
        # a sentence stays on its prompt while the newcomer goes through its menu
        for later in shown[1:]:
            assert steps_in(later.text or "", patterns) == found
        run.asked.append(
            Asked(decision, [s for s, _ in found], [c for _, c in found], list(run.smuty))
        )
        run.moments.append((len(run.smuty), [s for s, _ in found]))
        option = newcomer(table.state, decision, dict(found))
        since = len(h.tg.requests)
        prompt = (await h.store.messages(user.id))[f"prompt:{decision.seat}"]
        await h.answer(user, user.id, option)
        # the message the move closed (its last lines: what came of it) — where
        # a смута the move brought is told
        for r in person_messages(h, user, since):
            if (
                isinstance(r, EditMessageText)
                and r.message_id == prompt
                and not is_prompt(r.reply_markup)
            ):
                run.moments.append((len(run.smuty), [s for s, _ in steps_in(r.text, patterns)]))
    raise AssertionError("the tutor never ended")


@pytest.mark.parametrize(("store", "lang"), STORE_LANG, indirect=["store"])
async def test_a_newcomer_plays_the_tutor_to_its_end(store: Store, lang: str) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await first_lang(h, anna, lang)
    since = len(h.tg.requests)
    await h.say(anna.id, anna, "/practice")  # her first practice game: the tutor
    table = await h.table(anna.id)
    assert table.tutor is not None and table.practice and table.status == "playing"
    assert table.hints  # hints are on in the tutor
    first = person_messages(h, anna, since)
    # its first message says what it is and how to leave it, and to take it again
    assert first[0].text == h.tr.t(lang, "tutor-welcome")
    assert "/stop" in first[0].text and "/learn" in first[0].text
    prompt = next(r for r in first if is_prompt(r.reply_markup))
    assert any(d.startswith("hn:") for _, d in h.buttons(anna.id, h.message_id_of(prompt)))

    run = Run()
    with smuty_watched(run):
        await play_to_the_end(h, anna, lang, run)
    await h.settle()

    # ---- each action kind, the castle and «the rest is yours»: once each, as planned
    action_steps = [s for a in run.asked for s in a.steps if s in (*lessons.STEPS, lessons.OWN)]
    assert action_steps == PLANNED
    for asked in run.asked:
        for step, card in zip(asked.steps, asked.cards, strict=True):
            if step in VERB:  # on a prompt that offers that very action (and its card)
                verb = VERB[step]
                assert any(o[0] == verb and card in (None, *o[1:2]) for o in asked.decision.options)
            if step in ("draw", "lay", "order", "build"):
                # the first prompt that offers it, but for those that told another step
                offering = [
                    a for a in run.asked if any(o[0] == VERB[step] for o in a.decision.options)
                ]
                for earlier in offering[: offering.index(asked)]:
                    assert any(s in lessons.STEPS for s in earlier.steps), (step, earlier)
            if step == "castle":  # a Купец in hand, no castle to build yet
                assert card is not None and not any(o[0] == "build" for o in asked.decision.options)
    assert run.asked[0].steps == ["draw"]

    # ---- смуты: what a смута is, with the first; each one that came up, once,
    # at the newcomer's first prompt after it (or under the move that drew it)
    came_up = list(dict.fromkeys(run.smuty))
    told = [s for _, steps in run.moments for s in steps if s.startswith(lessons.SMUTA)]
    named = [s for s in told if s != lessons.SMUTA]
    assert len(named) == len(set(named)) >= 3
    assert told.count(lessons.SMUTA) == 1 and told[0] == lessons.SMUTA
    for name in came_up:
        step = lessons.smuta_step(name)
        arrived = run.smuty.index(name)  # it came up as the smuta number `arrived`
        after = [i for i, (count, _) in enumerate(run.moments) if count > arrived]
        holding = [i for i, (_, steps) in enumerate(run.moments) if step in steps]
        if not after:  # it came up after the newcomer's last moment
            assert not holding
            continue
        assert holding == [after[0]], (name, run.moments)
    # what a смута is comes with the first one
    first = next(steps for _, steps in run.moments if lessons.SMUTA in steps)
    assert first.index(lessons.SMUTA) == 0 and len(first) >= 2

    # ---- the end: the result, then the pointer to a group game
    texts = [r.text for r in h.tg.sent(anna.id)]
    assert texts[-1] == h.tr.t(lang, "tutor-end")
    assert "/newgame" in texts[-1]

    # ---- nothing of it is rated or counted
    assert await store.stats(None) == {}
    await h.say(anna.id, anna, "/stats")
    assert h.tg.sent(anna.id)[-1].text == h.tr.t(lang, "stats-none")

    # ---- her second /practice is an ordinary practice game: a lobby to set up
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert table.status == "lobby" and table.tutor is None and table.practice
    lobby = h.tg.sent(anna.id)[-1].text or ""
    assert lobby.startswith(h.tr.t(lang, "practice-lobby-title"))


async def _stop(h: Harness, user: User) -> None:
    """/stop in the private chat, and yes."""
    await h.say(user.id, user, "/stop")
    question = h.tg.sent(user.id)[-1]
    yes = [
        d
        for _, d in h.buttons(user.id, h.message_id_of(question))
        if d.startswith("st:") and StopCb.unpack(d).confirm
    ]
    assert yes, "/stop asked nothing"
    await h.press(user, user.id, h.message_id_of(question), yes[0])


@pytest.mark.parametrize(("lang", "moves"), [("ru", 0), ("en", 2), ("ru", 9)])
async def test_the_tutor_can_be_left_at_any_point_and_taken_again(
    store: Store, lang: str, moves: int
) -> None:
    h = Harness(store)
    (boris,) = people("Борис")
    await first_lang(h, boris, lang)
    await h.say(boris.id, boris, "/help")  # /help names it
    assert "/learn" in (h.tg.sent(boris.id)[-1].text or "")
    await h.say(boris.id, boris, "/learn")
    first = await h.table(boris.id)
    assert first.tutor is not None
    # the newcomer answers `moves` prompts (the computers play between them)
    answered = 0
    while answered < moves:
        table = await h.table(boris.id)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            await h.tick(2)
            continue
        await h.answer(boris, boris.id, newcomer(table.state, decision, {}))
        answered += 1
    # /practice while it runs: the tutor goes on
    await h.say(boris.id, boris, "/practice")
    assert h.tg.sent(boris.id)[-1].text == h.tr.t(lang, "practice-running")
    assert (await h.table(boris.id)).tutor is not None
    # leaving: /stop, yes
    table = await h.table(boris.id)
    await _stop(h, boris)
    left = await h.table(boris.id)
    assert left.status == "finished" and left.state is not None and left.state.result is not None
    # its old prompt is dead
    ids = await store.messages(boris.id)
    decision = pending(table.state)  # type: ignore[arg-type]
    if decision is not None and table.seats[decision.seat].user_id is not None:
        before = len(h.tg.answers())
        await h.press(
            boris,
            boris.id,
            ids.get("prompt:0", 1),
            answer_data(table, decision, decision.options[0]),
        )
        assert h.tg.answers()[before].show_alert
        assert (await h.table(boris.id)).status == "finished"
    # /learn takes it again: a new game on the same deal, from its first step
    since = len(h.tg.requests)
    await h.say(boris.id, boris, "/learn")
    again = await h.table(boris.id)
    assert again.tutor is not None and again.status == "playing"
    assert again.game_no == left.game_no + 1
    assert again.tutor.told == ["draw"]
    sent = person_messages(h, boris, since)
    assert sent[0].text == h.tr.t(lang, "tutor-welcome")
    prompt = [r for r in sent if is_prompt(r.reply_markup)][-1]
    assert TUTOR + h.tr.t(lang, "tutor-draw", **rules_args()) in (prompt.text or "")
    # and nothing of either was rated
    assert await store.stats(None) == {}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_forgetme_forgets_that_the_tutor_was_taken(store: Store, lang: str) -> None:
    """Whether someone had their tutor is theirs: /forgetme deletes it, and their
    next /practice is the tutor again."""
    h = Harness(store)
    (vera,) = people("Вера")
    await first_lang(h, vera, lang)
    await h.say(vera.id, vera, "/learn")
    await _stop(h, vera)
    await h.say(vera.id, vera, "/practice")  # she had her tutor: a practice lobby
    assert (await h.table(vera.id)).tutor is None
    assert (await store.user(vera.id)).practices == 2
    await h.say(vera.id, vera, "/forgetme")
    question = h.last_with_button(vera.id, "fg:")
    await h.press(vera, vera.id, question, ForgetCb(confirm=True).pack())
    assert (await store.user(vera.id)).practices == 0
    await h.say(vera.id, vera, "/practice")
    table = await h.table(vera.id)
    assert table.tutor is not None and table.status == "playing"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_tutor_opens_while_the_person_plays_in_a_group(store: Store, lang: str) -> None:
    """The tutor shares the private chat with a group game's prompts: each
    names its own game (issue 40, item 3), and the group's game is untouched."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await first_lang(h, user, lang)
    table = await h.open_game(-100_424, anna, [boris], seed=5)
    await h.say(anna.id, anna, "/learn")
    tutor = await h.table(anna.id)
    assert tutor.tutor is not None and tutor.status == "playing"
    assert (await store.user(anna.id)).practices == 1
    assert (await h.table(-100_424)).version == table.version
    own = h.tr.t(lang, "private-header", chat=tutor.title)
    prompt = [r for r in h.tg.sent(anna.id) if decisions_of(r.reply_markup)][-1]
    assert prompt.text.startswith(own)


@pytest.mark.parametrize(("lang", "seed"), [("ru", 1), ("en", 2)])
async def test_a_newcomer_who_does_otherwise_is_told_each_step_once_when_it_holds(
    store: Store, lang: str, seed: int
) -> None:
    """The script does not rely on the plan: a newcomer who answers at random
    still reads each sentence at most once, each action's on a prompt that
    offers it, and the game still ends with the pointer to a group game."""
    h = Harness(store)
    (dina,) = people("Дина")
    await first_lang(h, dina, lang)
    await h.say(dina.id, dina, "/learn")
    patterns = step_patterns(h, lang)
    told: list[str] = []
    for move in range(3000):
        table = await h.table(dina.id)
        if table.status != "playing":
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            await h.tick(2)
            continue
        prompt = [
            r for r in person_messages(h, dina, 0) if decision.id in decisions_of(r.reply_markup)
        ]
        for step, card in steps_in(prompt[0].text or "", patterns):
            told.append(step)
            if step in VERB:
                assert any(o[0] == VERB[step] and card in (None, *o[1:2]) for o in decision.options)
        await h.answer(dina, dina.id, choose(seed + move, decision))
    else:
        raise AssertionError("the tutor never ended")
    await h.settle()
    assert len(told) == len(set(told))
    assert {"draw", "lay"} <= set(told)
    assert h.tg.sent(dina.id)[-1].text == h.tr.t(lang, "tutor-end")
