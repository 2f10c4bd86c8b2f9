"""One person in several games at once, through the dispatcher on both stores
(issue 40, item 3): two groups' tables and a practice game share Anna's
private chat. Every prompt she gets names its game; a press in one game never
moves another; /games lists all three, the one waiting on her first, with
whose turn and the time left; /hand asks which game, and each button brings
that game's prompt or hand back; an 11th table is refused.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup, User

from bot.service.seated import MAX_TABLES
from bot.store import Store
from bot.store.models import Table
from bot.words.app import AppLinks
from bot.words.keyboards import GameCb, LobbyCb, PromptCb
from engine import Decision, pending
from tests.bot.harness import Harness, people

NORTH, SOUTH = -100_701, -100_702
TITLES = {NORTH: "Север", SOUTH: "Юг"}
APP = AppLinks("https://example.com/app")


async def open_titled(
    h: Harness, chat_id: int, host: User, guests: Sequence[User], seed: int
) -> Table:
    """A group game under the title `TITLES[chat_id]` (the fake Telegram names
    every group alike: the record is given its own title while in the lobby)."""
    lobby, game = await h.open_lobby(chat_id, host, guests)
    table = await h.table(chat_id)
    table.title = TITLES[chat_id]
    assert await h.store.save(table)
    h.app.games.seeds = random.Random(seed)
    await h.press(host, chat_id, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(chat_id)
    assert table.status == "playing"
    return table


async def snapshot(h: Harness, chats: Sequence[int]) -> dict[int, tuple[int, str]]:
    """Each chat's record as it stands: its version and its game's state."""
    got = {}
    for chat_id in chats:
        table = await h.table(chat_id)
        assert table.state is not None
        got[chat_id] = (table.version, table.state.to_json())
    return got


async def play_until(
    h: Harness,
    chat_id: int,
    users: Sequence[User],
    done: Callable[[Table, Decision], bool],
    others: Sequence[int],
) -> None:
    """Play `chat_id`'s game (computers by the clock, people their first
    option) until `done`; every press of Anna's leaves the `others` as they were."""
    for _ in range(80):
        table = await h.table(chat_id)
        assert table.state is not None and table.status == "playing"
        decision = pending(table.state)
        assert decision is not None
        if done(table, decision):
            return
        if table.state.players[decision.seat].computer:
            await h.tick(h.defaults.computer_pause + 1)
            continue
        user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
        before = await snapshot(h, others)
        await h.answer(user, chat_id, decision.options[0])
        assert await snapshot(h, others) == before, "a press in one game moved another"
        assert (await h.table(chat_id)).version > table.version
    raise AssertionError("the game never got there")


def prompt_chat(request: SendMessage | EditMessageText) -> int | None:
    """The chat a message's prompt buttons answer in (None: no prompt buttons)."""
    markup = request.reply_markup
    if not isinstance(markup, InlineKeyboardMarkup):
        return None
    chats = {
        PromptCb.unpack(b.callback_data).chat
        for row in markup.inline_keyboard
        for b in row
        if (b.callback_data or "").startswith("p:")
    }
    assert len(chats) <= 1, "one prompt, one game"
    return chats.pop() if chats else None


def game_buttons(request: SendMessage) -> list[GameCb]:
    markup = request.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    return [
        GameCb.unpack(b.callback_data)
        for row in markup.inline_keyboard
        for b in row
        if (b.callback_data or "").startswith("gm:")
    ]


async def test_one_person_at_two_group_tables_and_a_practice_game(store: Store) -> None:
    """Anna sits at «Север», «Юг» and her practice game at once.

    Adversarial cases: a press in one game while the others wait on her (their
    records' versions and states must not move); a /games button pressed by
    someone else in their own chat (a forged copy of hers) and one naming a
    game the presser does not sit at; an old button of a game she has left;
    an 11th table — a lobby's join button and /newgame — refused, changing
    nothing."""
    h = Harness(store, app=APP)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await open_titled(h, NORTH, anna, [boris], seed=5)
    await open_titled(h, SOUTH, vera, [anna], seed=7)
    practice = await h.start_practice(anna, computers=1, seed=1)
    titles = {**TITLES, anna.id: practice.title}
    chats = (NORTH, SOUTH, anna.id)
    since = len(h.tg.requests)

    def anna_at(table: Table, decision: Decision) -> bool:
        return decision.seat == table.seat_of(anna.id)

    def not_anna(table: Table, decision: Decision) -> bool:
        return (
            decision.seat != table.seat_of(anna.id)
            and table.seats[decision.seat].user_id is not None
        )

    # each game played a while, with presses of hers in each
    await play_until(h, SOUTH, [anna, vera], anna_at, [NORTH, anna.id])
    await play_until(h, NORTH, [anna, boris], anna_at, [SOUTH, anna.id])
    await play_until(h, anna.id, [anna], anna_at, [NORTH, SOUTH])
    for chat_id, users, done, others in (
        (anna.id, [anna], lambda t, d: not anna_at(t, d), [NORTH, SOUTH]),
        (SOUTH, [anna, vera], not_anna, [NORTH, anna.id]),
        (NORTH, [anna, boris], lambda t, d: not anna_at(t, d), [SOUTH, anna.id]),
        (NORTH, [anna, boris], anna_at, [SOUTH, anna.id]),
    ):
        await play_until(h, chat_id, users, done, others)

    # every prompt she got names its game, and each message it became too
    headers = {c: h.tr.t("ru", "private-header", chat=t) for c, t in titles.items()}
    game_of: dict[int, int] = {}
    for request in h.tg.requests[since:]:
        if not isinstance(request, SendMessage | EditMessageText) or request.chat_id != anna.id:
            continue
        chat_id = prompt_chat(request)
        if isinstance(request, SendMessage) and chat_id is not None:
            game_of[h.message_id_of(request)] = chat_id
        elif isinstance(request, EditMessageText):
            chat_id = game_of.get(request.message_id or 0, chat_id)
        if chat_id is not None:
            assert request.text.startswith(headers[chat_id]), request.text
    assert set(game_of.values()) == set(chats), "prompts came from all three games"

    # /games: all three, the ones waiting on her first, with the time left
    waiting = set()
    for chat_id in chats:
        table = await h.table(chat_id)
        decision = pending(table.state)  # type: ignore[arg-type]
        if decision is not None and anna_at(table, decision):
            waiting.add(chat_id)
    assert NORTH in waiting and SOUTH not in waiting
    before = await snapshot(h, chats)
    await h.say(anna.id, anna, "/games")
    listing = h.tg.sent(anna.id)[-1]
    lines = listing.text.split("\n")
    assert lines[0] == h.tr.t("ru", "games-title", n=3)
    listed = [next(c for c in chats if f"<b>{titles[c]}</b>" in line) for line in lines[1:4]]
    assert sorted(listed) == sorted(chats)
    assert set(listed[: len(waiting)]) == waiting, "those waiting on her come first"
    north = lines[1 + listed.index(NORTH)]
    deadline = (await h.table(NORTH)).deadline
    assert deadline is not None
    left = math.ceil(deadline - h.clock.now())
    shown = (
        h.tr.t("ru", "games-seconds", n=left)
        if left < 60
        else h.tr.t("ru", "games-minutes", n=left // 60)
    )
    assert h.tr.t("ru", "games-yours") in north and f"⏳ {shown}" in north
    south = lines[1 + listed.index(SOUTH)]
    waits = h.tr.t("ru", "games-waiting", player="\u2068Вера\u2069")  # (a name isolated)
    assert waits in south and "⏳" in south
    assert "⏳" not in lines[1 + listed.index(anna.id)], "an untimed practice game: no time"
    assert [cb.chat for cb in game_buttons(listing)] == listed
    apps = [
        b.web_app.url
        for row in listing.reply_markup.inline_keyboard  # type: ignore[union-attr]
        for b in row
        if b.web_app is not None
    ]
    assert apps == [APP.url(c) for c in listed], "each game's table in the Mini App"
    assert await snapshot(h, chats) == before, "/games moves nothing"

    # /hand asks which; each button brings that game's prompt (or hand) back alone
    await h.say(anna.id, anna, "/hand")
    question = h.tg.sent(anna.id)[-1]
    assert question.text == h.tr.t("ru", "games-which")
    buttons = game_buttons(question)
    assert sorted(cb.chat for cb in buttons) == sorted(chats)
    assert all(cb.user == anna.id for cb in buttons)
    for cb in buttons:
        mark = len(h.tg.requests)
        await h.press(anna, anna.id, h.message_id_of(question), cb.pack())
        brought = [r for r in h.tg.sent(anna.id) if h.tg.requests.index(r) >= mark]
        assert brought, f"nothing came back for {cb}"
        assert all(r.text.startswith(headers[cb.chat]) for r in brought)
        if cb.chat in waiting:
            assert any(prompt_chat(r) == cb.chat for r in brought), "its prompt, live"
        assert all(prompt_chat(r) in (None, cb.chat) for r in brought)
        now = await snapshot(h, chats)
        for chat_id in chats:  # a prompt sent anew moves no game
            assert now[chat_id][1] == before[chat_id][1]

    # someone else's button: Boris forging Anna's in his chat, Vera naming a
    # game she does not sit at — refused, nothing sent, nothing moved
    mark = len(h.tg.requests)
    north_cb = next(cb for cb in buttons if cb.chat == NORTH)
    await h.press(boris, boris.id, 999, north_cb.pack())
    assert h.tg.answers()[-1].text == h.tr.t("ru", "err-bad-button")
    forged = GameCb(chat=NORTH, game=north_cb.game, user=vera.id)
    await h.press(vera, vera.id, 998, forged.pack())
    assert h.tg.answers()[-1].text == h.tr.t("ru", "games-gone")
    assert not [r for r in h.tg.requests[mark:] if isinstance(r, SendMessage)]
    assert await snapshot(h, chats) == before

    # an old button: she left «Юг» — its button says so and changes nothing
    await h.leave_game(anna, SOUTH)
    south_state = await snapshot(h, [SOUTH])
    mark = len(h.tg.requests)
    south_cb = next(cb for cb in buttons if cb.chat == SOUTH)
    await h.press(anna, anna.id, h.message_id_of(question), south_cb.pack())
    assert h.tg.answers()[-1].text == h.tr.t("ru", "games-gone")
    assert not [r for r in h.tg.requests[mark:] if isinstance(r, SendMessage)]
    assert await snapshot(h, [SOUTH]) == south_state

    # up to MAX_TABLES: «Север», practice and 8 lobbies she opens; the next is refused
    lobbies = [-100_710 - i for i in range(MAX_TABLES - 2)]
    for chat_id in lobbies:
        await h.say(chat_id, anna, "/newgame")
        assert (await h.table(chat_id)).seat_of(anna.id) is not None
    refusal = h.tr.t("ru", "err-too-many-tables", limit=MAX_TABLES)
    assert str(MAX_TABLES) in refusal
    eleventh = -100_799
    lobby, game = await h.open_lobby(eleventh, boris, [])
    table = await h.table(eleventh)
    await h.press(anna, eleventh, lobby, LobbyCb(action="join", game=game).pack())
    assert h.tg.answers()[-1].text == refusal
    after = await h.table(eleventh)
    assert after.version == table.version and after.seat_of(anna.id) is None
    assert eleventh not in await store.user_tables(anna.id)
    await h.say(-100_800, anna, "/newgame")
    assert h.tg.sent(-100_800)[-1].text == refusal
    assert await store.load(-100_800) is None
    # /games lists all ten
    await h.say(anna.id, anna, "/games")
    assert h.tg.sent(anna.id)[-1].text.startswith(h.tr.t("ru", "games-title", n=MAX_TABLES))


async def test_back_takes_no_seat_past_the_limit(store: Store) -> None:
    """/back to a game one left takes a table again: refused at `MAX_TABLES`,
    the seat left as it was; once a table is free, it comes back."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    await h.open_game(NORTH, anna, [boris], seed=5)
    await h.leave_game(anna, NORTH)
    lobbies = [-100_730 - i for i in range(MAX_TABLES)]
    for chat_id in lobbies:
        await h.say(chat_id, anna, "/newgame")
    before = await h.table(NORTH)
    await h.say(anna.id, anna, "/back")
    assert h.tg.sent(anna.id)[-1].text == h.tr.t("ru", "err-too-many-tables", limit=MAX_TABLES)
    after = await h.table(NORTH)
    assert after.version == before.version and after.seat_of(anna.id) is None
    await h.say(lobbies[0], anna, "/leave")
    await h.say(anna.id, anna, "/back")
    assert (await h.table(NORTH)).seat_of(anna.id) is not None
