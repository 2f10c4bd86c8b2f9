"""The bytes of a game's record as the store keeps it, at mid-game (issue 39).

    python -m benchmarks.record_bytes --games 12 --players 4

Seeded games with every seat a person, played through the real dispatcher (the
bot's whole stack on the tests' fake Telegram), each person pressing their
prompts' buttons level by level with the random policy's choice. After every
move the record the store keeps is read as it is kept — the embedded store's
saved text, the same JSON Redis keeps — and the moves where the game deck is
half drawn (its size first at or below half of what it was after the deal)
are the game's mid-game. Prints one JSON line a game (`mid_bytes`, `max_bytes`,
`mean_bytes` over the whole game; `mid_json_bytes`, `mean_json_bytes`: the
same record as JSON, before it is compressed) and one with the means over
the games.

The figures depend on the code, not the machine: run it in two checkouts
(e.g. a worktree of the previous main) to compare them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import zlib
from typing import Any

from bot.store.memory import MemoryStore
from engine import pending
from tests.bot.harness import Harness, people

GROUP = -100_900
NAMES = ["Анна Каренина", "Борис Годунов", "Вера Павлова", "Глеб Жеглов", "Дина", "Егор"]


def kept(store: MemoryStore, chat_id: int) -> tuple[int, int]:
    """The record's bytes as the store keeps them, and as JSON (UTF-8): a
    record kept as JSON (before issue 39) is the same twice."""
    data: str | bytes = store._tables[chat_id].data  # what Redis would keep
    stored = len(data.encode()) if isinstance(data, str) else len(data)
    if isinstance(data, bytes) and data[:1] != b"{":
        return stored, len(zlib.decompress(data))
    return stored, stored


async def one_game(players: int, seed: int) -> dict[str, Any]:
    store = MemoryStore()
    h = Harness(store)
    users = people(*NAMES[:players])
    await h.open_game(GROUP, users[0], users[1:], seed=seed)
    rng = random.Random(seed)
    table = await h.table(GROUP)
    assert table.state is not None
    dealt = len(table.state.deck)
    sizes: list[int] = []
    jsons: list[int] = []
    mid: tuple[int, int] | None = None
    while table.status == "playing":
        state = table.state
        assert state is not None
        stored, as_json = kept(store, GROUP)
        sizes.append(stored)
        jsons.append(as_json)
        if mid is None and len(state.deck) <= dealt // 2:
            mid = stored, as_json
        decision = pending(state)
        assert decision is not None
        user = next(u for u in users if table.seat_of(u.id) == decision.seat)
        await h.answer(user, GROUP, decision.options[rng.randrange(len(decision.options))])
        table = await h.table(GROUP)
    return {
        "seed": seed,
        "moves": len(sizes),
        "mid_bytes": mid[0] if mid else None,
        "mid_json_bytes": mid[1] if mid else None,
        "max_bytes": max(sizes),
        "mean_bytes": round(statistics.fmean(sizes)),
        "mean_json_bytes": round(statistics.fmean(jsons)),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = []
    for i in range(args.games):
        row = await one_game(args.players, args.seed + i)
        rows.append(row)
        print(json.dumps(row))
    means = {
        key: round(statistics.fmean(r[key] for r in rows if r[key] is not None))
        for key in ("mid_bytes", "mid_json_bytes", "max_bytes", "mean_bytes", "mean_json_bytes")
    }
    print(json.dumps({"games": len(rows), "players": args.players, **means}))


if __name__ == "__main__":
    asyncio.run(main())
