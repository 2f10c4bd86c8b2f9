"""A primary that stalls instead of dying takes back nothing a person was told
(issue 41, item 1).

A primary, two replicas and three sentinels of the test's own, as
deploy/docker-compose.ha.yml sets them (each Redis refusing writes without a
replica in sync, `GUARD`; each save waiting for both replicas), and two bot
processes taking turns through a game. Mid-game the primary is frozen past
the sentinels' ``down-after`` — SIGSTOP for 4 s, or ``CLIENT PAUSE 7000 ALL``
— while the presses go on: the sentinels promote a replica, the old primary
wakes up still a primary for seconds, with the bot's connections open to it.
Whatever it took in those seconds is dropped when it is made a replica; so
no press landing there may be answered as made. Checked against every node
once they follow one primary: each move a person was answered "made" is in
the game on every node, and both processes show the same game.

Without the servers the test is skipped — unless ``CI`` is set, where it
fails: CI must run it.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ops import metrics
from bot.store.redis import RedisStore
from engine import Command
from tests.bot.conftest import _in_ci
from tests.bot.fake_telegram import FakeTelegram
from tests.bot.harness import FakeClock, Harness, people
from tests.bot.helpers.pressing import Play, played_on, players_pressing
from tests.bot.sentinels import GUARD, MASTER, SentinelGroup, installed, started, stopped

GROUP = -100_410_001


#: how the primary is frozen, and whether each Redis has the compose file's
#: guard (`GUARD`: no writes without a replica in sync) — without it, every
#: press landing on the old primary after it wakes is withdrawn by the bot
STALLS = [("sigstop-4s", True), ("client-pause-7s", True), ("sigstop-4s", False)]


@pytest.fixture(params=STALLS, ids=[f"{s}-{'guarded' if g else 'unguarded'}" for s, g in STALLS])
async def stalled(request: pytest.FixtureRequest) -> AsyncIterator[tuple[SentinelGroup, str]]:
    if not installed():
        if _in_ci():
            pytest.fail("redis-server or redis-sentinel is missing and CI is set: CI must run this")
        pytest.skip("redis-server and redis-sentinel are needed for the stalled-primary test")
    stall, guarded = request.param
    group = await started(replicas=2, guarded=guarded)
    try:
        yield group, stall
    finally:
        stopped(group)


async def _node_log(port: int) -> list[Command]:
    store = RedisStore.from_url(f"redis://127.0.0.1:{port}/0", timeout=2.0)
    try:
        return list(await store.log(GROUP))
    finally:
        await store.close()


async def test_a_stalled_primary_takes_back_no_move_a_person_was_told(
    stalled: tuple[SentinelGroup, str], caplog: pytest.LogCaptureFixture
) -> None:
    group, stall = stalled
    caplog.set_level(logging.WARNING)
    tg, clock = FakeTelegram(), FakeClock()
    stores = [
        # the bot's own call timeout (5 s): a press sent as the primary
        # stalls is still waiting for it when it wakes up, failed over
        RedisStore.from_sentinels(group.sentinels, MASTER, timeout=5.0, wait_replicas=2)
        for _ in range(2)
    ]
    procs = [Harness(s, tg=tg, clock=clock) for s in stores]
    users = people("Анна", "Борис", "Вера")
    play, stop = Play(), asyncio.Event()
    withdrawn_before = metrics.sample("smuta_redis_saves_withdrawn_total")
    try:
        await procs[0].open_game(GROUP, users[0], list(users[1:]), seed=20261208)
        players = asyncio.create_task(players_pressing(procs, users, play, stop, GROUP))
        while len(play.told) < 6:  # mid-game, both processes saving
            await asyncio.sleep(0.05)
        told_before = len(play.told)
        stalled_at = time.monotonic()
        if stall == "sigstop-4s":
            group.stall("primary")
            await asyncio.sleep(4.0)
            group.wake("primary")
        else:
            await group.ask(group.primary_port, "CLIENT", "PAUSE", "7000", "ALL")
            await asyncio.sleep(7.0)
        await group.promoted()
        primary = await group.settled()  # the old primary made a replica, in sync
        assert primary != group.primary_port, "the stall was long enough to fail over"
        settled_at = time.monotonic()
        await played_on(play, told_before, players, stop)  # on the promoted replica
        resumed_at = next(t for t in play.told_at[told_before:])
        await group.caught_up(await group.settled())

        # every move a person was told is in the game on every node
        for port in group.ports:
            log = await _node_log(port)
            kept = [c for c in log if c in play.told]
            assert kept == play.told, f"a move a person was told is missing on :{port}"
        logs = [await _node_log(port) for port in group.ports]
        assert all(log == logs[0] for log in logs), "the nodes hold one game"
        tables = [await h.table(GROUP) for h in procs]
        assert tables[0] == tables[1], "both processes show the same game"
        failures = [  # (the bot's own: not a closed test's objects collected meanwhile)
            r.getMessage()
            for r in caplog.records
            if r.levelno >= logging.ERROR and r.name.startswith("bot")
        ]
        assert not failures, "a refusal (NOREPLICAS, a withdrawn save) is no error"
        print(
            f"\n{stall}: {len(play.told)} moves told, {play.refused} presses refused, "
            f"{play.unreadable} reads failed, "
            f"{metrics.sample('smuta_redis_saves_withdrawn_total') - withdrawn_before:.0f} "
            f"saves withdrawn; first move told after the stall {resumed_at - stalled_at:.2f} s "
            f"after it began; nodes settled {settled_at - stalled_at:.2f} s after it began"
        )
    finally:
        stop.set()
        for store in stores:
            await store.close()


def test_the_ha_compose_file_runs_what_this_test_runs() -> None:
    """deploy/docker-compose.ha.yml: two replicas, every Redis with the guard
    (`GUARD`), and each save waiting for every replica — what the stalls
    above were shown on."""
    compose = (Path(__file__).parents[2] / "deploy" / "docker-compose.ha.yml").read_text()
    servers = re.findall(r"^  (redis-[\w-]+):\n", compose, re.MULTILINE)
    assert servers == ["redis-primary", "redis-replica", "redis-replica-2"]
    for flag, value in zip(GUARD[::2], GUARD[1::2], strict=True):
        assert compose.count(f'      - {flag}\n      - "{value}"\n') == len(servers), flag
    wait = re.search(r'REDIS_WAIT_REPLICAS: "(\d+)"', compose)
    assert wait is not None and int(wait.group(1)) == len(servers) - 1
