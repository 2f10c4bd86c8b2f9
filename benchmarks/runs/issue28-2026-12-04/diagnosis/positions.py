"""Collect action positions in the end game (deck <= 36, > 0) where a scoring lay into
own row exists and END is offered; normal plays every seat."""

import json
import sys

from engine import GameSetup, new_game, pending
from engine.ai import decide
from engine.api import apply
from engine.cards import catalog_for


def layable(state, d):
    cards = catalog_for(state.rules).cards
    me = str(d.seat)
    return ("end",) in d.options and any(
        o[0] == "lay" and o[2] == me and cards[o[1]].points > 0 for o in d.options
    )


seed0, games, out, every = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
n = 0
with open(out, "w") as f:
    for g in range(games):
        state, _ = new_game(GameSetup(players=4, seed=seed0 + g, computer=(0, 1, 2, 3)))
        while (d := pending(state)) is not None:
            if d.kind == "action" and 0 < len(state.deck) <= 36 and layable(state, d):
                n += 1
                if n % every == 0:
                    f.write(
                        json.dumps(
                            {
                                "game": seed0 + g,
                                "deck": len(state.deck),
                                "state": state.model_dump_json(),
                                "seat": d.seat,
                                "id": d.id,
                            }
                        )
                        + "\n"
                    )
            apply(state, d.seat, d.id, decide(state, d, "normal"))
