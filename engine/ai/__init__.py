"""Computer players, three levels (RULES.md §8: a seat the computer plays).

    from engine.ai import LEVELS, decide
    option = decide(state, decision, "normal")

- **easy**: a legal option at random (`engine.policy.choose`), for beginners.
- **normal**: one-ply look-ahead on a re-dealt copy, valued by a material count
  (`engine.ai.players`); a few milliseconds a decision.
- **strong**: the same look-ahead with a better-informed count, and once the game
  deck runs low, its best few options played on to the end of the game in many
  re-dealt worlds (determinized Monte Carlo); its work is counted in look-aheads,
  not time, so it stays deterministic; well under a second a decision.

`decide` is pure: it never changes `state`, it always returns one of
`decision.options`, it depends only on what `view_for(state, decision.seat)`
shows (plus the cards that seat has seen in other hands), the game's seed and
the decision, and its inputs pickle (a `GameState` or its JSON text), so it can
run in a worker process.
"""

from __future__ import annotations

from typing import Literal

from engine import policy
from engine.ai.players import normal, strong
from engine.core import Decision, Option
from engine.hidden import mix
from engine.state import GameState

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")


def decide(state: GameState | str | bytes, decision: Decision, level: Level) -> Option:
    """The computer's answer to `decision`, which must be the one pending in `state`."""
    if len(decision.options) == 1:
        return decision.options[0]
    if level == "easy":
        return policy.choose(_seed_of(state), decision)
    game = state if isinstance(state, GameState) else GameState.from_json(state)
    seed = mix(game.seed, decision.id, decision.seat, LEVELS.index(level))
    if level == "normal":
        return normal(game, decision.seat, decision.kind, decision.options, seed)
    if level == "strong":
        return strong(game, decision.seat, decision.kind, decision.options, seed)
    raise ValueError(f"no level {level!r}")


def _seed_of(state: GameState | str | bytes) -> int:
    if isinstance(state, GameState):
        return state.seed
    return GameState.from_json(state).seed


__all__ = ["LEVELS", "Level", "decide"]
