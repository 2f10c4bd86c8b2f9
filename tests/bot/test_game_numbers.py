"""A chat's game numbers never repeat, whatever expires (issue 17, item 1):
through the real dispatcher on both stores, a game whose record has expired
stays in /history, /replay and the ratings beside the next one."""

from __future__ import annotations

import re
from typing import Any, cast

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from bot.words.keyboards import LobbyCb
from tests.bot.harness import FakeClock, Harness, people
from tests.bot.helpers.expiry import let_expire, on_clock
from tests.bot.helpers.finishing import finish_quickly

GROUP = -100424242


async def test_a_game_after_an_expired_record_takes_a_new_number_and_both_are_kept(
    store: Store,
) -> None:
    clock = FakeClock()
    h = Harness(on_clock(store, clock), clock=clock)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    first = await finish_quickly(h, GROUP, anna, [boris, vera])
    await let_expire(h, GROUP)

    second = await finish_quickly(h, GROUP, anna, [boris, vera])
    assert second.game_no == first.game_no + 1
    games = await h.store.history(GROUP)
    assert [g.game_no for g in games] == [second.game_no, first.game_no]

    # /history names both, by their /replay numbers
    await h.say(GROUP, anna, "/history")
    numbers = [int(n) for n in re.findall(r"№ (\d+)", h.tg.sent(GROUP)[-1].text)]
    assert numbers == [g.number for g in games] and len(set(numbers)) == 2
    # /replay sends each one's own file
    for number in numbers:
        before = len(h.tg.files)
        await h.say(anna.id, anna, f"/replay {number}")
        assert len(h.tg.files) == before + 1
    assert h.tg.files[-1][2] != h.tg.files[-2][2]
    # both games are rated: two games each, here and everywhere
    keys = [f"u{u.id}" for u in (anna, boris, vera)]
    assert await h.store.rating_head() is None
    for scope in (GROUP, None):
        figures = await h.store.stats(scope, keys)
        assert {k: figures[k].games for k in keys} == dict.fromkeys(keys, 2)


async def test_a_chat_from_before_the_counter_continues_past_its_highest_game(
    store: Store,
) -> None:
    """Data written before the counter (issue 17): the history holds games 1–3,
    there is no counter, and the chat's record has expired (the bot used to
    number the next game 1 again). The counter starts past the highest game
    the history holds, on first use."""
    clock = FakeClock()
    h = Harness(on_clock(store, clock), clock=clock)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    for _ in range(3):
        await finish_quickly(h, GROUP, anna, [boris, vera])
    assert [g.game_no for g in await h.store.history(GROUP)] == [3, 2, 1]
    await forget_counter(h.store, GROUP)  # as the bot before the counter left it
    await let_expire(h, GROUP)
    # before the counter, the next lobby would have been game 1 again
    assert await h.store.last_game_no(GROUP) == 3

    fourth = await finish_quickly(h, GROUP, anna, [boris, vera])
    assert fourth.game_no == 4
    assert [g.game_no for g in await h.store.history(GROUP)] == [4, 3, 2, 1]
    assert await h.store.last_game_no(GROUP) == 4
    assert (await h.store.stats(GROUP, [f"u{anna.id}"]))[f"u{anna.id}"].games == 4


async def forget_counter(store: Store, chat_id: int) -> None:
    """The chat's home as it was before game numbers were counted: no counter."""
    if isinstance(store, MemoryStore):
        del store._history[chat_id]["last"]
    else:
        redis_store = cast(RedisStore, store)
        client: Any = redis_store._r
        assert await client.hdel(redis_store._history_key(chat_id), "last") == 1


async def test_a_lobby_that_expires_unstarted_keeps_its_number_from_the_next_lobby(
    store: Store,
) -> None:
    """A lobby nobody starts goes after `LOBBY_TTL` and was never a game of the
    history, yet its number was given: the next lobby takes a new one, so the
    old lobby's buttons and its deep link (shown in the chat, sent on) act on
    nothing — not on the new lobby."""
    clock = FakeClock()
    h = Harness(on_clock(store, clock), clock=clock)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.say(vera.id, vera, "/start")
    old_lobby, old_game = await h.open_lobby(GROUP, anna, [boris])
    await let_expire(h, GROUP, h.store.lobby_ttl)

    await h.say(GROUP, anna, "/newgame")
    table = await h.table(GROUP)
    assert table.status == "lobby" and table.game_no == old_game + 1
    seated = [s.user_id for s in table.seats]
    # the old lobby's join button and deep link: Вера sits nowhere
    await h.press(vera, GROUP, old_lobby, LobbyCb(action="join", game=old_game).pack())
    await h.say(vera.id, vera, f"/start join_{GROUP}_{old_game}")
    after = await h.table(GROUP)
    assert [s.user_id for s in after.seats] == seated and vera.id not in seated
    assert after.version == table.version
    # and the new lobby's own button seats her
    lobby = (await h.store.messages(GROUP))["lobby"]
    await h.press(vera, GROUP, lobby, LobbyCb(action="join", game=table.game_no).pack())
    assert vera.id in [s.user_id for s in (await h.table(GROUP)).seats]
