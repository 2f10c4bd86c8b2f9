"""The *normal* level: a one-ply look-ahead on worlds the seat cannot tell apart.

Every option is played on a re-dealt world (`engine.hidden.Observation.world`),
the game runs on with the heuristic player (`engine.ai.heuristic`) to a common horizon,
and the table is valued by a material count (`engine.ai.evaluate.value`):

- a turn action: as the last of the turn — the action, whatever it sets off (a
  смута drawn is played out), then the turn ends, up to the next seat's turn or
  the end of the game — so every action meets the same horizon: ending the last
  turn of the game is weighed against laying what is left by the final score;
- an answer within a смута or a property: up to the first question to another
  seat.

An option whose outcome hangs on a hidden card (a draw, a look at a hand, a
random take) is weighed on a few worlds and averaged. Options that differ only
in which of two alike cards of the hand they use are weighed once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai.evaluate import DEFAULT, Weights, value
from engine.ai.playout import hangs_on_hidden, settle
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Option
from engine.hidden import Observation, copy_state
from engine.state import GameState
from engine.turn import END_TURN


@dataclass(frozen=True, slots=True)
class NormalConfig:
    samples: int = 3  # worlds for an option that hangs on a hidden card
    weights: Weights = DEFAULT


def played(world: GameState, option: Option, seat: int, kind: str) -> GameState:
    """A copy of `world` with `option` answered and played on to the horizon."""
    s = copy_state(world)
    ask = playout_step(s, option)
    if kind == "action":
        ask = settle(s, ask)
        if ask is not None and ask.seat == seat and END_TURN in ask.options:
            # weigh the action as the turn's last: every action meets the same horizon
            # (the next seat's turn, or the end of the game on the last turn)
            settle(s, playout_step(s, END_TURN))
    else:
        settle(s, ask, seat)
    return s


def one_ply(world: GameState, option: Option, seat: int, kind: str, w: Weights) -> float:
    """The value for `seat` of answering `option` in `world` (a copy is played)."""
    s = played(world, option, seat, kind)
    return value(s, seat, catalog_for(s.rules), w)


def ranked(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: NormalConfig,
) -> list[tuple[float, int]]:
    """(value, index) of every option by the one-ply look-ahead, best first."""
    seat = obs.seat
    world = obs.world(seed)
    more: list[GameState] = []
    scored: list[tuple[float, int]] = []
    cat = catalog_for(obs.table.rules)
    hand = set(obs.table.players[seat].hand)
    seen: dict[Option, float] = {}
    for i, option in enumerate(options):
        key = tuple(cat.cards[p].type_key if p in hand else p for p in option)
        if key in seen:
            scored.append((seen[key], i))
            continue
        if hangs_on_hidden(kind, option) and config.samples > 1:
            if not more:
                more = [obs.world(seed + k) for k in range(1, config.samples)]
            v = sum(one_ply(wd, option, seat, kind, config.weights) for wd in (world, *more))
            v /= config.samples
        else:
            v = one_ply(world, option, seat, kind, config.weights)
        seen[key] = v
        scored.append((v, i))
    return best_first(scored, options)


def best_first(
    scored: list[tuple[float, int]], options: Sequence[Option]
) -> list[tuple[float, int]]:
    """(value, index) pairs, best value first. On a tie a discard comes last (a card
    thrown away for nothing is a card lost: ending the turn keeps it), then the
    earlier option."""
    return sorted(scored, key=lambda t: (-t[0], options[t[1]][0] == "discard", t[1]))


def normal(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: NormalConfig = NormalConfig(),
) -> Option:
    if len(options) == 1:
        return options[0]
    return options[ranked(obs, kind, options, seed, config)[0][1]]
