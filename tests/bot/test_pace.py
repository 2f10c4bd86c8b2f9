"""The outbound pace: ≤ 20 new messages a minute and about one request a second
to a group, ≤ 30 requests a second overall — before Telegram has to say so."""

from __future__ import annotations

import asyncio
import itertools

from bot.store import Store
from bot.telegram.pace import Pace
from bot.words.keyboards import LobbyCb
from tests.bot.harness import Harness, people

GROUP = -100321


def fake_pace() -> tuple[Pace, list[float]]:
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    return Pace(clock=lambda: now[0], sleep=sleep), now


async def test_a_group_gets_at_most_twenty_new_messages_a_minute_one_a_second() -> None:
    pace, now = fake_pace()
    moments = []
    for _ in range(45):
        await pace.wait(GROUP, new_message=True)
        moments.append(now[0])
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(moments))
    for i, start in enumerate(moments):
        in_window = [m for m in moments[i:] if m < start + 60.0]
        assert len(in_window) <= 20
    assert moments[20] >= 60.0  # the 21st message waits for the minute to pass


def booked(pace: Pace, chat_id: int, count: int) -> list[float]:
    """The moments `count` new messages to `chat_id`, asked for now, are booked at."""
    return [pace.reserve(chat_id, new_message=True) for _ in range(count)]


def test_a_quiet_group_gets_a_burst_of_exactly_three_then_one_every_three_seconds() -> None:
    pace, _ = fake_pace()
    pace.group_gap = 0.0  # only the spread counts here
    assert booked(pace, GROUP, 6) == [0.0, 0.0, 0.0, 3.0, 6.0, 9.0]


def test_after_a_quiet_spell_the_burst_is_three_again_not_a_backlog_of_credit() -> None:
    """The GCRA's arrival time is brought to now: a quiet spell earns a burst
    of three, not twenty messages at one a second (50 s: before the pace
    would forget the group, see the next test)."""
    pace, now = fake_pace()
    booked(pace, GROUP, 3)
    now[0] = 50.0
    moments = booked(pace, GROUP, 8)
    fresh, _ = fake_pace()
    assert moments == [50.0 + t for t in booked(fresh, GROUP, 8)], "paced as a new group"
    assert moments[-1] - moments[0] >= 12.0  # eight messages: three at once, then the spread


def test_the_pace_forgets_a_group_once_nothing_of_it_can_delay_a_request() -> None:
    """A thousand groups each told once: a minute later the pace keeps none of
    them, and a group it forgot is paced exactly as before."""
    pace, now = fake_pace()
    for chat_id in range(-1000, 0):
        pace.reserve(chat_id, new_message=True)
    assert pace.groups_kept() == 1000
    now[0] = 100.0  # (the overall limit spread their slots over 33 s)
    pace.reserve(GROUP, new_message=True)  # the next request prunes
    assert pace.groups_kept() == 1
    fresh, _ = fake_pace()
    fresh.clock = pace.clock
    assert booked(pace, -5, 6) == booked(fresh, -5, 6)


def test_a_group_still_in_its_minute_is_kept() -> None:
    pace, now = fake_pace()
    booked(pace, GROUP, 20)  # the 20th new message of the minute books a slot near 60 s
    now[0] = 61.0
    pace.prune(now[0])
    assert pace.groups_kept() == 1
    assert pace.reserve(GROUP, new_message=True) >= 61.0


async def test_edits_to_a_group_keep_the_gap_but_do_not_use_the_minute_budget() -> None:
    pace, now = fake_pace()
    for _ in range(30):
        await pace.wait(GROUP, new_message=False)
    assert now[0] == 29.0  # one a second, no minute-long pause


async def test_all_chats_together_get_at_most_thirty_requests_a_second() -> None:
    pace, _ = fake_pace()
    moments = sorted(pace.reserve(10_000 + i, new_message=True) for i in range(200))
    for i, start in enumerate(moments):
        assert len([m for m in moments[i:] if m < start + 1.0]) <= 30
    assert moments[-1] < 200 / 30 + 1  # and no slower than that


async def test_one_group_waiting_does_not_hold_up_private_chats() -> None:
    pace, _ = fake_pace()
    for _ in range(25):
        pace.reserve(GROUP, new_message=True)
    assert pace.reserve(555, new_message=True) == 0.0


async def test_a_whole_game_stays_inside_the_group_limits(store: Store) -> None:
    """One person and five computer seats: computer moves come every 1.5 s, yet
    every request to the group waits for its turn in the pace, at most one a
    second and never more than 20 new messages a minute (the table is mostly
    edited, so the minute limit is pressed hardest in the unit tests above)."""
    h = Harness(store)
    (anna,) = people("Анна")
    await h.open_game(GROUP, anna, [], computers=5)
    # Анна never answers: her seat goes by timeouts, then to the computer
    for _ in range(3000):
        if (await h.table(GROUP)).status == "finished":
            break
        await h.tick(91)
    table = await h.table(GROUP)
    assert table.status == "finished" and table.state is not None and table.state.turn > 20
    group = [(t, new) for chat, t, new in h.pace.booked if chat == GROUP]
    sent = [r for r in h.tg.requests if getattr(r, "chat_id", None) == GROUP]
    assert len(group) == len(sent) > 100, "a request to the group went past the pace"
    news = [t for t, new in group if new]
    for i, start in enumerate(news):
        assert len([t for t in news[i:] if t < start + 60.0]) <= 20
    moments = [t for t, _ in group]
    assert all(b - a >= 1.0 - 1e-9 for a, b in itertools.pairwise(moments))


async def test_timers_of_many_chats_fire_side_by_side(store: Store) -> None:
    h = Harness(store)
    users = people(*(f"Игрок{i}" for i in range(6)))
    chats = [-200 - i for i in range(3)]
    for user in users:
        await h.say(user.id, user, "/start")
    for chat, (host, guest) in zip(chats, [users[0:2], users[2:4], users[4:6]], strict=True):
        await h.say(chat, host, "/newgame")
        table = await h.table(chat)
        lobby = h.last_with_button(chat, "lb:")
        await h.press(guest, chat, lobby, LobbyCb(action="join", game=table.game_no).pack())
        await h.press(host, chat, lobby, LobbyCb(action="go", game=table.game_no).pack())
    before = {c: (await h.table(c)).version for c in chats}
    await h.tick((await h.table(chats[0])).turn_timeout + 1)
    after = {c: (await h.table(c)).version for c in chats}
    assert all(after[c] > before[c] for c in chats), "every due chat was handled in one tick"
    await asyncio.sleep(0)
