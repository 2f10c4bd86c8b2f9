"""Hold-out opponents for the arena: players written apart from the levels of
`engine.ai`, never used to tune them, each with an evaluation of its own.

- `tally` (`tally.py`): a one-ply greedy player with its own count — not the
  levels' `engine.ai.evaluate`, not `benchmarks.greedy`'s;
- `rulebook` (`rulebook.py`): a rule-based player, no look-ahead, its own rules
  (not `engine.ai.heuristic`);
- `montecarlo` (`montecarlo.py`): a flat Monte-Carlo player: every option gets
  the same share of playouts to the seat's next turn, played by its own quick
  policy on worlds re-dealt for each playout, valued by its own count.

Each is called as `choose(state, decision)` like `benchmarks.greedy`, and sees
only what its seat may see: `engine.hidden.observe(state, seat)` (the table with
every unseen card blanked) and the worlds drawn from it — the same interface the
levels get. Their randomness comes from the game's seed and the decision, so an
arena game is reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.holdouts import montecarlo, rulebook, tally
from engine.core import Decision, Option
from engine.state import GameState

HOLDOUTS: dict[str, Callable[[GameState, Decision], Option]] = {
    "tally": tally.choose,
    "rulebook": rulebook.choose,
    "montecarlo": montecarlo.choose,
}

__all__ = ["HOLDOUTS"]
