"""The private chat: hands, prompts, /hand, /lang, /back, and people the bot cannot reach."""

from __future__ import annotations

from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LangCb, PromptCb
from engine import pending
from engine.ai.easy import choose
from tests.bot.harness import Harness, group_texts, people, prompts

GROUP = -100999


async def two_player_game(h: Harness) -> tuple[User, User]:
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    return anna, boris


async def test_each_player_gets_their_hand_and_the_decider_a_prompt_naming_the_group(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = await two_player_game(h)
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    other = (anna, boris)[1 - decision.seat]
    assert len(prompts(h.tg, decider.id)) == 1
    assert prompts(h.tg, other.id) == []
    for user in (anna, boris):
        last = h.tg.sent(user.id)[-1].text
        assert "Тестовая группа" in last, "every private message names its group"
        seat = table.seat_of(user.id)
        assert seat is not None
        for card_id in table.state.players[seat].hand:
            assert f"‹{card_id}›" in last, "the whole hand is shown"


async def test_answered_prompts_lose_their_buttons(store: Store) -> None:
    """An answered prompt shows the choice; its buttons go (or, when the same
    player is asked again at once, the message asks the next decision)."""
    h = Harness(store)
    anna, boris = await two_player_game(h)
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    await h.answer(decider, GROUP, choose(1, decision))
    left = {PromptCb.unpack(d).decision for _, d in h.buttons(decider.id, prompt)}
    assert decision.id not in left
    assert "✔️" in h.tg.texts[(decider.id, prompt)]


async def test_hand_resends_the_hand_and_the_pending_prompt(store: Store) -> None:
    h = Harness(store)
    anna, boris = await two_player_game(h)
    decision = await h.decision(GROUP)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    before = len(prompts(h.tg, decider.id))
    await h.say(decider.id, decider, "/hand")
    assert len(prompts(h.tg, decider.id)) == before + 1
    # the re-sent prompt works
    await h.answer(decider, GROUP, decision.options[0])
    assert (await h.decision(GROUP)) != decision


async def test_lang_switches_the_private_language(store: Store) -> None:
    h = Harness(store)
    anna, _ = await two_player_game(h)
    await h.say(anna.id, anna, "/lang")
    choose_message = h.message_id_of(h.tg.sent(anna.id)[-1])
    await h.press(anna, anna.id, choose_message, LangCb(lang="en").pack())
    assert (await store.user(anna.id)).lang == "en"
    await h.say(anna.id, anna, "/hand")
    text = h.tg.sent(anna.id)[-1].text
    table = await h.table(GROUP)
    seat = table.seat_of(anna.id)
    assert table.state is not None and seat is not None
    assert h.tr.t("en", "hand-title", n=len(table.state.players[seat].hand)) in text


async def test_a_player_who_blocked_the_bot_is_named_in_the_group_with_a_link(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = await two_player_game(h)
    decision = await h.decision(GROUP)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    h.tg.blocked.add(decider.id)
    since = len(h.tg.requests)
    await h.say(decider.id, decider, "/hand")  # the bot tries to write: 403
    texts = group_texts(h.tg, GROUP, since)
    assert any(decider.first_name in t and "t.me/smuta_test_bot" in t for t in texts)
    # the game goes on by timeouts
    table = await h.table(GROUP)
    await h.tick(table.turn_timeout + 1)
    assert (await h.decision(GROUP)) != decision


async def test_back_returns_a_seat_from_the_computer(store: Store) -> None:
    h = Harness(store)
    anna, boris = await two_player_game(h)
    for _ in range(30):
        table = await h.table(GROUP)
        if any(s.away for s in table.seats):
            break
        await h.tick(table.turn_timeout + 1)
    table = await h.table(GROUP)
    away = [i for i, s in enumerate(table.seats) if s.away]
    assert away, "nobody answered for long, so a seat went to the computer"
    user = (anna, boris)[away[0]]
    await h.say(user.id, user, "/back")
    table = await h.table(GROUP)
    assert not table.seats[away[0]].away
    assert table.state is not None and not table.state.players[away[0]].computer


async def test_sends_wait_out_flood_control_and_keep_their_order(store: Store) -> None:
    h = Harness(store)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    h.app.policy.sleep = sleep
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.say(user.id, user, "/start")
    h.tg.flood[GROUP] = 2
    await h.say(GROUP, anna, "/newgame")
    await h.say(GROUP, anna, "/table")
    assert slept == [1, 1]
    sent = [r.text for r in h.tg.sent(GROUP)]
    # the same lobby message was tried three times, then the /table repost came after it
    assert sent[0] == sent[1] == sent[2]
    assert len(sent) == 4
