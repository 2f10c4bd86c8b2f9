"""Each person's review of their game (issue 27, item 6): the worker's CPU a
game's reviews take, how long after the result each review goes out, and what
the event loop feels meanwhile.

    python -m benchmarks.review --games 5 --processes

For 2, 4 and 6 players, `--games` whole games are played, every seat a
person playing at random (the easy level): the worst case, many costly
choices, so every review runs all its strong searches until the budget cuts
them. (A seat played by the normal level would cost ~0.1 s: the review weighs
choices as normal does, so normal's own answers cost nothing and no search
runs.) After each
game its reviews go through the bot's own path (`Carrier.after_result`, in a
task of their own, and `bot.service.reviews.Reviews`: the log read, each
person's review and chart made in the pictures' worker — a thread, or with
`--processes` the worker process, started and warmed first as the bot does —
within the game's CPU budget, `--cpu`, the bot's ``REVIEW_CPU_SECONDS``) and
"sent" by the carrier to a messenger that notes when. The result
is told at t=0; a review's delay is from then to its sending. Meanwhile a
coroutine on the loop asks for a 5 ms sleep again and again: its worst
overshoot is how long the loop was held up. Prints one JSON line a player
count: CPU per game (the worker's, all its reviews; median and max), CPU per
person (max), moments told, and the delays of the first and the last review.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from benchmarks.picture import Store, played, watch
from bot.service.pictures import Pictures
from bot.service.reviews import GAME_CPU, Reviewed, Reviews
from bot.store import UserPrefs
from bot.telling.carrying import Carrier
from bot.words.i18n import Translator


class Messenger:
    """Notes when each review went out, and its moments."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, int]] = []  # (perf_counter, moments)

    async def send_photo(
        self, chat_id: int, png: bytes, caption: str, *args: Any, **kw: Any
    ) -> int:
        self.sent.append((time.perf_counter(), caption.count("<b>")))
        return 1


class Counted(Reviews):
    """The bot's reviews, the CPU of each person's noted."""

    spent: list[float]

    async def _made(self, *args: Any) -> Reviewed | None:
        made = await super()._made(*args)
        self.spent.append(0.0 if made is None else made.cpu)
        return made


async def measure(players: int, games: int, processes: bool, cpu: float) -> dict[str, object]:
    tr = Translator()
    per_game: list[float] = []
    per_person: list[float] = []
    first: list[float] = []
    last: list[float] = []
    moments: list[int] = []
    lags: list[float] = []
    pictures = Pictures(Store([]), tr, processes=processes)
    await pictures.warm()
    for g in range(games):
        table, commands = played(players, 200 + g, "easy")  # at random: the costliest to review
        store = Store(commands)
        for seat in table.seats:
            assert seat.user_id is not None
            await store.save_user(UserPrefs(user_id=seat.user_id, started=True))
        pictures.store = store
        messenger = Messenger()
        reviews = Counted(store, tr, pictures, cpu=cpu)  # type: ignore[arg-type]
        reviews.spent = []
        # the bot's carrier, of which only the reviews' part is used here
        carrier = Carrier(None, None, messenger, None, reviews, None)  # type: ignore[arg-type]
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch(stop))
        told: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        carrier.after_result(table, told)
        told.set_result(None)  # the result is out
        started = time.perf_counter()
        await carrier.reviewing.idle()
        stop.set()
        lags.append(await watcher)
        assert len(messenger.sent) == players, "every person got their review"
        per_game.append(sum(reviews.spent))
        per_person += reviews.spent
        first.append(messenger.sent[0][0] - started)
        last.append(messenger.sent[-1][0] - started)
        moments += [m for _, m in messenger.sent]
    pictures.close()
    return {
        "where": "process" if processes else "thread",
        "players": players,
        "games": games,
        "budget_s": cpu,
        "cpu_game_median_s": round(statistics.median(per_game), 2),
        "cpu_game_max_s": round(max(per_game), 2),
        "cpu_person_max_s": round(max(per_person), 2),
        "moments_mean": round(statistics.mean(moments), 1),
        "first_review_median_s": round(statistics.median(first), 2),
        "last_review_median_s": round(statistics.median(last), 2),
        "last_review_max_s": round(max(last), 2),
        "loop_lag_ms_max": round(max(lags) * 1000, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument(
        "--processes", action="store_true", help="in the worker process (the bot's default)"
    )
    parser.add_argument(
        "--cpu", type=float, default=GAME_CPU, help="a game's budget (REVIEW_CPU_SECONDS)"
    )
    args = parser.parse_args()
    for players in (2, 4, 6):
        print(json.dumps(asyncio.run(measure(players, args.games, args.processes, args.cpu))))


if __name__ == "__main__":
    main()
