"""A game at own pace, over days (issue 40 items 1–2), through the real
dispatcher on a make-believe clock, on both stores.

Three people in different places play at a day a move: Анна in Moscow
(quiet hours by her language, 23:00–08:00 Moscow time), Борис who writes in
English (23:00–08:00 UTC), Вера who turned her quiet hours off, now and then
lets her time run out, and goes away for a day (/away, then /back). Each
answers a few minutes to 40 minutes after being asked — never while asleep —
except when Вера lets it go. Played to the end (13 simulated days), with
the bot restarted mid-week. Shown:

- a person is rung once when they are asked, and reminded at most twice a
  clock, the last at least an hour before the deadline; nothing rings in
  anyone's quiet hours, and nobody's phone rings for someone else's turn;
- no deadline falls in its person's quiet hours;
- a timed-out turn is played for its person, who is told what was played;
- the group gets at most one new message a day (each silent) besides the
  start and the result; its table is edited in between;
- the game is finished, in the history and rated like any other; a record
  waiting on a deadline is never let go (the embedded store's expiry runs
  on the same clock; Redis's key TTL outlasts the next timer);
- the adversarial case: the restart mid-week loses no reminder and no deadline.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from aiogram.methods import SendMessage, SendPhoto
from aiogram.types import User

from bot.service.clocks import DAY, in_quiet
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from bot.words.keyboards import BackCb, LobbyCb, PrefsCb
from engine import pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import FakeClock, Harness, is_prompt

GROUP = -100_040_001
HOUR = 3600.0
# 2027-01-15 08:00 UTC (the harness clock's start): 11:00 in Moscow
START = 1_800_000_000.0


@dataclass
class Stamped:
    """What the bot sent, each request with the clock's time when it went."""

    times: list[float] = field(default_factory=list)

    def catch_up(self, h: Harness) -> None:
        now = h.clock.now()
        self.times += [now] * (len(h.tg.requests) - len(self.times))


def private_sends(h: Harness, user_id: int, stamps: Stamped) -> list[tuple[float, SendMessage]]:
    return [
        (stamps.times[i], r)
        for i, r in enumerate(h.tg.requests)
        if isinstance(r, SendMessage) and r.chat_id == user_id
    ]


def rings(r: SendMessage) -> bool:
    return r.disable_notification is not True


async def set_pace(h: Harness, host: User, lobby: int, game: int) -> None:
    """The lobby's settings: «🐢 В своём темпе» (a day a move)."""
    await h.press(host, GROUP, lobby, LobbyCb(action="settings", game=game).pack())
    await h.press(host, GROUP, lobby, LobbyCb(action="pace", game=game).pack())
    table = await h.table(GROUP)
    assert table.own_pace and table.turn_timeout == 24 * 3600


async def until_time(h: Harness, target: float, stamps: Stamped) -> None:
    """Let the clock run to `target`, firing every timer due on the way."""
    while True:
        table = await h.table(GROUP)
        due = table.next_timer()
        now = h.clock.now()
        if due is None or due > target:
            h.clock.advance(max(0.0, target - now))
            stamps.catch_up(h)
            return
        h.clock.advance(max(0.0, due - now))
        await h.tick()
        stamps.catch_up(h)


def awake_after(quiet: tuple[int, int] | None, at: float, rng: random.Random) -> float:
    """When someone asked at `at` answers: some while later, never asleep."""
    answer = at + rng.uniform(0.03, 0.7) * HOUR
    while in_quiet(quiet, answer):
        answer += HOUR
    return answer


@pytest.mark.parametrize("store_kind", ["memory", "redis"])
async def test_a_week_at_a_day_a_move(
    store_kind: str, redis_factory: Callable[[], Awaitable[RedisStore]]
) -> None:
    clock = FakeClock(START)
    store: Store = MemoryStore(clock=clock.now) if store_kind == "memory" else await redis_factory()
    h = Harness(store, clock=clock)
    anna, boris, vera = person(401, "Анна"), person(402, "Boris", lang="en"), person(403, "Вера")
    stamps = Stamped()
    for user in (anna, boris, vera):
        await h.say(user.id, user, "/start")
    # Вера turns her quiet hours off (the choices go round to «none»)
    await h.say(vera.id, vera, "/settings")
    settings = h.last_with_button(vera.id, "pf:quiet")
    for _ in range(4):
        await h.press(vera, vera.id, settings, PrefsCb(what="quiet", on=True, screen=True).pack())
    assert (await store.user(vera.id)).quiet == "off"

    await h.say(GROUP, anna, "/newgame")
    game = (await h.table(GROUP)).game_no
    lobby = (await store.messages(GROUP))["lobby"]
    for guest in (boris, vera):
        await h.press(guest, GROUP, lobby, LobbyCb(action="join", game=game).pack())
    await set_pace(h, anna, lobby, game)
    h.app.games.seeds = random.Random(40)  # the same game each run
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    stamps.catch_up(h)
    table = await h.table(GROUP)
    assert table.status == "playing"
    quiet = {s.user_id: s.quiet for s in table.seats}
    assert quiet[anna.id] == (20 * 60, 5 * 60)  # 23:00–08:00 Moscow, in UTC
    assert quiet[boris.id] == (23 * 60, 8 * 60)
    assert quiet[vera.id] is None
    users = {u.id: u for u in (anna, boris, vera)}
    started = h.clock.now()
    group_from = len(h.tg.requests)

    rng = random.Random(40)
    restarted = False
    deadlines: list[tuple[int, float, float]] = []  # (person, deadline, seen at) of each clock
    let_go = comebacks = 0
    went_away = False
    away_until: float | None = None
    while (table := await h.table(GROUP)).status == "playing":
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        seat = table.seats[decision.seat]
        assert seat.user_id is not None
        if table.state.players[decision.seat].computer:
            # handed to the computer (/away, or timeouts in a row): she is
            # back once she reads the bot's message, or after her trip
            if away_until is not None and h.clock.now() < away_until:
                await until_time(h, h.clock.now() + 5, stamps)  # the computer moves
                continue
            back_at = awake_after(seat.quiet, h.clock.now(), rng)
            comebacks += 1
            await until_time(h, back_at, stamps)
            await h.say(seat.user_id, users[seat.user_id], "/back")
            stamps.catch_up(h)
            away_until = None
            continue
        if seat.user_id == vera.id and not went_away and h.clock.now() - started > DAY:
            # she leaves for a day: says so, and the game goes on without her
            went_away = True
            away_until = h.clock.now() + DAY
            await h.say(vera.id, vera, "/away")
            stamps.catch_up(h)
            continue
        assert table.deadline is not None
        if not any(d[:2] == (seat.user_id, table.deadline) for d in deadlines):
            deadlines.append((seat.user_id, table.deadline, h.clock.now()))
        if not restarted and h.clock.now() - started > 3 * DAY:
            h.restart()  # a new process over the same store: nothing lost
            restarted = True
        if seat.user_id == vera.id and rng.random() < 0.06:
            let_go += 1
            await until_time(h, table.deadline + 1, stamps)  # her time runs out
            continue
        await until_time(h, awake_after(seat.quiet, h.clock.now(), rng), stamps)
        now_table = await h.table(GROUP)
        assert now_table.state is not None
        if (now := pending(now_table.state)) is None or now.id != decision.id:
            continue  # it timed out meanwhile
        await h.answer(users[seat.user_id], GROUP, choose(now_table.state.seed, now))
        stamps.catch_up(h)
    stamps.catch_up(h)
    assert restarted and let_go > 0 and went_away and comebacks > 0

    # ---- the game ended like any other: in the history, rated
    table = await h.table(GROUP)
    assert table.status == "finished"
    assert table.state is not None and table.state.result is not None
    played = await store.history(GROUP, 5)
    assert played and played[0].game_no == game and played[0].counted
    await h.app.games.ratings.drain()
    assert {f"u{u}" for u in users} <= set(await store.stats(GROUP))

    # ---- no deadline in its person's quiet hours
    for user_id, deadline, _ in deadlines:
        assert not in_quiet(quiet[user_id], deadline), (user_id, deadline)

    # ---- private chats: rings only when asked or reminded, never in quiet hours
    for user_id in users:
        sends = private_sends(h, user_id, stamps)
        ringing = [(at, r) for at, r in sends if rings(r) and h.tg.requests.index(r) >= group_from]
        assert ringing
        for at, r in ringing:
            assert not in_quiet(quiet[user_id], at), (user_id, at, r.text)
            assert is_prompt(r.reply_markup) or r.text.find("⏰") >= 0, r.text
        reminders = [(at, r) for at, r in sends if "⏰" in r.text and not is_prompt(r.reply_markup)]
        per_clock: dict[float, int] = {}
        for at, r in reminders:
            # the clock it reminds of: this person's, the latest seen before it
            deadline = [d for u, d, seen in deadlines if u == user_id and seen <= at][-1]
            assert deadline - at >= HOUR - 1, (at, deadline, r.text)
            per_clock[deadline] = per_clock.get(deadline, 0) + 1
        assert max(per_clock.values(), default=0) <= 2

    # ---- Вера was told what was played for her when her time ran out
    told_vera = [r.text for _, r in private_sends(h, vera.id, stamps)]
    timed_out = h.tr.t("ru", "prompt-timed-out", choice="").split("<i>")[0]
    assert any(timed_out in text for text in told_vera)

    # ---- the group: at most a new message a day, silent, besides the start and the result
    group_posts = [
        (stamps.times[i], r)
        for i, r in enumerate(h.tg.requests)
        if i >= group_from and isinstance(r, SendMessage | SendPhoto) and r.chat_id == GROUP
    ]
    finished_at = table.updated_at
    daily = [(at, r) for at, r in group_posts if at < finished_at]
    for (before, _), (after, _) in itertools.pairwise(daily):
        assert after - before >= DAY, (before, after)
    assert all(r.disable_notification for _, r in daily)
    assert len(daily) >= 2, "a game of days posts its table anew at least once"
    assert len(h.tg.edits(GROUP)) > len(daily)  # the table edited in place between
    days = (finished_at - started) / DAY
    assert 3 < days < 21, days  # a game of days, not of one sitting


async def test_the_record_outlives_its_ttl_while_it_waits(redis_store: RedisStore) -> None:
    """A game at own pace waiting on a deadline a day and a night away is
    kept past it: its keys' time to live outlasts the next timer."""
    clock = FakeClock(START)
    h = Harness(redis_store, clock=clock)
    anna, boris = person(411, "Анна"), person(412, "Борис")
    await h.open_lobby(GROUP, anna, [boris])
    table = await h.table(GROUP)
    lobby = (await redis_store.messages(GROUP))["lobby"]
    await set_pace(h, anna, lobby, table.game_no)
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=table.game_no).pack())
    table = await h.table(GROUP)
    due = table.next_timer()
    assert due is not None
    ttl = await redis_store._r.ttl(redis_store._table_key(GROUP))
    assert ttl >= redis_store.playing_ttl + (due - clock.now()) - 5


async def test_the_lobby_says_what_a_pace_means_in_days(store: Store) -> None:
    """«🐢 В своём темпе» in the lobby: the time a move and the longest a
    game of its players lasts, in days; «⏱ Время» goes round 1 h, 8 h, 24 h;
    «⚡ Живая партия» brings the live clock back."""
    h = Harness(store)
    anna, boris = person(421, "Анна"), person(422, "Борис")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    await set_pace(h, anna, lobby, game)
    shown = h.tg.edits(GROUP)[-1].text
    days = h.tr.t("ru", "pace-own-length", players=2, clocks=77, days=77)
    assert days in shown and "24 ч" in shown
    await h.press(anna, GROUP, lobby, LobbyCb(action="time", game=game).pack())
    table = await h.table(GROUP)
    assert table.turn_timeout == table.choice_timeout == 3600
    hourly = h.tr.t("ru", "pace-own-length", players=2, clocks=77, days=4)
    assert hourly in h.tg.edits(GROUP)[-1].text
    await h.press(anna, GROUP, lobby, LobbyCb(action="pace", game=game).pack())
    table = await h.table(GROUP)
    assert not table.own_pace and (table.turn_timeout, table.choice_timeout) == (90, 60)


async def test_away_hands_every_game_to_the_computer_until_back(store: Store) -> None:
    """/away in private: the computer plays the person's seat in each of
    their games (told to each group), until they press «🙋 Я вернулся» (or
    /back) — a button someone else presses changes nothing."""
    h = Harness(store)
    anna, boris = person(431, "Анна"), person(432, "Борис")
    other = GROUP - 1
    await h.open_game(GROUP, anna, [boris], seed=3)
    await h.open_game(other, boris, [anna], seed=4)
    await h.say(anna.id, anna, "/away")
    assert h.tr.t("ru", "away-done") in h.tg.sent(anna.id)[-1].text
    for chat in (GROUP, other):
        table = await h.table(chat)
        seat = table.seat_of(anna.id)
        assert seat is not None and table.seats[seat].away
        assert table.state is not None and table.state.players[seat].computer
    await h.say(anna.id, anna, "/away")
    assert h.tr.t("ru", "away-nothing") in h.tg.sent(anna.id)[-1].text  # changes nothing
    # the button under it is hers alone; pressed by her, it is /back
    button = h.last_with_button(anna.id, "bk:")
    before = [(await h.table(chat)).version for chat in (GROUP, other)]
    await h.press(boris, anna.id, button, BackCb(user=anna.id).pack())
    assert [(await h.table(chat)).version for chat in (GROUP, other)] == before
    await h.press(anna, anna.id, button, BackCb(user=anna.id).pack())
    for chat in (GROUP, other):
        table = await h.table(chat)
        seat = table.seat_of(anna.id)
        assert seat is not None and not table.seats[seat].away
