"""What a year of play costs Redis (issue 17): `used_memory` per finished game
and per chat, on a Redis of its own.

    python -m benchmarks.memory --games 600 --chats 200 [--players 3]
    python -m benchmarks.memory --games 200 --chats 1     # one chat's full history

Starts a ``redis-server`` on a free port (nothing else writes to it; no
persistence), then plays `--games` whole games of people over `--chats` group
chats (their games round-robin, each game's seats drawn from its chat's six
regulars) through `RedisStore` as the bot saves them: the lobby, the moves (ten
commands a save), the finishing save that writes the history, and the rating
of every game (`Ratings.drain`). The games are the engine's own, played by its
policy to the end: a 3-player game is ~225 commands.

Prints one JSON line:

- `kept_per_game`: what one more game keeps for good — the games are played
  in two halves, the records (kept `FINISHED_TTL`, a week) let go after each;
  the growth of `used_memory` over the second half, per game;
- `kept_per_chat`: what the first half keeps beyond its games, per chat (its
  players' figures, their sets, the history's own key);
- `kept_total`, `with_records_total`: `used_memory` less the empty server's,
  at the end, without and with the last week's records;
- `history_bytes_per_game`: the history's own bytes for one game (record,
  packed log, number, index entry), the figure `GAME_BUDGET` bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import socket
import subprocess
import tempfile
import time
from typing import Any

from redis.asyncio import Redis

from bot.service.ratings import Ratings
from bot.store.models import Seat, Table
from bot.store.redis import RedisStore
from bot.words.i18n import Translator
from engine import Command, GameSetup, apply, new_game, pending
from engine.policy import choose

NAMES = ["Анна Каренина", "Борис Годунов", "Вера Павлова", "Глеб Жеглов", "Дина Рубина", "Егор"]
TITLE = "Смута по пятницам"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def whole_game(players: int, seed: int) -> tuple[GameSetup, Any, list[Command]]:
    setup = GameSetup(players=players, seed=seed)
    state, _ = new_game(setup)
    commands: list[Command] = []
    while (decision := pending(state)) is not None:
        option = choose(seed + len(commands), decision)
        apply(state, decision.seat, decision.id, option)
        commands.append(Command(seat=decision.seat, decision=decision.id, option=option))
    return setup, state, commands


async def play(store: RedisStore, chat: int, seed: int, players: int, rng: random.Random) -> None:
    """One whole game in `chat`, saved as the bot saves it."""
    regulars = [(abs(chat) % 10**6) * 10 + i for i in range(6)]
    people = rng.sample(range(6), players)
    existing = await store.load(chat)
    last = max(existing.game_no if existing else 0, await store.last_game_no(chat))
    table = Table(
        chat_id=chat,
        game_no=last + 1,
        title=TITLE,
        creator_id=regulars[people[0]],
        seats=[Seat(user_id=regulars[i], name=NAMES[i]) for i in people],
        version=existing.version if existing else 0,
    )
    assert await store.save(table)
    setup, state, commands = whole_game(players, seed)
    table.setup, table.status = setup, "playing"
    table.state, _ = new_game(setup)
    for i in range(0, len(commands) - 1, 10):
        assert await store.save(table, commands[i : min(i + 10, len(commands) - 1)])
    table.state, table.status = state, "finished"
    assert await store.save(table, commands[-1:])


async def used(client: Any) -> int:
    info = await client.info("memory")
    return int(info["used_memory"])


async def forget_records(client: Any, store: RedisStore, chats: list[int]) -> None:
    """The records' week passes (lobbies, games, finished records expire)."""
    for chat in chats:
        await client.delete(store._table_key(chat), store._log_key(chat), store._msgs_key(chat))


async def measure(url: str, games: int, chats: int, players: int) -> dict[str, Any]:
    """Two halves of the games; each half's finished records then expire. What
    the second half adds is per game; what the first leaves beyond its games
    is per chat (profiles of figures, sets, the history's own keys)."""
    client: Any = Redis.from_url(url)
    store = RedisStore(client, "smuta")
    ratings = Ratings(store, Translator())
    await play(store, -1, 0, players, random.Random(0))  # the scripts loaded, then forgotten
    await client.flushall()
    empty = await used(client)
    rng = random.Random(1)
    chat_ids = [-1001000000000 - i for i in range(chats)]
    half = games // 2
    kept: list[int] = []
    with_records = 0
    for start, stop in ((0, half), (half, games)):
        for n in range(start, stop):
            await play(store, chat_ids[n % chats], n + 1, players, rng)
            if n % 50 == 49:
                await ratings.drain()
        await ratings.drain()
        with_records = await used(client) - empty
        await forget_records(client, store, chat_ids)
        kept.append(await used(client) - empty)
    per_game = (kept[1] - kept[0]) / (games - half)
    per_chat = (kept[0] - per_game * half) / chats
    history_bytes = 0
    for chat in chat_ids[: min(chats, 20)]:
        fields = await client.hgetall(store._history_key(chat))
        games_kept = sum(1 for f in fields if f.startswith(b"r:"))
        size = sum(len(f) + len(v) for f, v in fields.items() if f != b"last")
        index_entry = len(str(games)) + len(f"{chat}:{games}")
        history_bytes = max(history_bytes, size // max(1, games_kept) + index_entry)
    await client.aclose()
    return {
        "games": games,
        "chats": chats,
        "players": players,
        "kept_per_game": round(per_game),
        "kept_per_chat": round(per_chat),
        "kept_total": kept[1],
        "with_records_total": with_records,
        "history_bytes_per_game": history_bytes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    server = shutil.which("redis-server")
    if server is None:
        raise SystemExit("redis-server is not installed")
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        proc = subprocess.Popen(
            [server, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", workdir],
            stdout=subprocess.DEVNULL,
        )
        try:
            url = f"redis://127.0.0.1:{port}/0"
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            figures = asyncio.run(measure(url, args.games, args.chats, args.players))
            print(json.dumps(figures), flush=True)
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
