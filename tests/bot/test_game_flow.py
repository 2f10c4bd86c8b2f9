"""Whole games through the real dispatcher: lobby, table, private prompts, timers.

Three people and one computer seat play to the end with a fake Telegram that
records every request. Checked throughout: no card from a hand ever appears in
a group message (every card a group text names is on the table or was shown
publicly by the engine), no player's private chat shows a card of another's
hand or of the deck (unless the engine told that player of it), each prompt
goes only to the deciding player's private chat, stale and foreign buttons
change nothing, a restart mid-game carries on.

The whole-game test also notices the basics by itself, each one at every step
or at a fixed point of the game:
- a person answers by pressing the buttons whose *labels* name the chosen
  option, and the move the game records must be exactly that option (a button
  standing for its neighbour's option is caught);
- another seated person presses the decider's answer first, in their own
  private chat: refused, nothing changes;
- one person lets three decisions in a row time out: after the first and the
  second the seat is still theirs, after the third the computer plays it;
- a burst of /table (25 new messages for the group) still keeps the group
  within 20 new messages a minute and one request a second.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator, Sequence

import pytest
from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LobbyCb, PromptCb
from engine import Command, GameState, pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import text_of
from tests.bot.harness import (
    MARK,
    Harness,
    Witness,
    answer_data,
    cards_shown,
    group_texts,
    is_prompt,
    may_see,
    people,
    public_zones,
)

GROUP = -100777


@pytest.fixture
def witness() -> Iterator[Witness]:
    """What the engine tells, recorded for the whole test."""
    seen = Witness()
    with seen.watching():
        yield seen


async def open_lobby(h: Harness, host: User, guests: list[User], computers: int) -> None:
    lobby, game = await h.open_lobby(GROUP, host, guests)
    for _ in range(computers):
        await h.press(host, GROUP, lobby, LobbyCb(action="bot", game=game).pack())


async def start(h: Harness, host: User) -> None:
    table = await h.table(GROUP)
    lobby = h.last_with_button(GROUP, "lb:")
    await h.press(host, GROUP, lobby, LobbyCb(action="go", game=table.game_no).pack())
    assert (await h.table(GROUP)).status == "playing"


def check_private_stays_private(h: Harness, since: int, state: GameState, named: set[str]) -> None:
    for text in group_texts(h.tg, GROUP, since):
        for card_id in MARK.findall(text):
            assert card_id in public_zones(state) or card_id in named, (
                f"{card_id} shown in the group while hidden: {text!r}"
            )


def check_hands_stay_private(
    h: Harness, since: int, states: Sequence[GameState], seen: Witness, seats: dict[int, int]
) -> None:
    """No private text shows a player a card of another's hand or of the deck:
    each card it shows (text or buttons) is public, in their hand, or named by
    the decision asked of them or an event told to them, before or after the step."""
    for seat, user_id in seats.items():
        allowed = set(seen.public)
        for state in states:
            allowed |= may_see(state, seat, seen.told(state, seat))
        for request in h.tg.requests[since:]:
            if isinstance(request, SendMessage | EditMessageText) and request.chat_id == user_id:
                shown = cards_shown(request)
                assert shown <= allowed, (
                    f"{sorted(shown - allowed)} shown to seat {seat}: {request.text!r}"
                )


def check_prompts_go_to_the_decider(h: Harness, since: int, users: dict[int, int]) -> None:
    for request in h.tg.requests[since:]:
        if isinstance(request, SendMessage) and is_prompt(request.reply_markup):
            assert isinstance(request.chat_id, int) and request.chat_id > 0, "prompt in a group"
            assert request.chat_id in users.values()


async def answer_as_a_person(h: Harness, user: User, option: Sequence[str]) -> None:
    """Press through the prompt's menu by what each button *says* (the label of
    the option's part that button's level offers), as a person reads it; then
    the move the game recorded must be exactly that option."""
    table = await h.table(GROUP)
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None
    seat = table.seat_of(user.id)
    assert seat == decision.seat
    lang = table.seats[seat].lang
    prompts = h.app.games.teller.prompts
    option = tuple(option)
    labels = [prompts.label(lang, table, state, decision, option, i) for i in range(len(option))]
    message_id = (await h.store.messages(GROUP))[f"prompt:{seat}"]
    logged = len(await h.store.log(GROUP))
    for _ in range(len(option) + 1):
        buttons = [
            (text, PromptCb.unpack(data))
            for text, data in h.buttons(user.id, message_id)
            if data.startswith("p:")
        ]
        # a button of depth d offers part d - 1 of the options below it
        said = [
            cb
            for text, cb in buttons
            if 0 < cb.depth <= len(option) and text == labels[cb.depth - 1]
        ]
        assert len(said) == 1, f"one button should say {labels}: {[t for t, _ in buttons]}"
        await h.press(user, user.id, message_id, said[0].pack())
        now = await h.decision(GROUP)
        if now is None or now.id != decision.id:
            break
    else:
        raise AssertionError(f"the menu never reached {option}")
    assert (await h.store.log(GROUP))[logged:] == [
        Command(seat=seat, decision=decision.id, option=tuple(option))
    ], f"the buttons said {labels}, the game recorded another move"


async def refused_from_another_seat(h: Harness, other: User, option: Sequence[str]) -> None:
    """`other` (seated, not the decider) presses the decider's answer in their own chat."""
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    before = len(h.tg.requests)
    await h.press(other, other.id, 1, answer_data(table, decision, option))
    after = await h.table(GROUP)
    assert after.version == table.version, "a press from a non-decider was accepted"
    answers = [r for r in h.tg.requests[before:] if isinstance(r, AnswerCallbackQuery)]
    assert answers and answers[-1].show_alert, "the non-decider was not told"


async def time_out(h: Harness, seat: int, timeouts: int) -> None:
    """The deciding `seat` lets its decision time out (its `timeouts`-th in a row)."""
    table = await h.table(GROUP)
    assert table.deadline is not None
    since = len(h.tg.requests)
    assert await h.tick(table.deadline - h.clock.now() + 1) >= 1
    after = await h.table(GROUP)
    person = after.seats[seat]
    assert after.state is not None
    name = h.app.games.render.name("ru", after, seat)
    texts = "\n".join(group_texts(h.tg, GROUP, since))
    assert h.tr.t("ru", "log-timeout", player=name) in texts
    assert person.strikes == timeouts
    if timeouts < 3:
        assert not person.away and not after.state.players[seat].computer, (
            f"the seat went to the computer after {timeouts} timeout(s), not three"
        )
    else:
        assert person.away and after.state.players[seat].computer, "three timeouts: still theirs"
        assert h.tr.t("ru", "log-away", player=name) in texts


async def table_burst(h: Harness, user: User, times: int = 25) -> None:
    """`user` sends /table `times` times: each reposts the table as a new message."""
    sent = len(h.tg.sent(GROUP))
    for _ in range(times):
        await h.say(GROUP, user, "/table")
    assert len(h.tg.sent(GROUP)) - sent == times


def check_group_pace(h: Harness) -> None:
    """Every request to the group went through the pace: ≤ 20 new messages in
    any minute, one request a second (on the pace's own clock)."""
    group = [(t, new) for chat, t, new in h.pace.booked if chat == GROUP]
    news = [t for t, new in group if new]
    assert len(news) > 20, "the check needs more than a minute's worth of new messages"
    for i, start in enumerate(news):
        assert len([t for t in news[i:] if t < start + 60.0]) <= 20, "over 20 a minute"
    moments = [t for t, _ in group]
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(moments)), "under a second"


async def play_to_the_end(
    h: Harness,
    seen: Witness,
    restart_at: int | None = None,
    max_steps: int = 3000,
    away: tuple[int, int] | None = None,
    burst_at: int | None = None,
) -> int:
    """Play every decision until the game ends, checking each step. `away`:
    (seat, step) — from that step on the seat lets its decisions time out until
    the computer takes it over (three in a row). `burst_at`: the step at which
    someone sends a burst of /table."""
    table = await h.table(GROUP)
    seats = {i: s.user_id for i, s in enumerate(table.seats) if s.user_id is not None}
    humans = {i: u for i, u in seats.items() if u}
    users = {
        s.user_id: User(id=s.user_id, is_bot=False, first_name=s.name)
        for s in table.seats
        if s.user_id
    }
    timeouts = 0
    steps = 0
    while steps < max_steps:
        table = await h.table(GROUP)
        if table.status == "finished":
            assert away is None or timeouts == 3, "the game ended before three timeouts"
            return steps
        state = table.state
        assert state is not None
        decision = pending(state)
        assert decision is not None
        since = len(h.tg.requests)
        if burst_at is not None and steps == burst_at:
            await table_burst(h, users[next(iter(humans.values()))])
        if state.players[decision.seat].computer:
            assert await h.tick(1.5) >= 1
        elif away is not None and decision.seat == away[0] and steps >= away[1]:
            timeouts += 1
            await time_out(h, decision.seat, timeouts)
        else:
            user = users[seats[decision.seat]]  # type: ignore[index]
            option = choose(state.seed + steps, decision)
            for seat, uid in humans.items():
                if seat != decision.seat:
                    await refused_from_another_seat(h, users[uid], option)
            await answer_as_a_person(h, user, option)
        after = await h.table(GROUP)
        assert after.state is not None
        # what lay face up before the step was public too (a discarded смута a
        # step shuffles back into the deck, say)
        check_private_stays_private(h, since, after.state, seen.public | public_zones(state))
        check_hands_stay_private(h, since, (state, after.state), seen, humans)
        check_prompts_go_to_the_decider(h, since, {s: u for s, u in seats.items() if u})
        steps += 1
        if restart_at is not None and steps == restart_at:
            h.restart()
    raise AssertionError("the game did not end")


async def test_three_people_and_a_computer_play_a_whole_game(
    store: Store, witness: Witness
) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await open_lobby(h, anna, [boris, vera], computers=1)
    table = await h.table(GROUP)
    assert [s.name for s in table.seats][:3] == ["Анна", "Борис", "Вера"]
    assert table.seats[3].user_id is None
    since = len(h.tg.requests)
    await start(h, anna)
    started = await h.table(GROUP)
    assert started.state is not None
    humans = {i: s.user_id for i, s in enumerate(started.seats) if s.user_id is not None}
    check_private_stays_private(h, since, started.state, witness.public)
    check_hands_stay_private(h, since, (started.state,), witness, humans)
    # Вера lets her decisions time out from step 10 until the computer takes her
    # seat; after the restart, a burst of /table tests the group's pace
    steps = await play_to_the_end(h, witness, restart_at=40, away=(2, 10), burst_at=45)
    assert steps > 50
    check_group_pace(h)
    table = await h.table(GROUP)
    assert table.status == "finished" and table.state is not None and table.state.result
    final = text_of(h.tg.posted(GROUP)[-1]).splitlines()  # the result: the picture's caption
    winners = [h.app.games.render.name("ru", table, w) for w in table.state.result.winners]
    assert final[-1] == h.tr.t("ru", "result-winners", players=", ".join(winners), n=len(winners))
    # the command log replays into the same game
    from engine import replay

    assert table.setup is not None
    assert replay(table.setup, await store.log(GROUP)) == table.state


async def test_old_and_foreign_buttons_change_nothing(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await open_lobby(h, anna, [boris], computers=0)
    await start(h, anna)
    table = await h.table(GROUP)
    decision = await h.decision(GROUP)
    assert decision is not None
    decider = [anna, boris][decision.seat]
    other = [anna, boris][1 - decision.seat]
    ids = await store.messages(GROUP)
    prompt = ids[f"prompt:{decision.seat}"]
    data = PromptCb(chat=GROUP, game=table.game_no, decision=decision.id, option=0, depth=1).pack()

    async def refused(user: User, chat: int, payload: str) -> str:
        version = (await h.table(GROUP)).version
        before = len(h.tg.requests)
        await h.press(user, chat, prompt, payload)
        assert (await h.table(GROUP)).version == version, "a refused button changed the game"
        answers = [r for r in h.tg.requests[before:] if type(r).__name__ == "AnswerCallbackQuery"]
        assert answers and answers[-1].show_alert
        return answers[-1].text or ""

    # someone else's button (pressed in their own private chat)
    assert await refused(other, other.id, data)
    # a stale decision id, another game's number, a garbled payload
    stale = PromptCb(chat=GROUP, game=table.game_no, decision=decision.id - 1, option=0, depth=1)
    assert await refused(decider, decider.id, stale.pack())
    old_game = PromptCb(chat=GROUP, game=table.game_no + 5, decision=decision.id, option=0, depth=1)
    assert await refused(decider, decider.id, old_game.pack())
    assert await refused(decider, decider.id, "p:garbage")
    out_of_range = PromptCb(
        chat=GROUP, game=table.game_no, decision=decision.id, option=999, depth=1
    )
    assert await refused(decider, decider.id, out_of_range.pack())
    # the real button still works
    await h.answer(decider, GROUP, decision.options[0])
    assert (await h.decision(GROUP)) != decision


async def test_a_player_who_never_answers_is_played_by_the_computer(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await open_lobby(h, anna, [boris], computers=0)
    await start(h, anna)
    seen_away = False
    for _ in range(40):
        decision = await h.decision(GROUP)
        if decision is None:
            break
        table = await h.table(GROUP)
        if table.seats[decision.seat].away:
            seen_away = True
            away = decision.seat
            break
        before = decision.id
        timeout = table.turn_timeout if decision.kind == "action" else table.choice_timeout
        await h.tick(timeout - 25)  # the reminder
        await h.tick(30)  # the deadline
        after = await h.decision(GROUP)
        assert after is None or after.id != before, "the deadline passed and nothing happened"
    assert seen_away, "three timeouts in a row should hand the seat to the computer"
    assert table.state is not None and table.state.players[away].computer
    texts = "\n".join(group_texts(h.tg, GROUP))
    assert h.tr.t("ru", "log-away", player=h.app.games.render.name("ru", table, away)) in texts


async def test_the_same_answer_pressed_twice_at_once_is_applied_once(store: Store) -> None:
    """Two bot processes (two dispatchers, one store) get the same button press at once."""
    first = Harness(store)
    anna, boris = people("Анна", "Борис")
    await open_lobby(first, anna, [boris], computers=0)
    await start(first, anna)
    second = Harness(store, tg=first.tg, clock=first.clock)
    for _ in range(5):
        table = await first.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user = (anna, boris)[decision.seat]
        prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
        leaf = 0  # a button naming a whole option answers at once
        data = PromptCb(
            chat=GROUP,
            game=table.game_no,
            decision=decision.id,
            option=leaf,
            depth=len(decision.options[leaf]),
        ).pack()
        log_before = len(await store.log(GROUP))
        await asyncio.gather(
            first.press(user, user.id, prompt, data), second.press(user, user.id, prompt, data)
        )
        assert len(await store.log(GROUP)) == log_before + 1, "one press applied, one refused"
