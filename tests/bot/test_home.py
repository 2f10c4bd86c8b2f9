"""A chat's home, through the real dispatcher on both stores: settings that
last, ratings written exactly once, history and replays, /notify, /forgetme,
migration."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

from aiogram.methods import SendMessage
from openskill.models import PlackettLuce

from bot.service.notify import CALL_INTERVAL
from bot.store import HISTORY_KEEP, Store
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.words.keyboards import ForgetCb, SettingsCb
from engine import pending
from engine.scenario import build
from tests.bot.fake_telegram import Hold, person
from tests.bot.harness import MARK, Harness, Witness, answer_data, people
from tests.bot.helpers.finishing import (
    LAST_ACTION,
    _finish,
    _finish_game,
    _finished_table,
    finish_quickly,
    play_to_the_end,
)

GROUP = -100777
NEW_GROUP = -1009990001


# ====================================================================== settings
async def test_settings_feed_new_lobbies_and_outlive_the_game_record(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    carl = person(300, "Карл")
    h.tg.admins.add((GROUP, anna.id))  # nobody has played here yet: an admin sets the chat up
    await h.say(GROUP, anna, "/settings")
    message = h.last_with_button(GROUP, "cf:")
    for what in ("lang", "level", "level", "hand_limit", "hand_limit", "actions_per_turn"):
        await h.press(anna, GROUP, message, SettingsCb(what=what).pack())
    profile = await store.profile(GROUP)
    assert profile is not None and profile.owner_id == anna.id
    assert profile.lang == "en" and profile.level == "easy"
    assert profile.variants == {"hand_limit": 8, "actions_per_turn": 2}
    # someone else (no admin) may not change them: an alert, nothing changes
    before = len(h.tg.answers())
    await h.press(carl, GROUP, message, SettingsCb(what="lang").pack())
    assert h.tg.answers()[before].show_alert
    assert await store.profile(GROUP) == profile
    # a forged setting is refused too
    await h.press(anna, GROUP, message, SettingsCb(what="step_cap").pack())
    assert await store.profile(GROUP) == profile

    # the game record expires, the bot restarts: the next lobby starts from them
    await store.delete(GROUP)
    h.restart()
    await h.open_game(GROUP, anna, [boris], computers=1)
    table = await h.table(GROUP)
    assert table.lang == "en" and table.level == "easy"
    assert table.seats[2].level == "easy"  # the lobby's old "bot" button: the chat's level
    assert table.setup is not None and table.state is not None
    assert table.state.rules.hand_limit == 8 and table.state.rules.actions_per_turn == 2
    # a running game keeps its rules when the settings change
    await h.press(anna, GROUP, message, SettingsCb(what="hand_limit").pack())
    running = await h.table(GROUP)
    assert running.state is not None and running.state.rules.hand_limit == 8


# ====================================================================== ratings
async def test_ratings_after_a_scripted_sequence_equal_openskills_own(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    model = PlackettLuce()
    expected = {k: model.rating(name=k) for k in ("a", "b", "v", "c")}
    wins = {"a": 0, "b": 0, "v": 0, "c": 0}

    def play(keys: list[str]) -> None:
        # seat 0 and seat 1 tie at 4 and win, seat 2 has 1 (LAST_ACTION)
        teams = [[expected[k]] for k in keys]
        rated = model.rate(teams, ranks=[1.0, 1.0, 3.0])
        for k, team in zip(keys, rated, strict=True):
            expected[k] = team[0]
        for k in keys[:2]:
            wins[k] += 1

    await finish_quickly(h, GROUP, anna, [boris, vera])
    play(["a", "b", "v"])
    await finish_quickly(h, GROUP, vera, [anna, boris])
    play(["v", "a", "b"])
    await finish_quickly(h, GROUP, boris, [anna], computers=1)  # a computer, normal
    play(["b", "a", "c"])
    # a game of one person and computers does not count
    await finish_quickly(h, GROUP, anna, [], computers=2)

    got = await h.app.games.store.stats(GROUP)
    await h.app.games.ratings.drain()
    got = await store.stats(GROUP)
    keys = {"a": f"u{anna.id}", "b": f"u{boris.id}", "v": f"u{vera.id}", "c": "cnormal"}
    assert set(got) == set(keys.values())
    for k, key in keys.items():
        assert abs(got[key].mu - expected[k].mu) < 1e-9, k
        assert abs(got[key].sigma - expected[k].sigma) < 1e-9, k
        assert got[key].wins == wins[k]
    assert got[keys["a"]].games == 3 and got["cnormal"].games == 1
    overall = await store.stats(None)
    assert {k: (p.mu, p.games) for k, p in overall.items()} == {
        k: (p.mu, p.games) for k, p in got.items()
    }
    # /top shows them, /stats in private too
    await h.say(GROUP, anna, "/top")
    text = h.tg.sent(GROUP)[-1].text
    assert "Анна" in text and "Борис" in text and "±" in text
    await h.say(anna.id, anna, "/stats")
    assert "3" in h.tg.sent(anna.id)[-1].text
    # four games in the history (the uncounted one too), newest first
    history = await store.history(GROUP)
    assert [g.counted for g in history] == [False, True, True, True]


async def test_a_game_finished_by_two_processes_at_once_counts_once(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_game(GROUP, anna, [boris], computers=1)
    table = await h.table(GROUP)
    table.state = build(LAST_ACTION)
    assert await store.save(table)
    decision = pending(table.state)
    assert decision is not None
    discard = next(o for o in decision.options if o[0] == "discard")
    other = Harness(store, tg=h.tg, clock=h.clock)  # a second process on the same store
    data = answer_data(table, decision, discard)
    await asyncio.gather(
        h.press(anna, anna.id, 1, data),
        other.press(anna, anna.id, 1, data),
    )
    await asyncio.gather(h.app.games.ratings.drain(), other.app.games.ratings.drain())
    assert len(await store.history(GROUP)) == 1
    stats = await store.stats(GROUP)
    assert stats[f"u{anna.id}"].games == 1 and stats[f"u{boris.id}"].games == 1
    assert await store.rating_head() is None


async def _load_test(first: Store, second: Store, n: int = 1000) -> None:
    from bot.service.ratings import Ratings
    from bot.words.i18n import Translator

    tr = Translator()
    chats = [-5_000_000 - i for i in range(n)]
    for i, chat in enumerate(chats):
        table = _finished_table(chat, (1 + i % 7, 100 + i % 5))
        assert await first.save(table)
    ratings = (Ratings(first, tr), Ratings(second, tr))

    async def worker(store: Store, rater: Ratings, order: list[int]) -> int:
        wins = 0
        for chat in order:
            wins += await _finish(
                store, (await store.load(chat)) or Table(chat_id=chat, game_no=1, creator_id=0)
            )
            if chat % 50 == 0:
                await rater.drain()
        await rater.drain()
        return wins

    a, b = await asyncio.gather(
        worker(first, ratings[0], chats), worker(second, ratings[1], list(reversed(chats)))
    )
    assert a + b == n  # each game was finished by exactly one of them
    await ratings[0].drain()
    assert await first.rating_head() is None
    overall = await first.stats(None)
    assert overall["cstrong"].games == n
    assert sum(p.games for k, p in overall.items() if k.startswith("u")) == 2 * n
    kept = [len(await first.history(chat)) for chat in chats[:50]]
    assert kept == [1] * 50


async def test_a_thousand_games_from_two_processes_give_a_thousand_results(
    redis_factory: Callable[[], Awaitable[RedisStore]],
) -> None:
    await _load_test(await redis_factory(), await redis_factory())


async def test_a_thousand_games_in_one_process_give_a_thousand_results() -> None:
    store = MemoryStore()
    await _load_test(store, store)


# ====================================================================== history and replay


async def test_history_and_replay_show_what_the_group_saw_and_no_hidden_card(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    seen = Witness()
    with seen.watching():
        await h.open_game(GROUP, anna, [boris], computers=1, seed=11)
        await play_to_the_end(h, GROUP, seen)
    await h.say(GROUP, anna, "/history")
    text = h.tg.sent(GROUP)[-1].text
    match = re.search(r"№ (\d+)", text)
    assert match and "Анна" in text and "Борис" in text
    number = int(match.group(1))
    await h.say(anna.id, anna, f"/replay {number}")
    assert h.tg.files, "no file was sent"
    chat, name, content = h.tg.files[-1]
    assert chat == anna.id and name.endswith(".txt")
    summary = content.decode()
    assert "Анна" in summary and len(summary.splitlines()) > 20
    shown = set(MARK.findall(summary))
    assert shown, "the summary names no card"
    assert shown <= seen.public, f"hidden cards in the replay: {shown - seen.public}"
    # someone who did not play gets no file
    carl = person(300, "Карл")
    before = len(h.tg.files)
    await h.say(carl.id, carl, f"/replay {number}")
    assert len(h.tg.files) == before


async def test_a_chats_history_keeps_its_last_games_and_forgets_the_older(store: Store) -> None:
    """Game HISTORY_KEEP + 1 pushes the chat's first game out of its history:
    /history and /replay no longer know it (its number is unknown), the
    games after it stay, with their logs."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await _finish_game(store, GROUP, 1, (anna.id, boris.id))
    first = (await store.history(GROUP))[0].number
    for game_no in range(2, HISTORY_KEEP + 1):
        await _finish_game(store, GROUP, game_no, (anna.id, boris.id))
    assert len(await store.history(GROUP, limit=HISTORY_KEEP + 10)) == HISTORY_KEEP
    assert await store.game_by_number(first) is not None

    await _finish_game(store, GROUP, HISTORY_KEEP + 1, (anna.id, boris.id))
    kept = await store.history(GROUP, limit=HISTORY_KEEP + 10)
    assert len(kept) == HISTORY_KEEP
    assert [r.game_no for r in kept] == list(range(HISTORY_KEEP + 1, 1, -1))
    assert await store.game_at(GROUP, 1) is None
    assert await store.game_by_number(first) is None

    await h.say(anna.id, anna, f"/replay {first}")
    assert h.tg.sent(anna.id)[-1].text == h.tr.t("ru", "replay-unknown")
    assert not h.tg.files
    second = kept[-1].number  # the oldest game kept: its replay is still there
    await h.say(anna.id, anna, f"/replay {second}")
    assert h.tg.files and h.tg.files[-1][0] == anna.id
    # one more: a number once given is never given again
    await _finish_game(store, GROUP, HISTORY_KEEP + 2, (anna.id, boris.id))
    numbers = [r.number for r in await store.history(GROUP, limit=HISTORY_KEEP + 10)]
    assert len(set(numbers)) == HISTORY_KEEP and first not in numbers
    got = await store.game_by_number(numbers[0])
    assert got is not None and got[0].game_no == HISTORY_KEEP + 2


# ====================================================================== /notify
async def test_notify_calls_each_subscriber_once_per_lobby_and_respects_403(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris, vera, gleb = people("Анна", "Борис", "Вера", "Глеб")
    for user in (anna, boris, vera):
        await h.say(user.id, user, "/start")
    await h.say(GROUP, boris, "/notify")
    await h.say(GROUP, vera, "/notify")
    await h.say(GROUP, gleb, "/notify")  # never started the bot: asked to
    asked = h.tg.sent(GROUP)[-1]
    assert isinstance(asked, SendMessage) and asked.reply_markup is not None
    h.tg.blocked.add(vera.id)  # Вера blocked the bot since

    def calls(user_id: int) -> int:
        return sum(1 for r in h.tg.sent(user_id) if "🔔" in r.text)

    since = len(h.tg.sent(GROUP))
    await h.say(GROUP, anna, "/newgame")
    assert calls(boris.id) == 1
    table = await h.table(GROUP)
    assert table.called == 1
    lobby = h.tg.texts[(GROUP, (await store.messages(GROUP))["lobby"])]
    assert "1" in lobby and "🔔" in lobby
    told = [r.text for r in h.tg.sent(GROUP)[since:] if "Вера" in r.text]
    assert len(told) == 1, "Вера is asked once in the group"

    # the next lobby: one more call each, Вера not asked again
    await h.say(GROUP, anna, "/stop")
    lobby_id = (await store.messages(GROUP))["lobby"]
    from bot.words.keyboards import LobbyCb

    await h.press(anna, GROUP, lobby_id, LobbyCb(action="cancel", game=table.game_no).pack())
    h.clock.advance(CALL_INTERVAL)  # calls go at most once a while (test_abuse)
    since = len(h.tg.sent(GROUP))
    await h.say(GROUP, anna, "/newgame")
    assert calls(boris.id) == 2
    assert not [r for r in h.tg.sent(GROUP)[since:] if "Вера" in r.text]
    # /notify off: no more calls
    await h.say(GROUP, boris, "/notify off")
    table = await h.table(GROUP)
    await h.press(
        anna,
        GROUP,
        (await store.messages(GROUP))["lobby"],
        LobbyCb(action="cancel", game=table.game_no).pack(),
    )
    h.clock.advance(CALL_INTERVAL)
    await h.say(GROUP, anna, "/newgame")
    assert calls(boris.id) == 2


async def test_newgame_is_answered_while_the_calls_are_still_on_their_way(
    store: Store,
) -> None:
    """A slow private chat does not hold up the lobby: the person who typed
    /newgame sees it while Борис's call still waits at Telegram's door; once
    it goes, Борис has exactly one call and the lobby counts him."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.say(user.id, user, "/start")
    await h.say(GROUP, boris, "/notify")
    door = h.tg.holds[boris.id] = Hold()
    newgame = asyncio.create_task(h.say(GROUP, anna, "/newgame", settle=False))
    await door.reached.wait()  # the call to Борис is on its way
    if door.tasks[0] is newgame:  # sent on /newgame's own path: let it go, and fail
        door.release.set()
        await newgame
        raise AssertionError("/newgame waited for the call to Борис")
    await newgame
    await h.app.telling.outboxes.idle()
    lobby_id = (await store.messages(GROUP))["lobby"]
    assert (GROUP, lobby_id) in h.tg.texts, "the lobby is shown"
    assert not [r for r in h.tg.sent(boris.id) if "🔔" in r.text]

    door.release.set()
    await h.settle()
    assert len([r for r in h.tg.sent(boris.id) if "🔔" in r.text]) == 1
    assert (await h.table(GROUP)).called == 1
    lobby = h.tg.texts[(GROUP, lobby_id)]
    assert h.tr.t("ru", "notify-called", n=1) in lobby


# ====================================================================== /forgetme and migration
async def test_forgetme_and_migration_carry_or_drop_everything(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    h.tg.admins.add((GROUP, anna.id))
    await h.say(GROUP, anna, "/settings")
    await h.press(
        anna, GROUP, h.last_with_button(GROUP, "cf:"), SettingsCb(what="hand_limit").pack()
    )
    await finish_quickly(h, GROUP, anna, [boris, vera])
    await h.app.games.ratings.drain()
    await h.say(GROUP, vera, "/notify")

    # the group becomes a supergroup
    await h.feed(h.updates.message(GROUP, anna, "", migrate_to_chat_id=NEW_GROUP))
    assert await store.profile(GROUP) is None
    profile = await store.profile(NEW_GROUP)
    assert profile is not None and profile.variants == {"hand_limit": 6}
    assert len(await store.history(NEW_GROUP)) == 1 and not await store.history(GROUP)
    assert f"u{anna.id}" in await store.stats(NEW_GROUP)
    assert await store.stat_chats(anna.id) == {NEW_GROUP}
    assert vera.id in await store.subscribers(NEW_GROUP)
    number = (await store.history(NEW_GROUP))[0].number
    got = await store.game_by_number(number)
    assert got is not None and got[0].chat_id == NEW_GROUP

    # /forgetme: Вера's figures and subscriptions go, her seat is «игрок»
    await h.say(vera.id, vera, "/forgetme")
    question = h.last_with_button(vera.id, "fg:")
    await h.press(vera, vera.id, question, ForgetCb(confirm=True).pack())
    assert f"u{vera.id}" not in await store.stats(NEW_GROUP)
    assert f"u{vera.id}" not in await store.stats(None)
    assert vera.id not in await store.subscribers(NEW_GROUP)
    record = (await store.history(NEW_GROUP))[0]
    assert all(s.user_id != vera.id for s in record.seats)
    await h.say(NEW_GROUP, anna, "/history")
    text = h.tg.sent(NEW_GROUP)[-1].text
    assert "Вера" not in text and "игрок" in text
