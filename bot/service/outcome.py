"""What a service command leaves to be done once the person has their answer.

One way to tell: a command sends nothing itself. It returns a `Reply` — the
person's short answer — and its `effects`: plain data, in the order they are
to be carried out, never a closure. Only the sending side carries them out
(`Carrier.carry_out`, `bot.telling.carrying`): the courier
(`bot.handlers.courier`) after it answered the person — a press, a command,
the Mini App alike — and the ticker (`bot.telling.timers`) after a timer
fired. So what a command decided can be read (and tested) as data, and no
service part drives Telegram, a group's outbox or the sender
(`tests/bot/test_one_way_to_tell.py` walks `bot/service` to hold it so).

Where what comes next depends on how a send went (the message id a prompt
landed in, a 403: the person cannot be written to), the effect says what
follows and the carrier does it: that is the sending side's job, never a
reason for a service part to send.

In private:

- `Edit`: a private message the person pressed shows a new screen (a prompt's
  next menu level, the /settings message after a change).
- `Tell`: a saved change told, laid out as screens (`Teller.lay_out`,
  `Seats.lay_out_end`): each person's private messages — a prompt closed
  (`Closing`), the next question with its buttons (`Prompt`), a hand or a
  notice (`Note`) — and the group's steps (`ShowView`, `RepostView`,
  `CloseTurn`, `PostText`), which go to the group's outbox. `Sender.deliver`
  is where a `Tell` is sent, whoever made it: a press, the Mini App, a timer.
- `CatchUp`: a prompt its player never got, sent anew (`Sender.catch_up`).
- `ToPerson`, `FileTo`, `PhotoTo`: a message, a file, a picture to a person
  by their user id (/replay's file, a review); `Invite`: a rematch's
  invitations.
- `StaleButtons`: a private message's buttons go, at once.

To a chat's outbox (a group's, or a practice game's private chat), at the
chat's pace:

- `ChatSteps`: a command's steps that are no told move — the lobby shown,
  sent anew or fixed for good (`ShowView`, `RepostView`, `FixView`), a
  message or a picture posted (`PostText`, `PostPicture`), what the outbox
  knows read again (`Reread`) or dropped (`Discard`).
- `ClearButtons`: a question answered (/stop's, /leave's) loses its buttons.

In a task of its own:

- `CallSubscribers`: /notify's calls to a lobby just opened, after it is shown.

A `Reply`'s `before` holds the rare effects carried out *before* the answer,
because the answer reports them (/back's «you are back» follows the prompt it
brought back; «prompt sent again» follows that prompt).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

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
    """A message to the person at `seat` (their hand, a notice), without a
    sound unless it must `ring` (a reminder at own pace)."""

    seat: int
    text: str
    keys: Keyboard | None = None
    ring: bool = False


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
    """A new message in the group (`quiet`: without a sound)."""

    text: str
    quiet: bool = False


#: what the group is told, through its outbox
GroupStep = ShowView | RepostView | CloseTurn | PostText

#: a closed turn's lines as the text of one message: (text, whether every line
#: is in it) — the teller's (`Teller.log_text`), for the outbox's merges
LogText = Callable[[list[str]], tuple[str, bool]]


@dataclass(frozen=True)
class Tell:
    """A saved change told to everyone: the private screens, sent at once and
    side by side; the message ids of `forget` no longer hold a live prompt;
    then the group's steps, in order, to its outbox. `view_first`: the view is
    shown before anything private (a practice game's table and prompts share
    one chat: the table comes first). `finish`: the game ended — its result
    is posted once (`Sender.finish`)."""

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
    """The people of a finished game, invited in private to its rematch's
    lobby (`opened`, by the person `host_id`). The carrier has
    `Rematch.invitations` lay the messages out — after the press is answered:
    their link asks Telegram the bot's name — and sends them."""

    finished: Table  # the game whose people are invited
    opened: Table  # the rematch's lobby
    host_id: int  # who opened it (not invited)
    host_name: str


@dataclass(frozen=True)
class ClearButtons:
    """A chat's message (a question answered) loses its buttons, through the
    chat's outbox (`Outboxes.drop_buttons`)."""

    chat_id: int
    message_id: int


@dataclass(frozen=True)
class CatchUp:
    """`decision`'s prompt, which its player never got (the move before it was
    saved but not told): every prompt of the chat (`ids`) loses its buttons,
    the prompt goes out anew, ringing, and the group's table is read again and
    shown. The carrier keeps the message it landed in as the seat's prompt
    (`Sender.catch_up`)."""

    table: Table
    ids: dict[str, int]
    decision: Decision


@dataclass(frozen=True)
class StaleButtons:
    """A private message loses its buttons at once (not through an outbox): a
    prompt no decision stands behind (one the rolled-back message ids never
    knew)."""

    user_id: int
    message_id: int


@dataclass(frozen=True)
class ToPerson:
    """A message to a person in private, by their user id (`quiet`: without a
    sound). Not delivered — a 403, Telegram gave up — it is logged and let go:
    nothing waits on it."""

    user_id: int
    text: str
    keys: Keyboard | None = None
    quiet: bool = False


@dataclass(frozen=True)
class FileTo:
    """A text file to a person in private (`name`, `content`, `caption`). The
    carrier follows it up: once it went, with `sent` (when given); when it
    could not go, with `failed` instead."""

    user_id: int
    name: str
    content: bytes
    caption: str
    sent: ToPerson | None = None
    failed: ToPerson | None = None


@dataclass(frozen=True)
class PhotoTo:
    """A picture (PNG) with its caption and buttons to a person in private,
    without a sound unless not `quiet`; not delivered, it is logged and let go."""

    user_id: int
    png: bytes
    caption: str
    keys: Keyboard | None = None
    quiet: bool = True


@dataclass(frozen=True)
class FixView:
    """The view's message gets `text` for good, without buttons («the game has
    started», «the lobby moved down»): edits of it still waiting are dropped
    (`Outboxes.fix`); `or_post`: with no message to fix, `text` is posted."""

    view: str
    text: str
    or_post: bool = False


@dataclass(frozen=True)
class PostPicture:
    """`table`'s picture (`Pictures.of_table`, drawn once the carrier gets to
    it) with `caption` as a new message; the caption alone if it cannot be drawn."""

    caption: str
    table: Table
    quiet: bool = False


@dataclass(frozen=True)
class Reread:
    """What the chat's outbox knows of it (its record, its views' message ids)
    is read again before its next use: a save it never heard of (a new lobby,
    a new game saved straight to the store) (`Outboxes.forget`)."""


@dataclass(frozen=True)
class Discard:
    """What waits for the chat and what its outbox knows of it are dropped: the
    bot may no longer write there (removed, the group moved; `Outboxes.discard`)."""


#: what a command does to a chat's outbox, beside a told move
ChatStep = ShowView | RepostView | FixView | PostText | PostPicture | Reread | Discard


@dataclass(frozen=True)
class ChatSteps:
    """`steps` to the outbox of chat `chat_id`, in order, at the chat's pace."""

    chat_id: int
    steps: tuple[ChatStep, ...]


#: how a call went: sent, the person cannot be written to (403, or never
#: started the bot), or Telegram gave up
Went = Literal["sent", "unreachable", "failed"]


@dataclass(frozen=True)
class Call:
    """One subscriber's /notify call: `message` (None: not sent — they never
    started the bot, so it could not go), whether they were `asked` in the
    group to start the bot already, and the `name` they subscribed under."""

    user_id: int
    message: ToPerson | None
    asked: bool
    name: str


@dataclass(frozen=True)
class CallSubscribers:
    """/notify's calls to `table`'s lobby, just opened and shown — in a task of
    their own: the opener never waits for them. The carrier asks
    `Notify.calls` whom to call, sends each call, and hands how each went to
    `Notify.called`, carrying out what that returns (the group asked to have
    the unreachable start the bot, the lobby's count of calls)."""

    table: Table


Effect = (
    Edit
    | Tell
    | CatchUp
    | StaleButtons
    | ToPerson
    | FileTo
    | PhotoTo
    | ChatSteps
    | ClearButtons
    | CallSubscribers
    | Invite
)
