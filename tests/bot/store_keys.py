"""What a store holds, key by key, on both stores: the key names Redis uses,
each with the seconds it has left (None: kept for good) and its entries."""

from __future__ import annotations

import re
from typing import Any

from bot.store import KEYS, KeyKind, Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore

Keys = dict[str, tuple[float | None, int]]


async def keys_of(store: Store) -> Keys:
    """Every key the store holds: SCANned on Redis, listed by the embedded store."""
    if isinstance(store, MemoryStore):
        return store.inventory()
    assert isinstance(store, RedisStore)
    client: Any = store._r
    found: Keys = {}
    async for raw in client.scan_iter(match=f"{store.prefix}:*", count=1000):
        key = raw.decode() if isinstance(raw, bytes) else raw
        kind = (await client.type(key)).decode()
        size = {
            "hash": client.hlen,
            "set": client.scard,
            "list": client.llen,
            "zset": client.zcard,
        }.get(kind)
        entries = 1 if size is None else int(await size(key))
        ms = int(await client.pttl(key))
        if ms == -2:  # expired between the SCAN and now
            continue
        found[key] = (None if ms == -1 else ms / 1000, entries)
    return found


def prefix_of(store: Store) -> str:
    return store.prefix if isinstance(store, RedisStore) else "smuta"


def kind_of(store: Store, key: str) -> KeyKind | None:
    """The declared kind of key `key` is (None: none; the store writes what it
    never declared)."""
    prefix = re.escape(prefix_of(store) + ":")
    for kind in KEYS:
        pattern = re.escape(kind.pattern)
        for name, matches in (("<chat>", r"-?\d+"), ("<uid>", r"\d+"), ("<id>", r"\d+")):
            pattern = pattern.replace(re.escape(name), matches)
        pattern = pattern.replace(re.escape("<name>"), r".+")
        if re.fullmatch(prefix + pattern, key):
            return kind
    return None


def entries(keys: Keys, store: Store, name: str) -> int:
    """How many entries the key `<prefix>:<name>` holds (0: no such key)."""
    return keys.get(f"{prefix_of(store)}:{name}", (None, 0))[1]
