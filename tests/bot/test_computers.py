"""Computers at three levels, thinking off the event loop, and /practice.

- The lobby offers the three levels; each computer seat is named by its
  number and level, and plays exactly what `engine.ai.decide` answers at its
  level, from the position it was asked in.
- A strong computer thinking (its executor held) keeps no other chat waiting:
  another group's press is answered and its next prompt sent meanwhile.
- The pool of worker processes answers as the engine does in this process.
- /practice: a whole game alone against computers in one's own private chat,
  with no clock, the table shown before the first prompt and the result at
  the end; the group chats hear nothing of it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from aiogram.methods import AnswerCallbackQuery, SendMessage

import bot.service.thinking
from bot.service.thinking import Thinker
from bot.store import Store
from bot.store.models import Seat
from bot.words.keyboards import LobbyCb
from engine import Command, GameSetup, GameState, execute, new_game, pending
from engine.ai import LEVELS, decide
from engine.ai.easy import choose
from engine.ai.search import search
from engine.hidden import mix, observe
from tests.bot.harness import Harness, answer_data, people

GROUP = -100555
OTHER = -100556


def level_name(h: Harness, n: int, level: str) -> str:
    return h.tr.t("ru", "bot-name", n=n, level=h.tr.t("ru", f"level-{level}"))


def computer_moves(table_setup: Any, log: list[Command]) -> Iterator[tuple[GameState, Command]]:
    """Each logged answer with the position it was given in."""
    state, _ = new_game(table_setup)
    for command in log:
        if command.decision is not None:
            yield state.model_copy(deep=True), command
        execute(state, command)


async def test_the_lobby_offers_three_levels_and_names_each_computer_by_its_level(
    store: Store,
) -> None:
    h = Harness(store)
    (anna,) = people("Анна")
    lobby, game = await h.open_lobby(GROUP, anna, [])
    # the levels are a tap away (issue 24: a calm first screen)
    await h.press(anna, GROUP, lobby, LobbyCb(action="levels", game=game).pack())
    actions = [data for _, data in h.buttons(GROUP, lobby) if data.startswith("lb:bot")]
    assert actions == [LobbyCb(action=f"bot_{level}", game=game).pack() for level in LEVELS]
    for level in ("strong", "easy", "normal"):
        await h.press(anna, GROUP, lobby, LobbyCb(action=f"bot_{level}", game=game).pack())
    table = await h.table(GROUP)
    assert [(s.name, s.level) for s in table.seats[1:]] == [
        (level_name(h, 1, "strong"), "strong"),
        (level_name(h, 2, "easy"), "easy"),
        (level_name(h, 3, "normal"), "normal"),
    ]
    shown = h.tg.texts[(GROUP, lobby)]
    assert level_name(h, 1, "strong") in shown, "the lobby does not show the computer's level"
    # the group's default level, for a lobby message from before levels
    await h.press(anna, GROUP, lobby, LobbyCb(action="bot", game=game).pack())
    assert (await h.table(GROUP)).seats[-1].level == "normal"


def test_a_seat_plays_at_its_level_and_a_person_handed_over_plays_normal() -> None:
    assert Seat(user_id=None, name="c", level="strong").computer_level() == "strong"
    assert Seat(user_id=5, name="p", away=True).computer_level() == "normal"
    # a computer seat saved before levels existed played at random
    assert Seat(user_id=None, name="c").computer_level() == "easy"


async def test_each_computer_plays_what_its_level_decides(store: Store) -> None:
    """Anna against an easy, a normal and a strong computer, for 150 decisions:
    every computer answer is `decide(position, decision, level)`."""
    h = Harness(store)
    (anna,) = people("Анна")
    lobby, game = await h.open_lobby(GROUP, anna, [])
    for level in LEVELS:
        await h.press(anna, GROUP, lobby, LobbyCb(action=f"bot_{level}", game=game).pack())
    h.app.games.seeds.seed(7)
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    for step in range(150):
        table = await h.table(GROUP)
        if table.status == "finished":
            break
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            assert await h.tick(5) >= 1
        else:
            await h.answer(anna, GROUP, choose(table.state.seed + step, decision))
    table = await h.table(GROUP)
    levels = {i: s.level for i, s in enumerate(table.seats) if s.user_id is None}
    played = {level: 0 for level in LEVELS}
    for position, command in computer_moves(table.setup, await h.store.log(GROUP)):
        level = levels.get(command.seat)
        if level is None:
            continue
        decision = pending(position)
        assert decision is not None and decision.id == command.decision
        assert command.option == decide(position, decision, level), (
            f"seat {command.seat} ({level}) did not play its level's move"
        )
        played[level] += 1
    assert all(n >= 5 for n in played.values()), f"too few moves to tell: {played}"


class HeldThinking:
    """A thinker's executor whose every search waits until released — a strong
    computer taking its time, in a thread, as the pool would take it in a process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        real = bot.service.thinking.think

        def think(state_json: str, decision: Any, level: Any, seconds: Any = None) -> Any:
            self.started.set()
            self.release.wait(60)
            return real(state_json, decision, level, seconds)

        monkeypatch.setattr(bot.service.thinking, "think", think)
        self.executor = ThreadPoolExecutor(1)

    def install(self, thinker: Thinker) -> None:
        thinker.workers = 1
        thinker._pool = self.executor  # the pool stands in for the processes


async def test_a_computer_thinking_keeps_no_other_chat_waiting(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(store)
    held = HeldThinking(monkeypatch)
    held.install(h.app.games.thinker)
    anna, boris, vera, gleb = people("Анна", "Борис", "Вера", "Глеб")
    # GROUP: Anna against a strong computer; the computer is to move
    lobby, game = await h.open_lobby(GROUP, anna, [])
    await h.press(anna, GROUP, lobby, LobbyCb(action="bot_strong", game=game).pack())
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    for step in range(40):
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            break
        await h.answer(anna, GROUP, choose(table.state.seed + step, decision))
    else:
        raise AssertionError("the computer never came to move")
    # OTHER: three people mid-game
    other = await h.open_game(OTHER, boris, [vera, gleb], seed=3)
    assert other.state is not None

    h.clock.advance(5)
    assert await h.app.ticker.tick() >= 1  # the computer's timer starts thinking
    await asyncio.get_running_loop().run_in_executor(None, held.started.wait, 10)
    assert held.started.is_set(), "the computer never started thinking"

    # meanwhile, OTHER's decider presses: answered, and the next prompt sent
    decision = pending(other.state)
    assert decision is not None
    decider = next(u for u in (boris, vera, gleb) if other.seats[decision.seat].user_id == u.id)
    option = choose(other.state.seed, decision)
    data = answer_data(other, decision, option)
    prompt = (await h.store.messages(OTHER))[f"prompt:{decision.seat}"]
    since = len(h.tg.requests)
    await h.press(decider, decider.id, prompt, data, settle=False)
    answered = await h.table(OTHER)
    assert answered.version == other.version + 1, "OTHER's move waited for the computer"
    new = h.tg.requests[since:]
    assert any(isinstance(r, AnswerCallbackQuery) for r in new), "the press was not answered"
    nxt = pending(answered.state)  # type: ignore[arg-type]
    assert nxt is not None
    if answered.seats[nxt.seat].user_id != decider.id:
        to = answered.seats[nxt.seat].user_id
        assert any(isinstance(r, SendMessage) and r.chat_id == to for r in new), (
            "the next decider's prompt waited for the computer"
        )
    assert (await h.table(GROUP)).version == table.version, "the computer moved while held"

    held.release.set()
    await h.settle()
    moved = await h.table(GROUP)
    assert moved.version == table.version + 1
    log = await h.store.log(GROUP)
    assert log[-1].option == decide(table.state, pending(table.state), "strong")  # type: ignore[arg-type]
    held.executor.shutdown()


async def test_the_process_pool_thinks_as_the_engine_does_here() -> None:
    """Worker processes (spawned, as the bot runs them) give the same answers
    (strong in its budget mode: with a deadline, its answer depends on time)."""
    state, _ = new_game(GameSetup(players=4, seed=11))
    thinker = Thinker(workers=1, strong_seconds=None)
    try:
        for step in range(12):
            decision = pending(state)
            assert decision is not None
            level = ("normal", "strong")[step % 2]
            here = decide(state, decision, level)  # type: ignore[arg-type]
            there = await asyncio.wait_for(thinker.decide(state, decision, level), 120)  # type: ignore[arg-type]
            assert there == here
            execute(state, Command(seat=decision.seat, decision=decision.id, option=here))
    finally:
        thinker.close()


# ====================================================================== /practice
async def test_a_practice_game_is_played_alone_to_the_end_in_ones_private_chat(
    store: Store,
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.say(anna.id, anna, "/start")
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    assert table.practice and table.status == "lobby" and not table.timed
    assert [s.level for s in table.seats] == [None, "normal"]
    lobby = (await h.store.messages(anna.id))["lobby"]
    game = table.game_no

    # opponents and their levels chosen with buttons; a clock may be switched on and off
    for action in ("bot_strong", "bot_easy", "drop", "clock", "clock"):
        await h.press(anna, anna.id, lobby, LobbyCb(action=action, game=game).pack())
    table = await h.table(anna.id)
    assert [s.level for s in table.seats] == [None, "normal", "strong"] and not table.timed
    # nobody else sits down at a practice table
    await h.press(boris, anna.id, lobby, LobbyCb(action="join", game=game).pack())
    assert len((await h.table(anna.id)).seats) == 3

    since = len(h.tg.requests)
    h.app.games.seeds.seed(5)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(anna.id)
    assert table.status == "playing"
    # the table comes before the first prompt, in the same chat (the computers
    # that start, if any, having moved)
    for _ in range(50):
        decision = pending(table.state)  # type: ignore[arg-type]
        assert decision is not None
        if table.seats[decision.seat].user_id == anna.id:
            break
        assert await h.tick(5) >= 1
        table = await h.table(anna.id)
    sent = [r for r in h.tg.requests[since:] if isinstance(r, SendMessage)]
    table_id = (await h.store.messages(anna.id)).get("table")
    tables = [i for i, r in enumerate(sent) if h.message_id_of(r) == table_id]
    prompts = [i for i, r in enumerate(sent) if "p:" in str(r.reply_markup)]
    assert tables, "no table in the private chat"
    assert prompts, "Anna is to decide, and has no prompt"
    assert tables[0] < prompts[0], "the first prompt came before the table"

    steps = 0
    while table.status != "finished":
        assert steps < 3000, "the game did not end"
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.seats[decision.seat].user_id is None:
            assert await h.tick(5) >= 1
        else:
            assert table.deadline is None, "a practice game without a clock has a deadline"
            h.clock.advance(3600)  # an hour to think: nothing times out
            assert await h.app.ticker.tick() == 0
            await h.answer(anna, anna.id, choose(table.state.seed + steps, decision))
        steps += 1
        table = await h.table(anna.id)
    assert table.state is not None and table.state.result is not None
    result = h.tg.sent(anna.id)[-1].text
    # in the private chat beside any other game's prompts: it names its game
    assert h.tr.t("ru", "result-title-practice", title=table.title) in result
    assert all(getattr(r, "chat_id", 1) > 0 for r in h.tg.requests), "a group heard of it"


async def test_a_strong_seat_whose_deadline_has_passed_plays_its_best_so_far_at_once() -> None:
    """The bot's strong seats search until a deadline: with none left, the search
    gives the leader of its one-ply count (strong's own, not normal's) at once."""
    state, _ = new_game(GameSetup(players=4, seed=11))
    thinker = Thinker(workers=0, strong_seconds=0.0)
    differ = 0
    for _ in range(40):
        decision = pending(state)
        assert decision is not None
        answer = await thinker.decide(state, decision, "strong")
        seed = mix(state.seed, decision.id, decision.seat, LEVELS.index("strong"))
        obs = observe(state, decision.seat)
        at_once, finished = search(obs, decision.kind, decision.options, seed, stop=lambda: True)
        assert answer == at_once and (not finished or len(decision.options) == 1)
        differ += answer != decide(state, decision, "normal")
        execute(state, Command(seat=decision.seat, decision=decision.id, option=answer))
    assert differ >= 1, "strong's one-ply answers were all normal's: the deadline was not used"
