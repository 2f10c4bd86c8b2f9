"""Scaling out: the webhook server, and several bot processes on one Redis.

- Webhook mode: the aiohttp application `serve` runs (`bot.webhook.make_web_app`)
  hands an update to the dispatcher only when Telegram's secret token comes
  with it; a wrong or missing ``X-Telegram-Bot-Api-Secret-Token`` is answered
  401 Unauthorized and changes nothing — a forged update cannot open a game or
  take a seat.
- Two bot processes (two dispatchers, each with its own Redis client, one key
  prefix), one Telegram and one clock, play three games at once. Each update
  goes to a process picked at random (seeded), now and then the same button
  press goes to both at once (as a retried webhook delivery would: the process
  that claims it second ignores it), and both processes tick every timer. Some
  people answer in time, some let the clock run out, some press just as their
  deadline fires. At the end every game is over; each game's log replays
  exactly into its final state; every accepted press is in the log once and
  nothing else is (no move lost, none applied twice); every timed-out decision
  was answered once by the timer, the group read one timeout line per timeout,
  and each late player got one reminder.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup, Update, User
from aiohttp.test_utils import TestClient, TestServer

import bot.handlers.once
import bot.words.render
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.webhook import make_web_app
from bot.words.keyboards import LobbyCb, PromptCb
from bot.words.render import Renderer
from engine import Command, pending, replay
from engine.ai import decide
from engine.ai.easy import choose
from tests.bot.fake_telegram import FakeTelegram, Updates, person
from tests.bot.harness import FakeClock, Harness, answer_data
from tests.bot.helpers.webhooks import (
    HOOK_PATH,
    SECRET,
    SECRET_HEADER,
    as_json,
    webhook_settings,
)

# ====================================================================== webhook mode


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    """The webhook answers Telegram once the update is handled, but what it
    sends the groups goes out at their pace, after: wait until `check` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        assert loop.time() < end, "the update was never handled"
        await asyncio.sleep(0.01)


async def test_the_webhook_handles_only_updates_that_carry_the_secret() -> None:
    h = Harness(MemoryStore())
    group, forged_group = -100500, -100666
    anna, boris, vera = person(101, "Анна"), person(102, "Борис"), person(103, "Вера")
    wrong = {SECRET_HEADER: "s3cret_Token-0123456788"}
    right = {SECRET_HEADER: SECRET}

    async with TestClient(TestServer(make_web_app(h.app, webhook_settings()))) as client:

        async def post(update: Update, headers: dict[str, str]) -> int:
            response = await client.post(HOOK_PATH, json=as_json(update), headers=headers)
            return response.status

        # forged: someone who found the URL opens a game, with a wrong secret or none
        for headers in (wrong, {}):
            update = h.updates.message(forged_group, vera, "/newgame")
            assert await post(update, headers) == 401
        # Telegram, with the secret: the people start the bot and Анна opens a game
        for user in (anna, boris):
            assert await post(h.updates.message(user.id, user, "/start"), right) == 200

            async def welcomed(user: User = user) -> bool:
                return bool(h.tg.sent(user.id))

            await eventually(welcomed)
        assert await post(h.updates.message(group, anna, "/newgame"), right) == 200
        # answered once handled: the lobby is saved by the time Telegram hears 200
        assert await h.store.load(group) is not None

        async def lobby_shown() -> bool:
            return await h.store.load(group) is not None and any(
                isinstance(r.reply_markup, InlineKeyboardMarkup) for r in h.tg.sent(group)
            )

        await eventually(lobby_shown)
        lobby = h.last_with_button(group, "lb:")
        join = LobbyCb(action="join", game=(await h.table(group)).game_no).pack()
        # a forged «join» press (wrong secret, none) seats nobody; Борис's real one does
        for headers in (wrong, {}):
            assert await post(h.updates.press(vera, group, lobby, join), headers) == 401
        assert await post(h.updates.press(boris, group, lobby, join), right) == 200
        assert (await h.table(group)).seat_of(boris.id) is not None  # handled, then answered
        await h.settle()  # what the groups are told goes out after the answer

    table = await h.table(group)
    assert [s.user_id for s in table.seats] == [anna.id, boris.id]
    assert await h.store.load(forged_group) is None
    assert not h.tg.sent(forged_group), "the bot answered a forged update"
    touched = {getattr(r, "chat_id", None) for r in h.tg.requests}
    assert touched <= {None, anna.id, boris.id, group}, "a forged update reached Vera's chat"
    # every callback answered was Борис's (a forged press is not even answered)
    assert len(h.tg.answers()) == 1


async def test_the_webhook_server_needs_a_secret() -> None:
    """Without WEBHOOK_SECRET anyone who learns the URL could post forged
    updates — press any player's buttons — so the server refuses to start."""
    h = Harness(MemoryStore())
    with pytest.raises(ValueError, match="WEBHOOK_SECRET"):
        make_web_app(h.app, webhook_settings(secret=None))


async def test_the_webhook_answers_only_at_its_path() -> None:
    h = Harness(MemoryStore())
    anna = person(101, "Анна")
    async with TestClient(TestServer(make_web_app(h.app, webhook_settings()))) as client:
        update = as_json(h.updates.message(anna.id, anna, "/start"))
        response = await client.post("/", json=update, headers={SECRET_HEADER: SECRET})
        assert response.status == 404
        await h.settle()  # what the groups are told goes out after the answer
    assert not h.tg.requests


# ====================================================================== two processes, one Redis
GROUPS = (-100101, -100202, -100303)
SEED = 20261129
BOTH_AT_ONCE = 0.2  # how often one press goes to both processes at once
PLANS = ("press", "late", "timeout")
PLAN_WEIGHTS = (84, 8, 8)  # answer in time; press as the deadline fires; never answer
DOZY = "Егор"  # mostly lets the clock run out: the computer takes his seat, and /back returns it
DOZY_WEIGHTS = (30, 10, 60)
BACK_CHANCE = 0.05  # each round the dozy one is away, he may send /back
LATE_BY = (0.0, 0.0, 0.002, 0.005, 0.02)  # how long after the deadline a late press comes


@dataclass
class Press:
    chat: int
    seat: int
    decision: int
    option: tuple[str, ...]
    plan: str
    query_id: str
    both: bool


def record_saves(store: RedisStore, saved: list[tuple[int, Command, int]], proc: int) -> None:
    """Note every command a process saved successfully: what it believes it applied."""
    real = store.save

    async def save(table: Table, commands: Sequence[Command] = ()) -> bool:
        ok = await real(table, commands)
        if ok:
            saved.extend((table.chat_id, c, proc) for c in commands)
        return ok

    store.save = save  # type: ignore[method-assign]


class TwoProcesses:
    """Two bot processes over one Redis, one Telegram and one clock."""

    def __init__(self, stores: tuple[Store, Store], rng: random.Random) -> None:
        self.tg = FakeTelegram()
        self.clock = FakeClock()
        self.procs = tuple(Harness(s, tg=self.tg, clock=self.clock) for s in stores)
        for proc in self.procs:
            proc.app.games.seeds = random.Random(rng.randrange(2**32))  # the deals, reproducible
        self.updates = Updates()  # one numbering of updates for both
        self.rng = rng
        self.observer = stores[0]

    async def one(self, update: Update) -> None:
        await self.rng.choice(self.procs).feed(update)

    def deliver(self, update: Update, both: bool) -> Awaitable[Any]:
        """The update to a process picked at random, or to both at once."""
        if both:
            return asyncio.gather(*(p.feed(update) for p in self.procs))
        return self.rng.choice(self.procs).feed(update)

    async def after(self, seconds: float, work: Awaitable[Any]) -> None:
        """`work` a moment after the ticks began: a race on purpose (a late
        press against the deadline's timer), not a wait for anything."""
        await asyncio.sleep(seconds)
        await work

    async def at_once(self, work: list[Awaitable[Any]]) -> None:
        """Run all of it concurrently, started in a random order."""
        self.rng.shuffle(work)
        await asyncio.gather(*work)

    def ticks(self) -> list[Awaitable[Any]]:
        return [p.tick() for p in self.procs]

    async def table(self, chat_id: int) -> Table:
        table = await self.observer.load(chat_id)
        assert table is not None
        return table


async def open_game(world: TwoProcesses, chat_id: int, host: User, guest: User, bots: int) -> None:
    for user in (host, guest):
        await world.one(world.updates.message(user.id, user, "/start"))
    await world.one(world.updates.message(chat_id, host, "/newgame"))
    game = (await world.table(chat_id)).game_no
    lobby = (await world.observer.messages(chat_id))["lobby"]
    presses = [(guest, "join")] + [(host, "bot")] * bots + [(host, "go")]
    for user, action in presses:
        data = LobbyCb(action=action, game=game).pack()
        await world.one(world.updates.press(user, chat_id, lobby, data))
    table = await world.table(chat_id)
    assert table.status == "playing" and len(table.seats) == 2 + bots


def message_texts(tg: FakeTelegram) -> dict[tuple[int, int], list[str]]:
    """Every text each message ever showed, in order: sent, then edited."""
    texts: defaultdict[tuple[int, int], list[str]] = defaultdict(list)
    for r in tg.requests:
        if isinstance(r, SendMessage) and id(r) in tg.message_id_of:
            assert isinstance(r.chat_id, int)
            texts[(r.chat_id, tg.message_id_of[id(r)])].append(r.text)
        elif isinstance(r, EditMessageText):
            assert isinstance(r.chat_id, int) and r.message_id is not None
            texts[(r.chat_id, r.message_id)].append(r.text)
    return texts


def lines_seen(texts: dict[tuple[int, int], list[str]], chat_id: int, line: str) -> int:
    """How many times the chat showed `line`: per message, the most copies it
    ever held at once (a table message is edited as its turn goes on)."""
    return sum(
        max(text.split("\n").count(line) for text in history)
        for (chat, _), history in texts.items()
        if chat == chat_id
    )


async def test_two_processes_play_three_games_at_once_on_one_redis(
    redis_factory: Callable[[], Awaitable[RedisStore]],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The choices are seeded; which process wins each race is up to the event
    loop and Redis, so every run also tries other interleavings."""
    caplog.set_level(logging.INFO)
    # a table message shows its whole turn, so counting lines in it is exact
    monkeypatch.setattr(bot.words.render, "MAX_LOG_LINES", 10_000)
    # a press sent to both processes: the one that lost the claim waits for the
    # other's lease to be made final, asking Redis every 10 ms rather than every
    # 0.5 s (some 60 such waits a run were half a minute of an idle core)
    monkeypatch.setattr(bot.handlers.once, "WAIT_STEP", 0.01)
    rng = random.Random(SEED)
    stores = (await redis_factory(), await redis_factory())
    saved: list[tuple[int, Command, int]] = []  # chat, command, which process saved it
    for proc, s in enumerate(stores):
        record_saves(s, saved, proc)
    world = TwoProcesses(stores, rng)
    clock = world.clock
    names = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Егор"]
    people = [person(201 + i, name) for i, name in enumerate(names)]
    hosts = {chat: (people[2 * i], people[2 * i + 1]) for i, chat in enumerate(GROUPS)}
    for i, chat in enumerate(GROUPS):
        await open_game(world, chat, *hosts[chat], bots=1 + i % 2)
    users = {u.id: u for u in people}

    dozy = next(u for u in people if u.first_name == DOZY)
    plans: dict[tuple[int, int], tuple[str, int]] = {}  # (chat, decision) → plan, seat
    presses: list[Press] = []

    async def press_for(table: Table, plan: str) -> tuple[Press, Update]:
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        option = choose(rng.randrange(2**32), decision)
        index = decision.options.index(option)
        user_id = table.seats[decision.seat].user_id
        assert user_id is not None
        prompt = (await world.observer.messages(table.chat_id))[f"prompt:{decision.seat}"]
        data = PromptCb(
            chat=table.chat_id,
            game=table.game_no,
            decision=decision.id,
            option=index,
            depth=len(option),  # the button that names the whole option answers at once
        ).pack()
        update = world.updates.press(users[user_id], user_id, prompt, data)
        assert update.callback_query is not None
        both = rng.random() < BOTH_AT_ONCE
        press = Press(
            table.chat_id, decision.seat, decision.id, option, plan, update.callback_query.id, both
        )
        presses.append(press)
        return press, update

    for _ in range(5000):
        tables = [await world.table(chat) for chat in GROUPS]
        live = [t for t in tables if t.status == "playing"]
        if not live:
            break
        in_time: list[tuple[Press, Update]] = []
        backs: list[Awaitable[Any]] = []
        for t in live:
            assert t.state is not None
            decision = pending(t.state)
            assert decision is not None, "a game in play waits for nothing"
            seat = t.seat_of(dozy.id)
            if seat is not None and t.seats[seat].away and rng.random() < BACK_CHANCE:
                backs.append(world.deliver(world.updates.message(dozy.id, dozy, "/back"), False))
            if t.state.players[decision.seat].computer:
                continue
            key = (t.chat_id, decision.id)
            if key not in plans:
                weights = DOZY_WEIGHTS if t.seats[decision.seat].name == DOZY else PLAN_WEIGHTS
                plans[key] = (rng.choices(PLANS, weights)[0], decision.seat)
            if plans[key][0] == "press":
                in_time.append(await press_for(t, "press"))
        if in_time or backs:
            # people answer in several games at once, while both processes tick
            await world.at_once(
                [world.deliver(u, p.both) for p, u in in_time] + backs + world.ticks()
            )
            continue
        # nobody answers now: the clock runs to the next timer (a computer's
        # pause, a reminder, a deadline) and both processes tick at once — with
        # the presses of those who answer just as their deadline fires
        timers = [min(x for x in (t.reminder, t.deadline) if x is not None) for t in live]
        clock.t = max(clock.t, min(timers))
        late = []
        for t in live:
            decision = pending(t.state)  # type: ignore[arg-type]
            assert decision is not None
            plan = plans.get((t.chat_id, decision.id), ("", 0))[0]
            if plan == "late" and t.deadline is not None and clock.now() >= t.deadline:
                late.append(await press_for(t, "late"))
        await world.at_once(
            world.ticks()
            + [world.after(rng.choice(LATE_BY), world.deliver(u, p.both)) for p, u in late]
        )
    else:
        raise AssertionError("the games did not end")

    answers: defaultdict[str, list[str | None]] = defaultdict(list)
    for a in world.tg.answers():
        answers[a.callback_query_id].append(a.text)
    texts = message_texts(world.tg)
    tr = world.procs[0].tr

    for chat in GROUPS:
        table = await world.table(chat)
        assert table.status == "finished" and table.state is not None
        assert table.state.result is not None and not table.state.result.aborted
        log = await stores[1].log(chat)
        assert table.setup is not None
        assert replay(table.setup, log) == table.state, "the log does not replay into the game"
        # the log holds exactly what the processes saved: nothing lost, nothing twice
        mine = [c for c_chat, c, _ in saved if c_chat == chat]
        assert len(log) == len(mine)
        assert Counter(c.model_dump_json() for c in log) == Counter(
            c.model_dump_json() for c in mine
        )
        answered = [c.decision for c in log if c.decision is not None]
        assert len(answered) == len(set(answered)), "a decision was answered twice"
        by_decision = {c.decision: c for c in log if c.decision is not None}

        accepted: set[int] = set()
        for p in (p for p in presses if p.chat == chat):
            oks = answers[p.query_id].count(None)
            # a press sent to both processes is handled by the one that claims
            # its update first; the other ignores the redelivery (answers nothing)
            assert len(answers[p.query_id]) == 1, "a press went unanswered, or was handled twice"
            assert oks <= 1, "one press was accepted by both processes"
            if p.plan == "press":
                assert oks == 1, "a press in time was refused"
            if oks:
                accepted.add(p.decision)
                command = by_decision.get(p.decision)
                assert command == Command(seat=p.seat, decision=p.decision, option=p.option), (
                    "an accepted press is not in the log"
                )
        # the timers: each deadline fired once — one command, one line in the group
        timed_out: Counter[int] = Counter()
        reminded: Counter[int] = Counter()
        for (c, decision_id), (plan, seat) in plans.items():
            if c != chat or plan == "press":
                continue
            reminded[seat] += 1
            if decision_id not in accepted:
                assert decision_id in by_decision, "a deadline passed and nothing happened"
                timed_out[seat] += 1
        for seat_no, seat in enumerate(table.seats):
            if seat.user_id is None:
                continue
            named = Renderer(tr).name(table.lang, table, seat_no)
            line = tr.t(table.lang, "log-timeout", player=named)
            assert lines_seen(texts, chat, line) == timed_out[seat_no], (
                f"{seat.name}: {timed_out[seat_no]} timeouts, "
                f"{lines_seen(texts, chat, line)} timeout lines in the group"
            )
            remind = tr.t(seat.lang, "remind", seconds=20)
            got = sum(1 for r in world.tg.sent(seat.user_id) if remind in r.text)
            assert got == reminded[seat_no], (
                f"{seat.name}: {reminded[seat_no]} late decisions, {got} reminders"
            )
            # handed to the computer after three timeouts, and back with /back: once each
            for key, computer in (("log-away", True), ("log-back", False)):
                line = tr.t(table.lang, key, player=named)
                commands = sum(1 for c in log if c.computer is computer and c.seat == seat_no)
                assert lines_seen(texts, chat, line) == commands, key
        # both processes moved this game: people's presses and the computer's timers
        for proc in (0, 1):
            seats = {c.seat for c_chat, c, p in saved if c_chat == chat and p == proc}
            assert any(table.seats[s].user_id is None for s in seats), "a process never ticked"
            assert any(table.seats[s].user_id is not None for s in seats)

    # the run really was what it claims to be
    kinds = Counter((p.plan, p.both) for p in presses)
    assert kinds[("press", True)] >= 10, kinds
    assert sum(1 for p, _ in plans.values() if p == "timeout") >= 5
    assert any(p.plan == "late" and answers[p.query_id].count(None) for p in presses)
    assert any(p.plan == "late" and not answers[p.query_id].count(None) for p in presses)
    for proc in world.procs:  # each process stops hearing of saves, as it would on exit
        await proc.app.close_feed()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def test_someone_coming_back_does_not_move_another_players_deadline(store: Store) -> None:
    """Found by the run above: Егор's /back (any change that leaves the pending
    decision as it was) restarted Дарья's clock — she was reminded twice and
    had more time than the chat allows."""
    h = Harness(store)
    chat = -100404
    darya, egor = person(301, "Дарья"), person(302, "Егор")
    await h.open_game(chat, darya, [egor], computers=1)

    async def step_until(done: Callable[[Table], bool]) -> Table:
        """Play on — Дарья answers, Егор never does, the computer takes its pause."""
        for n in range(400):
            table = await h.table(chat)
            if done(table):
                return table
            assert table.status == "playing" and table.state is not None
            decision = pending(table.state)
            assert decision is not None
            if (
                table.seats[decision.seat].user_id == darya.id
                and not table.seats[decision.seat].away
            ):
                await h.answer(darya, chat, choose(n, decision))
            else:
                assert table.deadline is not None
                await h.tick(table.deadline - h.clock.now())
        raise AssertionError("never got there")

    egor_seat = 1

    def egor_away(t: Table) -> bool:
        return t.seats[egor_seat].away

    def darya_to_decide(t: Table) -> bool:
        d = pending(t.state) if t.state is not None else None
        return d is not None and t.seats[d.seat].user_id == darya.id

    await step_until(egor_away)
    table = await step_until(darya_to_decide)
    decision = pending(table.state)  # type: ignore[arg-type]
    assert decision is not None and table.deadline is not None and table.reminder is not None
    deadline = table.deadline
    # a person's move on timeout is the normal computer's, thought from this position
    expected = decide(table.state, decision, "normal")  # type: ignore[arg-type]
    remind = h.tr.t("ru", "remind", seconds=20)

    def reminders() -> int:
        return sum(1 for r in h.tg.sent(darya.id) if remind in r.text)

    before = reminders()
    await h.tick(table.reminder - h.clock.now())
    assert reminders() == before + 1
    await h.say(egor.id, egor, "/back")
    table = await h.table(chat)
    assert not table.seats[egor_seat].away, "/back did not bring Егор back"
    assert table.deadline == deadline, "Егор's return moved Дарья's deadline"
    await h.tick(deadline - h.clock.now())
    after = await h.decision(chat)
    assert after is None or after.id != decision.id, "Дарья's deadline did not fire"
    assert reminders() == before + 1, "Дарья was reminded twice"
    log = await h.store.log(chat)
    assert [c for c in log if c.decision == decision.id] == [
        Command(seat=decision.seat, decision=decision.id, option=expected)
    ]


class SlowGroupEdits(FakeTelegram):
    """Telegram, where the next edit of a group message once arms is held back
    until released: the edit of a process that lost the race lands late."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    async def make_request(self, bot: Any, method: Any, timeout: int | None = None) -> Any:
        if self.armed and isinstance(method, EditMessageText) and method.chat_id == GROUP_LATE:
            self.armed = False
            self.held.set()
            await self.release.wait()
        return await super().make_request(bot, method, timeout)


GROUP_LATE = -100505
LATE_SEED = 2


async def test_a_table_edit_that_lands_after_a_newer_one_is_put_right(store: Store) -> None:
    """Process A tells move 1, but its edit of the table reaches Telegram only
    after process B has made and shown move 2: A sees that a newer move was
    saved meanwhile and shows the newest table again."""
    tg, clock = SlowGroupEdits(), FakeClock()
    a, b = Harness(store, tg=tg, clock=clock), Harness(store, tg=tg, clock=clock)
    anna, boris = person(401, "Анна"), person(402, "Борис")
    # a seed whose first two moves fall in one turn: one table message
    await a.open_game(GROUP_LATE, anna, [boris], seed=LATE_SEED)
    users = {anna.id: anna, boris.id: boris}

    def leaf(table: Table) -> tuple[User, str]:
        """Who decides now, and a button that answers at once."""
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        data = answer_data(table, decision, choose(table.state.seed, decision))
        return users[table.seats[decision.seat].user_id], data  # type: ignore[index]

    start = await a.table(GROUP_LATE)
    table_message = (await a.store.messages(GROUP_LATE))["table"]
    who, data = leaf(start)
    tg.armed = True
    move_1 = asyncio.create_task(a.press(who, who.id, 1, data))
    await asyncio.wait_for(tg.held.wait(), 5)  # A saved move 1; its table edit hangs
    after_1 = await b.table(GROUP_LATE)
    assert after_1.version == start.version + 1
    who, data = leaf(after_1)
    await b.press(who, who.id, 1, data)  # B makes and shows move 2
    after_2 = await b.table(GROUP_LATE)
    assert after_2.version == after_1.version + 1
    tg.release.set()
    await asyncio.wait_for(move_1, 5)  # A's stale edit lands now

    ids = await a.store.messages(GROUP_LATE)
    assert ids["table"] == table_message, "both moves edit the same table message"
    newest = a.app.games.views.table_text(await a.table(GROUP_LATE))
    assert tg.texts[(GROUP_LATE, table_message)] == newest, "the group is left a stale table"
