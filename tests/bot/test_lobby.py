"""The lobby and the group's commands: who may do what, and what everyone sees."""

from __future__ import annotations

import logging

import pytest
from aiogram.methods import AnswerCallbackQuery, SetMyCommands

from bot.app import GROUP_COMMANDS, PRIVATE_COMMANDS, register_commands
from bot.store import Store
from bot.words.keyboards import LobbyCb, StopCb
from tests.bot.harness import Harness, group_texts, people

GROUP = -100555


def last_answer(h: Harness) -> AnswerCallbackQuery:
    answers = h.tg.answers()
    assert answers, "the button got no answer"
    return answers[-1]


async def lobby(h: Harness) -> tuple[int, int]:
    table = await h.table(GROUP)
    return h.last_with_button(GROUP, "lb:"), table.game_no


async def test_someone_who_never_started_the_bot_joins_through_a_deep_link(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/newgame")
    message, game = await lobby(h)
    await h.press(boris, GROUP, message, LobbyCb(action="join", game=game).pack())
    answer = last_answer(h)
    assert answer.url == f"https://t.me/smuta_test_bot?start=join_{GROUP}_{game}"
    assert [s.name for s in (await h.table(GROUP)).seats] == ["Анна"]
    # the deep link opens the private chat with /start join_…, which completes the join
    await h.say(boris.id, boris, f"/start join_{GROUP}_{game}")
    assert [s.name for s in (await h.table(GROUP)).seats] == ["Анна", "Борис"]
    assert "Борис" in h.tg.texts[(GROUP, message)], "the lobby message lists the new seat"


async def test_only_the_creator_or_an_admin_starts_adds_computers_or_cancels(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    message, game = await h.open_lobby(GROUP, anna, [boris])
    await h.say(vera.id, vera, "/start")
    for action in ("go", "bot", "cancel", "time", "lang"):
        version = (await h.table(GROUP)).version
        await h.press(boris, GROUP, message, LobbyCb(action=action, game=game).pack())
        assert last_answer(h).show_alert
        assert (await h.table(GROUP)).version == version, f"{action} by a guest changed the lobby"
    # a chat admin may
    h.tg.admins.add((GROUP, vera.id))
    await h.press(vera, GROUP, message, LobbyCb(action="bot", game=game).pack())
    assert [s.user_id for s in (await h.table(GROUP)).seats] == [anna.id, boris.id, None]
    await h.press(vera, GROUP, message, LobbyCb(action="go", game=game).pack())
    assert (await h.table(GROUP)).status == "playing"


async def test_one_game_per_chat_and_a_lobby_needs_two_seats(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/newgame")
    sends = len(h.tg.sent(GROUP))
    await h.say(GROUP, boris, "/newgame")
    assert len(h.tg.sent(GROUP)) == sends + 1, "one short reply"
    assert (await h.table(GROUP)).creator_id == anna.id
    message, game = await lobby(h)
    await h.press(anna, GROUP, message, LobbyCb(action="go", game=game).pack())
    assert last_answer(h).show_alert
    assert (await h.table(GROUP)).status == "lobby"


async def test_the_timeouts_and_the_language_are_set_in_the_lobby(store: Store) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    message, game = await h.open_lobby(GROUP, anna, [])
    before = await h.table(GROUP)
    await h.press(anna, GROUP, message, LobbyCb(action="time", game=game).pack())
    await h.press(anna, GROUP, message, LobbyCb(action="lang", game=game).pack())
    after = await h.table(GROUP)
    assert (before.turn_timeout, before.choice_timeout) == (90, 60)
    assert (after.turn_timeout, after.choice_timeout) == (120, 90)  # the next step up
    assert (before.lang, after.lang) == ("ru", "en")


async def test_an_old_lobby_button_is_refused(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    message, game = await h.open_lobby(GROUP, anna, [])
    await h.say(boris.id, boris, "/start")
    await h.press(anna, GROUP, message, LobbyCb(action="cancel", game=game).pack())
    assert (await h.table(GROUP)).status == "finished"
    await h.say(GROUP, anna, "/newgame")
    version = (await h.table(GROUP)).version
    await h.press(boris, GROUP, message, LobbyCb(action="join", game=game).pack())
    assert last_answer(h).show_alert
    table = await h.table(GROUP)
    assert table.version == version and [s.name for s in table.seats] == ["Анна"]


@pytest.mark.parametrize("action", ["levels", "bot_normal", "drop", "time", "hints", "go"])
async def test_a_lobby_button_reads_the_record_once_and_an_old_one_is_refused_as_old(
    store: Store, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    """Each lobby button checks that its lobby is the chat's open one on the
    record its change saves: one read of the record, none of its own before
    — and the button of the lobby before is refused as an old button,
    changing nothing."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    old, old_game = await h.open_lobby(GROUP, anna, [boris])
    await h.press(anna, GROUP, old, LobbyCb(action="cancel", game=old_game).pack())
    message, game = await h.open_lobby(GROUP, anna, [boris])
    await h.press(anna, GROUP, message, LobbyCb(action="bot_easy", game=game).pack())
    reads: list[int] = []
    depth = [0]  # (a store's own call of another read is not one more)
    for name in ("load", "load_with_messages"):
        real = getattr(store, name)

        async def counted(chat_id: int, real=real) -> object:  # type: ignore[no-untyped-def]
            if chat_id == GROUP and not depth[0]:
                reads.append(chat_id)
            depth[0] += 1
            try:
                return await real(chat_id)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(store, name, counted)
    version = (await h.table(GROUP)).version
    await h.press(anna, GROUP, old, LobbyCb(action=action, game=old_game).pack())
    assert last_answer(h).show_alert and last_answer(h).text == h.tr.t("ru", "err-old-button")
    assert (await h.table(GROUP)).version == version
    reads.clear()
    await h.press(anna, GROUP, message, LobbyCb(action=action, game=game).pack(), settle=False)
    assert len(reads) == 1  # the change's own read
    assert not last_answer(h).show_alert, last_answer(h).text
    assert (await h.table(GROUP)).version == version + 1
    await h.settle()


async def test_stop_asks_for_confirmation_and_only_the_creator_may(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    message, game = await h.open_lobby(GROUP, anna, [boris])
    await h.press(anna, GROUP, message, LobbyCb(action="go", game=game).pack())
    await h.say(GROUP, boris, "/stop")
    assert (await h.table(GROUP)).status == "playing"
    await h.say(GROUP, anna, "/stop")
    confirm = h.last_with_button(GROUP, "st:")
    await h.press(boris, GROUP, confirm, StopCb(game=game, confirm=True).pack())
    assert (await h.table(GROUP)).status == "playing"
    await h.press(anna, GROUP, confirm, StopCb(game=game, confirm=True).pack())
    assert (await h.table(GROUP)).status == "finished"


async def test_leaving_a_game_hands_the_seat_to_the_computer_and_the_last_human_ends_it(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris])
    since = len(h.tg.requests)
    await h.leave_game(boris, GROUP)
    table = await h.table(GROUP)
    assert table.seats[1].left and table.state is not None and table.state.players[1].computer
    left = h.tr.t("ru", "log-left", player=h.app.games.render.name("ru", table, 1))
    assert any(left in t for t in group_texts(h.tg, GROUP, since)), "the group is not told"
    await h.leave_game(anna, GROUP)
    assert (await h.table(GROUP)).status == "finished"


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.say(user.id, user, "/start")
    old, new = -4242, -1004242
    await h.say(old, anna, "/newgame")
    table = await h.table(old)
    message = h.last_with_button(old, "lb:")
    await h.press(boris, old, message, LobbyCb(action="join", game=table.game_no).pack())
    await h.press(anna, old, message, LobbyCb(action="go", game=table.game_no).pack())
    await h.feed(h.updates.message(old, anna, "", migrate_to_chat_id=new))
    assert await store.load(old) is None
    moved = await h.table(new)
    assert moved.chat_id == new and moved.status == "playing"
    await h.say(new, anna, "/table")
    assert h.tg.sent(new), "the table is posted in the supergroup"


async def test_a_command_in_the_wrong_place_gets_a_short_answer(store: Store) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/newgame")
    assert await store.load(anna.id) is None
    assert len(h.tg.sent(anna.id)) == 1
    await h.say(GROUP, anna, "/hand")
    assert len(h.tg.sent(GROUP)) == 1
    await h.say(GROUP, anna, "/leave")
    assert len(h.tg.sent(GROUP)) == 2


async def test_commands_are_registered_for_groups_and_private_chats_in_each_language(
    store: Store,
) -> None:
    h = Harness(store)
    await register_commands(h.app.bot, h.tr)
    sets = [r for r in h.tg.requests if isinstance(r, SetMyCommands)]
    scopes = {(type(r.scope).__name__, r.language_code) for r in sets}
    for scope in ("BotCommandScopeAllGroupChats", "BotCommandScopeAllPrivateChats"):
        for lang in (None, "ru", "en"):
            assert (scope, lang) in scopes
    group = next(r for r in sets if type(r.scope).__name__ == "BotCommandScopeAllGroupChats")
    assert [c.command for c in group.commands] == list(GROUP_COMMANDS)
    private = next(r for r in sets if type(r.scope).__name__ == "BotCommandScopeAllPrivateChats")
    assert [c.command for c in private.commands] == list(PRIVATE_COMMANDS)
    assert all(c.description and not c.description.startswith("cmd-") for c in group.commands)


async def test_a_refused_commands_menu_does_not_stop_the_bot(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    h = Harness(store)
    h.tg.server_errors = 100
    with caplog.at_level(logging.WARNING):
        await register_commands(h.app.bot, h.tr)  # logs and goes on
    tried = {
        (type(r.scope).__name__, r.language_code)
        for r in h.tg.requests
        if isinstance(r, SetMyCommands)
    }
    assert len(tried) == 6, "a refusal stopped the other scopes and languages"
    assert sum("could not set the commands menu" in r.getMessage() for r in caplog.records) == 6
    h.tg.server_errors = 0
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/help")
    assert h.tg.sent(anna.id), "the bot no longer answers"


async def test_card_lookup_in_both_languages(store: Store) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/card лазутч")
    await h.say(anna.id, anna, "/card Plague")
    await h.say(anna.id, anna, "/card nothing-like-this")
    texts = [r.text for r in h.tg.sent(anna.id)]
    assert "Лазутчица" in texts[0]
    assert "Чум" in texts[1]
    assert "nothing-like-this" in texts[2]


# ====================================================================== the bot removed
async def test_a_game_ends_when_the_bot_is_removed_from_its_group(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    table = await h.open_game(GROUP, anna, [boris])
    ids = await h.store.messages(GROUP)
    decision = await h.decision(GROUP)
    assert decision is not None
    prompt = ids[f"prompt:{decision.seat}"]
    decider = anna if table.seats[decision.seat].user_id == anna.id else boris
    old_button = h.buttons(decider.id, prompt)[0][1]
    h.tg.blocked.add(GROUP)  # Telegram refuses the group from now on
    since = len(h.tg.requests)

    await h.feed(h.updates.membership(GROUP, anna, "kicked"))

    table = await h.table(GROUP)
    assert table.status == "finished" and table.deadline is None
    assert GROUP not in await h.store.due(h.clock.now() + 10**6), "no timer goes on"
    assert not h.buttons(decider.id, prompt), "the prompt lost its buttons"
    notice = h.tr.t("ru", "stop-removed")
    for user in (anna, boris):
        told = [r.text for r in h.tg.sent(user.id)[-1:]]
        assert told and notice in told[0] and "Тестовая группа" in told[0]
        assert await h.store.user_tables(user.id) == set(), "the seat is given up"
    assert not [r for r in h.tg.requests[since:] if getattr(r, "chat_id", None) == GROUP]
    # an old button now says the game is over; /hand finds nothing to show
    await h.press(decider, decider.id, prompt, old_button)
    assert last_answer(h).text == h.tr.t("ru", "err-old-game")
    await h.say(anna.id, anna, "/hand")
    assert h.tg.sent(anna.id)[-1].text == h.tr.t("ru", "err-no-games")
    # added back later, the group plays again
    h.tg.blocked.discard(GROUP)
    await h.open_game(GROUP, anna, [boris])
    assert (await h.table(GROUP)).game_no == table.game_no + 1


async def test_a_lobby_closes_when_the_bot_leaves_and_a_group_without_a_game_is_no_matter(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_lobby(GROUP, anna, [boris])
    await h.feed(h.updates.membership(GROUP, anna, "left"))
    assert (await h.table(GROUP)).status == "finished"
    for user in (anna, boris):
        assert h.tr.t("ru", "stop-removed") in h.tg.sent(user.id)[-1].text
        assert await h.store.user_tables(user.id) == set()
    # another group, no game there: nothing happens
    before = len(h.tg.requests)
    await h.feed(h.updates.membership(-100999, anna, "kicked"))
    assert len(h.tg.requests) == before
    assert await h.store.load(-100999) is None
