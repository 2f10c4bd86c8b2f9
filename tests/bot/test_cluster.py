"""Redis Cluster is a configuration step (issue 26, item 1): the bot on a real
cluster of three masters (`tests.bot.cluster`, Debian's ``redis-server`` and
``redis-cli``), through the real dispatcher as on one Redis.

A group's game is played to its end — presses, a computer's moves and a
person's timeout fired by the ticker (`due`), the finishing save, its
publishing, the rating — and /history, /replay and the figures say so; a
group that becomes a supergroup plays on under its new id; /forgetme and a
lobby's deletion leave nothing; an update delivered twice is handled once;
another process's feed hears a save of a chat whose keys live on another
node than its subscriber; the games gauge counts every master's games. The
keys are spread over the masters, so a step whose keys lay in two slots
would have been refused (CROSSSLOT). Without the servers the test is
skipped — unless ``CI`` is set, where it fails: CI must run it.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
from redis.asyncio.cluster import RedisCluster

from bot.app import make_store
from bot.config import Settings
from bot.store import StoreFull, UserPrefs
from bot.store.delivery import Delivery
from bot.store.feed import RedisFeed
from bot.store.redis import BoundedCluster, RedisStore
from bot.words.keyboards import SettingsCb
from engine import Decision, pending
from tests.bot.cluster import Cluster, installed, started, stopped
from tests.bot.conftest import _in_ci
from tests.bot.harness import Harness, Witness, people, until
from tests.bot.helpers.finishing import play_to_the_end

GROUP, OLD, NEW = -100_265_001, -4_265_002, -100_265_002


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    if not installed():
        if _in_ci():
            pytest.fail("redis-server or redis-cli is missing and CI is set: CI must run this")
        pytest.skip("redis-server and redis-cli are needed for the Redis Cluster test")
    found = started()
    try:
        yield found
    finally:
        stopped(found)


@pytest.fixture
async def cluster_stores(cluster: Cluster) -> AsyncIterator[Callable[[], Awaitable[RedisStore]]]:
    """Builds stores on the cluster as the bot does (`RedisStore.from_cluster`),
    sharing one fresh key prefix — separate processes; their keys go after."""
    prefix = f"smuta-cluster:{uuid.uuid4().hex[:8]}"
    stores: list[RedisStore] = []

    async def make() -> RedisStore:
        stores.append(RedisStore.from_cluster(cluster.url, prefix, timeout=5.0))
        return stores[-1]

    yield make
    for store in stores:
        await store.close()
    cluster.delete_keys(f"{prefix}:*")


def client_of(store: RedisStore) -> Any:
    client = store._r
    assert isinstance(client, RedisCluster)
    return client


async def test_the_settings_name_a_cluster_by_one_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_TOKEN", "1:A")
    monkeypatch.setenv("REDIS_URL", "redis://node-1:7000/0")
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    # each save waits for its master's replica (a cluster's masters each have one)
    assert settings.redis_cluster and settings.wait_replicas == 1
    store = make_store(settings)  # (no call is made: the client finds the nodes on first use)
    try:
        assert isinstance(store, RedisStore) and not store.one_node
        assert store.wait_replicas == 1
        assert isinstance(client_of(store), BoundedCluster)
    finally:
        await store.close()
    with monkeypatch.context() as m:  # a cluster whose masters have two replicas each
        m.setenv("REDIS_WAIT_REPLICAS", "2")
        assert Settings(_env_file=None).wait_replicas == 2  # type: ignore[call-arg]
    for name, value in (
        ("REDIS_SENTINELS", "s:26379"),
        ("REDIS_URL", "redis://node-1:7000/2"),
    ):
        with monkeypatch.context() as m:
            m.setenv(name, value)
            with pytest.raises(ValueError, match="REDIS_CLUSTER"):
                Settings(_env_file=None)  # type: ignore[call-arg]
    monkeypatch.delenv("REDIS_URL")
    with pytest.raises(ValueError, match="REDIS_URL must name one of its nodes"):
        Settings(_env_file=None)  # type: ignore[call-arg]


async def test_a_group_game_plays_to_its_end_is_published_and_rated_across_the_masters(
    cluster: Cluster, cluster_stores: Callable[[], Awaitable[RedisStore]]
) -> None:
    store = await cluster_stores()
    assert not store.one_node and isinstance(client_of(store), BoundedCluster)
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    seen = Witness()
    with seen.watching():
        await h.open_game(GROUP, anna, [boris], computers=1, seed=11)
        # a person's turn is let time out: the ticker (`due`) plays it for them
        waiting = await until_a_person_decides(h, GROUP)
        for _ in range(4):
            await h.tick(h.defaults.turn_timeout)
            if await h.decision(GROUP) != waiting:
                break
        assert await h.decision(GROUP) != waiting, "the timer never played the timed-out turn"
        # every master forgets its scripts (as a restart, or a promoted replica):
        # each is loaded again where it is missing, the saves and rating go on
        for port in cluster.ports:
            cluster.forget_scripts(port)
        await play_to_the_end(h, GROUP, seen)

    # the result is posted in the group, the game is in /history with its number
    texts = h.tg.sent(GROUP)
    assert any("Анна" in t.text and "Борис" in t.text for t in texts[-3:])
    await h.say(GROUP, anna, "/history")
    match = re.search(r"№ (\d+)", h.tg.sent(GROUP)[-1].text)
    assert match, h.tg.sent(GROUP)[-1].text
    before = len(h.tg.files)
    await h.say(anna.id, anna, f"/replay {match.group(1)}")
    assert len(h.tg.files) == before + 1 and h.tg.files[-1][0] == anna.id
    # rated: each person has played one game, here and everywhere
    await h.app.games.ratings.drain()
    assert await store.rating_head() is None
    keys = [f"u{anna.id}", f"u{boris.id}"]
    for scope in (GROUP, None):
        figures = await store.stats(scope, keys)
        assert {k: figures[k].games for k in keys} == dict.fromkeys(keys, 1)
    assert await store.count_games() == {"finished": 1}
    # the keys lie on more than one master: a step spanning their slots would fail
    spread = cluster.keys_by_node(f"{store.prefix}:*")
    assert sum(1 for n in spread.values() if n) >= 2, spread


async def until_a_person_decides(h: Harness, chat_id: int) -> Decision:
    """The ticker plays the computer's moves until a person is to decide."""
    for _ in range(50):
        table = await h.table(chat_id)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if not table.state.players[decision.seat].computer:
            return decision
        await h.tick(h.defaults.computer_pause)
    raise AssertionError("a person was never asked")


async def test_an_untimed_practice_game_left_adrift_is_caught_up_by_the_sweep(
    cluster_stores: Callable[[], Awaitable[RedisStore]],
) -> None:
    """The sweep's look at untimed practice games works across the masters:
    a record another primary saved last (as after a failover) is fired and
    saved under its own master's, unpressed; one of this master's is left."""
    store = await cluster_stores()
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.start_practice(user, computers=1, seed=2)
        await until_a_person_decides(h, user.id)
    await client_of(store).hset(store._table_key(anna.id), "r", "another-primary")
    before = {u.id: (await h.table(u.id)).version for u in (anna, boris)}
    assert await store.untimed_adrift() == [anna.id]
    h.clock.advance(31)
    await h.app.ticker.sweep(h.clock.now())
    await h.settle()
    caught = await h.table(anna.id)
    assert not caught.adrift and caught.version > before[anna.id] + 1
    assert (await h.table(boris.id)).version == before[boris.id]
    assert await store.untimed_adrift() == []


async def test_a_group_that_becomes_a_supergroup_plays_on_under_its_new_id(
    cluster: Cluster, cluster_stores: Callable[[], Awaitable[RedisStore]]
) -> None:
    store = await cluster_stores()
    client = client_of(store)
    await client.initialize()
    # the old and new ids' keys on two masters: the move crosses nodes
    assert (
        client.get_node_from_key(store._table_key(OLD)).name
        != client.get_node_from_key(store._table_key(NEW)).name
    )
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_game(OLD, anna, [boris], computers=1, seed=3)
    await h.feed(h.updates.message(OLD, anna, "", migrate_to_chat_id=NEW))
    assert await store.load(OLD) is None
    moved = await h.table(NEW)
    assert moved.chat_id == NEW and moved.status == "playing"
    assert NEW in await store.user_tables(anna.id) and OLD not in await store.user_tables(anna.id)
    await play_to_the_end(h, NEW, Witness())
    assert (await h.table(NEW)).status == "finished"
    assert [g.chat_id for g in await store.history(NEW)] == [NEW]


async def test_forgetme_and_a_deleted_lobby_leave_nothing_on_any_master(
    cluster: Cluster, cluster_stores: Callable[[], Awaitable[RedisStore]]
) -> None:
    store = await cluster_stores()
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_lobby(GROUP, anna, [boris])
    await store.save_user(UserPrefs(user_id=boris.id, lang="en", started=True))
    assert (await store.user(boris.id)).lang == "en"
    assert await store.user_tables(boris.id) == {GROUP}

    await store.delete(GROUP)
    assert await store.load(GROUP) is None
    assert await store.user_tables(anna.id) == set() == await store.user_tables(boris.id)
    await store.forget_user(boris.id)
    assert await store.user_chats(boris.id) == set()
    assert (await store.user(boris.id)).lang is None
    left = cluster.keys_by_node(f"{store.prefix}:*{boris.id}*")
    assert sum(left.values()) == 0, left


async def test_an_update_delivered_twice_is_handled_once(
    cluster_stores: Callable[[], Awaitable[RedisStore]],
) -> None:
    store = await cluster_stores()
    h = Harness(store)
    (dana,) = people("Дана")
    h.tg.admins.add((GROUP, dana.id))
    await h.say(GROUP, dana, "/settings")
    message = h.last_with_button(GROUP, "cf:")
    press = h.updates.press(dana, GROUP, message, SettingsCb(what="hand_limit").pack())
    await h.feed(press)
    h.restart()  # Telegram got no answer in time: the same update, to another process
    await h.feed(press)
    profile = await store.profile(GROUP)
    assert profile is not None and profile.variants == {"hand_limit": 6}  # 7 → 6, not → 7
    assert await store.first_delivery(Delivery(press.update_id)) == "done"


async def test_another_process_feed_hears_a_save_made_on_another_master(
    cluster_stores: Callable[[], Awaitable[RedisStore]],
) -> None:
    store, other = await cluster_stores(), await cluster_stores()
    feed = RedisFeed(other)
    heard: list[tuple[int, int]] = []

    class Listener:
        def moved(self, chat_id: int, version: int) -> None:
            heard.append((chat_id, version))

        def views_moved(self, chat_id: int) -> None:
            pass

        def gap(self) -> None:
            pass

    feed.listen(Listener())
    await feed.follow(0)  # (connects the subscriber: its node is known)
    listening = feed.pubsub.connection.port
    client = client_of(store)
    await client.initialize()
    chat = next(
        c
        for c in range(GROUP, GROUP - 100, -1)
        if client.get_node_from_key(store._table_key(c)).port != listening
    )
    await feed.follow(chat)
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_lobby(chat, anna, [boris])
    version = (await h.table(chat)).version
    await until(lambda: (chat, version) in heard, timeout=5.0)
    await feed.close()


async def test_readiness_asks_every_master_whether_it_has_room(
    cluster: Cluster, cluster_stores: Callable[[], Awaitable[RedisStore]]
) -> None:
    """/readyz's check (`ping`): any master too full to take a save is Redis
    full — the saves of its slots would be refused."""
    store = await cluster_stores()
    await store.ping()
    for node in client_of(store).get_primaries():
        cluster.configure(node.port, "maxmemory", "1mb", "maxmemory-policy", "noeviction")
        try:
            with pytest.raises(StoreFull):
                await store.ping()
        finally:
            cluster.configure(node.port, "maxmemory", "0")
        await store.ping()


async def test_a_burst_of_calls_waits_its_turn_and_opens_no_more_connections_than_its_bound(
    cluster: Cluster, cluster_stores: Callable[[], Awaitable[RedisStore]]
) -> None:
    """Sixty reads at once over a bound of four (as sixty pages opening):
    none is refused — redis-py's cluster alone refuses a call past a node's
    ``max_connections`` — and no master is asked for more than four."""
    first = await cluster_stores()
    store = RedisStore.from_cluster(cluster.url, first.prefix, max_connections=4)
    try:
        h = Harness(first)
        anna, boris = people("Анна", "Борис")
        await h.open_lobby(GROUP, anna, [boris])
        tables = await asyncio.gather(*(store.load(GROUP) for _ in range(60)))
        assert all(t is not None and t.chat_id == GROUP for t in tables)
        opened = {n.name: len(n._connections) for n in client_of(store).get_nodes()}
        assert 0 < max(opened.values()) <= 4, opened
    finally:
        await store.close()
