"""The courier's contract and two privacy edges (issue 39, item 7), pinned as
what Telegram and the Mini App hand the players — not as which code drew it,
so each keeps holding when the screens are drawn at telling time instead of
inside the save:

1. a told change reaches each person once — a press's, the Mini App's, a
   timer's: no prompt, hand or notice sent twice, no turn told twice in the group;
2. a question answered in the group (/stop's, /leave's yes or no) loses its
   buttons, and its old button pressed again is answered shortly and changes
   nothing;
3. a hand or a notice goes to the person of its own seat, never to another
   (seats whose user ids are not in seat order);
4. the Mini App's story never names a card only a private event showed (a
   hand looked at, a card drawn or taken in secret);
5. a run of computer turns edits the group's one table message: a new table
   message only when a person's turn begins.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageReplyMarkup,
    EditMessageText,
    SendMessage,
    SendPhoto,
)
from aiogram.types import InlineKeyboardMarkup

from bot.store import Store
from bot.webapp.limits import RateLimit
from bot.webapp.story import Story
from bot.words.keyboards import LeaveCb, LobbyCb, StopCb
from engine import Decision, Event, GameState, execute, new_game, pending
from engine.ai.easy import choose
from engine.cards import catalog_for
from tests.bot.fake_telegram import FakeTelegram, person
from tests.bot.harness import MARK, Harness, answer_data, asked, cards_named, public_zones
from tests.bot.helpers.webapps import CARD_ID, app_harness, webapp_of
from tests.bot.webapp_client import AppClient, serving

GROUP = -100_390_007
#: how a person's decision is answered: their prompt's button, the Mini App, their time running out
WAYS = ("press", "app", "timer")
STEPS = 18
#: seats 0, 1, 2 in join order; their user ids are not (the middle seat's is the lowest)
ANNA, BORIS, VERA = person(305, "Анна"), person(301, "Борис"), person(303, "Вера")
PEOPLE = (ANNA, BORIS, VERA)
#: a turn's first line in the group's log («▶️ <b>Ход 3</b>: Вера · 3 действия»)
TURN_HEADER = re.compile(r"^▶️ <b>[^<]+ \d+</b>: ")


# ====================================================================== reading what Telegram got
def repeats(tg: FakeTelegram, since: int = 0) -> list[str]:
    """The requests from number `since` on that repeat what a chat already got:
    a new private message with the very text and buttons of an earlier one, or
    an edit that puts into a message exactly what it shows (a screen carried
    out twice)."""
    shown: dict[tuple[int, int], tuple[str | None, Any]] = {}
    sent: set[tuple[int, str, str]] = set()
    found: list[str] = []
    for i, r in enumerate(tg.requests):
        if isinstance(r, SendMessage) and id(r) in tg.message_id_of:
            assert isinstance(r.chat_id, int)
            markup = r.reply_markup if isinstance(r.reply_markup, InlineKeyboardMarkup) else None
            shown[(r.chat_id, tg.message_id_of[id(r)])] = (r.text, markup)
            again = (r.chat_id, r.text, repr(markup))
            if i >= since and r.chat_id > 0 and again in sent:
                found.append(f"sent again to {r.chat_id}: {r.text[:160]!r}")
            sent.add(again)
        elif isinstance(r, EditMessageText):
            assert isinstance(r.chat_id, int) and r.message_id is not None
            key = (r.chat_id, r.message_id)
            now = (r.text, r.reply_markup)
            if i >= since and shown.get(key) == now:
                found.append(f"edited into the same in {r.chat_id}: {(r.text or '')[:160]!r}")
            shown[key] = now
        elif isinstance(r, EditMessageReplyMarkup):
            assert isinstance(r.chat_id, int) and r.message_id is not None
            key = (r.chat_id, r.message_id)
            if key in shown:
                shown[key] = (shown[key][0], r.reply_markup)
    return found


def turn_headers(tg: FakeTelegram, chat_id: int) -> list[str]:
    """The turns' first lines in what the group reads now (each message's
    latest text), in the order the messages were sent."""
    texts = [text for (chat, _), text in sorted(tg.texts.items()) if chat == chat_id]
    return [line for text in texts for line in text.split("\n") if TURN_HEADER.match(line)]


def new_in(tg: FakeTelegram, chat_id: int, since: int) -> list[SendMessage | SendPhoto]:
    return [
        r
        for r in tg.requests[since:]
        if isinstance(r, SendMessage | SendPhoto) and r.chat_id == chat_id
    ]


def private_since(tg: FakeTelegram, since: int) -> list[SendMessage]:
    return [
        r
        for r in tg.requests[since:]
        if isinstance(r, SendMessage) and isinstance(r.chat_id, int) and r.chat_id > 0
    ]


# ====================================================================== 1. once to each
async def answer_by(
    h: Harness, app: AppClient, way: str, decision: Decision, option: Sequence[str]
) -> None:
    """The pending decision answered with `option` the `way` a person can:
    their prompt's button, the Mini App, or their time running out (the timer
    then chooses for them)."""
    table = await h.table(GROUP)
    user = next(u for u in PEOPLE if u.id == table.seats[decision.seat].user_id)
    if way == "press":
        prompt = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
        await h.press(user, user.id, prompt, answer_data(table, decision, option))
    elif way == "app":
        index = decision.options.index(tuple(option))
        status, body = await app.answer(user, GROUP, table.game_no, decision.id, index)
        assert status == 200 and body["ok"], body
        await h.settle()  # the answer is told after the app has its reply
    else:
        assert table.deadline is not None
        await h.tick(table.deadline - h.clock.now())


async def started(h: Harness) -> int:
    """Анна opens a lobby, Борис and Вера join, Анна starts the game (the
    same deal each run); the number of the first request the start made."""
    lobby, game = await h.open_lobby(GROUP, ANNA, [BORIS, VERA])
    h.app.games.seeds = random.Random(4)
    since = len(h.tg.requests)
    await h.press(ANNA, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    assert (await h.table(GROUP)).status == "playing"
    return since


async def test_a_new_games_hands_reach_each_person_once(store: Store) -> None:
    """The start: each person gets one message — the first to decide their
    question (their hand in it), each other person their hand; the group one
    new message, the table."""
    h = Harness(store)
    since = await started(h)
    table = await h.table(GROUP)
    assert table.state is not None
    first = pending(table.state)
    assert first is not None
    for seat, user in enumerate(PEOPLE):
        got = [r.text for r in private_since(h.tg, since) if r.chat_id == user.id]
        assert len(got) == 1, got
        if seat == first.seat:
            assert len(asked(h.tg, user.id, first.id, since)) == 1
    assert repeats(h.tg, since) == []
    assert len(new_in(h.tg, GROUP, since)) == 1, "the table"


@pytest.mark.parametrize("way", WAYS)
async def test_each_told_change_reaches_each_person_once(store: Store, way: str) -> None:
    """Three people play 18 decisions, each answered the same `way`: by
    its prompt's button, in the Mini App, or by the timer once its time ran
    out (the ticker then also plays a seat whose person was put aside).
    After each, the next question reaches its person in exactly one message
    (sent, or edited into the one they answered); nobody is sent a message
    twice or an edit that changes nothing; the group gets one new table
    message when a person's turn begins, none else, and reads each turn once."""
    h = app_harness(store)
    webapp_of(h).answers = RateLimit(burst=10**6, per_second=0)
    await h.open_game(GROUP, ANNA, [BORIS, VERA], seed=4)
    turns = 0
    async with serving(webapp_of(h), h.clock.now) as app:
        for step in range(STEPS):
            table = await h.table(GROUP)
            state = table.state
            assert state is not None and table.status == "playing"
            decision = pending(state)
            assert decision is not None
            turn = state.turn
            since = len(h.tg.requests)
            group_since = len(h.tg.posted(GROUP))
            if state.players[decision.seat].computer:
                await h.tick(h.defaults.computer_pause)
            else:
                option = choose(state.seed + step, decision)
                await answer_by(h, app, way, decision, option)

            after = await h.table(GROUP)
            assert after.state is not None and after.status == "playing"
            upcoming = pending(after.state)
            assert upcoming is not None and upcoming.id > decision.id, f"step {step}: answered"
            user_id = after.seats[upcoming.seat].user_id
            if not after.state.players[upcoming.seat].computer:
                assert user_id is not None
                # the next question: to its person, in one message, once
                shown = asked(h.tg, user_id, upcoming.id, since)
                assert len(shown) == 1, f"step {step}: decision {upcoming.id} shown {len(shown)}×"
            assert repeats(h.tg, since) == [], f"step {step}"
            # the group: a new table message when a person's turn began, else none
            began = after.state.turn != turn
            persons_turn = began and not after.state.players[after.state.current].computer
            posted = len(h.tg.posted(GROUP)) - group_since
            assert posted == int(persons_turn), f"step {step}: {posted} new group messages"
            turns += after.state.turn - turn
    assert turns >= 2, "turns passed: closing a turn was told too"
    headers = turn_headers(h.tg, GROUP)
    assert len(headers) == len(set(headers)) == turns + 1, headers


# ====================================================================== 2. an answered question
#: the question asked (/stop by the game's creator, /leave by Борис), answered yes or no
QUESTIONS = [
    ("/stop", True),
    ("/stop", False),
    ("/leave", True),
    ("/leave", False),
]


@pytest.mark.parametrize(("command", "yes"), QUESTIONS)
async def test_an_answered_question_loses_its_buttons_and_its_old_button_changes_nothing(
    store: Store, command: str, yes: bool
) -> None:
    """/stop (by the game's creator) or /leave (by Борис) in the group asks
    first, with yes/no buttons; once answered the question has no buttons left
    — and its button pressed again (a second tap, an old client) is answered
    in a short line and changes nothing: no message sent or edited anywhere,
    the game's record as it was."""
    h = Harness(store)
    await h.open_game(GROUP, ANNA, [BORIS, VERA], seed=4)
    asker = ANNA if command == "/stop" else BORIS
    button = StopCb if command == "/stop" else LeaveCb
    await h.say(GROUP, asker, command)
    question = h.last_with_button(GROUP, f"{button.__prefix__}:")
    buttons = {button.unpack(d).confirm: d for _, d in h.buttons(GROUP, question)}
    assert set(buttons) == {True, False}, buttons
    data = buttons[yes]

    await h.press(asker, GROUP, question, data)
    table = await h.table(GROUP)
    stopped = command == "/stop" and yes
    assert table.status == ("finished" if stopped else "playing")
    left = command == "/leave" and yes
    assert table.seats[1].left is left
    assert h.buttons(GROUP, question) == [], "the answered question kept its buttons"

    first = h.tg.answers()[-1]
    since = len(h.tg.requests)
    await h.press(asker, GROUP, question, data)
    after = h.tg.requests[since:]
    answers = [r for r in after if isinstance(r, AnswerCallbackQuery)]
    assert len(answers) == 1 and answers[0].text and len(answers[0].text) <= 200, after
    if yes:  # what it asked is done: refused
        assert answers[0].show_alert and answers[0].text != first.text, answers
    else:  # nothing was to be done: said again
        assert answers[0].text == first.text, answers
    # no message sent, no text edited, no button back, anywhere
    changed = [
        r
        for r in after
        if isinstance(r, SendMessage | SendPhoto | EditMessageText)
        or (isinstance(r, EditMessageReplyMarkup) and r.reply_markup is not None)
    ]
    assert changed == [], changed
    assert h.buttons(GROUP, question) == []
    again = await h.table(GROUP)
    assert again.version == table.version and again.status == table.status


# ====================================================================== 3. a note to its own seat
def hand_in(text: str) -> set[str]:
    """The card ids a message lists under its hand's title («✋ Ваша рука»)."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("✋")), None)
    assert start is not None, f"no hand in {text!r}"
    cards: set[str] = set()
    for line in lines[start + 1 :]:
        if not line.startswith("• "):
            break
        cards.update(MARK.findall(line))
    return cards


def turns_end(decision: Decision) -> tuple[str, ...]:
    """The way to a turn's end: the end when it may come, else a card away."""
    if ("end",) in decision.options:
        return ("end",)
    return next((o for o in decision.options if o[0] == "discard"), decision.options[0])


async def test_a_hand_or_a_notice_goes_to_the_person_of_its_own_seat(store: Store) -> None:
    """Seats 0, 1, 2 are people whose user ids are not in seat order. At the
    start each person's message lists exactly their own hand (the engine's);
    /hand sends the asker their own hand; the reminder of a turn goes to
    the person whose turn it is — and nobody gets another's."""
    h = Harness(store)
    since = await started(h)
    table = await h.table(GROUP)
    assert [s.user_id for s in table.seats] == [u.id for u in PEOPLE]
    assert [u.id for u in PEOPLE] != sorted(u.id for u in PEOPLE)
    state = table.state
    assert state is not None
    got = private_since(h.tg, since)
    for seat, user in enumerate(PEOPLE):
        mine = [r.text for r in got if r.chat_id == user.id]
        assert len(mine) == 1, (user.first_name, mine)
        assert hand_in(mine[0]) == set(state.players[seat].hand), (user.first_name, mine[0])

    # /hand: Вера (the last seat) is sent her own hand
    since = len(h.tg.requests)
    await h.say(VERA.id, VERA, "/hand")
    got = private_since(h.tg, since)
    assert [r.chat_id for r in got] == [VERA.id], got
    assert hand_in(got[0].text) == set(state.players[2].hand), got[0].text

    # Анна ends her turn; Борис is asked, and reminded when his time runs short
    for _ in range(4):  # (a turn's first action cannot end it: a card goes first)
        decision = await h.decision(GROUP)
        assert decision is not None
        if decision.seat != 0:
            break
        await h.answer(ANNA, GROUP, turns_end(decision))
    table = await h.table(GROUP)
    assert decision is not None and decision.seat == 1
    assert table.reminder is not None
    since = len(h.tg.requests)
    await h.tick(table.reminder - h.clock.now())
    got = private_since(h.tg, since)
    assert [r.chat_id for r in got] == [BORIS.id], got
    assert table.deadline is not None
    left = round(table.deadline - h.clock.now())
    assert h.tr.t("ru", "remind", seconds=left) in got[0].text, got[0].text


# ====================================================================== 4. the app's story
#: the characters that look at a hand or take a card in secret: laid when they can be
SECRET_KEEPERS = ("spy", "minstrel", "mercenary")


def secretive(state: GameState, decision: Decision, step: int) -> tuple[str, ...]:
    """An option that lays a card which looks into a hand or takes one in
    secret, when there is one; else what a normal computer would choose."""
    catalog = catalog_for(state.rules)
    for option in decision.options:
        if option[0] == "lay" and catalog[option[1]].type in SECRET_KEEPERS:
            return option
    return choose(state.seed + step, decision)


def told(events: list[Event]) -> tuple[set[str], set[str]]:
    """The card ids events name for everyone, and those they name only to some seats."""
    public = {c for e in events if e.to is None for c in cards_named(e.params)}
    private = {c for e in events if e.to is not None for c in cards_named(e.params)}
    return public, private - public


def card_ids(part: Any) -> set[str]:
    return set(CARD_ID.findall(json.dumps(part, ensure_ascii=False)))


async def test_the_apps_story_names_no_card_only_a_private_event_showed(store: Store) -> None:
    """Three people play (laying a Лазутчица, Менестрель or Наёмник whenever
    they can: a hand looked at, a card taken in secret; and every draw, told
    only to its drawer). After each move the Mini App's story, as each seat
    and a spectator read it, names only cards that an event for everyone
    named or that lie face up; and the story's list of each move's cards (what
    the table highlights) holds only cards that move's public events named —
    never one of its private events' alone."""
    h = app_harness(store)
    webapp_of(h).reads = RateLimit(burst=10**6, per_second=0)
    await h.open_game(GROUP, ANNA, [BORIS, VERA], seed=4)
    viewers = [person(399, "Зритель"), *PEOPLE]
    async with serving(webapp_of(h), h.clock.now) as app:
        for step in range(24):
            table = await h.table(GROUP)
            assert table.state is not None and table.status == "playing"
            decision = pending(table.state)
            assert decision is not None
            user = next(u for u in PEOPLE if u.id == table.seats[decision.seat].user_id)
            prompt = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
            option = secretive(table.state, decision, step)
            await h.press(user, user.id, prompt, answer_data(table, decision, option))

            table = await h.table(GROUP)
            assert table.setup is not None and table.state is not None
            state, events = new_game(table.setup)
            public, _ = told(events)
            for command in await h.store.log(GROUP):
                public |= told(execute(state, command))[0]
            assert state == table.state
            may_show = public | public_zones(state)
            for viewer in viewers:
                status, body = await app.state(viewer, GROUP)
                assert status == 200, body
                story = body["state"]["story"]
                assert story["turns"], "the app tells the game's story"
                hidden = card_ids(story) - may_show
                assert not hidden, f"step {step}: {viewer.first_name} read {hidden} in the story"

    # the story's own list of what each move named, against each command's events
    table = await h.table(GROUP)
    assert table.setup is not None
    commands = await h.store.log(GROUP)
    story = Story(h.app.games.render, "ru", table, table.setup)
    story.extend(table, commands)
    assert story.applied == len(commands) and not story.broken
    state, _ = new_game(table.setup)
    by_command: dict[int, tuple[set[str], set[str]]] = {}
    secrets: set[str] = set()
    for index, command in enumerate(commands, 1):
        events = execute(state, command)
        by_command[index] = told(events)
        secrets |= {e.key for e in events if e.to is not None}
    moves = [m for turn in story.turns for m in turn.moves if m.index > 0]
    # a hand looked at, a card taken in secret, a card drawn: each told to some alone
    assert {"hand.shown", "mercenary.took.private", "deck.drew.private"} <= secrets, secrets
    assert any(by_command[m.index][1] for m in moves), "no move the story tells had a secret"
    for move in moves:
        public, private = by_command[move.index]
        assert set(move.cards) <= public, f"move {move.index}: {set(move.cards) & private}"
    assert set(story.last.cards) <= by_command[story.last.index][0]


# ====================================================================== 5. computer turns
async def test_computer_turns_edit_the_one_table_a_persons_turn_gets_a_new_one(
    store: Store,
) -> None:
    """Анна plays against two computers in the group, for two rounds. From
    her turn's end until her next turn the group gets exactly one new
    message — the table of her new turn, once the computers are done; their
    two turns went into the table message she had, edited in place move by
    move, which keeps her turn and theirs (each turn's lines once)."""
    h = Harness(store)
    await h.open_game(GROUP, ANNA, [], computers=2, seed=4)
    for _ in range(2):
        table_message = h.message_id_of(h.tg.posted(GROUP)[-1])
        since = len(h.tg.requests)
        decision = await h.decision(GROUP)
        while decision is not None and decision.seat == 0:  # Анна: a card away, then the end
            await h.answer(ANNA, GROUP, turns_end(decision))
            decision = await h.decision(GROUP)
        computers_since = len(h.tg.requests)
        computer_moves = 0
        while decision is not None and decision.seat != 0:  # the computers: a move a tick
            assert computer_moves < 80, "Анна's turn never came back"
            assert new_in(h.tg, GROUP, since) == [], "a new group message mid-computers"
            await h.tick(h.defaults.computer_pause)
            computer_moves += 1
            decision = await h.decision(GROUP)
        table = await h.table(GROUP)
        assert table.state is not None and table.state.current == 0
        new = new_in(h.tg, GROUP, since)
        assert len(new) == 1, [r.text for r in new if isinstance(r, SendMessage)]
        # the computers' moves were shown as they came, in the one message
        edited = [
            r.message_id
            for r in h.tg.requests[computers_since:]
            if isinstance(r, EditMessageText) and r.chat_id == GROUP
        ]
        assert len(edited) >= 2 and set(edited) == {table_message}, edited
        closed = h.tg.texts[(GROUP, table_message)]
        assert sum(1 for line in closed.split("\n") if TURN_HEADER.match(line)) == 3, closed
        headers = turn_headers(h.tg, GROUP)
        assert len(headers) == len(set(headers)) == table.state.turn, headers
