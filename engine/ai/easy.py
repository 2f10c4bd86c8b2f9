"""The easy level (`engine.ai.decide(…, "easy")`): always a legal option, at random, seeded.

It picks uniformly among the kinds of option first (the first part: draw, lay,
play, …), then uniformly among the options of that kind, so a hand of seven
cards does not drown out drawing or ending the turn. The choice depends only on
the game's seed and the decision id, never on the game's own generator, so a
computer answer does not change the game's future draws.
"""

from __future__ import annotations

from engine import rng
from engine.core import Decision, Option


def choose(seed: int, decision: Decision) -> Option:
    options = decision.options
    state = (
        seed * 0x9E3779B97F4A7C15 + decision.id * 0xD1B54A32D192ED03 + decision.seat
    ) & rng.MASK
    kinds = {o[0] for o in options}
    if len(kinds) == 1:
        # one kind of option (most questions but a turn's action): the draw of the
        # kind is still made, so the generator advances as it always did
        state = (state + rng.GOLDEN) & rng.MASK
        same_kind = options
    else:
        ordered = sorted(kinds)
        state, k = rng.below(state, len(ordered))
        kind = ordered[k]
        same_kind = tuple(o for o in options if o[0] == kind)
    state, i = rng.below(state, len(same_kind))
    return same_kind[i]
