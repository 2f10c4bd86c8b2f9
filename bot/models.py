"""What the bot keeps about a chat's game: one record per group chat.

The record holds the lobby or the running game (the engine's `GameState`), the
people in the seats, the chat's settings and the timer for the pending
decision. It is saved as one JSON document with compare-and-set on `version`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import GameSetup, GameState
from engine.ai import Level

Lang = Literal["ru", "en"]
Status = Literal["lobby", "playing", "finished"]


class Seat(BaseModel):
    """A place at the table: a person (user_id) or a computer player (user_id None)."""

    model_config = ConfigDict(extra="forbid")

    user_id: int | None
    name: str
    lang: Lang = "ru"  # for private messages (the user's /lang choice wins)
    strikes: int = 0  # timeouts in a row
    away: bool = False  # handed to the computer after timeouts, until /back
    left: bool = False  # left the game: the computer plays on (until /back)
    level: Level | None = None  # a computer seat's level (None: a person's seat)

    def computer_level(self) -> Level:
        """How the computer plays this seat: its level when it was added as a
        computer (one added before levels existed played at random: easy); a
        person's seat handed over (timeouts, /leave) plays normal."""
        if self.level is not None:
            return self.level
        return "easy" if self.user_id is None else "normal"


class Table(BaseModel):
    """The record of one group chat's game (lobby, running or finished)."""

    model_config = ConfigDict(extra="forbid")

    chat_id: int
    game_no: int  # grows with every new lobby in this chat; buttons carry it
    title: str = ""  # the chat's title, to name the group in private messages
    status: Status = "lobby"
    creator_id: int
    practice: bool = False  # a private game against computers, in the player's own chat
    timed: bool = True  # people have a deadline (a practice game may go without)
    lang: Lang = "ru"
    turn_timeout: int = 90
    choice_timeout: int = 60
    seats: list[Seat] = Field(default_factory=list)
    setup: GameSetup | None = None
    state: GameState | None = None
    deadline: float | None = None  # when the pending decision times out (epoch seconds)
    reminder: float | None = None  # when to remind the player (cleared once sent)
    deadline_decision: int | None = None  # the decision the deadline belongs to
    turn_log: list[str] = Field(default_factory=list)  # public lines of this turn (group language)
    closed_log: list[str] | None = None  # the last lines of the turn that just ended
    created_at: float = 0.0
    updated_at: float = 0.0
    version: int = 0

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
