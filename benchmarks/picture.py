"""The game's picture off the event loop (issue 27, item 5): how long it takes
to draw, how big it is, and what the event loop feels meanwhile.

    python -m benchmarks.picture --games 5

For 2, 4 and 6 players, `--games` whole games of computers (normal level) are
played; each result picture is drawn through the bot's own path
(`bot.service.pictures.Pictures.of_table`: the log read, the replay and the
drawing in the drawing thread, or with `--processes` in the drawing process,
started and warmed first as the bot does) while a coroutine on the loop asks
for a 5 ms sleep again and again: its worst overshoot is how long the loop was
held up while the picture was drawn beside it. Prints one JSON line a player
count.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from bot.service.pictures import Pictures
from bot.store.memory import MemoryStore
from bot.store.models import Seat, Table
from bot.words.i18n import Translator
from engine import Command, GameSetup, apply, new_game, pending
from engine.ai import Level, decide


def played(players: int, seed: int, level: Level = "normal") -> tuple[Table, list[Command]]:
    """A finished game of `players` computers of `level`, and its command log."""
    setup = GameSetup(players=players, seed=seed)
    state, _ = new_game(setup)
    commands = []
    while (d := pending(state)) is not None:
        option = decide(state, d, level)
        apply(state, d.seat, d.id, option)
        commands.append(Command(seat=d.seat, decision=d.id, option=option))
    table = Table(
        chat_id=-1,
        game_no=1,
        creator_id=1,
        title="Бенчмарк",
        status="finished",
        seats=[Seat(user_id=i + 1, name=f"Игрок {i + 1}") for i in range(players)],
        setup=setup,
        state=state,
    )
    return table, commands


class Store(MemoryStore):
    """The command log the picture reads, without playing the game through the bot."""

    def __init__(self, commands: list[Command]) -> None:
        super().__init__()
        self.commands = commands

    async def log(self, chat_id: int) -> list[Command]:
        return self.commands


async def watch(stop: asyncio.Event) -> float:
    """The worst overshoot of a 5 ms sleep on the loop until `stop`."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    while not stop.is_set():
        t = loop.time()
        await asyncio.sleep(0.005)
        worst = max(worst, loop.time() - t - 0.005)
    return worst


async def measure(players: int, games: int, processes: bool) -> dict[str, object]:
    tr = Translator()
    drawn: list[float] = []
    sizes: list[int] = []
    lags: list[float] = []
    heights: list[int] = []
    pictures = Pictures(Store([]), tr, processes=processes)
    await pictures.warm()
    for g in range(games):
        table, commands = played(players, 100 + g)
        pictures.store = Store(commands)
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch(stop))
        started = time.perf_counter()
        png = await pictures.of_table(table)
        drawn.append(time.perf_counter() - started)
        stop.set()
        lags.append(await watcher)
        assert png is not None
        sizes.append(len(png))
        heights.append(int.from_bytes(png[20:24], "big"))  # the PNG's IHDR height
    pictures.close()
    return {
        "where": "process" if processes else "thread",
        "players": players,
        "games": games,
        "first_ms": round(drawn[0] * 1000),
        "median_ms": round(statistics.median(drawn[1:] or drawn) * 1000),
        "max_ms": round(max(drawn) * 1000),
        "bytes_max": max(sizes),
        "height_px_max": max(heights),
        "loop_lag_ms_max": round(max(lags) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument(
        "--processes", action="store_true", help="draw in a worker process (the bot's default)"
    )
    args = parser.parse_args()
    for players in (2, 4, 6):
        print(json.dumps(asyncio.run(measure(players, args.games, args.processes))))


if __name__ == "__main__":
    main()
