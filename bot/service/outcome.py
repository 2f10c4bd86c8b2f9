"""What a service command leaves to be done once the person has their answer.

A command returns a `Reply` — the person's short answer — and its `effects`:
plain data, in the order they are to be carried out, never a closure. The
courier (`bot.handlers.courier`) answers the person first and then carries
each effect out; the Mini App's answers go through the same courier. So what
a command decided can be read (and tested) as data, and nothing of the
service runs hidden in a handler after the answer.

- `Edit`: a private message the person pressed shows a new screen (a prompt's
  next menu level, the /settings message after a change).
- `Tell`: a saved change told, laid out as screens (`Teller.lay_out`,
  `Seats.lay_out_end`): each person's private messages — a prompt closed
  (`Closing`), the next question with its buttons (`Prompt`), a hand or a
  notice (`Note`) — and the group's steps (`ShowView`, `RepostView`,
  `CloseTurn`, `PostText`), which go to the group's outbox. `Teller.deliver`
  is where a `Tell` is sent, whoever made it: a press, the Mini App, a timer.
- `Invite`: the people of a finished game are invited to its rematch's lobby
  (`Rematches.invite`).
- `ClearButtons`: a question answered (/stop's, /leave's) loses its buttons,
  through the chat's outbox (`Outboxes.drop_buttons`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.models import Table
from bot.words.screen import Keyboard
from engine import Decision

#: a decision a move answered: the decision, the option chosen, and whether the timer chose it
Answered = tuple[Decision, tuple[str, ...], bool]


@dataclass(frozen=True)
class Edit:
    chat_id: int
    message_id: int
    text: str
    keys: Keyboard | None


@dataclass(frozen=True)
class Closing:
    """A private message gets its text for good and loses its buttons (a
    prompt the move closed, one a newer prompt replaces, a stopped game's)."""

    user_id: int
    message_id: int
    text: str


@dataclass(frozen=True)
class Prompt:
    """A decision's question and buttons, to the person at `seat`: in place of
    message `edit` when given (a new message if that one is gone), else a new
    message, with a sound when `ring`. Once a new message is out, `replaces`
    (the seat's older prompt) gets its text for good: only the newest prompt
    is live. The message it lands in becomes the seat's prompt (`prompt_ids`)."""

    seat: int
    decision: int  # the decision's id: which one the message shows
    text: str
    keys: Keyboard
    ring: bool = False
    edit: int | None = None
    replaces: Closing | None = None


@dataclass(frozen=True)
class Note:
    """A message to the person at `seat` (their hand, a notice), without a sound."""

    seat: int
    text: str
    keys: Keyboard | None = None


#: what a person is sent in private
Private = Closing | Prompt | Note


@dataclass(frozen=True)
class ShowView:
    """The group's view `view` brought up to date in its message."""

    view: str


@dataclass(frozen=True)
class RepostView:
    """The group's view as a new message (`ring`: with a sound, a game's start)."""

    view: str
    ring: bool = False


@dataclass(frozen=True)
class CloseTurn:
    """A turn's lines go for good into the view's message (`Outboxes.close`)."""

    view: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PostText:
    """A new message in the group."""

    text: str


#: what the group is told, through its outbox
GroupStep = ShowView | RepostView | CloseTurn | PostText


@dataclass(frozen=True)
class Tell:
    """A saved change told to everyone: the private screens, sent at once and
    side by side; the message ids of `forget` no longer hold a live prompt;
    then the group's steps, in order, to its outbox. `view_first`: the view is
    shown before anything private (a practice game's table and prompts share
    one chat: the table comes first). `finish`: the game ended — its result
    is posted once (`Teller.finish`)."""

    table: Table
    private: tuple[Private, ...] = ()
    forget: tuple[str, ...] = ()
    group: tuple[GroupStep, ...] = ()
    view_first: str | None = None
    finish: bool = False


@dataclass(frozen=True)
class Notice:
    """What the people of a stopped game read: the text `key`, naming as its
    `player` the seat `seat`, or the person `name` when they had no seat."""

    key: str
    seat: int | None = None
    name: str | None = None


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


Effect = Edit | Tell | Invite | ClearButtons
