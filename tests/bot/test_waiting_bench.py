"""`benchmarks.waiting` measures games at own pace as the bot keeps them: a
copy of a game it played is a game the store loads, whose timer is in the
deadlines index and whose people are linked to it."""

from __future__ import annotations

from benchmarks.waiting import FIRST_CHAT, FIRST_USER, LATER_AT, T0, copy_of, play_one, save_copy
from bot.store.redis import RedisStore
from tests.bot.harness import FakeClock, Harness


async def test_a_copied_waiting_game_is_one_the_store_keeps_and_times(
    redis_store: RedisStore,
) -> None:
    h = Harness(redis_store, clock=FakeClock(T0))
    played = await play_one(h, FIRST_CHAT - 10**9, seed=5, first_user=FIRST_USER, left=0.9)
    source = played.table
    assert source.status == "playing" and source.turn_timeout >= 3600
    assert source.deadline is not None and played.log
    chat, first_user, deadline = FIRST_CHAT, FIRST_USER + 100, LATER_AT + 1000.0
    await save_copy(redis_store, copy_of(played, chat, first_user, deadline))

    table = await redis_store.load(chat)
    assert table is not None and table.chat_id == chat and table.status == "playing"
    assert table.state == source.state and table.deadline == deadline
    assert table.deadline_decision == source.deadline_decision
    assert [s.user_id for s in table.seats] == list(
        range(first_user, first_user + len(table.seats))
    )
    assert await redis_store.log(chat) == played.log
    assert await redis_store.messages(chat) == played.ids
    for seat in table.seats:
        assert seat.user_id is not None
        assert chat in await redis_store.user_tables(seat.user_id)
    # its timer (the reminder, before the deadline) is in the index, due then and not before
    timer = table.next_timer()
    assert timer is not None and timer <= deadline
    assert await redis_store.due(timer - 1) == []
    assert chat in await redis_store.due(deadline)
    r = redis_store._r
    assert await r.ttl(redis_store._table_key(chat)) > 0
    assert await r.ttl(redis_store._log_key(chat)) > 0
