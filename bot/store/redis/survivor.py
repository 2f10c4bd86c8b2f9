"""Whether a save landed on the primary that will survive (issue 41, item 1).

A primary that stalls — frozen by the kernel, a long fork, ``CLIENT PAUSE`` —
for longer than the sentinels' ``down-after`` is failed over while the bot
still holds connections to it (redis-py's Sentinel pool asks the sentinels
only for a *new* connection). When it wakes, it takes the saves queued on
those connections as any primary would, for seconds, until the sentinels
make it a replica and it drops them. A person told «сделано» in between
would see the move taken back.

So a save whose WAIT fell short of every replica (after a failover the old
primary has at most all but one: the promoted one left it), or whose round
trip was long enough to have spanned a stall, asks every sentinel about its
server before anyone is told (`on_survivor`, the rule in `vouches`): the
sentinel leading a failover names the old primary, ``failover_in_progress``,
until it has seen the replica promoted, and the promoted replica after — so
a save that landed on the old primary after a promotion is never vouched
for. Anything else doubtful — a sentinel naming another primary, the server
down to one of them, too few answering — and the save is withdrawn: the
caller drops the pool's connections and the person is told plainly that
nothing was saved. A save withdrawn that stands after all (the failover
did not happen, or it landed on the replica just promoted) is told late by
whoever finds its prompt owed (`bot.service.play`), never taken back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import redis.exceptions
from redis.asyncio import Redis
from redis.asyncio.sentinel import Sentinel

from bot.store.redis.guard import UNAVAILABLE, as_str

log = logging.getLogger(__name__)

#: a save whose round trip took longer than this may have spanned a stall of
#: its primary (far below any ``down-after-milliseconds`` worth running: 1 s
#: in the tests, 2 s in deploy/docker-compose.ha.yml): it is checked
SLOW_SAVE_SECONDS = 0.5
#: how long the sentinels are given to answer (on one network: milliseconds)
ASK_SECONDS = 1.0
#: how long a save waits for the sentinels to agree before it is withdrawn,
#: and how often it asks them meanwhile (`vouched_within`): past their hellos'
#: 2 s, so the news of a failover has reached each
PATIENCE_SECONDS = 3.0
ASK_AGAIN_SECONDS = 0.25
#: a master's flags (``SENTINEL MASTER``) that say it may not be the primary
#: that survives
_DOUBTFUL = frozenset({"s_down", "o_down"})
_FAILING_OVER = "failover_in_progress"


@dataclass(frozen=True)
class _Seen:
    """What one sentinel says of the master: the address it names now (the
    promoted replica's once a failover it leads has seen it promoted), the
    address its record still holds, and that record's flags."""

    names: tuple[str, int]
    recorded: tuple[str, int]
    flags: frozenset[str]


async def _master_as_seen(client: Redis, master: str) -> _Seen | None:
    try:
        async with asyncio.timeout(ASK_SECONDS):
            async with client.pipeline(transaction=False) as pipe:
                pipe.execute_command("SENTINEL MASTER", master)
                pipe.execute_command("SENTINEL GET-MASTER-ADDR-BY-NAME", master)
                state, names = await pipe.execute()
    except (redis.exceptions.RedisError, *UNAVAILABLE):
        return None
    if not isinstance(state, dict) or not names:
        return None
    return _Seen(
        names=(as_str(names[0]), int(names[1])),
        recorded=(as_str(state["ip"]), int(as_str(state["port"]))),
        flags=frozenset(as_str(state["flags"]).split(",")),
    )


def vouches(seen: Sequence[_Seen | None], server: tuple[str, int]) -> bool:
    """Whether the sentinels' answers (None: no answer) vouch for `server`.

    A sentinel leading a failover (``failover_in_progress``) is the one to
    believe: it names the promoted replica once it has seen it promoted —
    a save there is vouched for, even while the others still name the old
    primary — and until then names the old primary, whose saves it never
    vouches for (the replica may be promoted already). With no failover
    under way, a majority must answer, each naming `server` and none taking
    it for down."""
    heard = [s for s in seen if s is not None]
    if len(heard) < len(seen) // 2 + 1:
        log.warning(
            "a save was not vouched for: %d of %d sentinels answered", len(heard), len(seen)
        )
        return False
    leading = [s for s in heard if _FAILING_OVER in s.flags]
    if leading:
        if all(s.names == server and s.names != s.recorded for s in leading):
            return True
        log.warning("a save was not vouched for: a failover is under way")
        return False
    for s in heard:
        if s.names != server or s.flags & _DOUBTFUL:
            log.warning(
                "a save was not vouched for: a sentinel names %s:%s (%s)",
                *s.names,
                ",".join(sorted(s.flags & _DOUBTFUL)) or "another primary",
            )
            return False
    return True


async def vouched_within(
    sentinel: Sentinel, master: str, server: tuple[str, int], patience: float = PATIENCE_SECONDS
) -> bool:
    """`on_survivor`, asked again every `ASK_AGAIN_SECONDS` for up to
    `patience` seconds while the sentinels doubt: just after a failover the
    ones that did not lead it name the old primary until its news reaches
    them (their hellos, every 2 s) — a save on the promoted replica is told,
    a little late, rather than refused."""
    end = asyncio.get_running_loop().time() + patience
    while not await on_survivor(sentinel, master, server):
        if asyncio.get_running_loop().time() >= end:
            return False
        await asyncio.sleep(ASK_AGAIN_SECONDS)
    return True


async def on_survivor(sentinel: Sentinel, master: str, server: tuple[str, int]) -> bool:
    """Whether the sentinels vouch that `server` is `master`'s primary that
    survives (`vouches`)."""
    seen = await asyncio.gather(*(_master_as_seen(c, master) for c in sentinel.sentinels))
    return vouches(seen, (server[0], int(server[1])))
