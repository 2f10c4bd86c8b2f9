"""A game told turn by turn, from its setup and command log: each seat's points
after every turn — what the group's picture and a player's review chart.

    story = scores_by_turn(setup, commands)
    story.turns        # [0, 1, 2, …]: the deal, then each turn that ended
    story.points[s]    # seat s's points on the table at each of those moments

Points are §7's count of the table (cards in houses plus each castle's
points), public at every moment, so the story tells nothing hidden. A log
that does not replay to its end (a position built by hand) gives the story
up to the command that failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.api import Command, GameSetup, Refused, execute, new_game
from engine.cards import catalog_for
from engine.state import GameState


@dataclass
class Story:
    turns: list[int] = field(default_factory=list)  # the turn each column ends (0: the deal)
    points: list[list[int]] = field(default_factory=list)  # seat → its points at each column


def table_points(state: GameState, seat: int) -> int:
    """`seat`'s points on the table: its houses' cards and its castles (§7)."""
    cat = catalog_for(state.rules)
    houses = state.players[seat].houses
    cards = sum(cat[c].points for h in houses for c in h.cards)
    return cards + sum(h.castle is not None for h in houses) * state.rules.castle_points


def scores_by_turn(setup: GameSetup, commands: Sequence[Command]) -> Story:
    """Each seat's points at the deal and at the end of every turn (the last
        column: where the log ends — the final score of a finished game). When one
    command closes more than one turn (a turn ended by the смута it drew, then
    the next one's), those turns share the points the command left."""
    state, _ = new_game(setup)
    n = len(state.players)
    story = Story(points=[[] for _ in range(n)])

    def mark(turn: int) -> None:
        story.turns.append(turn)
        for s in range(n):
            story.points[s].append(table_points(state, s))

    mark(0)
    turn = state.turn
    for command in commands:
        try:
            execute(state, command)
        except Refused:
            break
        # a new turn started: the points it starts with close the last one (one
        # command may close two: a turn whose смута ends it, then the next one's)
        while turn < state.turn:
            mark(turn)
            turn += 1
    if story.turns[-1] != turn:
        mark(turn)
    return story


__all__ = ["Story", "scores_by_turn", "table_points"]
