"""Health: whether Redis answers and has room to write (readiness), and how
many games it holds by status (the games gauge)."""

from __future__ import annotations

from typing import Any

from redis.asyncio.cluster import RedisCluster

from bot.store import StoreFull
from bot.store.models import Table
from bot.store.redis.base import RedisBase
from bot.store.redis.guard import as_str, awaited, claimed_first, store_errors

#: the room a save needs below ``maxmemory``: Redis counts a command's own
#: bytes (a game's record, its log) while it runs, so a Redis closer to its
#: limit than this refuses saves though tiny writes still pass (readiness)
WRITE_ROOM = 64 * 1024


class Health(RedisBase):
    """Readiness and the games gauge."""

    @claimed_first
    async def ping(self) -> None:
        """`INFO memory`: an answer, and room to write — a Redis within
        `WRITE_ROOM` of its ``maxmemory`` with ``noeviction`` refuses writes
        as big as a save (the command's own bytes count: `StoreFull`)."""
        with store_errors():
            client = self._r
            if isinstance(client, RedisCluster):
                # every master's: a full one refuses the saves of its slots
                found = await client.info("memory", target_nodes=RedisCluster.PRIMARIES)
                infos = list(found.values()) if len(client.get_primaries()) > 1 else [found]
            else:
                infos = [await awaited(client.info("memory"))]
        for info in infos:
            limit = int(info.get("maxmemory", 0))
            used = int(info.get("used_memory", 0))
            if as_str(info.get("maxmemory_policy", "")) != "noeviction" or not limit:
                continue
            if used + WRITE_ROOM > limit:
                raise StoreFull(f"Redis is full: {used} of {limit} bytes used (maxmemory)")

    @claimed_first
    async def count_games(self) -> dict[str, int]:
        """SCANs the game records (``<prefix>:{*}:table``, 1000 keys a step) and
        reads each one's status; a record saved before statuses were kept
        beside it is read whole, once, until its next save."""
        counts: dict[str, int] = {}
        pattern = f"{self.prefix}:{{*}}:table"
        with store_errors():
            batch: list[Any] = []
            async for key in self._r.scan_iter(match=pattern, count=1000):
                batch.append(key)
                if len(batch) >= 1000:
                    await self._count(batch, counts)
                    batch = []
            if batch:
                await self._count(batch, counts)
        return counts

    async def _count(self, keys: list[Any], counts: dict[str, int]) -> None:
        async with self._r.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, "s")
            found = await pipe.execute()
        legacy = [k for k, s in zip(keys, found, strict=True) if s is None]
        for s in found:
            if s is not None:
                counts[as_str(s)] = counts.get(as_str(s), 0) + 1
        if legacy:
            async with self._r.pipeline(transaction=False) as pipe:
                for key in legacy:
                    pipe.hget(key, "data")
                for data in await pipe.execute():
                    if data is not None:  # expired meanwhile: not counted
                        status = Table.from_json(data).status
                        counts[status] = counts.get(status, 0) + 1
