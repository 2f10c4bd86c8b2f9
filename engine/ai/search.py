"""The *strong* level: determinized Monte Carlo search with successive halving.

1. Candidates: every option is weighed by normal's one-ply look-ahead
   (`engine.ai.lookahead.ranked`, with `StrongConfig.weights`); the best
   `candidates` go on.
2. Worlds: `worlds` states the seat cannot tell from the real one are drawn
   from its observation (`engine.hidden`); every candidate meets the same worlds
   (common random numbers: the differences between candidates are not luck).
3. Rollouts: in each world a candidate is answered and the game played on by the
   rule player (`engine.ai.rules`) for every seat — through the rest of this
   turn and the other seats' turns, up to the start of this seat's next turn —
   and the table valued (`engine.ai.evaluate.value`). Once the game deck is down
   to `endgame_deck` cards the rollouts go to the end of the game instead, and
   the real result counts (score margin, and a bonus for a win).
4. Successive halving: after each pass over the worlds drawn so far, the worse
   half of the candidates is dropped and the survivors meet as many new worlds
   again, so the budget goes to the options that are close.

A question inside a смута or a property is weighed the same way, its rollouts
starting from that answer. Forced answers and questions whose one-ply values
are far apart skip the search. The work is counted in rollouts, never time, so
the same observation and seed give the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.evaluate import DEFAULT, Weights, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Option
from engine.hidden import Observation, copy_state

#: strong's weights: normal's count, with a hand valued by the turns left to lay it
STRONG_WEIGHTS = Weights(timed_hand=True)


@dataclass(frozen=True, slots=True)
class StrongConfig:
    candidates: int = 6  # the best options by one ply that the search weighs
    worlds: int = 8  # worlds in the first pass; each later pass adds as many again
    endgame_deck: int = 15  # with this few cards left in the game deck, play to the end
    horizon: int = 160  # decisions in a rollout to the seat's next turn, at most
    margin: float = 6.0  # one-ply values this far below the best are not searched
    weights: Weights = STRONG_WEIGHTS
    rollout_weights: Weights = DEFAULT


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
    best_value = first[0][0]
    candidates = [i for v, i in first[: config.candidates] if v >= best_value - config.margin]
    if len(candidates) <= 1 or config.worlds == 0:
        return options[first[0][1]]
    endgame = len(obs.table.deck) <= config.endgame_deck
    cat = catalog_for(obs.table.rules)
    totals = dict.fromkeys(candidates, 0.0)
    played = 0
    alive = candidates
    batch = config.worlds
    while True:
        for k in range(played, played + batch):
            world = obs.world(seed + 1000 + k)
            for i in alive:
                s = copy_state(world)
                ask = playout_step(s, options[i])
                if endgame:
                    play_until_turn_of(s, ask, -1, ENDGAME_CAP)
                else:
                    play_until_turn_of(s, ask, seat, config.horizon)
                totals[i] += value(s, seat, cat, config.rollout_weights)
        played += batch
        if len(alive) <= 2:
            break
        # keep the better half (the one-ply order breaks ties), then meet new worlds
        order = {i: rank for rank, (_, i) in enumerate(first)}
        alive = sorted(alive, key=lambda i: (-totals[i], order[i]))[: (len(alive) + 1) // 2]
        batch = played
    order = {i: rank for rank, (_, i) in enumerate(first)}
    best = max(alive, key=lambda i: (totals[i], -order[i]))
    return options[best]
