"""The *strong* level: normal's look-ahead on more worlds, and a search to the end of
the game once the game deck runs low.

Until the game deck is down to `StrongConfig.endgame_deck` cards, strong weighs
every option as normal does (`engine.ai.lookahead.ranked`), with more worlds
for an option whose outcome hangs on a hidden card. Then it searches:

1. Candidates: the best `candidates` options by that one-ply count (those
   within `margin` of the best).
2. Worlds: states the seat cannot tell from the real one, drawn from its
   observation (`engine.hidden`); every candidate meets the same worlds (common
   random numbers: the differences between candidates are not luck).
3. Rollouts: in each world a candidate is answered and the game played to its
   end by the rule player (`engine.ai.rules`) for every seat; the real result
   counts (score margin over the best other seat, and a bonus for a win).
4. Successive halving: after each pass over the worlds drawn so far, the worse
   half of the candidates is dropped and the survivors meet as many new worlds
   again, so the rollouts go to the options that are close. A pass that would
   take the decisions played past `StrongConfig.budget` (judged by the passes
   so far) is not started: the leader so far is taken.

Rollouts to the seat's next turn through the middle of the game were tried
(`midgame=True`) and did not measure better (BENCHMARKS.md). The work is
counted in rollouts, never time, so the same observation and seed give the same
answer.

A caller with a deadline (a person's hint: `engine.ai.hint`) passes `stop`, a
function asked between rollouts whether time is up; `search` then says whether
it finished. The engine never reads a clock itself: the caller's `stop` does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.evaluate import DEFAULT, Weights, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Option
from engine.hidden import Observation, copy_state

#: strong's weights: normal's count (a castle worth its points and protection)
STRONG_WEIGHTS = DEFAULT


@dataclass(frozen=True, slots=True)
class StrongConfig:
    candidates: int = 5  # the best options by one ply that the search weighs
    worlds: int = 16  # worlds in the first pass; each later pass adds as many again
    endgame_deck: int = 36  # with this few cards left in the game deck, play to the end
    samples: int = 6  # one ply: worlds for an option that hangs on a hidden card
    midgame: bool = False  # also search before the end game, rollouts to the next turn
    horizon: int = 160  # decisions in a rollout to the seat's next turn, at most
    margin: float = 6.0  # one-ply values this far below the best are not searched
    # decisions played in a search's rollouts, at most: a pass that would go past it
    # (by the passes so far) is not started, so no decision takes much over ~0.6 s
    budget: int = 20_000
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
    return search(obs, kind, options, seed, config)[0]


def search(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: StrongConfig | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[Option, bool]:
    """Strong's answer, and whether the search finished: False when `stop` said
    time was up before it did (the answer is then only the leader so far: a
    caller with a deadline should not trust it). Without `stop` it always finishes."""
    if len(options) == 1:
        return options[0], True
    config = config or STRONG
    seat = obs.seat
    first = ranked(
        obs, kind, options, seed, NormalConfig(samples=config.samples, weights=config.weights)
    )
    if stop is not None and stop():
        return options[first[0][1]], False
    endgame = len(obs.table.deck) <= config.endgame_deck
    best_value = first[0][0]
    candidates = [i for v, i in first[: config.candidates] if v >= best_value - config.margin]
    if len(candidates) <= 1 or config.worlds == 0 or not (endgame or config.midgame):
        return options[first[0][1]], True
    cat = catalog_for(obs.table.rules)
    totals = dict.fromkeys(candidates, 0.0)
    order = {i: rank for rank, (_, i) in enumerate(first)}
    played = 0
    steps = rollouts = 0
    alive = candidates
    batch = config.worlds
    while True:
        for k in range(played, played + batch):
            world = obs.world(seed + 1000 + k)
            for i in alive:
                if stop is not None and stop():
                    # cut short: the leader so far, which the caller should not trust
                    return options[max(alive, key=lambda c: (totals[c], -order[c]))], False
                s = copy_state(world)
                ask = playout_step(s, options[i])
                if endgame:
                    steps += play_until_turn_of(s, ask, -1, ENDGAME_CAP)
                else:
                    steps += play_until_turn_of(s, ask, seat, config.horizon)
                totals[i] += value(s, seat, cat, config.rollout_weights)
        rollouts += batch * len(alive)
        played += batch
        if len(alive) <= 2:
            break
        # keep the better half (the one-ply order breaks ties), then meet new worlds
        alive = sorted(alive, key=lambda i: (-totals[i], order[i]))[: (len(alive) + 1) // 2]
        batch = played
        if steps + steps / rollouts * batch * len(alive) > config.budget:
            break  # the next pass would go past the budget: the leader so far is taken
    best = max(alive, key=lambda i: (totals[i], -order[i]))
    return options[best], True
