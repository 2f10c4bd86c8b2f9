"""What the bot keeps about a chat's game: one record per group chat.

The record holds the lobby or the running game (the engine's `GameState`), the
people in the seats, the chat's settings and the timer for the pending
decision. It is saved as one JSON document with compare-and-set on `version`.

The record holds the game, never its screens (issue 39): no rendered line,
no HTML, no localised text. What a person or the group is still to be told
is kept as data — the engine's events, the bot's notes, the answers given
(`Table.log`, `bot.service.journal`) — and each screen is drawn from it in
its reader's language when it is told. So forgetting a person is blanking
their seat, and a feature adds words to `locales/`, not bytes to every save.
The record is saved without the fields that hold their defaults.

A record that fails validation does not quote itself in the error
(``hide_input_in_errors``): it holds hands, the deck and names, and the error
goes to the log and to Sentry.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine import Event, GameSetup, GameState
from engine.ai import Level
from engine.core import rebuilt_event

Lang = Literal["ru", "en"]
Status = Literal["lobby", "playing", "finished"]
#: the journal's entries of the bot's own (`Table.log`, `bot.service.journal`):
#: a line in the group's log (``{"text": <locale key>, "seat": n}``), an answer given
NOTE = "note"
ANSWER = "answer"


#: a journal entry as kept: ``[key, params]`` or ``[key, params, to]`` (a
#: few bytes less than the event's own fields, and read by pydantic in Rust,
#: with no Python between); None: an entry let go
Packed = list[Any] | None


def packed(event: Event) -> list[Any]:
    if event.to is not None:
        return [event.key, event.params, list(event.to)]
    return [event.key, event.params]


def unpacked(entry: list[Any]) -> Event:
    to = entry[2] if len(entry) > 2 else None
    return rebuilt_event(entry[0], entry[1], tuple(to) if to is not None else None)


#: the shortest turn of a game at own pace (`bot.service.clocks.OWN_PACES`)
OWN_PACE_MIN = 3600


#: the lobby message's second screens (None: its first): the computers' levels, the settings
LobbyMenu = Literal["levels", "settings"]


#: what a seat kept before the record kept no screens (issue 39)
_SEAT_SCREENS = frozenset({"story", "news", "closing", "seen", "details", "digest"})
#: what a record kept before it kept no screens: its rendered logs, and its
#: «ℹ️» reasons in words (noted again at the next turn prompt)
_TABLE_SCREENS = frozenset({"turn_log", "closed_log"})


def _has_screens(record: dict[str, Any]) -> bool:
    seats = record.get("seats")
    return isinstance(seats, list) and any(
        isinstance(s, dict) and _SEAT_SCREENS & s.keys() for s in seats
    )


#: how long after a save of a running game it is looked at: a prompt its
#: process never sent (killed between the save and the telling) is sent then
#: by whichever process's ticker finds it (`Store.checks`). Just past the
#: service's grace for the process still telling it (5 s) and a ticker's beat.
TELLING_CHECK = 6.0


class Seat(BaseModel):
    """A place at the table: a person (user_id) or a computer player (user_id None)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    user_id: int | None
    name: str
    lang: Lang = "ru"  # for private messages (the user's /lang choice wins)
    strikes: int = 0  # timeouts in a row
    away: bool = False  # handed to the computer after timeouts, until /back
    left: bool = False  # left the game: the computer plays on (until /back)
    returns: int = 0  # times this person took the seat back (/back): at most MAX_RETURNS
    forgotten: bool = False  # its person asked to be forgotten: «игрок», the computer plays
    level: Level | None = None  # a computer seat's level (None: a person's seat)
    # a person's private messages (`bot.service.telling`), as places in the
    # record's journal (`Table.log`, absolute positions): what their open
    # prompt message tells above its question — [opened_at, fresh_to) is what
    # they were told before it began, [fresh_to, news_at) their answers in it
    # and what came of them — and what they were told since it closed
    # (news_at on), heading the next one. Words are drawn from these when told.
    asked: int | None = None  # the decision id the prompt message asks (None: none open)
    opened_at: int | None = None  # where the open prompt message's recap begins
    fresh_to: int = 0  # where what it was opened with ends
    news_at: int = 0  # where what they were told since begins
    #: the prompt message the last change closed (for its last edit): its
    #: opened_at, fresh_to and where its lines end
    closed: tuple[int, int, int] | None = None
    hints: int = 0  # decisions this person asked a hint for
    hinted: int | None = None  # the last decision they asked one for (counted once)
    #: their quiet hours, UTC minutes of the day (from, to; `bot.service.clocks`):
    #: at own pace no message rings then, and no deadline falls inside them
    quiet: tuple[int, int] | None = None

    def computer_level(self) -> Level:
        """How the computer plays this seat: its level when it was added as a
        computer (one added before levels existed played at random: easy); a
        person's seat handed over (timeouts, /leave) plays normal."""
        if self.level is not None:
            return self.level
        return "easy" if self.user_id is None and not self.forgotten else "normal"


#: how often a person may take their seat back from the computer in one game:
#: /leave ↔ /back (and timeouts ↔ /back) add a command to the game's log and a
#: line to the group each time, so toggling is bounded
MAX_RETURNS = 10


class SeatReasons(BaseModel):
    """The «ℹ️» reasons of a seat's latest turn prompt (`bot.words.reasons`)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    decision: tuple[int, int]  # the turn decision they belong to: the game's seed, its id
    held: list[int]  # the reasons that held then (`bot.words.reasons.mark`)
    told: list[int]  # those its prompt tells (they did not hold the time before)


class TutorLine(BaseModel):
    """One sentence of the tutor (`bot.service.lessons`): its step and the card it names."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    step: str  # ``draw``, ``castle``, ``smuta-poison``… (the text: ``tutor-<step>``)
    card: str | None = None


class Tutoring(BaseModel):
    """A tutor game's memory (`bot.service.lessons`): what it has told, the
    смуты that came up since the person was last asked, the sentences of
    the person's pending prompt."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    told: list[str] = Field(default_factory=list)  # steps told, in order (each at most once)
    seen: list[str] = Field(default_factory=list)  # смуты come up, not yet told
    decision: int | None = None  # the decision `lines` belong to
    lines: list[TutorLine] = Field(default_factory=list)
    #: the sentences under the prompt message the last change closed (a смута
    #: the person's own move brought is told at once, there)
    closed: list[TutorLine] = Field(default_factory=list)


class Table(BaseModel):
    """The record of one group chat's game (lobby, running or finished)."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)

    chat_id: int
    game_no: int  # grows with every new lobby in this chat; buttons carry it
    title: str = ""  # the chat's title, to name the group in private messages
    status: Status = "lobby"
    creator_id: int
    practice: bool = False  # a private game against computers, in the player's own chat
    hints: bool = False  # prompts offer «💡 Подсказка» (a chat's setting; every practice game)
    timed: bool = True  # people have a deadline (a practice game may go without)
    tutor: Tutoring | None = None  # a practice game that is the tutor (/learn)
    lobby_menu: LobbyMenu | None = None  # the lobby's screen (`bot.service.lobby`)
    lang: Lang = "ru"
    turn_timeout: int = 90
    choice_timeout: int = 60
    seats: list[Seat] = Field(default_factory=list)
    setup: GameSetup | None = None
    state: GameState | None = None
    level: Level | None = None  # the computer's level by default (the chat's profile)
    variants: dict[str, int] = Field(default_factory=dict)  # rule options (the chat's profile)
    called: int = 0  # people /notify told of this lobby
    invited: list[int] = Field(default_factory=list)  # «Ещё партию»: the last game's people
    reasons: dict[int, SeatReasons] = Field(default_factory=dict)  # seat → its last turn's «ℹ️»
    deadline: float | None = None  # when the pending decision times out (epoch seconds)
    reminder: float | None = None  # when to remind the player (cleared once sent)
    deadline_decision: int | None = None  # the decision the deadline belongs to
    # a game at own pace (`own_pace`, `bot.service.clocks`): the reminders
    # after `reminder` (at most one more), the running turn's clock (its
    # number, its deadline: the turn's actions share it), when the group's
    # table message was last posted anew, and whether the last change posts it
    # anew (a day on: the group's one new message a day)
    later_reminders: list[float] = Field(default_factory=list)
    turn_clock: tuple[int, float] | None = None
    posted_at: float = 0.0
    day_at: int = 0  # the journal's position when the table was last posted anew
    day_new: bool = False
    # the game's end is saved but its result not yet handed to the group: the
    # timer (due `ANNOUNCE_GRACE` after the end) posts it if the process that
    # ended the game died first
    result_untold: bool = False
    # the journal (`bot.service.journal`): what the record still has to tell,
    # as data — the engine's events (public and private), the bot's notes for
    # the group's log, each answer given — the first at position `log_at`;
    # what is told no more is cut. The group's running table message tells
    # from `turn_at` on; `turn_closed` is the span of the turn(s) the last
    # change closed (their message's last lines)
    log: list[Packed] = Field(default_factory=list)
    log_at: int = 0
    turn_at: int = 0
    turn_closed: tuple[int, int] | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    version: int = 0
    #: as loaded (`Store.load_with_messages`), never saved: the record was saved
    #: last under another Redis primary — a replica promoted since, or a Redis
    #: restarted from a file — so moves its players were told of may be gone
    #: (rolled back with it, message ids included; issue 26 item 2)
    adrift: bool = Field(default=False, exclude=True)

    def to_json(self) -> str:
        """The record as the store keeps it: without the fields that hold
        their defaults (a seat's zeros, the rules' defaults: half its bytes),
        the engine's state as the engine saves it (its frames are told apart
        by a field that has a default)."""
        data = self.model_dump_json(exclude_defaults=True, exclude={"state"})
        if self.state is None:
            return data
        state = self.state.to_json()
        return f'{data[:-1]},"state":{state}}}' if data != "{}" else f'{{"state":{state}}}'

    def to_stored(self) -> bytes:
        """The record as the store keeps it: `to_json`, compressed (zlib's
        fastest level: a mid-game record's ~3 KB in ~1.3 KB, in tens of
        microseconds). `from_json` reads it, and plain JSON too."""
        return zlib.compress(self.to_json().encode(), 1)

    @classmethod
    def from_json(cls, data: str | bytes) -> Table:
        """A record as the store keeps it (`to_stored`), or as JSON — also one
        saved before the record kept no screens (issue 39): its rendered lines
        go, and «ℹ️» reasons kept in words are noted anew at the next turn prompt."""
        if isinstance(data, bytes) and data[:1] != b"{":
            data = zlib.decompress(data)
        try:
            return cls.model_validate_json(data)
        except ValidationError:
            old = json.loads(data)
            if not isinstance(old, dict) or not (_TABLE_SCREENS & old.keys() or _has_screens(old)):
                raise
        record = {k: v for k, v in old.items() if k not in _TABLE_SCREENS}
        record["seats"] = [
            {k: v for k, v in seat.items() if k not in _SEAT_SCREENS}
            for seat in record.get("seats", [])
        ]
        record.pop("reasons", None)
        return cls.model_validate(record)

    def add(self, events: Iterable[Event]) -> None:
        """Put `events` at the journal's end."""
        self.log.extend(packed(e) for e in events)

    def log_end(self) -> int:
        """The journal's position after its last entry (the next entry's)."""
        return self.log_at + len(self.log)

    def positioned(self, start: int, stop: int | None = None) -> Iterator[tuple[int, Event]]:
        """The journal's entries from position `start` up to `stop` (its end
        when None), each with its position; what was let go is gone."""
        first = max(start - self.log_at, 0)
        last = len(self.log) if stop is None else max(stop - self.log_at, 0)
        for k in range(first, last):
            kept = self.log[k]
            if kept is not None:
                yield self.log_at + k, unpacked(kept)

    def entries(self, start: int, stop: int | None = None) -> list[Event]:
        """The journal's entries from position `start` up to `stop` (`positioned`)."""
        return [e for _, e in self.positioned(start, stop)]

    def telling_checked_at(self) -> float | None:
        """When a save of this running game is looked at, in case the process
        that made it died before telling it (`TELLING_CHECK`; None: no game
        running). The timers' index holds the earlier of this and
        `next_timer`; the record keeps only `next_timer`."""
        return self.updated_at + TELLING_CHECK if self.status == "playing" else None

    def next_timer(self) -> float | None:
        """When the chat next needs its timer: the earlier of the reminder and
        the deadline (None: neither is set)."""
        times = [t for t in (self.reminder, self.deadline) if t is not None]
        return min(times) if times else None

    @property
    def own_pace(self) -> bool:
        """A game at own pace: a turn of an hour or more (`bot.service.clocks`)."""
        return self.turn_timeout >= OWN_PACE_MIN

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.left:
                return i
        return None

    def seat_of_person(self, user_id: int) -> int | None:
        """The user's seat, also when they have left it to the computer."""
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    @property
    def humans(self) -> list[int]:
        """The people still playing (not those who left)."""
        return [s.user_id for s in self.seats if s.user_id is not None and not s.left]

    @property
    def people(self) -> list[int]:
        """Everyone seated, those who left included (they may come back)."""
        return [s.user_id for s in self.seats if s.user_id is not None]


# ====================================================================== a chat's home
#: the engine's `Rules` options a chat may change with /settings, each with the
#: values offered (the first is the rules file's default); named and explained
#: in locales (``variant-<name>``, ``variant-<name>-about``)
VARIANTS: dict[str, tuple[int, ...]] = {
    "hand_limit": (7, 6, 8),
    "actions_per_turn": (3, 2, 4),
    "fire_each_house": (1, 0),  # Пожар: a card from each house that lost its castle, or from one
}


class ChatProfile(BaseModel):
    """What a chat keeps for good (no expiry): the settings every new lobby
    starts from. A game keeps the rules it started with (its `GameSetup`)."""

    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    chat_id: int
    owner_id: int | None = None  # who made the profile (may change it, like an admin)
    lang: Lang | None = None  # None: the bot's default
    turn_timeout: int | None = None
    choice_timeout: int | None = None
    level: Level = "normal"  # the computer's level when nobody chooses one
    variants: dict[str, int] = Field(default_factory=dict)  # name → value (see VARIANTS)
    hints: bool = False  # prompts offer a hint (the strong level's choice and why)
    version: int = 0  # grows with each save (compare-and-set: `Store.save_profile`)


class SeatRecord(BaseModel):
    """A seat of a finished game as the history keeps it."""

    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    user_id: int | None  # None: a computer, or a person who asked to be forgotten
    name: str  # "" when forgotten
    level: Level | None = None  # a computer's level


class GameRecord(BaseModel):
    """A finished game, kept for good in its chat's history with its command
    log (kept beside it by the store): players, scores, setup."""

    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    chat_id: int
    game_no: int
    title: str = ""
    lang: Lang = "ru"
    started_at: float
    finished_at: float
    seats: list[SeatRecord]
    scores: list[int]
    castles: list[int]
    winners: list[int]
    setup: GameSetup
    counted: bool  # in the ratings: two people or more, a whole game
    number: int = 0  # the game's number for /replay (set by the store when read)


class PlayerStats(BaseModel):
    """One player's figures in one scope (a chat, or everywhere): a person
    (``u<id>``) or a computer level (``c<level>``)."""

    model_config = ConfigDict(extra="ignore", hide_input_in_errors=True)

    key: str
    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    points: int = 0
    best: int = 0
    smuta: dict[str, int] = Field(default_factory=dict)  # смута → points it won (−: cost) them


def record_of(table: Table) -> GameRecord | None:
    """The history's record of a game the engine has just finished (None for
    anything else: a lobby, a running game, one stopped, a practice game)."""
    state = table.state
    if (
        table.status != "finished"
        or table.practice
        or state is None
        or state.result is None
        or state.result.aborted
        or table.setup is None
    ):
        return None
    result = state.result
    people = [s for s in table.seats if s.user_id is not None]
    return GameRecord(
        chat_id=table.chat_id,
        game_no=table.game_no,
        title=table.title,
        lang=table.lang,
        started_at=table.created_at,
        finished_at=table.updated_at,
        seats=[
            SeatRecord(
                user_id=s.user_id,
                name=s.name,
                level=s.computer_level() if s.user_id is None and not s.forgotten else None,
            )
            for s in table.seats
        ],
        scores=list(result.scores),
        castles=list(result.castles),
        winners=list(result.winners),
        setup=table.setup,
        counted=len(people) >= 2,
    )
