"""Computer players, three levels (RULES.md §8: a seat the computer plays).

    from engine.ai import LEVELS, decide
    option = decide(state, decision, "normal")

- **easy**: a legal option at random (`engine.ai.easy.choose`), for beginners.
- **normal**: a one-ply look-ahead on re-dealt worlds, valued by a material
  count (`engine.ai.lookahead`); a few milliseconds a decision.
- **strong**: `engine.ai.search`: it searches until a deadline — `stop`, a
  function the caller passes (the bot: a wall-clock reading `STRONG_SECONDS`
  after the search starts) — and answers its best so far. Without `stop` it
  runs in *budget mode*: its work is counted in decisions played, not time, so
  the same state and decision give the same answer (tests, reproducible
  arenas).

`decide` is pure: it never reads a clock (a deadline is the caller's `stop`),
never changes `state`, it always returns one of `decision.options`, and it is
honest by construction: the levels are handed only
`engine.hidden.observe(state, seat)` — the table with every card the seat
cannot see blanked — and draw the worlds they look ahead in from it. Besides
that it depends on the game's seed and the decision (and, for strong with a
`stop`, on when `stop` says time is up), and its inputs pickle (a `GameState`
or its JSON text), so it can run in a worker process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from engine.ai import easy
from engine.ai.lookahead import normal
from engine.ai.search import strong
from engine.core import Decision, Option
from engine.hidden import Observation, mix, observe
from engine.state import GameState

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

Player = Callable[[Observation, str, Sequence[Option], int], Option]
#: the player of each level that looks ahead (easy answers at random)
PLAYERS: dict[Level, Player] = {"normal": normal, "strong": strong}

#: seconds strong searches a decision when its caller gives it a deadline (the bot's
#: computer seats): the mean decision stays well under 0.2 s (most decisions need no
#: search, and a search stops early once its leader is clear), none near 1 s
STRONG_SECONDS = 0.4


def decide(
    state: GameState | str | bytes,
    decision: Decision,
    level: Level,
    stop: Callable[[], bool] | None = None,
) -> Option:
    """The computer's answer to `decision`, which must be the one pending in `state`.
    `stop`: strong's deadline (asked between rollouts and within them; the others
    need none)."""
    if len(decision.options) == 1:
        return decision.options[0]
    game = state if isinstance(state, GameState) else GameState.from_json(state)
    if level == "easy":
        return easy.choose(game.seed, decision)
    player = PLAYERS.get(level)
    if player is None:
        raise ValueError(f"no level {level!r}")
    seed = mix(game.seed, decision.id, decision.seat, LEVELS.index(level))
    obs = observe(game, decision.seat)
    if level == "strong" and stop is not None:
        return strong(obs, decision.kind, decision.options, seed, stop=stop)
    return player(obs, decision.kind, decision.options, seed)


__all__ = ["LEVELS", "PLAYERS", "STRONG_SECONDS", "Level", "decide"]
