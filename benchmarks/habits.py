"""How a level plays the turns issue 20 found it playing badly, counted over games.

    python -m benchmarks.habits --level strong --vs normal --games 40 [--seed 1]

Game i seats `level` at seat i mod 4 and `vs` at the others; only the tested
seat's decisions are counted. Prints one JSON line:

- `castle_built_share`: of its turn decisions where building a castle was
  offered, the share where it built one;
- `late_discards_per_game`: discards of a house card it could have laid, once
  the game deck is down to 15 cards or fewer;
- `only_card_discards`: discards of its only card while it could draw, by the
  kind of card thrown away;
- `last_turn_unlaid_ends`: last turns of the game it ended with a house card it
  could lay still in hand while it led on points.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from benchmarks.arena import PLAYERS, answer
from engine import GameSetup, new_game, pending
from engine.api import apply
from engine.cards import catalog_for


def count(level: str, vs: str, games: int, seed: int, players: int = 4) -> dict[str, object]:
    offered = built = late_discards = unlaid_ends = 0
    only_card: dict[str, int] = {}
    for i in range(games):
        seat = i % players
        state, _ = new_game(GameSetup(players=players, seed=seed + i))
        cat = catalog_for(state.rules)
        while (d := pending(state)) is not None:
            me = d.seat == seat
            option = answer(level if me else vs, state, d)
            if me and d.kind == "action":
                verbs = {o[0] for o in d.options}
                if "build" in verbs:
                    offered += 1
                    built += option[0] == "build"
                layable = {o[1] for o in d.options if o[0] == "lay"}
                if option[0] == "discard":
                    card = option[1]
                    if len(state.deck) <= 15 and card in layable:
                        late_discards += 1
                    if len(state.players[seat].hand) == 1 and "draw" in verbs:
                        kind = cat[card].type
                        only_card[kind] = only_card.get(kind, 0) + 1
                if option == ("end",) and state.final_turns == 0 and layable:
                    points = [
                        sum(cat[c].points for h in p.houses for c in h.cards)
                        + state.rules.castle_points * sum(h.castle is not None for h in p.houses)
                        for p in state.players
                    ]
                    if points[seat] == max(points):
                        unlaid_ends += 1
            apply(state, d.seat, d.id, option)
    return {
        "level": level,
        "vs": vs,
        "games": games,
        "castle_offers": offered,
        "castle_built_share": round(built / offered, 3) if offered else 0.0,
        "late_discards_per_game": round(late_discards / games, 3),
        "only_card_discards": only_card,
        "last_turn_unlaid_ends": unlaid_ends,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.habits", description=__doc__)
    parser.add_argument("--level", choices=PLAYERS, default="strong")
    parser.add_argument("--vs", choices=PLAYERS, default="normal")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(json.dumps(count(args.level, args.vs, args.games, args.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
