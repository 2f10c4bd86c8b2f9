"""The store's Lua scripts: each in ``lua/<name>.lua`` (its comments say what
it does, its KEYS and ARGV), loaded by name and registered for the client the
store runs on — one node's or a cluster's, chosen here (`register`).

What would be a transaction (MULTI/EXEC, WATCH) is a script of one slot
instead, on one node and a cluster alike: redis-py's async cluster pipeline
runs a transaction's commands each in a thread of its own (``asyncio.run``,
the event loop blocked meanwhile) and cannot parse some answers (HEXISTS);
a script is one round trip where WATCH took two or more.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Sequence
from importlib.resources import files
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError

from bot.store.redis.client import Client, Pipe
from bot.store.redis.guard import awaited

#: a line of a ``.lua`` file that stands for another file's code (a fragment
#: two scripts share, e.g. ``last.lua``)
_INCLUDE = re.compile(r"^\s*-- #include (\w+)\s*$")


@functools.cache
def lua(name: str) -> str:
    """The code of ``lua/<name>.lua`` as Redis runs it: each ``-- #include
    <other>`` line replaced by ``<other>.lua``'s code, and the comment lines
    (a line whose first non-blank is ``--``: no script has a ``--[[`` block or
    a long string) left out — they stay in the file to be read, while Redis
    gets the code alone, so a script sent whole (EVAL: ``load.lua`` with every
    press) costs no more bytes for them. A ``#!lua`` flags line stays first."""
    text = (files(__package__) / "lua" / f"{name}.lua").read_text(encoding="utf-8")
    lines: list[str] = []
    for line in text.splitlines():
        included = _INCLUDE.match(line)
        if included:
            lines.append(lua(included[1]).rstrip("\n"))
        elif not line.lstrip().startswith("--"):
            lines.append(line)
    return "\n".join(lines) + "\n"


class NodeScript(AsyncScript):
    """A registered script on one node: redis-py's own — EVALSHA, the script
    loaded when the node lacks it; added to a pipeline, the pipeline asks
    SCRIPT EXISTS first and loads what is missing."""

    async def __call__(
        self,
        keys: Sequence[Any] | None = None,
        args: Iterable[Any] | None = None,
        client: Redis | ClusterPipeline | None = None,
    ) -> Any:
        if isinstance(client, ClusterPipeline):
            raise TypeError("a script of one node added to a cluster's pipeline")
        return await super().__call__(keys, args, client)


class ClusterScript:
    """A registered script on a cluster: called on its own, EVALSHA (loaded on
    every master when one lacks it, as redis-py does); added to a pipeline,
    sent whole (EVAL) — redis-py's cluster pipeline refuses EVALSHA, and a
    master could lack the script (restarted, or a replica promoted) with no
    step between to load it."""

    def __init__(self, cluster: RedisCluster, script: str) -> None:
        self.cluster = cluster
        self.script = script
        # (the SHA of the script as the cluster's encoder sends it, as redis-py's)
        encoded = cluster.get_encoder().encode(script)  # type: ignore[no-untyped-call]
        self.sha = hashlib.sha1(encoded).hexdigest()

    async def __call__(
        self,
        keys: Sequence[Any] | None = None,
        args: Iterable[Any] | None = None,
        client: Pipe | None = None,
    ) -> Any:
        keys = list(keys or [])
        args = list(args or [])
        if isinstance(client, ClusterPipeline):
            return client.execute_command("EVAL", self.script, len(keys), *keys, *args)
        if client is not None:
            raise TypeError("a cluster's script added to one node's pipeline")
        try:
            return await awaited(self.cluster.evalsha(self.sha, len(keys), *keys, *args))
        except NoScriptError:
            self.sha = await awaited(self.cluster.script_load(self.script))
            return await awaited(self.cluster.evalsha(self.sha, len(keys), *keys, *args))


#: a registered script, of either kind: called with ``keys``, ``args`` and,
#: to add it to a pipeline, ``client``
Script = NodeScript | ClusterScript


def register(client: Client, name: str) -> Script:
    """``lua/<name>.lua`` registered for `client`: a cluster's script on a
    cluster (sent whole in a pipeline), redis-py's own on one node."""
    if isinstance(client, RedisCluster):
        return ClusterScript(client, lua(name))
    return NodeScript(client, lua(name))
