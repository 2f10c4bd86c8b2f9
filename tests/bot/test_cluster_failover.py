"""A Redis Cluster with a replica a master: a master killed mid-game, its
replica promoted, play goes on and no move a person was told is lost
(issue 41, item 4).

Six nodes of the test's own (three masters, a replica each, a node timeout
of 1 s), two bot processes on them as the bot runs with ``REDIS_CLUSTER=1``
(each save waiting for its master's replica, `RedisBase._saved_on_its_master`),
pressing through a group's game. The master holding the game's slot is
killed with SIGKILL: presses are answered that nothing was saved (the whole
cluster refuses while a slot has no master: ``cluster-require-full-coverage``),
the replica takes over, and play goes on by itself; every move answered
"made" is in the game.

Without the servers the test is skipped — unless ``CI`` is set, where it
fails: CI must run it.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator

import pytest

from bot.store.redis import RedisStore
from tests.bot.cluster import Cluster, installed, started, stopped
from tests.bot.conftest import _in_ci
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.harness import FakeClock, Harness, people
from tests.bot.helpers.pressing import Play, played_on, players_pressing

GROUP = -100_410_004


@pytest.fixture
def replicated() -> Iterator[Cluster]:
    if not installed():
        if _in_ci():
            pytest.fail("redis-server or redis-cli is missing and CI is set: CI must run this")
        pytest.skip("redis-server and redis-cli are needed for the Redis Cluster test")
    cluster = started(replicas=1, node_timeout_ms=1000)
    try:
        yield cluster
    finally:
        stopped(cluster)


async def test_a_master_killed_mid_game_hands_over_to_its_replica_and_no_told_move_is_lost(
    replicated: Cluster,
) -> None:
    cluster = replicated
    prefix = f"smuta-cluster:{uuid.uuid4().hex[:8]}"
    stores = [
        RedisStore.from_cluster(cluster.url, prefix, timeout=2.0, wait_replicas=1) for _ in range(2)
    ]
    tg, clock = FakeTelegram(), FakeClock()
    procs = [Harness(s, tg=tg, clock=clock) for s in stores]
    users = people("Анна", "Борис", "Вера")
    play, stop = Play(), asyncio.Event()
    try:
        await procs[0].open_game(GROUP, users[0], list(users[1:]), seed=20261208)
        players = asyncio.create_task(players_pressing(procs, users, play, stop, GROUP))
        async with asyncio.timeout(60):
            while len(play.told) < 6:  # mid-game, both processes saving
                await asyncio.sleep(0.05)
        told_before = len(play.told)
        master = cluster.master_of(f"{prefix}:{{{GROUP}}}:table")
        cluster.kill(master)
        killed_at = time.monotonic()
        cluster.failed_over(master)
        failed_over = time.monotonic() - killed_at
        await played_on(play, told_before, players, stop)
        assert play.refused + play.unreadable > 0, "the kill was felt: presses refused meanwhile"
        assert cluster.master_of(f"{prefix}:{{{GROUP}}}:table") != master
        log = list(await stores[0].log(GROUP))
        kept = [c for c in log if c in play.told]
        assert kept == play.told, "a move a person was told is missing after the failover"
        tables = [await h.table(GROUP) for h in procs]
        assert tables[0] == tables[1], "both processes show the same game"
        resumed = play.told_at[told_before] - killed_at
        print(
            f"\ncluster master killed: {len(play.told)} moves told, {play.refused} presses "
            f"refused; the replica serving after {failed_over:.2f} s, the first move told "
            f"{resumed:.2f} s after the kill"
        )
    finally:
        stop.set()
        for store in stores:
            await store.close()
