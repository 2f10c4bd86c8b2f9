"""What every part of the game service shares: who acts, what they are told
back, and the compare-and-set change every update goes through.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol, TypeVar

from bot.service.outcome import Answered, Effect
from bot.store import Store, UserPrefs
from bot.store.models import Lang, Status, Table
from bot.words.i18n import pick_lang
from engine import Command, Event


class Clock(Protocol):
    def now(self) -> float: ...


@dataclass(frozen=True)
class Actor:
    """Who pressed or typed: a Telegram user."""

    user_id: int
    name: str
    lang_code: str | None = None


@dataclass(frozen=True)
class Reply:
    """A short answer to the person who acted (a callback alert or a chat reply).

    `effects`: what is carried out once they have their answer — telling
    everyone else of the move (`bot.service.outcome`) — so a press is answered
    before anything else is sent. `before`: what is carried out before the
    answer, because the answer reports it (/back's «you are back» follows the
    prompt it brought back)."""

    key: str
    alert: bool = False
    url: str | None = None
    text: str | None = None  # a text already in the reader's language (a hint), not a key
    lang: Lang | None = None  # the reader's language when the service knows it
    effects: tuple[Effect, ...] = ()
    before: tuple[Effect, ...] = ()

    def and_then(self, *effects: Effect) -> Reply:
        """The same answer, with `effects` carried out after its own."""
        return replace(self, effects=(*self.effects, *effects))


class Refusal(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Conflict(Exception):
    """Saving lost the race too many times."""


#: how many times a compare-and-set change is tried before it gives up
CAS_TRIES = 8

T = TypeVar("T")


async def until_saved(attempt: Callable[[], Awaitable[T | None]], chat_id: int) -> T:
    """The one compare-and-set loop of the service. `attempt` reads a record,
    checks it, changes it and saves it with compare-and-set: it returns what it
    saved, or None when another update (or process) saved first — then it is
    tried again on what that one saved, at most `CAS_TRIES` times (then
    `Conflict`). To stop without saving, `attempt` raises (`Refusal`)."""
    for _ in range(CAS_TRIES):
        saved = await attempt()
        if saved is not None:
            return saved
    raise Conflict(chat_id)


@dataclass
class Defaults:
    lang: Lang = "ru"
    turn_timeout: int = 90
    choice_timeout: int = 60
    computer_pause: float = 1.5

    def person_lang(self, prefs: UserPrefs, lang_code: str | None) -> Lang:
        """A person's private language: their /lang, else Telegram's, else the bot's."""
        return prefs.lang or pick_lang(lang_code, self.lang)


class Moved(NamedTuple):
    """What a change did, when it moved the game: the commands the game's log
    keeps, the engine's events the move is told by, and the decision it
    answered (its prompt shows the choice)."""

    commands: list[Command]
    events: list[Event]
    answered: Answered | None = None


#: a change of a record: the commands it keeps in the game's log, or what it moved
Change = Callable[[Table], list[Command] | Moved]


class Changed(NamedTuple):
    """A change saved: the record as saved, the chat's message ids (read in
    the same round trip as the record), and the events of the move it made."""

    table: Table
    ids: dict[str, int]
    events: list[Event]
    answered: Answered | None


#: a seat handed to the computer or back: the note that says why (left, away,
#: back) is the group's line for it, so its bare event adds none
HANDOVERS = frozenset({"seat.computer", "seat.human"})


def noted(events: list[Event]) -> list[Event]:
    """`events` without the handovers a note of the bot's already tells."""
    return [e for e in events if e.key not in HANDOVERS]


#: (chat id, user id) → whether the user is an admin (or a member) of the chat
IsAdmin = Callable[[int, int], Awaitable[bool]]
IsMember = Callable[[int, int], Awaitable[bool]]


async def nobody(chat_id: int, user_id: int) -> bool:
    """Fails closed: when nothing can tell, nobody is."""
    return False


class Records:
    """The chats' records: the compare-and-set change, and who may manage a chat's game."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        is_admin: IsAdmin,
        is_member: IsMember = nobody,
        saved: Callable[[Table], None] | None = None,
        replacing: Callable[[int], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.is_admin = is_admin
        self.is_member = is_member  # a member of the group (Telegram's word, kept a while)
        # The groups' outboxes keep what they last read of each chat's record
        # (they render its views from it); these keep that memory true — they
        # tell nobody anything (what a chat is told is a command's effects).
        # Set by the sending side over this service (`bot.telling.Telling`):
        #: told of every record saved here
        self.saved = saved
        #: told before a new game is saved in place of a chat's record (`replace`)
        self.replacing = replacing

    async def change(
        self,
        chat_id: int,
        change: Change,
        loaded: tuple[Table, dict[str, int]] | None = None,
        *,
        status: Status | None = None,
        game: int | None = None,
        stale: str = "err-old-game",
        manager: int | None = None,
    ) -> Changed:
        """Load, check, apply `change`, save with compare-and-set; retry on a lost race.

        Returns the saved record and the chat's message ids (read in the same
        round trip as the record). `loaded` — a record the caller has just read —
        saves the first load. `change` raises `Refusal` to save nothing.

        Checked on every record loaded, before `change` sees it, so a check
        holds for the record saved: its `status` and its `game` number
        (refused with `stale`; a missing record too when a `status` is
        expected, else with err-no-game), then whether `manager` may manage
        its game (refused with err-not-creator)."""

        async def attempt() -> Changed | None:
            nonlocal loaded  # the caller's record serves the first attempt only
            found: Table | None
            if loaded is not None:
                (found, ids), loaded = loaded, None
            else:
                found, ids = await self.store.load_with_messages(chat_id)
            if found is None:
                raise Refusal(stale if status is not None else "err-no-game")
            table = found
            if (status is not None and table.status != status) or (
                game is not None and table.game_no != game
            ):
                raise Refusal(stale)
            if manager is not None and not await self.may_manage(table, manager):
                raise Refusal("err-not-creator")
            made = change(table)
            moved = made if isinstance(made, Moved) else Moved(made, [])
            table.updated_at = self.clock.now()
            if not await self.store.save(table, moved.commands):
                return None
            if self.saved is not None:
                self.saved(table)
            return Changed(table, ids, moved.events, moved.answered)

        return await until_saved(attempt, chat_id)

    async def attempt(
        self,
        chat_id: int,
        change: Change,
        loaded: tuple[Table, dict[str, int]] | None = None,
        *,
        status: Status | None = None,
        game: int | None = None,
        stale: str = "err-old-game",
        manager: int | None = None,
    ) -> Changed | Reply:
        """`change` (see there) for a person who pressed or typed: a refusal
        comes back as the alert that answers them."""
        try:
            return await self.change(
                chat_id, change, loaded, status=status, game=game, stale=stale, manager=manager
            )
        except Refusal as r:
            return Reply(r.key, alert=True)

    async def replace(self, table: Table) -> bool:
        """Save `table`, a new game, in place of its chat's record (compare-and-set
        on the version it replaces; False: another update saved first). What
        the outboxes knew of the last game is let go first (unless some of it
        still waits to be sent), so a view of it is never shown again as the
        new one's."""
        if self.replacing is not None:
            self.replacing(table.chat_id)
        return await self.store.save(table)

    async def may_manage(self, table: Table, user_id: int) -> bool:
        """The game's creator, or an admin of the chat (fails closed: when
        Telegram cannot say, nobody else may)."""
        return user_id == table.creator_id or await self.is_admin(table.chat_id, user_id)


class Links:
    """Deep links into the private chat with the bot."""

    def __init__(self, bot_username: Callable[[], Awaitable[str]]) -> None:
        self.bot_username = bot_username

    async def deep_link(self, payload: str) -> str:
        return f"https://t.me/{await self.bot_username()}?start={payload}"

    async def private_chat(self) -> str:
        """The private chat with the bot, opened as it is."""
        return f"https://t.me/{await self.bot_username()}"


def new_seeds() -> random.Random:
    return random.SystemRandom()
