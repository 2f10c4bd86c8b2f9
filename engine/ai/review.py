"""A review of one person's own game: the few moments where their choice cost the most.

    moments = review(setup, commands, seat)   # costliest first, at most `top`

Pure (no I/O, no clock): the game is rebuilt from its setup and command log
(`engine.api.execute`), and each decision the seat itself answered — not one
a computer answered for it, not one with a single option — is judged from
`engine.hidden.observe(state, seat)`: only what the seat could see then.

1. **Weighed** (`weigh`) as the normal level weighs a choice
   (`engine.ai.lookahead.ranked`: the one-ply look-ahead over the seat's own
   worlds, with normal's seed for that decision): the choice's *cost* is the
   best option's value less the chosen one's, in the evaluation's points.
2. **Judged**: the `searches` costliest go to the strong level
   (`engine.ai.hint.hint`, budget mode: the same game gives the same review),
   which names what it would have done and why — a reason key and its numbers,
   the words hints use (``hint-reason-<key>`` in locales/). A moment where
   strong would have done the same is no mistake and is dropped; a moment it
   keeps costs what the one-ply count puts between strong's answer and the
   chosen one (at least 0: strong may see further than one ply).
3. The `top` costliest are the review, costliest first (the earlier on a tie).

A moment's `index` is its command's place in the log, 1-based: the replay's
move ``index - 1`` is the position the choice was made in (the Mini App's
``?replay=N&move=index-1``).

CPU per seat: one one-ply look-ahead per decision the seat answered (what a
normal computer seat does each time), and at most `searches` strong searches
in budget mode (`STRONG.budget` decisions of rollouts each). A caller with a
CPU budget gives `stop` (the engine reads no clock): once it says the time is
up, no further search starts, and a search it cuts short is not trusted — that
moment is left out (strong's answer was not reached; the normal level's is not
offered as strong's), so a review made in budget is shorter, never wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.ai import LEVELS
from engine.ai.hint import hint
from engine.ai.lookahead import NormalConfig, ranked
from engine.api import Command, GameSetup, execute, new_game, pending
from engine.core import Decision, Option
from engine.hidden import copy_state, mix, observe
from engine.state import GameState

#: a cost under this is a tie, not a mistake
EPSILON = 1e-6
TOP = 3
SEARCHES = 6


@dataclass(frozen=True, slots=True)
class Moment:
    index: int  # the command's place in the log, 1-based
    turn: int
    kind: str  # the decision's kind
    chosen: Option
    better: Option  # strong's answer
    cost: float  # the one-ply count between `better` and `chosen`
    reason: str  # a hint reason key (engine.ai.hint.REASONS, or a generic one)
    params: dict[str, int] = field(default_factory=dict)


def weigh(state: GameState, decision: Decision) -> dict[Option, float]:
    """Each option's value for the seat asked, as the normal level counts it
    from what that seat sees (`decision` is pending in `state`)."""
    seat = decision.seat
    seed = mix(state.seed, decision.id, seat, LEVELS.index("normal"))
    order = ranked(observe(state, seat), decision.kind, decision.options, seed, NormalConfig())
    return {decision.options[i]: v for v, i in order}


def own_choices(
    setup: GameSetup, commands: Sequence[Command], seat: int
) -> list[tuple[int, GameState, Decision, Option]]:
    """The decisions `seat` answered itself (more than one option, the seat
    not the computer's then): the command's index, a copy of the state before
    it, the decision and the option chosen."""
    state, _ = new_game(setup)
    found = []
    for index, command in enumerate(commands, 1):
        decision = pending(state)
        if (
            command.computer is None
            and command.seat == seat
            and command.option is not None
            and decision is not None
            and decision.seat == seat
            and len(decision.options) > 1
            and not state.players[seat].computer
        ):
            found.append((index, copy_state(state), decision, tuple(command.option)))
        execute(state, command)
    return found


def review(
    setup: GameSetup,
    commands: Sequence[Command],
    seat: int,
    top: int = TOP,
    searches: int = SEARCHES,
    stop: Callable[[], bool] | None = None,
) -> list[Moment]:
    """The `top` moments where `seat`'s own choice cost the most, costliest
    first; `stop`: the caller's time is up (see the module's notes)."""
    weighed = []
    for index, state, decision, chosen in own_choices(setup, commands, seat):
        values = weigh(state, decision)
        if chosen not in values:
            continue
        cost = max(values.values()) - values[chosen]
        if cost > EPSILON:
            weighed.append((cost, index, state, decision, chosen, values))
    weighed.sort(key=lambda w: (-w[0], w[1]))
    moments = []
    for _, index, state, decision, chosen, values in weighed[:searches]:
        if stop is not None and stop():
            break
        said = hint(state, decision, stop)
        if said.level != "strong":
            break  # cut short by `stop`: not strong's answer
        if said.option == chosen:
            continue
        cost = max(0.0, values.get(said.option, values[chosen]) - values[chosen])
        moments.append(
            Moment(
                index=index,
                turn=state.turn,
                kind=decision.kind,
                chosen=chosen,
                better=said.option,
                cost=cost,
                reason=said.reason,
                params=dict(said.params),
            )
        )
    moments.sort(key=lambda m: (-m.cost, m.index))
    return moments[:top]


__all__ = ["Moment", "own_choices", "review", "weigh"]
