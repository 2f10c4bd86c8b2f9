"""The *strong* level (see `STRONG` for how it plays; BENCHMARKS.md for how it fares)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.evaluate import Weights, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Option
from engine.hidden import Observation, copy_state

#: strong's own weights (normal keeps `DEFAULT`)
STRONG_WEIGHTS = Weights(
    timed_hand=True,
    castle_survival=True,
    permanent_orange=2.0,
    permanent_red=1.5,
    permanent_other=0.5,
)


@dataclass(frozen=True, slots=True)
class StrongConfig:
    candidates: int = 4  # the best options by the one-ply look-ahead searched further
    worlds: int = 16  # worlds each candidate is played in
    endgame_deck: int = 15  # with this few cards left in the game deck, search to the end
    weights: Weights = STRONG_WEIGHTS


#: the configuration `strong` plays with (the arena may set another for experiments)
STRONG = StrongConfig()


def strong(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: StrongConfig | None = None,
) -> Option:
    if len(options) == 1:
        return options[0]
    config = config or STRONG
    seat = obs.seat
    first = ranked(obs, kind, options, seed, NormalConfig(weights=config.weights))
    endgame = len(obs.table.deck) <= config.endgame_deck
    candidates = [i for _, i in first[: config.candidates]] if endgame else []
    if len(candidates) <= 1:
        return options[first[0][1]]
    totals = dict.fromkeys(candidates, 0.0)
    cat = catalog_for(obs.table.rules)
    for k in range(config.worlds):
        world = obs.world(seed + 1000 + k)
        for i in candidates:
            s = copy_state(world)
            ask = playout_step(s, options[i])
            play_until_turn_of(s, ask, -1, ENDGAME_CAP)  # to the end of the game
            totals[i] += value(s, seat, cat, config.weights)
    # the best mean; on a tie the one-ply order decides
    order = {i: rank for rank, (_, i) in enumerate(first)}
    best = max(candidates, key=lambda i: (totals[i], -order[i]))
    return options[best]
