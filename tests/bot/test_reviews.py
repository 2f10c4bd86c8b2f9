"""A person's review of their own game (issue 27 item 6), through the real
dispatcher and the fake Telegram: after a seeded game played to its end each
person who played gets their review in private — after the group's result,
never before — naming moves they really made (checked against the game's
command log), with no card they could not see then, a replay button a moment
and their chart; computers and people who did not play get nothing. The
opt-out in the private /settings works and is remembered; the button under a
review turns reviews off; a stopped game gets none; a practice game gets one.

The reviews are made in the after-game worker (a thread here: the bot's
`COMPUTER_WORKERS=0` mode), at the production budget (`GAME_CPU`)."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Sequence
from typing import Any

from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage, SendPhoto
from aiogram.types import InlineKeyboardMarkup, User

import bot.service.reviews
from bot.service.reviews import GAME_CPU, reviewed
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.models import Seat, Table
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.keyboards import LobbyCb, PrefsCb, RematchCb, StopCb
from bot.words.picture import MAX_BYTES
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from engine import Command, GameSetup, GameState, apply, execute, new_game, pending
from engine.ai.easy import choose
from engine.ai.review import own_choices
from tests.bot.fake_telegram import text_of
from tests.bot.harness import MARK, Harness, Witness, people, public_zones
from tests.bot.helpers.finishing import play_to_the_end

GROUP = -100_727
APP = AppLinks("https://app.example", "play")
REPLAY = re.compile(r"[?&]replay=(\d+)&move=(\d+)")


# ====================================================================== the analysis, in the worker
def test_a_review_names_moves_the_seat_really_made() -> None:
    setup = GameSetup(players=3, seed=7)
    state, _ = new_game(setup)
    commands: list[Command] = []
    while (d := pending(state)) is not None:
        option = choose(len(commands), d)
        commands.append(Command(seat=d.seat, decision=d.id, option=option))
        apply(state, d.seat, d.id, option)
    seats = [Seat(user_id=i + 1, name=f"P{i}") for i in range(3)]
    table = Table(chat_id=-1, game_no=1, title="Друзья", creator_id=1, seats=seats, setup=setup)
    table.state = state
    tr = Translator()
    made = reviewed(tr, "ru", table, commands, 0, cpu=60.0)
    assert made is not None
    assert made.lines and len(made.lines) == len(made.moves) <= 3
    assert made.png.startswith(b"\x89PNG") and 0 < made.cpu < 60.0
    prompts = Prompts(Renderer(tr), tr)
    asked = {i: (s, d, o) for i, s, d, o in own_choices(setup, commands, 0)}
    for line, (turn, move) in zip(made.lines, made.moves, strict=True):
        s, d, o = asked[move + 1]
        assert commands[move].seat == 0 and tuple(commands[move].option or ()) == o
        assert s.turn == turn and f"Ход {turn}.</b>" in line
        said = html.escape(prompts.asked("ru", table, s, d, o), quote=False)
        assert said in line, "the move they made, in words"
    # no CPU left: no strong answer, so no moment — yet the chart comes
    cut = reviewed(tr, "ru", table, commands, 0, cpu=0.0)
    assert cut is not None and cut.lines == [] and cut.png.startswith(b"\x89PNG")


# ====================================================================== helpers
def visible(state: GameState, seat: int) -> set[str]:
    """The card ids `seat` may see in `state`: the public ones, its own
    hand, and those it was shown (`known`)."""
    seen = public_zones(state) | set(state.players[seat].hand)
    seen |= {card for card, seats in state.known.items() if seat in seats}
    return seen


def before(setup: GameSetup, commands: Sequence[Command], move: int) -> GameState:
    """The game after its first `move` commands (the replay's position `move`)."""
    state, _ = new_game(setup)
    for command in commands[:move]:
        execute(state, command)
    return state


def reviews_in(h: Harness, since: int) -> dict[int, list[SendPhoto]]:
    """The pictures sent to private chats since request `since`, by chat."""
    found: dict[int, list[SendPhoto]] = {}
    for r in h.tg.requests[since:]:
        if isinstance(r, SendPhoto) and r.chat_id > 0:  # type: ignore[operator]
            found.setdefault(r.chat_id, []).append(r)  # type: ignore[arg-type]
    return found


def buttons_of(photo: SendPhoto) -> list[tuple[str, str]]:
    """(text, the web app's url or the callback data) of each button."""
    markup = photo.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    return [
        (b.text, b.web_app.url if b.web_app is not None else b.callback_data or "")
        for row in markup.inline_keyboard
        for b in row
    ]


def result_index(h: Harness, chat_id: int, since: int) -> int:
    """The request that posted the game's result in `chat_id` (the one with «Ещё партию»)."""
    for i, r in enumerate(h.tg.requests[since:], since):
        if isinstance(r, SendPhoto | SendMessage) and r.chat_id == chat_id:
            markup = r.reply_markup
            if isinstance(markup, InlineKeyboardMarkup) and any(
                (b.callback_data or "").startswith(RematchCb.__prefix__)
                for row in markup.inline_keyboard
                for b in row
            ):
                return i
    raise AssertionError("no result was posted")


async def own_settings(h: Harness, user: User) -> tuple[int, str]:
    """`user` sends /settings in private: the message's id and its reviews' button."""
    await h.say(user.id, user, "/settings")
    message = h.last_with_button(user.id, "pf:reviews")
    [data] = [d for _, d in h.buttons(user.id, message) if d.startswith("pf:reviews")]
    return message, data


# ====================================================================== through the dispatcher
async def test_after_a_game_each_person_gets_their_review_after_the_result(store: Store) -> None:
    h = Harness(store, app=APP, review_cpu=GAME_CPU)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.say(vera.id, vera, "/start")  # has the bot, does not play
    await h.open_game(GROUP, anna, [boris], computers=1, seed=5)
    since = len(h.tg.requests)
    await play_to_the_end(h, GROUP, Witness())
    table = await h.table(GROUP)
    found = await h.store.game_at(GROUP, table.game_no)
    assert found is not None and table.setup is not None
    record, commands = found

    reviews = reviews_in(h, since)
    assert sorted(reviews) == [anna.id, boris.id], "each person who played; nobody else"
    assert all(len(sent) == 1 for sent in reviews.values())
    result = result_index(h, GROUP, since)
    for sent in reviews.values():
        assert h.tg.requests.index(sent[0]) > result, "the result goes first"

    prompts = Prompts(Renderer(h.tr), h.tr)
    told = 0
    for seat, user in enumerate((anna, boris)):
        photo = reviews[user.id][0]
        assert photo.disable_notification, "a review makes no sound"
        caption = text_of(photo)
        head, *lines = caption.split("\n\n")
        assert head == h.tr.t("ru", "review-head", title=html.escape(table.title, quote=False))
        replays = [REPLAY.search(url) for _, url in buttons_of(photo)]
        moves = [(int(m[1]), int(m[2])) for m in replays if m is not None]
        assert all(number == record.number for number, _ in moves)
        if lines == [h.tr.t("ru", "review-none")]:
            assert moves == []
            continue
        assert 1 <= len(lines) <= 3 and len(lines) == len(moves), "a button a moment"
        told += len(lines)
        for n, (line, (_, move)) in enumerate(zip(lines, moves, strict=True), 1):
            command = commands[move]
            assert command.seat == seat and command.computer is None, "a move they made"
            state = before(table.setup, commands, move)
            decision = pending(state)
            assert decision is not None and decision.id == command.decision
            said = prompts.asked("ru", table, state, decision, tuple(command.option or ()))
            assert html.escape(said, quote=False) in line, (said, line)
            assert line.startswith(f"<b>{n}. Ход {state.turn}.</b>")
            assert set(MARK.findall(line)) <= visible(state, seat), "a card they could not see"
        # the chart: a PNG of their points, small
        png = next(p for c, m, p in h.tg.photos if c == user.id)
        assert png.startswith(b"\x89PNG") and len(png) < MAX_BYTES
    assert told, "a game played at random has a costly choice"

    # the button under a review turns reviews off, answered first
    off = next(d for _, d in buttons_of(reviews[anna.id][0]) if d.startswith("pf:"))
    assert PrefsCb.unpack(off) == PrefsCb(what="reviews", on=False, screen=False)
    at = len(h.tg.requests)
    await h.press(anna, anna.id, h.message_id_of(reviews[anna.id][0]), off)
    answer = h.tg.requests[at]
    assert isinstance(answer, AnswerCallbackQuery)
    assert answer.text == h.tr.t("ru", "reviews-off")
    assert not (await h.store.user(anna.id)).reviews


async def test_the_opt_out_in_private_settings_is_remembered_and_undone(store: Store) -> None:
    h = Harness(store, app=APP, review_cpu=GAME_CPU)
    anna, boris = people("Анна", "Борис")
    await h.say(boris.id, boris, "/start")
    message, data = await own_settings(h, boris)
    assert h.tr.t("ru", "own-settings-reviews-on") in h.tg.texts[(boris.id, message)]
    assert PrefsCb.unpack(data) == PrefsCb(what="reviews", on=False, screen=True)
    at = len(h.tg.requests)
    await h.press(boris, boris.id, message, data)
    made = h.tg.requests[at:]
    assert isinstance(made[0], AnswerCallbackQuery), "answered first"
    assert made[0].text == h.tr.t("ru", "reviews-off")
    edit = [r for r in made if isinstance(r, EditMessageText)]
    assert edit and h.tr.t("ru", "own-settings-reviews-off") in edit[-1].text
    assert (boris.id, message) in h.tg.texts

    h.restart()  # another process: the choice is kept with the person
    message, data = await own_settings(h, boris)
    assert h.tr.t("ru", "own-settings-reviews-off") in h.tg.texts[(boris.id, message)]
    assert PrefsCb.unpack(data).on, "the button now turns them back on"

    await h.open_game(GROUP, anna, [boris], computers=1, seed=8)
    since = len(h.tg.requests)
    await play_to_the_end(h, GROUP, Witness())
    assert sorted(reviews_in(h, since)) == [anna.id], "Борис turned them off"

    await h.press(boris, boris.id, message, data)
    assert (await h.store.user(boris.id)).reviews
    assert h.tr.t("ru", "own-settings-reviews-on") in h.tg.texts[(boris.id, message)]


async def test_the_group_settings_stay_the_groups() -> None:
    """/settings in the group is still the chat's; the person's own are private."""
    h = Harness(MemoryStore())
    (anna,) = people("Анна")
    await h.say(anna.id, anna, "/start")
    h.tg.admins.add((GROUP, anna.id))
    await h.say(GROUP, anna, "/settings")
    assert h.last_with_button(GROUP, "cf:")
    assert not any(d.startswith("pf:") for r in h.tg.posted(GROUP) for _, d in _data(r))


def _data(request: Any) -> list[tuple[str, str]]:
    markup = request.reply_markup
    if not isinstance(markup, InlineKeyboardMarkup):
        return []
    return [(b.text, b.callback_data or "") for row in markup.inline_keyboard for b in row]


async def test_a_person_the_bot_may_not_write_to_is_skipped_quietly(monkeypatch: Any) -> None:
    h = Harness(MemoryStore(), review_cpu=GAME_CPU)
    anna, boris = people("Анна", "Борис")

    def blocked_meanwhile(*args: Any) -> Any:
        h.tg.blocked.add(boris.id)  # Борис blocks the bot after the game: 403 from here on
        return reviewed(*args)

    monkeypatch.setattr(bot.service.reviews, "reviewed", blocked_meanwhile)
    await h.open_game(GROUP, anna, [boris], computers=1, seed=5)
    since = len(h.tg.requests)
    await play_to_the_end(h, GROUP, Witness())
    assert boris.id in h.tg.blocked
    assert sorted(reviews_in(h, since)) == [anna.id, boris.id], "both were tried"
    delivered = [chat for chat, _, _ in h.tg.photos if chat > 0]
    assert delivered == [anna.id], "Борис's answered 403"
    result = result_index(h, GROUP, since)
    after = [r for r in h.tg.posted(GROUP) if h.tg.requests.index(r) > result]
    assert after == [], "the group is not told of a review"


async def test_a_stopped_game_gets_no_review() -> None:
    h = Harness(MemoryStore(), review_cpu=GAME_CPU)
    anna, boris = people("Анна", "Борис")
    game = (await h.open_game(GROUP, anna, [boris], seed=5)).game_no
    for step in range(12):  # moves of their own, then /stop
        decision = await h.decision(GROUP)
        assert decision is not None
        await h.answer((anna, boris)[decision.seat], GROUP, choose(step, decision))
    since = len(h.tg.requests)
    await h.say(GROUP, anna, "/stop")
    question = h.last_with_button(GROUP, "st:")
    await h.press(anna, GROUP, question, StopCb(game=game, confirm=True).pack())
    assert (await h.table(GROUP)).status == "finished"
    assert reviews_in(h, since) == {}


async def test_a_practice_game_gets_its_review_after_its_result() -> None:
    h = Harness(MemoryStore(), app=APP, review_cpu=GAME_CPU)
    (anna,) = people("Анна")
    table = await h.start_practice(anna, computers=1, seed=3)
    since = len(h.tg.requests)
    await play_to_the_end(h, anna.id, Witness())
    [photo] = reviews_in(h, since)[anna.id]
    assert text_of(photo).startswith(h.tr.t("ru", "review-head-practice"))
    # no replay buttons: a practice game is not in the history the replay reads
    assert [d for _, d in buttons_of(photo)] == [
        PrefsCb(what="reviews", on=False, screen=False).pack()
    ]
    result = [
        i
        for i, r in enumerate(h.tg.requests[since:], since)
        if isinstance(r, SendMessage)
        and r.chat_id == anna.id
        and r.text.startswith(h.tr.t("ru", "result-title-practice", title=table.title))
    ]
    assert result and result[0] < h.tg.requests.index(photo), "the result goes first"


async def test_a_review_being_made_delays_neither_the_result_nor_the_next_game(
    monkeypatch: Any,
) -> None:
    """The worker held inside a review: the result is out, «Ещё партию» opens
    the next lobby and it starts; the review comes once the worker goes on."""
    h = Harness(MemoryStore(), app=APP, review_cpu=GAME_CPU)
    anna, boris = people("Анна", "Борис")
    held = threading.Event()

    def slow(*args: Any) -> Any:
        held.wait(60)
        return reviewed(*args)

    monkeypatch.setattr(bot.service.reviews, "reviewed", slow)
    await h.open_game(GROUP, anna, [boris], computers=1, seed=5)
    since = len(h.tg.requests)
    reviewing = h.app.telling.carrier.reviewing
    waiting = reviewing.idle
    reviewing.idle = _nothing  # type: ignore[method-assign]  # settle without the reviews
    try:
        await play_to_the_end(h, GROUP, Witness())
        assert reviewing.tasks, "the reviews are under way"
        result = result_index(h, GROUP, since)
        assert reviews_in(h, since) == {}
        # the next game: «Ещё партию», everyone in, started — meanwhile
        rematch = h.message_id_of(h.tg.requests[result])  # type: ignore[arg-type]
        data = next(d for _, d in h.buttons(GROUP, rematch) if d.startswith("rm:"))
        await h.press(anna, GROUP, rematch, data)
        lobby = (await h.store.messages(GROUP))["lobby"]
        game = (await h.table(GROUP)).game_no
        if boris.id not in (await h.table(GROUP)).people:
            await h.press(boris, GROUP, lobby, LobbyCb(action="join", game=game).pack())
        await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
        assert (await h.table(GROUP)).status == "playing", "the next game is on"
        assert reviews_in(h, since) == {}, "still no review: the worker is held"
    finally:
        held.set()
        reviewing.idle = waiting  # type: ignore[method-assign]
    await h.settle()
    assert sorted(reviews_in(h, since)) == [anna.id, boris.id]


async def _nothing() -> None:
    return None


async def test_a_person_who_left_midway_gets_the_review_of_their_own_moves() -> None:
    """Борис leaves after some moves; the computer plays his seat on. His
    review names only moves he made himself, before he left."""
    h = Harness(MemoryStore(), app=APP, review_cpu=GAME_CPU)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera], seed=5)
    for step in range(60):
        decision = await h.decision(GROUP)
        assert decision is not None
        await h.answer((anna, boris, vera)[decision.seat], GROUP, choose(step, decision))
    left_at = len(await h.store.log(GROUP))
    await h.leave_game(boris, GROUP)
    since = len(h.tg.requests)
    await play_to_the_end(h, GROUP, Witness())
    table = await h.table(GROUP)
    assert table.seats[1].left
    found = await h.store.game_at(GROUP, table.game_no)
    assert found is not None
    _, commands = found
    assert any(c.seat == 1 and c.computer is not None for c in commands[left_at:])
    reviews = reviews_in(h, since)
    assert sorted(reviews) == [anna.id, boris.id, vera.id]
    moves = [
        int(m[2])
        for _, url in buttons_of(reviews[boris.id][0])
        if (m := REPLAY.search(url)) is not None
    ]
    assert moves, "his own moves before he left had a costly one"
    assert all(m < left_at and commands[m].seat == 1 for m in moves)
    assert all(commands[m].computer is None for m in moves)


def test_a_seat_that_hardly_chose_gets_no_review() -> None:
    """A seat handed to the computer at once (its person left at the deal)
    answered nothing itself: no review, however the computer played it."""
    setup = GameSetup(players=3, seed=7)
    state, _ = new_game(setup)
    commands = [Command(seat=0, computer=True)]
    execute(state, commands[0])
    while (d := pending(state)) is not None:
        option = choose(len(commands), d)
        commands.append(Command(seat=d.seat, decision=d.id, option=option))
        apply(state, d.seat, d.id, option)
    seats = [Seat(user_id=i + 1, name=f"P{i}") for i in range(3)]
    table = Table(chat_id=-1, game_no=1, creator_id=1, seats=seats, setup=setup, state=state)
    assert own_choices(setup, commands, 0) == []
    assert reviewed(Translator(), "ru", table, commands, 0, cpu=60.0) is None
    assert reviewed(Translator(), "ru", table, commands, 1, cpu=60.0) is not None
