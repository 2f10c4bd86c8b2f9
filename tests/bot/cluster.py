"""A Redis Cluster of three masters of its own, on free loopback ports.

Debian's ``redis-server`` and ``redis-cli`` (.ci/run installs them), started by
the cluster test: nothing else uses their ports or data. `started` returns
once ``redis-cli --cluster create`` has given each master a third of the hash
slots and every master says ``cluster_state:ok`` — a key then lands where its
slot says, and a step whose keys lie in two slots of two masters is refused
(``CROSSSLOT``, or redis-py's own "all keys must map to the same key slot").
It is synchronous (subprocesses, a blocking client): a session's fixture
starts it once for the module, whatever event loop each test runs on.
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

MASTERS = 3
#: how long the masters may take to agree on the slots (a few hundred ms here)
READY_SECONDS = 30.0


def cluster_ports(n: int) -> list[int]:
    """`n` free loopback ports whose cluster bus ports (10000 higher) are free
    too: a node's port must be 55535 at most, which the kernel's free ports
    (most above 32768) often are not."""
    found: list[int] = []
    while len(found) < n:
        port = random.randint(20000, 45000)
        if port in found:
            continue
        with socket.socket() as a, socket.socket() as b:
            try:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        found.append(port)
    return found


def installed() -> bool:
    return bool(shutil.which("redis-server") and shutil.which("redis-cli"))


@dataclass
class Cluster:
    workdir: Path
    #: the masters' ports (`replicas` each, on ports of their own: `replica_ports`)
    ports: list[int] = field(default_factory=list)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    replicas: int = 0
    replica_ports: list[int] = field(default_factory=list)
    #: how long a master may not answer before its replica takes over
    node_timeout_ms: int = 5000

    @property
    def url(self) -> str:
        """One node's URL: what ``REDIS_URL`` names with ``REDIS_CLUSTER=1``."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> None:
        every = cluster_ports(MASTERS * (1 + self.replicas))
        for port in every:
            data = self.workdir / str(port)
            data.mkdir()
            self.processes.append(
                subprocess.Popen(
                    [
                        *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                        *("--dir", str(data), "--save", "", "--appendonly", "no"),
                        *("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"),
                        *("--cluster-node-timeout", str(self.node_timeout_ms)),
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        self._until(lambda: all(self._ask(p, "PING") for p in every), "the nodes to start")
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *(f"127.0.0.1:{p}" for p in every),
                *("--cluster-replicas", str(self.replicas), "--cluster-yes"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=READY_SECONDS,
        )
        self.ports = every
        self._until(self._ok, "every master to say cluster_state:ok")
        self.ports, self.replica_ports = self.masters(), []
        self.replica_ports = [p for p in every if p not in self.ports]
        if self.replicas:
            self._until(self._replicas_in_sync, "every replica to be in sync")

    def masters(self) -> list[int]:
        """The ports of the nodes serving slots now (a promoted replica's too)."""
        slots = self._ask_any("CLUSTER", "SLOTS")
        assert isinstance(slots, list)
        return sorted({int(s[2][1]) for s in slots})

    def master_of(self, key: str) -> int:
        """The port of the master serving `key`'s slot now."""
        slot = self._ask_any("CLUSTER", "KEYSLOT", key)
        slots = self._ask_any("CLUSTER", "SLOTS")
        assert isinstance(slots, list) and isinstance(slot, int)
        return next(int(s[2][1]) for s in slots if int(s[0]) <= slot <= int(s[1]))

    def _ask_any(self, *command: str) -> object:
        for port in [*self.ports, *self.replica_ports]:
            try:
                return self._ask(port, *command)
            except (OSError, RedisError):
                continue
        raise AssertionError("no node answers")

    def _replicas_in_sync(self) -> bool:
        for port in self.replica_ports:
            info = self._ask(port, "INFO", "replication")
            if not isinstance(info, dict) or info.get("master_link_status") != "up":
                return False
        return True

    def kill(self, port: int) -> None:
        """SIGKILL of the node on `port`: nothing flushed, a power cut."""
        process = self._process_of(port)
        process.kill()
        process.wait(10)

    def _process_of(self, port: int) -> subprocess.Popen[bytes]:
        return next(
            p for p in self.processes if f"--port {port} " in " ".join(map(str, p.args)) + " "
        )

    def failed_over(self, dead: int, timeout: float = 60.0) -> None:
        """Until the cluster serves every slot again without the node on `dead`
        (its replica promoted): CLUSTER INFO ok on every live node."""
        live = [p for p in [*self.ports, *self.replica_ports] if p != dead]
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                if all(
                    "cluster_state:ok" in str(self._ask(p, "CLUSTER", "INFO")) for p in live
                ) and dead not in self._masters_from(live[0]):
                    return
            except (OSError, RedisError):
                pass
            time.sleep(0.1)
        raise AssertionError(f"waited {timeout:g}s for the cluster to fail over")

    def _masters_from(self, port: int) -> set[int]:
        slots = self._ask(port, "CLUSTER", "SLOTS")
        assert isinstance(slots, list)
        return {int(s[2][1]) for s in slots}

    def _ask(self, port: int, *command: str) -> object:
        client = Redis(host="127.0.0.1", port=port, socket_timeout=2, decode_responses=True)
        try:
            return client.execute_command(*command)
        finally:
            client.close()

    def _ok(self) -> bool:
        for port in self.ports:
            info = self._ask(port, "CLUSTER", "INFO")
            if "cluster_state:ok" not in str(info):
                return False
            # every master knows the others' slots too (its own view is whole)
            slots = self._ask(port, "CLUSTER", "SLOTS")
            if not isinstance(slots, list) or len(slots) < MASTERS:
                return False
        return True

    def _until(self, check: object, what: str) -> None:
        assert callable(check)
        start = time.monotonic()
        last: Exception | None = None
        while time.monotonic() - start < READY_SECONDS:
            try:
                if check():
                    return
            except (OSError, RedisError) as e:  # a server not up yet
                last = e
            time.sleep(0.05)
        raise AssertionError(f"waited {READY_SECONDS:g}s for {what} (last error: {last!r})")

    def keys_by_node(self, pattern: str) -> dict[int, int]:
        """How many keys matching `pattern` each master holds (port → count)."""
        counts = {}
        for port in self.ports:
            client = Redis(host="127.0.0.1", port=port, socket_timeout=2)
            try:
                counts[port] = sum(1 for _ in client.scan_iter(match=pattern, count=1000))
            finally:
                client.close()
        return counts

    def delete_keys(self, pattern: str) -> None:
        """Every key matching `pattern`, on every master."""
        for port in self.ports:
            client = Redis(host="127.0.0.1", port=port, socket_timeout=2)
            try:
                for key in list(client.scan_iter(match=pattern, count=1000)):
                    client.delete(key)
            finally:
                client.close()

    def configure(self, port: int, *pairs: str) -> None:
        """CONFIG SET on one master."""
        self._ask(port, "CONFIG", "SET", *pairs)

    def forget_scripts(self, port: int) -> None:
        """SCRIPT FLUSH on one master: its scripts forgotten, as after a restart."""
        self._ask(port, "SCRIPT", "FLUSH")

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait(10)


def started(replicas: int = 0, node_timeout_ms: int = 5000) -> Cluster:
    cluster = Cluster(
        Path(tempfile.mkdtemp(prefix="smuta-cluster-")),
        replicas=replicas,
        node_timeout_ms=node_timeout_ms,
    )
    try:
        cluster.start()
    except BaseException:
        stopped(cluster)
        raise
    return cluster


def stopped(cluster: Cluster) -> None:
    cluster.stop()
    shutil.rmtree(cluster.workdir, ignore_errors=True)
