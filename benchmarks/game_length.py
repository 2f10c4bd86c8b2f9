"""How long a game lasts, for the length /newgame announces (issue 16).

    python -m benchmarks.game_length --games 30 --level normal --seconds-per-turn 25

Plays `--games` seeded games for each count of players (2–6) with every seat
played by the computer at `--level` (``normal`` looks a move ahead: the
nearest stand-in for people who think about their move — its 3-player games
take 58–62 turns, as people's did; ``easy`` plays at random and draws more),
and counts each game's turns and decisions (every choice someone makes: an
action, a card to give in a Заговор…).

People were seen to play a 3-player game in 25 minutes for 60 turns (issue
16: through a Bot API emulator, at human pace), `--seconds-per-turn` 25. A
bigger table asks more choices a turn (every смута goes round everyone), so
the pace is taken per decision: 25 s a turn over the decisions a turn of a
3-player game makes here. Prints one JSON line a count of players: the
quartiles of turns and decisions, and the minutes the middle half of the
games takes (the lower end rounded down, the upper up, to 5 minutes) — what
`bot.service.seating.GAME_MINUTES` keeps.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics

from engine import GameSetup, apply, new_game, pending
from engine.ai import LEVELS, Level, decide


def play(players: int, seed: int, level: Level) -> tuple[int, int]:
    """(turns, decisions) of one game."""
    state, _ = new_game(GameSetup(players=players, seed=seed))
    decisions = 0
    while (decision := pending(state)) is not None:
        apply(state, decision.seat, decision.id, decide(state, decision, level))
        decisions += 1
    return state.turn, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--level", choices=LEVELS, default="normal")
    parser.add_argument("--seconds-per-turn", type=float, default=25.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = {
        players: [play(players, args.seed + i, args.level) for i in range(args.games)]
        for players in range(2, 7)
    }
    three = games[3]
    per_decision = args.seconds_per_turn * sum(t for t, _ in three) / sum(d for _, d in three)
    for players, played in games.items():
        turns = statistics.quantiles([t for t, _ in played], n=4)
        decisions = statistics.quantiles([d for _, d in played], n=4)
        low, high = (d * per_decision / 60 for d in (decisions[0], decisions[2]))
        print(
            json.dumps(
                {
                    "players": players,
                    "level": args.level,
                    "games": args.games,
                    "turns_quartiles": turns,
                    "decisions_quartiles": decisions,
                    "seconds_per_decision": round(per_decision, 1),
                    "minutes": [5 * math.floor(low / 5), 5 * math.ceil(high / 5)],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
