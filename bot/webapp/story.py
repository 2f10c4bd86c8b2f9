"""A game's story as the group saw it: rebuilt from its setup and command log.

The record keeps only the running turn's lines (`Table.turn_log`; the turn
before it until the next save), but the store keeps the game's whole command
log, and the engine rebuilds a game from it (`engine.replay`). So the app's
log is rebuilt the same way: each command executed again on a state of the
story's own, and only its public events rendered (`Renderer.public_lines`:
what the group chat read) — never a line told to one seat alone. The same
walk gives a finished game's replay: the public table after each command.

A story is extended as the game goes (only the new commands are executed),
so following a game costs one command's work a move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.service.history import turn_parts
from bot.service.viewing import Table
from bot.words.render import Renderer
from engine import Command, Event, GameSetup, Refused, execute, new_game


@dataclass
class Move:
    """What one command did, as the group read it."""

    index: int  # the command's place in the log, 1-based (0: the deal)
    seat: int | None  # whose command (None: the deal)
    lines: list[str]
    cards: list[str]  # the card ids its public lines name (what it moved)


@dataclass
class Turn:
    number: int  # the game's turn number (0: before the first turn)
    seat: int | None  # whose turn
    moves: list[Move] = field(default_factory=list)


def named_cards(events: Sequence[Event]) -> list[str]:
    """The card ids the events for everyone name, each once, in order."""
    found: dict[str, None] = {}
    for e in events:
        if e.to is not None:
            continue
        for key in ("card", "cards", "smuta"):
            value = e.params.get(key)
            if isinstance(value, str):
                found.setdefault(value)
            elif isinstance(value, list):
                for c in value:
                    if isinstance(c, str):
                        found.setdefault(c)
    return list(found)


#: what a story calls after each command (a replay's frame of the table)
Frame = Callable[["Story"], Any]


class Story:
    """One game's public story in one language, extended command by command."""

    def __init__(self, render: Renderer, lang: str, table: Table, setup: GameSetup) -> None:
        self.render = render
        self.lang = lang
        self.setup = setup
        self.state, events = new_game(setup)
        self.applied = 0
        self.broken = False  # a command the engine refused: the log and setup disagree
        self.turns: list[Turn] = []
        #: the newest command the group read a line of (its lines in every turn it touched)
        self.last: Move = Move(0, None, [], [])
        self._add(table, None, events, 0)

    def extend(
        self,
        table: Table,
        commands: Sequence[Command],
        frame: Frame | None = None,
        until: int | None = None,
    ) -> list[Any]:
        """Execute the commands past those already applied (`table` names the
        seats), up to the state's version `until` if given (a log read after
        the record may hold a newer move); with `frame`, what it makes of the
        story after each."""
        frames: list[Any] = []
        for command in commands[self.applied :]:
            if self.broken or (until is not None and self.state.version >= until):
                break
            try:
                events = execute(self.state, command)
            except Refused:
                self.broken = True
                break
            self.applied += 1
            self._add(table, command.seat, events, self.applied)
            if frame is not None:
                frames.append(frame(self))
        return frames

    def _add(self, table: Table, seat: int | None, events: list[Event], index: int) -> None:
        moved: list[Move] = []
        for part in turn_parts(events):
            head = part[0] if part else None
            if head is not None and head.key == "turn.start" and head.to is None:
                self.turns.append(Turn(int(head.params.get("turn", 0)), head.params.get("seat")))
            elif not self.turns:
                self.turns.append(Turn(0, None))
            # a turn's header line is the turn's title in the app: not a move
            shown = [e for e in part if e.key != "turn.start"]
            lines = self.render.public_lines(table, self.state, shown, self.lang)
            if lines:
                move = Move(index, seat, lines, named_cards(shown))
                self.turns[-1].moves.append(move)
                moved.append(move)
        if moved:  # a command the group read nothing of leaves the last move standing
            self.last = Move(
                index,
                seat,
                [line for m in moved for line in m.lines],
                list(dict.fromkeys(c for m in moved for c in m.cards)),
            )

    @property
    def version(self) -> int:
        """The rebuilt state's version (the record's state has the same when
        the story is whole)."""
        return self.state.version
