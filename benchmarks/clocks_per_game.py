"""How many clocks a game at own pace starts for people (issue 40): the
figure the lobby turns into days (`bot.service.clocks.CLOCKS_PER_GAME`).

    python -m benchmarks.clocks_per_game --games 2000

At own pace a clock is a turn's (its actions share it) or a private choice
asked of someone else in between (a смута's answer, an order); a turn whose
player answers someone else's choice meanwhile goes on with its own clock.
Plays `--games` whole games a player count (2–6) with the normal level and
counts, per game, the turns and the choices asked of a seat other than the
one whose turn it is. Prints one JSON line: for each player count the mean,
the 10th and the 90th percentile of clocks a game.
"""

from __future__ import annotations

import argparse
import json
import statistics

from engine.ai import decide
from engine.api import GameSetup, apply, new_game, pending


def clocks_of(players: int, seed: int) -> int:
    state, _ = new_game(GameSetup(players=players, seed=seed))
    clocks = 0
    turn = -1
    while (decision := pending(state)) is not None:
        if decision.seat != state.current:
            clocks += 1  # someone else's answer: a clock of its own
        elif state.turn != turn:
            clocks += 1  # a turn begins: its clock
            turn = state.turn
        apply(state, decision.seat, decision.id, decide(state, decision, "normal"))
    return clocks


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = {}
    for players in range(2, 7):
        counts = sorted(clocks_of(players, args.seed + i) for i in range(args.games))
        tenth = counts[len(counts) // 10]
        ninetieth = counts[len(counts) * 9 // 10]
        mean = round(statistics.mean(counts), 1)
        out[str(players)] = {"mean": mean, "p10": tenth, "p90": ninetieth}
    print(json.dumps({"games": args.games, "clocks_per_game": out}))


if __name__ == "__main__":
    main()
