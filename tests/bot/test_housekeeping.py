"""Housekeeping: abandoned lobbies, finished games and running games nobody
touches expire; each save of a running game starts its time again."""

from __future__ import annotations

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Seat, Table
from bot.store.redis import RedisStore
from engine import Command, GameSetup, new_game

CHAT = -100404


def table(status: str) -> Table:
    state, _ = new_game(GameSetup(players=2, seed=3))
    return Table(
        chat_id=CHAT,
        game_no=1,
        creator_id=1,
        status=status,  # type: ignore[arg-type]
        seats=[Seat(user_id=1, name="А"), Seat(user_id=2, name="Б")],
        setup=GameSetup(players=2, seed=3),
        state=state if status != "lobby" else None,
    )


async def ttls(store: Store) -> list[int]:
    """Seconds left on the game's keys (Redis), or on the record (memory)."""
    if isinstance(store, RedisStore):
        r = store._r
        keys = [store._table_key(CHAT), store._log_key(CHAT), store._msgs_key(CHAT)]
        return [t for k in keys if (t := int(await r.ttl(k))) != -2]  # -2: no such key
    assert isinstance(store, MemoryStore)
    until = store._expires.get(CHAT)
    return [] if until is None else [round(until - store._clock())]


async def test_a_lobby_expires_after_the_lobby_time_and_a_running_game_after_its_own(
    store: Store,
) -> None:
    store.lobby_ttl = 3600
    store.playing_ttl = 5 * 3600
    t = table("lobby")
    assert await store.save(t)
    await store.set_messages(CHAT, {"lobby": 7})  # the ids live as long as the record
    left = await ttls(store)
    assert left and all(3500 < s <= 3600 for s in left), left
    t.status = "playing"
    t.state, _ = new_game(GameSetup(players=2, seed=3))
    assert await store.save(t, [Command(seat=0, decision=1, option=("draw",))])
    left = await ttls(store)
    # every key still there, each with the running game's time to live
    assert len(left) == (3 if isinstance(store, RedisStore) else 1), left
    assert all(5 * 3600 - 100 < s <= 5 * 3600 for s in left), left
    assert await store.load(CHAT) is not None


async def test_a_finished_game_keeps_its_record_and_log_until_its_time(store: Store) -> None:
    store.finished_ttl = 7200
    t = table("playing")
    assert await store.save(t, [Command(seat=0, decision=1, option=("draw",))])
    t.status = "finished"
    assert await store.save(t)
    assert (await store.load(CHAT)) is not None
    assert len(await store.log(CHAT)) == 1
    left = await ttls(store)
    assert left and all(7100 < s <= 7200 for s in left), left


async def test_the_embedded_store_forgets_an_expired_lobby() -> None:
    now = [1000.0]
    store = MemoryStore(clock=lambda: now[0])
    store.lobby_ttl = 60
    assert await store.save(table("lobby"))
    now[0] += 59
    assert await store.load(CHAT) is not None
    now[0] += 2
    assert await store.load(CHAT) is None
    # a new lobby may be opened in its place
    assert await store.save(table("lobby"))
