"""What a service command leaves to be done once the person has their answer.

A command returns a `Reply` — the person's short answer — and its `effects`:
plain data, in the order they are to be carried out, never a closure. The
courier (`bot.handlers.courier`) answers the person first and then carries
each effect out; the Mini App's answers go through the same courier. So what
a command decided can be read (and tested) as data, and nothing of the
service runs hidden in a handler after the answer.

- `Edit`: a private message the person pressed shows a new screen (a prompt's
  next menu level, the /settings message after a change).
- `Tell`: a saved move is told — prompts closed and sent, the group's table to
  its outbox (`Teller.tell`).
- `TellEnd`: a game that just ended is told to the group and every seat, with
  its `Notice` (`Seats.tell_end`).
- `Invite`: the people of a finished game are invited to its rematch's lobby
  (`Rematches.invite`).
- `ClearButtons`: a question answered (/stop's, /leave's) loses its buttons,
  through the chat's outbox (`Outboxes.drop_buttons`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.models import Table
from bot.words.screen import Keyboard
from engine import Decision, Event

#: a decision a move answered: the decision, the option chosen, and whether the timer chose it
Answered = tuple[Decision, tuple[str, ...], bool]


@dataclass(frozen=True)
class Edit:
    chat_id: int
    message_id: int
    text: str
    keys: Keyboard | None


@dataclass(frozen=True)
class Tell:
    table: Table
    ids: dict[str, int]
    events: list[Event]
    answered: Answered | None = None
    new_game_started: bool = False


@dataclass(frozen=True)
class Notice:
    """What the people of a stopped game read: the text `key`, naming as its
    `player` the seat `seat`, or the person `name` when they had no seat."""

    key: str
    seat: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class TellEnd:
    table: Table
    ids: dict[str, int]
    notice: Notice
    group: bool = True


@dataclass(frozen=True)
class Invite:
    finished: Table  # the game whose people are invited
    opened: Table  # the rematch's lobby
    host_id: int  # who opened it (not invited)
    host_name: str


@dataclass(frozen=True)
class ClearButtons:
    chat_id: int
    message_id: int


Effect = Edit | Tell | TellEnd | Invite | ClearButtons
