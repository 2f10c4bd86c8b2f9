"""«💡 Подсказка» (issues 20, 24), through the dispatcher, in ru and en.

- Every practice game offers it on every prompt; a group offers it when its
  /settings allow it, and while the settings have no author any member of the
  group may turn it on; a hint used in a rated game is counted once a decision
  and shown in the result.
- The hint is the strong level's move (the normal level's when strong runs out
  of time, and it says so), said with only the buttons the player would press,
  and a reason with true numbers in the reader's language; it never names a
  card the seat cannot see.
- Only the asker's own pending decision gets a hint: pressed on another seat's
  decision, or on an old one, it gives nothing and changes nothing.
"""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.service.thinking import Thinker, at_once
from bot.store import Store
from bot.store.models import Table
from bot.words.keyboards import HintCb, LangCb, LobbyCb, SettingsCb, StopCb
from bot.words.prompts import choice_depths
from engine import Decision, GameSetup, GameState, new_game, pending
from engine.ai import decide
from engine.ai.easy import choose
from engine.ai.hint import Hint, hint
from tests.bot.fake_telegram import person, text_of
from tests.bot.harness import MARK, Harness, people, public_zones

GROUP = -100_777


#: a whole game played once in each store and once in each language: the
#: stores keep the same record whatever its language, so their cross would
#: play each game twice more for nothing new
STORE_LANG = [("memory", "ru"), ("redis", "en")]


def _hint_data(h: Harness, user: User, message_id: int) -> str | None:
    found = [d for _, d in h.buttons(user.id, message_id) if d.startswith("hn:")]
    return found[0] if found else None


async def _prompt_id(h: Harness, chat_id: int, seat: int) -> int:
    return (await h.store.messages(chat_id))[f"prompt:{seat}"]


def _said(h: Harness, lang: str, table: Table, state: GameState, d: Decision, advice: Hint) -> str:
    """The alert the bot gives for `advice`."""
    key = "hint-strong" if advice.level == "strong" else "hint-normal"
    return h.tr.t(
        lang,
        key,
        choice=h.app.games.prompts.asked(lang, table, state, d, advice.option),
        reason=h.tr.t(lang, f"hint-reason-{advice.reason.replace('_', '-')}", **advice.params),
    )


async def _ask_hint(h: Harness, user: User, chat_id: int, lang: str) -> Hint:
    """Press the hint of `user`'s prompt, and check what it says against the engine."""
    table = await h.table(chat_id)
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None
    seat = table.seat_of(user.id)
    assert decision.seat == seat and seat is not None
    message = await _prompt_id(h, chat_id, seat)
    data = _hint_data(h, user, message)
    assert data is not None, "the prompt offers no hint"
    assert HintCb.unpack(data).decision == decision.id
    before = len(h.tg.answers())
    await h.press(user, user.id, message, data)
    answers = h.tg.answers()[before:]
    assert len(answers) == 1 and answers[0].show_alert
    text = answers[0].text or ""
    assert len(text) <= 200  # what Telegram shows of an alert
    # strong's move when it finished in time, else normal's — and the text says which
    strong = hint(state, decision)
    assert strong.option == decide(state, decision, "strong")
    normal = hint(state, decision, at_once)
    assert normal.option == decide(state, decision, "normal") and normal.level == "normal"
    said = {_said(h, lang, table, state, decision, a): a for a in (strong, normal)}
    assert text in said, text
    # a hint names only cards the seat may see: its hand, the table, the cards its
    # own prompt shows (a hand it looked at)
    visible = set(state.players[seat].hand) | public_zones(state)
    visible |= {part for option in decision.options for part in option}
    assert set(MARK.findall(text)) <= visible, text
    return said[text]


async def _play_to_first_prompt(h: Harness, user: User, chat_id: int) -> Decision:
    """Computers move until `user` is asked."""
    for _ in range(50):
        table = await h.table(chat_id)
        decision = pending(table.state)  # type: ignore[arg-type]
        assert decision is not None
        if table.seats[decision.seat].user_id == user.id:
            return decision
        await h.tick(5)
    raise AssertionError("never asked")


@pytest.mark.parametrize(("store", "lang"), STORE_LANG, indirect=["store"])
async def test_every_practice_game_offers_hints_that_name_nothing_hidden(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    await h.press(anna, anna.id, 1, LangCb(lang=lang).pack())
    # not her first practice: every practice game offers hints
    prefs = await store.user(anna.id)
    prefs.practices = 12
    await store.save_user(prefs)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert table.hints
    lobby = (await h.store.messages(anna.id))["lobby"]
    for action in ("bot_normal", "bot_easy"):
        await h.press(anna, anna.id, lobby, LobbyCb(action=action, game=table.game_no).pack())
    h.app.games.seeds.seed(11)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=table.game_no).pack())
    hinted = 0
    for step in range(400):
        table = await h.table(anna.id)
        if table.status != "playing" or hinted >= 12:
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            assert await h.tick(5) >= 1
            continue
        await _ask_hint(h, anna, anna.id, lang)
        hinted += 1
        await h.answer(anna, anna.id, choose(table.state.seed + step, decision))
    assert hinted >= 12
    # a practice game is not rated: its hints are not counted
    assert all(s.hints == 0 for s in (await h.table(anna.id)).seats)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_hint_says_only_the_steps_asked_and_the_cards_own_points(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(301, "Анна", lang), person(302, "Борис", lang)
    table = await h.open_game(GROUP, anna, [boris], lang=lang)
    table.hints = True  # this game offers hints
    assert await store.save(table)
    # the game's last turn: Анна lays what scores; each card has one place to go,
    # so the only steps she is asked are «lay» and which card
    position = {
        "players": [
            {
                "hand": ["lord.orange", "knight.orange"],
                "houses": [{"colour": "orange", "cards": ["page.orange"]}],
            },
            {"houses": [{"colour": "green", "cards": ["page.green"]}]},
        ],
        "final_turns": 0,
    }
    await h.set_position(GROUP, position, anna)
    advice = await _ask_hint(h, anna, GROUP, lang)
    table = await h.table(GROUP)
    state = table.state
    assert state is not None
    decision = pending(state)
    assert decision is not None and advice.option[0] == "lay"
    text = h.tg.answers()[-1].text or ""
    prompts = h.app.games.prompts
    card = prompts.label(lang, table, state, decision, advice.option, 1)
    verb = prompts.label(lang, table, state, decision, advice.option, 0)
    assert f"{verb} → {card}" in text
    assert choice_depths(decision, advice.option) == [0, 1]
    for unasked in (2, 3, 4):  # her own row, the house's colour, «here»
        assert prompts.label(lang, table, state, decision, advice.option, unasked) not in text
    # the reason is the laid card's own points, not a margin nor a «later»
    points = 3 if "Лорд" in card or "Lord" in card else 2
    assert advice.reason == "lay" and advice.params == {"points": points}
    assert h.tr.t(lang, "hint-reason-lay", points=points) in text


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_hint_on_another_seats_decision_gives_nothing_and_changes_nothing(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(311, "Анна", lang), person(312, "Борис", lang)
    carl = person(313, "Карл", lang)  # not at the table
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="hints").pack())
    table = await h.open_game(GROUP, anna, [boris], seed=4, lang=lang)
    assert table.hints
    # play on until each has been asked once: Анна keeps her hint button
    old: str | None = None
    message = 0
    for step in range(200):
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user = anna if table.seats[decision.seat].user_id == anna.id else boris
        if user is anna and old is None:
            message = await _prompt_id(h, GROUP, decision.seat)
            old = _hint_data(h, anna, message)
        elif user is boris and old is not None:
            break
        await h.answer(user, GROUP, choose(table.state.seed + step, decision))
    assert old is not None
    table = await h.table(GROUP)
    decision = pending(table.state)  # type: ignore[arg-type]
    assert decision is not None and table.seats[decision.seat].user_id == boris.id
    before = table.model_dump_json()
    forged = HintCb(chat=GROUP, game=table.game_no, decision=decision.id).pack()
    refusals = []
    for who, data in ((anna, forged), (anna, old), (carl, forged)):
        since = len(h.tg.answers())
        await h.press(who, who.id, message, data)
        answers = h.tg.answers()[since:]
        assert len(answers) == 1
        refusals.append(answers[0].text or "")
    assert refusals[0] == h.tr.t(lang, "err-not-your-turn")  # Борис's decision, not hers
    assert refusals[1] == h.tr.t(lang, "err-old-button")  # her own, answered: gone
    assert not any("💡" in r for r in refusals)
    assert (await h.table(GROUP)).model_dump_json() == before  # no hint counted, nothing moved


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_any_member_may_turn_hints_on_while_the_settings_have_no_author(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    vera = person(321, "Вера", lang)  # a member of the group who never played here
    olga = person(322, "Ольга", lang)  # not in the group
    h.tg.outsiders.add((GROUP, olga.id))
    await h.say(GROUP, vera, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    refusal = h.tr.t(lang, "err-settings-not-yours")

    async def press(user: User, what: str) -> str:
        since = len(h.tg.answers())
        await h.press(user, GROUP, settings, SettingsCb(what=what).pack())
        return h.tg.answers()[since].text or ""

    assert await press(olga, "hints") == refusal
    assert await store.profile(GROUP) is None
    assert await press(vera, "hints") == h.tr.t("ru", "settings-saved")  # the chat's language
    profile = await store.profile(GROUP)
    assert profile is not None and profile.hints and profile.owner_id is None
    # it claims nothing: no other setting, and not turning them off again
    assert await press(vera, "hints") == refusal
    assert await press(vera, "hand_limit") == refusal
    assert await store.profile(GROUP) == profile
    # the settings' text says so, and the next game offers hints
    shown = h.tg.texts[(GROUP, settings)]
    assert h.tr.t("ru", "settings-hints-anyone") in shown
    anna, boris = person(323, "Анна", lang), person(324, "Борис", lang)
    assert (await h.open_game(GROUP, anna, [boris])).hints


async def test_a_forged_hint_where_hints_are_off_is_refused(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    table = await h.open_game(GROUP, anna, [boris], seed=4)
    assert not table.hints  # a group's prompts offer no hint by default
    decision = await h.decision(GROUP)
    assert decision is not None
    person_ = anna if table.seats[decision.seat].user_id == anna.id else boris
    message = await _prompt_id(h, GROUP, decision.seat)
    assert _hint_data(h, person_, message) is None
    forged = HintCb(chat=GROUP, game=table.game_no, decision=decision.id).pack()
    before = len(h.tg.answers())
    await h.press(person_, person_.id, message, forged)
    assert h.tg.answers()[before].text == h.tr.t("ru", "err-bad-button")


@pytest.mark.parametrize(("store", "lang"), STORE_LANG, indirect=["store"])
async def test_a_group_allows_hints_in_its_settings_and_the_result_counts_them(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    # by default a group's prompts offer no hint
    table = await h.open_game(GROUP, anna, [boris], seed=4)
    decision = await h.decision(GROUP)
    assert decision is not None and not table.hints
    person_ = anna if table.seats[decision.seat].user_id == anna.id else boris
    assert _hint_data(h, person_, await _prompt_id(h, GROUP, decision.seat)) is None
    await h.say(GROUP, anna, "/stop")
    stop = StopCb(game=table.game_no, confirm=True).pack()
    await h.press(anna, GROUP, h.last_with_button(GROUP, "st:"), stop)
    assert (await h.table(GROUP)).status != "playing"
    # the chat's settings switch hints on (and the language, for this run)
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="hints").pack())
    if lang == "en":
        await h.press(anna, GROUP, settings, SettingsCb(what="lang").pack())
    table = await h.open_game(GROUP, anna, [boris], seed=4)
    assert table.hints
    counted: dict[int, set[int]] = {anna.id: set(), boris.id: set()}
    for step in range(3000):
        table = await h.table(GROUP)
        if table.status != "playing":
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        user = anna if table.seats[decision.seat].user_id == anna.id else boris
        if user is anna and len(counted[anna.id]) < 2:
            await _ask_hint(h, user, GROUP, table.seats[decision.seat].lang)
            await _ask_hint(h, user, GROUP, table.seats[decision.seat].lang)  # counted once
            counted[anna.id].add(decision.id)
        await h.answer(user, GROUP, choose(table.state.seed + step, decision))
    table = await h.table(GROUP)
    assert table.status == "finished"
    seat = table.seat_of(anna.id)
    assert seat is not None and table.seats[seat].hints == 2
    assert table.seats[1 - seat].hints == 0
    # the result: a picture, its text the caption
    result = next(t for t in map(text_of, reversed(h.tg.posted(GROUP))) if "🏁" in t)
    count = h.tr.t(lang, "result-hints", player="§", n=2).split("§", 1)[1]
    last = result.splitlines()[-1]  # below the winners: who used hints
    assert count in last and "Анна" in last and "Борис" not in last


async def test_a_hint_thought_in_the_worker_pool_is_the_one_thought_in_place() -> None:
    state, _ = new_game(GameSetup(players=3, seed=21))
    decision = pending(state)
    assert decision is not None
    # time enough (a worker's first start counts against the hint's time): strong's move
    thinker = Thinker(workers=1, hint_seconds=120)
    try:
        assert await thinker.hint(state, decision) == hint(state, decision)
    finally:
        thinker.close()
    # no time at all: the normal level's move, and the hint says it is normal's
    thinker = Thinker(workers=1, hint_seconds=0)
    try:
        assert await thinker.hint(state, decision) == hint(state, decision, at_once)
    finally:
        thinker.close()
