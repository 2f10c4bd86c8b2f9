"""Only the current prompt is live, and leaving a game can be undone.

- Whenever a new prompt goes to a player (/hand, a catch-up), every earlier
  prompt message of theirs loses its buttons; someone else's /leave or /back
  sends the decider no second prompt: each player has at most one message
  with live buttons, and the decider's shows the pending decision.
- /leave in a running game asks first (only the leaver may answer); yes hands
  the seat to the computer, no keeps it; /back brings a player who left back
  for as long as the game lasts.
"""

from __future__ import annotations

from aiogram.methods import AnswerCallbackQuery, SendMessage
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LeaveCb, PromptCb
from engine import pending
from tests.bot.harness import Harness, group_texts, is_prompt, people

GROUP = -100999


def live_prompts(h: Harness, user_id: int) -> list[int]:
    """The messages in `user_id`'s chat whose prompt buttons can still be pressed."""
    return [
        message
        for (chat, message), markup in h.tg.markups.items()
        if chat == user_id and is_prompt(markup)
    ]


async def check_one_live_prompt(h: Harness, users: list[User]) -> None:
    """Nobody has two live prompts; the decider's one live prompt answers the
    pending decision."""
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    for user in users:
        live = live_prompts(h, user.id)
        assert len(live) <= 1, f"{user.first_name} has {len(live)} live prompts"
        seat = table.seat_of(user.id)
        if decision is not None and seat == decision.seat and not table.seats[seat].away:
            assert len(live) == 1, f"{user.first_name} decides but has no live prompt"
            data = [d for _, d in h.buttons(user.id, live[0]) if d.startswith("p:")]
            assert {PromptCb.unpack(d).decision for d in data} == {decision.id}


async def decider(h: Harness, users: list[User]) -> User:
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    return next(u for u in users if u.id == table.seats[decision.seat].user_id)


def answers(h: Harness, since: int) -> list[AnswerCallbackQuery]:
    return [r for r in h.tg.requests[since:] if isinstance(r, AnswerCallbackQuery)]


async def test_hand_sends_the_prompt_anew_and_the_old_one_goes_dead(store: Store) -> None:
    h = Harness(store)
    users = people("Анна", "Борис")
    await h.open_game(GROUP, users[0], users[1:], seed=5)
    who = await decider(h, users)
    old = live_prompts(h, who.id)
    assert len(old) == 1
    await h.say(who.id, who, "/hand")
    new = live_prompts(h, who.id)
    assert len(new) == 1 and new != old, "/hand sent no new prompt, or the old one stays live"
    assert h.tg.markups[(who.id, old[0])] is None
    await check_one_live_prompt(h, users)
    # the new prompt answers
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    await h.answer(who, GROUP, decision.options[0])
    assert (await h.table(GROUP)).version == table.version + 1


async def test_someone_elses_leaving_and_coming_back_keep_one_live_prompt(store: Store) -> None:
    h = Harness(store)
    users = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, users[0], users[1:], seed=5)
    who = await decider(h, users)
    other = next(u for u in users if u.id != who.id)
    prompts_before = len([r for r in h.tg.sent(who.id) if is_prompt(r.reply_markup)])
    await h.leave_game(other, GROUP)
    await check_one_live_prompt(h, users)
    await h.say(other.id, other, "/back")
    await check_one_live_prompt(h, users)
    prompts_after = len([r for r in h.tg.sent(who.id) if is_prompt(r.reply_markup)])
    assert prompts_after == prompts_before, "the decider got the same question twice"
    # and a whole stretch of play keeps it so
    for _ in range(30):
        table = await h.table(GROUP)
        if table.status != "playing" or table.state is None:
            break
        decision = pending(table.state)
        assert decision is not None
        if table.state.players[decision.seat].computer:
            await h.tick(h.defaults.computer_pause)
        else:
            await h.answer(await decider(h, users), GROUP, decision.options[-1])
        await check_one_live_prompt(h, users)


async def test_leaving_asks_first_and_only_the_leaver_may_answer(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = users = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    start = await h.table(GROUP)
    seat = start.seat_of(boris.id)
    assert seat is not None

    since = len(h.tg.requests)
    await h.say(GROUP, boris, "/leave")
    asked = [r for r in h.tg.requests[since:] if isinstance(r, SendMessage)]
    assert len(asked) == 1 and asked[0].chat_id == GROUP, "one question, in the group"
    assert asked[0].text == h.tr.t("ru", "leave-confirm")
    question = h.message_id_of(asked[0])
    data = {LeaveCb.unpack(d).confirm: d for _, d in h.buttons(GROUP, question)}
    assert set(data) == {True, False}
    assert (await h.table(GROUP)).version == start.version, "asking changed the game"

    # Вера presses Борис's «yes»: refused, nothing changes, the question stays
    since = len(h.tg.requests)
    await h.press(vera, GROUP, question, data[True])
    assert [(a.text, a.show_alert) for a in answers(h, since)] == [
        (h.tr.t("ru", "err-not-your-button"), True)
    ]
    assert (await h.table(GROUP)).version == start.version
    assert h.buttons(GROUP, question), "someone else's press took the question away"

    # Борис says no: he plays on, the question loses its buttons
    since = len(h.tg.requests)
    await h.press(boris, GROUP, question, data[False])
    assert [a.text for a in answers(h, since)] == [h.tr.t("ru", "leave-kept")]
    kept = await h.table(GROUP)
    assert kept.version == start.version and not kept.seats[seat].left
    assert h.buttons(GROUP, question) == []

    # asked again, he says yes: the computer takes his seat, the group is told
    since = len(h.tg.requests)
    await h.leave_game(boris, GROUP)
    left = await h.table(GROUP)
    assert left.seats[seat].left and left.state is not None and left.state.players[seat].computer
    assert h.tr.t("ru", "game-left") in [a.text for a in answers(h, since)]
    named = h.app.games.render.name("ru", left, seat)
    assert any(h.tr.t("ru", "log-left", player=named) in t for t in group_texts(h.tg, GROUP, since))
    await check_one_live_prompt(h, users)


async def test_back_returns_a_player_who_left_until_the_game_ends(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = users = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    seat = (await h.table(GROUP)).seat_of(boris.id)
    assert seat is not None
    await h.leave_game(boris, GROUP)

    since = len(h.tg.requests)
    await h.say(boris.id, boris, "/back")
    back = await h.table(GROUP)
    assert not back.seats[seat].left and not back.seats[seat].away
    assert back.state is not None and not back.state.players[seat].computer
    replies = [r.text for r in h.tg.sent(boris.id) if h.tg.requests.index(r) >= since]
    assert h.tr.t("ru", "back-done") in replies
    named = h.app.games.render.name("ru", back, seat)
    assert any(h.tr.t("ru", "log-back", player=named) in t for t in group_texts(h.tg, GROUP, since))
    await check_one_live_prompt(h, users)

    # a second /back has nothing to bring back
    await h.say(boris.id, boris, "/back")
    assert h.tg.sent(boris.id)[-1].text == h.tr.t("ru", "back-nothing")

    # once the game is over, leaving cannot be undone any more
    await h.leave_game(boris, GROUP)
    await h.say(GROUP, anna, "/stop")
    stop = h.last_with_button(GROUP, "st:")
    yes = next(d for _, d in h.buttons(GROUP, stop) if d.endswith(":1"))
    await h.press(anna, GROUP, stop, yes)
    assert (await h.table(GROUP)).status == "finished"
    await h.say(boris.id, boris, "/back")
    assert h.tg.sent(boris.id)[-1].text == h.tr.t("ru", "back-nothing")
    assert (await h.table(GROUP)).seats[seat].left
