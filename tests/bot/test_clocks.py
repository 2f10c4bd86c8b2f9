"""The clock of a game at own pace and quiet hours, from positions in time
(`bot.service.clocks`): where a deadline and the reminders fall."""

from __future__ import annotations

from bot.service.clocks import (
    DAY,
    choice_for,
    deadline_of,
    in_quiet,
    next_quiet,
    next_time,
    other_pace,
    quiet_of,
    quiet_utc,
    reminders,
)
from bot.store import UserPrefs

HOUR = 3600.0
MIDNIGHT = 1_800_057_600.0  # 2027-01-16 00:00 UTC
MOSCOW_NIGHT = (20 * 60, 5 * 60)  # 23:00–08:00 Moscow time, in UTC minutes


def at(hour: float, day: int = 0) -> float:
    return MIDNIGHT + day * DAY + hour * HOUR


def test_quiet_hours_default_by_language_and_follow_the_persons_offset() -> None:
    assert quiet_of(UserPrefs(user_id=1), "ru") == MOSCOW_NIGHT
    assert quiet_of(UserPrefs(user_id=1), "en") == (23 * 60, 8 * 60)
    assert quiet_of(UserPrefs(user_id=1, offset=-300), "ru") == (4 * 60, 13 * 60)  # UTC−5
    assert quiet_of(UserPrefs(user_id=1, quiet="off"), "ru") is None
    assert quiet_utc(0, (9, 9)) is None  # an empty window is none


def test_quiet_hours_wrap_midnight() -> None:
    assert in_quiet(MOSCOW_NIGHT, at(20))
    assert in_quiet(MOSCOW_NIGHT, at(2))
    assert not in_quiet(MOSCOW_NIGHT, at(5))  # their end is theirs no more
    assert not in_quiet(MOSCOW_NIGHT, at(12))
    assert not in_quiet(None, at(2))


def test_a_deadline_in_quiet_hours_moves_to_their_end() -> None:
    # 22:00 UTC the next day is 01:00 in Moscow: moved to 08:00 there
    assert deadline_of(at(22), DAY, MOSCOW_NIGHT) == at(5, day=2)
    assert deadline_of(at(10), DAY, MOSCOW_NIGHT) == at(10, day=1)
    assert deadline_of(at(22), DAY, None) == at(22, day=1)


def test_a_day_a_move_reminds_halfway_and_an_hour_before() -> None:
    start = at(10)
    deadline = deadline_of(start, DAY, None)
    assert reminders(start, deadline, DAY, None) == [at(22), at(9, day=1)]


def test_no_reminder_in_quiet_hours_it_comes_before_they_begin() -> None:
    start = at(8)  # 11:00 in Moscow: halfway is 20:00 UTC, 23:00 there
    deadline = deadline_of(start, DAY, MOSCOW_NIGHT)
    times = reminders(start, deadline, DAY, MOSCOW_NIGHT)
    assert times == [at(20) - 60, at(7, day=1)]
    assert not any(in_quiet(MOSCOW_NIGHT, t) for t in times)


def test_a_turn_that_starts_at_night_rings_when_it_ends() -> None:
    start = at(1)  # 04:00 in Moscow: its prompt went silently
    deadline = deadline_of(start, DAY, MOSCOW_NIGHT)
    assert deadline == at(5, day=1)  # 04:00 the next day is quiet too: moved to 08:00 there
    # rung at 08:00; the last, an hour before 08:00 the next day, would be
    # quiet: it comes the evening before, before their quiet hours begin
    assert reminders(start, deadline, DAY, MOSCOW_NIGHT) == [at(5), at(20) - 60]


def test_an_hour_a_move_reminds_once_a_quarter_before() -> None:
    start = at(12)
    assert reminders(start, start + HOUR, HOUR, None) == [start + 0.75 * HOUR]


def test_reminders_never_closer_than_the_last_window() -> None:
    # given back an hour at a day a move: no reminder can still be an hour before
    start = at(12)
    assert reminders(start, start + HOUR, DAY, None) == []


def test_the_pace_buttons_go_round_within_a_pace() -> None:
    assert next_time(300) == 60 and next_time(90) == 120
    assert next_time(3600) == 8 * 3600 and next_time(24 * 3600) == 3600
    assert other_pace(90, 90) == 24 * 3600 and other_pace(8 * 3600, 90) == 90
    assert choice_for(8 * 3600) == 8 * 3600 and choice_for(90) == 60


def test_quiet_choices_go_round_to_none_and_back() -> None:
    prefs = UserPrefs(user_id=1)
    seen = []
    for _ in range(5):
        prefs.quiet = next_quiet(prefs)
        seen.append(prefs.quiet)
    assert seen == ["22-7", "0-9", "21-9", "off", "23-8"]
