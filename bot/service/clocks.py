"""A game's pace and a person's quiet hours: when a decision times out and
when its person is reminded (plain functions of times, no I/O), and what a
pace means in a newcomer's words (`pace_lines`).

Two paces (issue 40):

- **live** — today's game: a turn of `LIVE_TURNS` seconds, a private choice
  of `LIVE_CHOICES`, one silent reminder shortly before the deadline;
- **own pace** — a game that lives for days: a turn of `OWN_PACES` (1 h, 8 h,
  24 h), and a private choice (a смута's answer asked of someone else) has
  the same time. The clock is a *turn's*, not an action's: the actions of
  one turn share the deadline the turn began with. Its person is rung once
  when the turn starts and reminded at most twice (`reminders`), the last
  well before the deadline; never inside their quiet hours, and a deadline
  that would fall inside them moves to their end. We chose a fixed time a
  move rather than a time bank (Board Game Arena offers both): it is what a
  group reads at a glance in the lobby and in /games, and a person away for
  a while is covered by /away instead of a bank running dry.

Quiet hours are kept on a seat as UTC minutes of the day, ``(start, end)``,
the window wrapping midnight when start > end (`Seat.quiet`); a person sets
them in their private /settings in their own time (`UserPrefs`), by default
23:00–08:00 Moscow time for Russian, 23:00–08:00 UTC for English.
"""

from __future__ import annotations

import math

from bot.service.seating import GAME_MINUTES
from bot.store import UserPrefs
from bot.store.models import OWN_PACE_MIN, Lang
from bot.words.i18n import Translator

#: a live game's turn and private choice (seconds), as «⏱ Время» cycles them
LIVE_TURNS = (60, 90, 120, 180, 300)
LIVE_CHOICES = (30, 60, 90, 120)
#: a game at own pace: the time for a turn (and for a private choice)
OWN_PACES = (OWN_PACE_MIN, 8 * 3600, 24 * 3600)
DAY = 24 * 3600.0
MINUTES_A_DAY = 24 * 60

#: what a game at own pace measures in (`benchmarks.clocks_per_game`, 300
#: games of the normal level a player count): the clocks a whole game starts
#: for people — its turns, plus the answers asked of others between — the
#: mean, by the number of players
CLOCKS_PER_GAME = {2: 77, 3: 99, 4: 119, 5: 136, 6: 156}

#: a person's default time and quiet hours, by language: UTC offset in
#: minutes; quiet from, to (local hours)
DEFAULT_OFFSET = {"ru": 180, "en": 0}
DEFAULT_QUIET = (23, 8)
#: the quiet hours a person may choose in /settings (None: none)
QUIET_CHOICES: tuple[tuple[int, int] | None, ...] = ((23, 8), (22, 7), (0, 9), (21, 9), None)
#: the UTC offsets a person may set (minutes): UTC−12 … UTC+14, an hour apart
OFFSETS = tuple(range(-12 * 60, 14 * 60 + 1, 60))


def is_own_pace(turn_timeout: int) -> bool:
    """Whether a turn of `turn_timeout` seconds is a game at own pace."""
    return turn_timeout >= OWN_PACE_MIN


def choice_for(turn_timeout: int) -> int:
    """The private choice's time that goes with a turn's: at own pace the same."""
    if is_own_pace(turn_timeout):
        return turn_timeout
    index = LIVE_TURNS.index(turn_timeout) if turn_timeout in LIVE_TURNS else 1
    return LIVE_CHOICES[min(index, len(LIVE_CHOICES) - 1)]


def next_time(turn_timeout: int) -> int:
    """«⏱ Время»: the next turn time of the same pace (round)."""
    values = OWN_PACES if is_own_pace(turn_timeout) else LIVE_TURNS
    if turn_timeout not in values:
        return values[0]
    return values[(values.index(turn_timeout) + 1) % len(values)]


def other_pace(turn_timeout: int, live_default: int) -> int:
    """«Темп»: live ↔ own pace (at own pace, a day a move: what most
    correspondence games choose; back to live, the bot's default)."""
    if is_own_pace(turn_timeout):
        return live_default if live_default in LIVE_TURNS else LIVE_TURNS[1]
    return OWN_PACES[-1]


def game_days(turn_timeout: int, players: int) -> int:
    """The longest a game at own pace of `players` lasts, in days, if every
    clock runs out (`CLOCKS_PER_GAME` × the time a move)."""
    return math.ceil(CLOCKS_PER_GAME[players] * turn_timeout / DAY)


def pace_lines(
    tr: Translator, lang: str, turn: int, choice: int, players: int | None = None
) -> list[str]:
    """What a game's pace means, in a newcomer's words: a live game's times
    and length in minutes (for `players`), or a game at own pace's time a
    move and its longest length in days (`bot.service.clocks`)."""
    if not is_own_pace(turn):
        lines = [tr.t(lang, "lobby-settings", turn=turn, choice=choice)]
        if players is not None:
            low, high = GAME_MINUTES[players]
            lines.append(tr.t(lang, "lobby-length", low=low, high=high, players=players))
        return lines
    count = players or 3
    days = game_days(turn, count)
    clocks = CLOCKS_PER_GAME[count]
    return [
        tr.t(lang, "pace-own", hours=turn // 3600),
        tr.t(lang, "pace-own-length", players=count, clocks=clocks, days=days),
        tr.t(lang, "pace-own-care"),
    ]


# ====================================================================== quiet hours
Quiet = tuple[int, int]  # UTC minutes of the day: from, to (wrapping midnight when from > to)


def quiet_utc(offset: int, local: tuple[int, int] | None) -> Quiet | None:
    """Quiet hours from local hours and a UTC offset (minutes), in UTC minutes."""
    if local is None or local[0] == local[1]:
        return None
    start = (local[0] * 60 - offset) % MINUTES_A_DAY
    end = (local[1] * 60 - offset) % MINUTES_A_DAY
    return (start, end)


def offset_of(prefs: UserPrefs, lang: Lang) -> int:
    """A person's UTC offset (minutes): theirs, else their language's default."""
    return prefs.offset if prefs.offset is not None else DEFAULT_OFFSET.get(lang, 0)


def local_quiet(prefs: UserPrefs) -> tuple[int, int] | None:
    """A person's quiet hours in their own time (None: they turned them off)."""
    if prefs.quiet == "off":
        return None
    if prefs.quiet:
        start, _, end = prefs.quiet.partition("-")
        return (int(start), int(end))
    return DEFAULT_QUIET


def next_quiet(prefs: UserPrefs) -> str:
    """The quiet hours after a person's, as `QUIET_CHOICES` go round (kept as
    `UserPrefs.quiet`)."""
    current = local_quiet(prefs)
    at = QUIET_CHOICES.index(current) if current in QUIET_CHOICES else -1
    chosen = QUIET_CHOICES[(at + 1) % len(QUIET_CHOICES)]
    return "off" if chosen is None else f"{chosen[0]}-{chosen[1]}"


def quiet_of(prefs: UserPrefs, lang: Lang) -> Quiet | None:
    """A person's quiet hours in UTC minutes (a seat keeps them: `Seat.quiet`)."""
    return quiet_utc(offset_of(prefs, lang), local_quiet(prefs))


def _minute(at: float) -> float:
    return (at % DAY) / 60.0


def in_quiet(quiet: Quiet | None, at: float) -> bool:
    """Whether the moment `at` (epoch seconds) lies in the quiet hours."""
    if quiet is None:
        return False
    start, end = quiet
    m = _minute(at)
    return start <= m < end if start < end else (m >= start or m < end)


def quiet_end(quiet: Quiet, at: float) -> float:
    """The end of the quiet window `at` lies in (epoch seconds)."""
    day = at - at % DAY
    end = day + quiet[1] * 60.0
    return end if end > at else end + DAY


def quiet_start(quiet: Quiet, at: float) -> float:
    """The start of the quiet window `at` lies in (epoch seconds)."""
    day = at - at % DAY
    start = day + quiet[0] * 60.0
    return start if start <= at else start - DAY


def deadline_of(start: float, timeout: float, quiet: Quiet | None) -> float:
    """A clock started at `start`: its deadline, moved out of quiet hours."""
    deadline = start + timeout
    if in_quiet(quiet, deadline):
        assert quiet is not None
        deadline = quiet_end(quiet, deadline)
    return deadline


def last_window(timeout: float) -> float:
    """How long before the deadline a game at own pace's last reminder comes:
    an hour at 8 h and 24 h a move, a quarter of the time at 1 h."""
    return 3600.0 if timeout >= 8 * 3600 else timeout / 4


def reminders(start: float, deadline: float, timeout: float, quiet: Quiet | None) -> list[float]:
    """When a clock's person is reminded (at most two, in order), none inside
    their quiet hours: the last well before the deadline — an hour before it
    at 8 h and 24 h a move, a quarter of the time at 1 h — and, at 8 h and
    24 h, one halfway. A turn that started inside their quiet hours (its
    prompt came silently) rings at their end instead of halfway. A reminder
    that would fall in quiet hours comes just before they begin, if that is
    still after the start."""
    window = last_window(timeout)
    wanted = [deadline - window]
    if in_quiet(quiet, start):
        assert quiet is not None
        wanted.insert(0, quiet_end(quiet, start))
    elif timeout >= 8 * 3600:
        wanted.insert(0, start + (deadline - start) / 2)
    found: list[float] = []
    for at in wanted:
        if in_quiet(quiet, at):
            assert quiet is not None
            at = quiet_start(quiet, at) - 60.0  # a minute before they begin
        if start < at <= deadline - window and all(abs(at - f) >= 600 for f in found):
            found.append(at)
    return sorted(found)[-2:]
