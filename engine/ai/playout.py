"""Playing a look-ahead on: every answer from the heuristic player (`engine.ai.heuristic`),
up to a horizon. The states given are re-dealt worlds (`engine.hidden`), never
the real game."""

from __future__ import annotations

from collections.abc import Callable

from engine.ai import heuristic
from engine.api import playout_step
from engine.core import Ask, Option
from engine.state import GameState

#: decisions played on by the heuristic player after an option, at most
SETTLE_CAP = 80
#: decisions played on to the end of a game, at most
ENDGAME_CAP = 600


def settle(state: GameState, ask: Ask | None, seat: int | None = None) -> Ask | None:
    """Fast-forward ("settle" the position): play on from `ask` up to the next
    turn action or the end — or, given `seat`, up to the first question to
    another seat. Returns the question it stopped at."""
    for _ in range(SETTLE_CAP):
        if ask is None or ask.kind == "action" or (seat is not None and ask.seat != seat):
            return ask
        ask = playout_step(state, heuristic.answer(state, ask.seat, ask.kind, ask.options))
    return ask


def play_out_turn(state: GameState, ask: Ask | None, seat: int, cap: int = SETTLE_CAP) -> None:
    """Play on from `ask` until another seat's turn starts, the end, or `cap` decisions:
    the rest of `seat`'s turn, and whatever it sets off."""
    for _ in range(cap):
        if ask is None or (ask.kind == "action" and ask.seat != seat):
            return
        ask = playout_step(state, heuristic.answer(state, ask.seat, ask.kind, ask.options))


#: decisions a rollout plays between two questions to its `stop`
STOP_EVERY = 32


def play_until_turn_of(
    state: GameState,
    ask: Ask | None,
    seat: int,
    cap: int,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Play on from `ask` until `seat`'s next turn starts (its first action with no
    action taken yet), the end, or `cap` decisions (`seat` -1: to the end) — or,
    given `stop`, until it says time is up (asked every `STOP_EVERY` decisions: a
    rollout to the end on a busy core would otherwise run far past a deadline; the
    caller asks `stop` again and drops a rollout so cut). Returns the decisions played."""
    for played in range(cap):
        if ask is None:
            return played
        if ask.kind == "action" and ask.seat == seat and state.actions_taken == 0:
            return played
        if stop is not None and played % STOP_EVERY == STOP_EVERY - 1 and stop():
            return played
        ask = playout_step(state, heuristic.answer(state, ask.seat, ask.kind, ask.options))
    return cap


def hangs_on_hidden(kind: str, option: Option) -> bool:
    """Does the outcome of this option depend on a card the seat cannot see?"""
    if kind == "action":
        return option[0] in ("draw", "order")
    return kind in ("spy.target", "minstrel.target", "intrigue.target", "mercenary.target")
