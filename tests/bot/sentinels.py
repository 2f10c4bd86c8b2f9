"""A primary, its replicas and three sentinels of their own, on free loopback ports.

Debian's ``redis-server`` and ``redis-sentinel`` (.ci/run installs them),
started by the failover test and benchmark: nothing else uses their ports or
data. `SentinelGroup.start` returns once the replica is in sync and every
sentinel knows the replica and the two other sentinels (a failover then needs
nothing more) — told in their configuration, and the primary sends the
replica its first copy at once, so a group starts in about a second, not in
5–10 s; `promoted` waits, bounded, until the sentinels name the replica as
the primary.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from redis.asyncio import Redis
from redis.exceptions import RedisError

MASTER = "smuta"
#: how long a primary that does not answer is taken to be down (the sentinels'
#: ``down-after-milliseconds``): the failover's first part
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 10000
#: the replica's first sync starts as soon as it asks: a primary waits 5 s by
#: default (``repl-diskless-sync-delay``) for more replicas to share one
#: transfer — the start's longest wait, and nothing a failover depends on
START_AT_ONCE = ("--repl-diskless-sync-delay", "0")
#: what deploy/docker-compose.ha.yml adds to each Redis (`SentinelGroup.compose`)
COMPOSE_REDIS = (
    *("--appendonly", "yes", "--appendfsync", "everysec"),
    *("--maxmemory", "256mb", "--maxmemory-policy", "noeviction"),
)
#: the guard deploy/docker-compose.ha.yml sets on each Redis (`SentinelGroup.guarded`):
#: a primary with no replica acknowledging within 5 s refuses writes (NOREPLICAS)
GUARD = ("--min-replicas-to-write", "1", "--min-replicas-max-lag", "5")


def free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def installed() -> bool:
    return bool(shutil.which("redis-server") and shutil.which("redis-sentinel"))


async def until(
    check: Callable[[], Awaitable[bool]], what: str, timeout: float = 30.0, every: float = 0.05
) -> float:
    """Poll `check` until it holds; the seconds it took. Fails after `timeout`."""
    start = time.monotonic()
    while True:
        try:
            if await check():
                return time.monotonic() - start
        except (OSError, RedisError) as e:  # a server not up yet
            last = e
        else:
            last = None
        if time.monotonic() - start > timeout:
            raise AssertionError(f"waited {timeout:g}s for {what} (last error: {last!r})")
        await asyncio.sleep(every)


@dataclass
class SentinelGroup:
    workdir: Path
    primary_port: int = 0
    replica_ports: list[int] = field(default_factory=list)
    sentinel_ports: list[int] = field(default_factory=list)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    down_after_ms: int = DOWN_AFTER_MS
    failover_timeout_ms: int = FAILOVER_TIMEOUT_MS
    #: the Redis servers as the HA compose file runs them (AOF everysec,
    #: maxmemory): else no persistence
    compose: bool = False
    #: how many replicas the primary has (the HA compose file: two)
    replicas: int = 1
    #: each Redis refuses writes without a replica in sync (`GUARD`)
    guarded: bool = False

    @property
    def sentinels(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", p) for p in self.sentinel_ports]

    @property
    def replica_port(self) -> int:
        return self.replica_ports[0]

    @property
    def ports(self) -> list[int]:
        """Every Redis server's port, the first primary first."""
        return [self.primary_port, *self.replica_ports]

    def _redis(self, name: str, port: int, *extra: str) -> None:
        data = self.workdir / name
        data.mkdir(exist_ok=True)
        self.processes[name] = subprocess.Popen(
            [
                *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                *("--dir", str(data), "--save", ""),
                *(COMPOSE_REDIS if self.compose else ("--appendonly", "no")),
                *START_AT_ONCE,
                *(GUARD if self.guarded else ()),
                *extra,
            ],
            stdout=subprocess.DEVNULL,
        )

    async def start(self) -> None:
        ports = free_ports(4 + self.replicas)
        self.primary_port, self.replica_ports = ports[0], ports[1 : 1 + self.replicas]
        self.sentinel_ports = ports[1 + self.replicas :]
        self._redis("primary", self.primary_port)
        for i, port in enumerate(self.replica_ports):
            name = "replica" if i == 0 else f"replica{i + 1}"
            self._redis(name, port, "--replicaof", "127.0.0.1", str(ports[0]))
        # what a sentinel would learn only in seconds it is told at once: the
        # replica (from the primary's INFO, asked every 10 s) and its peers
        # (their hellos on the primary, every 2 s), each by the id it is given
        ids = [secrets.token_hex(20) for _ in self.sentinel_ports]
        for i, port in enumerate(self.sentinel_ports):
            conf = self.workdir / f"sentinel{i}.conf"  # a sentinel rewrites its file
            peers = "".join(
                f"sentinel known-sentinel {MASTER} 127.0.0.1 {other} {ids[j]}\n"
                for j, other in enumerate(self.sentinel_ports)
                if j != i
            )
            conf.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.workdir}\nsentinel myid {ids[i]}\n"
                f"sentinel monitor {MASTER} 127.0.0.1 {self.primary_port} 2\n"
                + "".join(
                    f"sentinel known-replica {MASTER} 127.0.0.1 {r}\n" for r in self.replica_ports
                )
                + f"{peers}"
                f"sentinel down-after-milliseconds {MASTER} {self.down_after_ms}\n"
                f"sentinel failover-timeout {MASTER} {self.failover_timeout_ms}\n"
                f"sentinel parallel-syncs {MASTER} 1\n"
            )
            self.processes[f"sentinel{i}"] = subprocess.Popen(
                ["redis-sentinel", str(conf)], stdout=subprocess.DEVNULL
            )
        await until(self._in_sync, "the replica to be in sync with the primary")
        await until(self._sentinels_know_all, "the sentinels to know the replica and each other")

    async def _ask(self, port: int, *command: str) -> object:
        client = Redis(host="127.0.0.1", port=port, socket_timeout=1, decode_responses=True)
        try:
            return await client.execute_command(*command)
        finally:
            await client.aclose()

    async def _in_sync(self) -> bool:
        for port in self.replica_ports:
            info = await self._ask(port, "INFO", "replication")
            assert isinstance(info, dict)
            if info.get("master_link_status") != "up":
                return False
        return True

    async def _sentinels_know_all(self) -> bool:
        for port in self.sentinel_ports:
            replicas = await self._ask(port, "SENTINEL", "REPLICAS", MASTER)
            others = await self._ask(port, "SENTINEL", "SENTINELS", MASTER)
            assert isinstance(replicas, list) and isinstance(others, list)
            if len(replicas) != self.replicas or len(others) != 2:
                return False
        return True

    async def primary_named(self) -> int | None:
        """The port the sentinels' majority names as the primary (None: no majority)."""
        named: dict[int, int] = {}
        for port in self.sentinel_ports:
            try:
                found = await self._ask(port, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER)
            except (OSError, RedisError):
                continue
            if isinstance(found, list) and len(found) == 2:
                named[int(found[1])] = named.get(int(found[1]), 0) + 1
        best = max(named.items(), key=lambda kv: kv[1], default=None)
        return best[0] if best is not None and best[1] >= 2 else None

    async def promoted(self, timeout: float = 30.0) -> float:
        """Until a replica is the primary (the sentinels say so and it
        answers as one); the seconds it took."""

        async def done() -> bool:
            named = await self.primary_named()
            if named not in self.replica_ports:
                return False
            role = await self._ask(named, "ROLE")
            return isinstance(role, list) and role[0] == "master"

        return await until(done, "a replica to be promoted", timeout)

    async def settled(self, timeout: float = 60.0) -> int:
        """Until the sentinels name one primary that every other server —
        the old primary too, once they have made it a replica — follows in
        sync; that primary's port."""
        primary: list[int] = []

        async def done() -> bool:
            named = await self.primary_named()
            if named is None:
                return False
            for port in self.ports:
                role = await self._ask(port, "ROLE")
                assert isinstance(role, list)
                if port == named:
                    if role[0] != "master":
                        return False
                    continue
                info = await self._ask(port, "INFO", "replication")
                assert isinstance(info, dict)
                if (
                    role[0] != "slave"
                    or int(info.get("master_port", 0)) != named
                    or info.get("master_link_status") != "up"
                    or int(info.get("master_sync_in_progress", 1))
                ):
                    return False
            primary[:] = [named]
            return True

        await until(done, "every server to follow one primary", timeout, every=0.2)
        return primary[0]

    async def caught_up(self, primary: int, timeout: float = 30.0) -> None:
        """Until every other server has all the `primary` has written (its
        replication offset reached): what a save told without every replica's
        WAIT (the sentinels vouched) reaches the slow one a moment later."""

        async def done() -> bool:
            info = await self._ask(primary, "INFO", "replication")
            assert isinstance(info, dict)
            written = int(info["master_repl_offset"])
            for port in self.ports:
                if port != primary:
                    theirs = await self._ask(port, "INFO", "replication")
                    assert isinstance(theirs, dict)
                    if int(theirs.get("slave_repl_offset", -1)) < written:
                        return False
            return True

        await until(done, "every replica to have all the primary wrote", timeout)

    async def ask(self, port: int, *command: str) -> object:
        """One command to the server on `port`, on a connection of its own."""
        return await self._ask(port, *command)

    def stall(self, name: str) -> None:
        """SIGSTOP: the server keeps its connections and answers nothing — a
        stall (a frozen VM, a swapping host) — until `wake`."""
        os.kill(self.processes[name].pid, signal.SIGSTOP)

    def wake(self, name: str) -> None:
        os.kill(self.processes[name].pid, signal.SIGCONT)

    def kill(self, name: str) -> None:
        """SIGKILL: no shutdown, nothing flushed — a power cut to that server."""
        process = self.processes[name]
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.kill(process.pid, signal.SIGCONT)  # (a stalled one dies only awake)
                process.kill()
                process.wait(10)


async def started(
    down_after_ms: int = DOWN_AFTER_MS,
    failover_timeout_ms: int = FAILOVER_TIMEOUT_MS,
    compose: bool = False,
    replicas: int = 1,
    guarded: bool = False,
) -> SentinelGroup:
    group = SentinelGroup(
        Path(tempfile.mkdtemp(prefix="smuta-sentinel-")),
        down_after_ms=down_after_ms,
        failover_timeout_ms=failover_timeout_ms,
        compose=compose,
        replicas=replicas,
        guarded=guarded,
    )
    try:
        await group.start()
    except BaseException:
        group.stop()
        shutil.rmtree(group.workdir, ignore_errors=True)
        raise
    return group


def stopped(group: SentinelGroup) -> None:
    group.stop()
    shutil.rmtree(group.workdir, ignore_errors=True)
