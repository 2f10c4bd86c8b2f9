"""The Mini App's story and replay (issue 27), through the app's HTTP API:
the game's log rebuilt from the command log (every turn, only what the group
read), what a seat knows of other hands, and a finished game's replay —
which names no card the group did not see, and opens only for its players."""

from __future__ import annotations

import json
import re
from typing import Any

from aiogram.methods import SendMessage
from aiogram.types import InlineKeyboardMarkup

from bot.store import Store
from bot.webapp.limits import RateLimit
from bot.webapp.payload import plain
from bot.words.app import AppLinks, parse_replay, replay_param
from engine import Event, execute, new_game, pending, replay, view_for
from engine.cards import catalog_for
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, Witness, cards_named, people, public_zones
from tests.bot.helpers.finishing import play_to_the_end
from tests.bot.helpers.webapps import CARD_ID, GROUP, app_harness, game_of, webapp_of
from tests.bot.webapp_client import BASE_URL, PREFIX, serving

LINKS = AppLinks(BASE_URL, username="smuta_bot")


def test_a_replays_address_reads_back() -> None:
    assert replay_param(42, 17) == "r42_17"
    assert parse_replay("r42_17") == (42, 17)
    assert parse_replay("app_-100") is None and parse_replay("r42") is None
    assert LINKS.replay_url(42, 17) == f"{BASE_URL}/?replay=42&move=17"
    assert LINKS.replay_link(42, 3) == "https://t.me/smuta_bot?start=r42_3"
    direct = AppLinks(BASE_URL, short_name="table", username="smuta_bot")
    assert direct.replay_link(42) == "https://t.me/smuta_bot/table?startapp=r42_0"


async def test_the_log_holds_every_turn_newest_first_and_marks_what_came_since(
    store: Store,
) -> None:
    h = app_harness(store)
    users = await game_of(h, 3, seed=5)
    # every turn played to its end (each action the first offered) until the
    # first player's fourth turn begins
    while True:
        table = await h.table(GROUP)
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if decision.seat == 0 and decision.kind == "action" and table.state.turn >= 10:
            break
        await h.answer(users[decision.seat], GROUP, decision.options[0])
    table = await h.table(GROUP)
    assert table.state is not None
    async with serving(webapp_of(h), h.clock.now) as app:
        status, body = await app.state(users[0], GROUP)
        assert status == 200
        story = body["state"]["story"]
        numbers = [int(m[1]) for t in story["turns"] if (m := re.search(r"(\d+) ·", t["title"]))]
        # every turn that has begun and was played (the running one has no line yet)
        assert numbers == list(range(table.state.turn - 1, 0, -1))
        assert story["turns"][-1]["seat"] is None, "the deal ends the log"
        # new to the first player: the turns after their own last one, none of theirs
        seats = [t["seat"] for t in story["turns"]]
        theirs = seats.index(0)
        assert theirs > 0
        assert [t["new"] for t in story["turns"]] == [i < theirs for i in range(len(seats))]
        # the group read those lines: each of the record's closed turn's lines is in it
        lines = [line for t in story["turns"] for line in t["lines"]]
        assert table.state is not None
        for line in h.app.games.teller.render.closed_lines(table, table.state) or []:
            if not line.startswith("▶️"):
                assert plain(line) in lines
        # a spectator's log marks nothing
        status, body = await app.state(person(300, "Зритель"), GROUP)
        assert not any(t["new"] for t in body["state"]["story"]["turns"])
        # the timer names whose deadline it is
        assert users[0].first_name in body["state"]["timer"][0]


async def test_each_seat_sees_on_the_rows_what_it_knows_of_other_hands(store: Store) -> None:
    """A Менестрель's look at a hand (`GameState.known`) is shown to the one
    who looked, on the looked-at player's row, and to nobody else."""
    h = app_harness(store)
    users = await game_of(h, 3, seed=7)
    webapp_of(h).reads = RateLimit(burst=10**6, per_second=0)
    shown_any = False
    async with serving(webapp_of(h), h.clock.now) as app:
        for _ in range(400):
            table = await h.table(GROUP)
            state = table.state
            assert state is not None
            if table.status != "playing":
                break
            for seat, user in enumerate(users):
                _, body = await app.state(user, GROUP)
                for row in body["state"]["players"]:
                    hand = state.players[row["seat"]].hand
                    knows = sorted(
                        c for c in hand if seat in state.known.get(c, ()) and row["seat"] != seat
                    )
                    assert row["known"] == knows
                    shown_any = shown_any or bool(knows)
                    # the score as cards + castles
                    cards, castles = row["score"]
                    assert cards + castles == row["points"]
                    assert castles == state.rules.castle_points * sum(
                        1 for x in state.players[row["seat"]].houses if x.castle
                    )
            decision = pending(state)
            assert decision is not None
            lays = [o for o in decision.options if o[0] == "lay"]
            await h.answer(users[decision.seat], GROUP, lays[0] if lays else decision.options[0])
            if shown_any and state.turn > 12:
                break
    assert shown_any, "no seat ever knew a card of another hand: the test showed nothing"


def cards_named_publicly(events: list[Event]) -> set[str]:
    return {c for e in events if e.to is None for c in cards_named(e.params)}


async def finished_game(h: Harness, seen: Witness) -> int:
    anna, boris = people("Анна", "Борис")
    with seen.watching():
        await h.open_game(GROUP, anna, [boris], computers=1, seed=11)
        await play_to_the_end(h, GROUP, seen)
    records = await h.store.history(GROUP, 1)
    return records[0].number


async def test_a_replay_names_no_card_the_group_did_not_see_and_is_its_players_alone(
    store: Store,
) -> None:
    h = app_harness(store, LINKS)
    seen = Witness()
    number = await finished_game(h, seen)
    got = await h.store.game_by_number(number)
    assert got is not None
    record, commands = got
    anna = person(record.seats[0].user_id or 0, "Анна")
    async with serving(webapp_of(h), h.clock.now) as app:
        r = await app.client.get(f"{PREFIX}/api/replay?game={number}", headers=app.headers(anna))
        assert r.status == 200
        text = await r.text()
        body: dict[str, Any] = json.loads(text)["replay"]
        # a frame a command, and the deal: the last is the game's end
        assert len(body["frames"]) == len(commands) + 1
        final = replay(record.setup, commands)
        view = view_for(final, None)
        last = body["frames"][-1]
        for row, p in zip(last["players"], view.players, strict=True):
            # (a Слуга turned since it was first drawn has a key of its own: id.side)
            assert [[c.split(".")[0] for c in h["cards"]] for h in row["houses"]] == [
                h.cards for h in p.houses
            ]
        assert body["result"], "the last frame comes with the result"
        # nothing the group did not see: each frame names only cards that lay
        # face up then or that a public event had named by then; each log line
        # only what was public by its move
        catalog = set(catalog_for(final.rules).cards)

        def ids(part: Any) -> set[str]:
            return {c for c in CARD_ID.findall(json.dumps(part)) if c in catalog}

        state, events = new_game(record.setup)
        public = [cards_named_publicly(events) | public_zones(state)]
        for command in commands:
            public.append(public[-1] | cards_named_publicly(execute(state, command)))
            public[-1] |= public_zones(state)
        for k, frame in enumerate(body["frames"]):
            assert ids(frame) <= public[k], f"move {k}: hidden {ids(frame) - public[k]}"
        for turn in body["turns"]:
            for k, line in turn["moves"]:
                assert ids(line) <= public[k], f"move {k}: hidden {ids(line) - public[k]}"
        assert '"seed"' not in text and '"rng"' not in text and '"deck":[' not in text
        shown = ids(body)
        assert shown and shown <= public[-1] and shown <= seen.public | public[-1]
        # one who did not play it is refused; so is a number that is no game
        r = await app.client.get(
            f"{PREFIX}/api/replay?game={number}", headers=app.headers(person(300, "Карл"))
        )
        assert r.status == 403
        r = await app.client.get(f"{PREFIX}/api/replay?game=999999", headers=app.headers(anna))
        assert r.status == 404
        # a card's text from the replay
        r = await app.client.get(
            f"{PREFIX}/api/card?replay={number}&topic=lord", headers=app.headers(anna)
        )
        assert r.status == 200 and (await r.json())["title"]


async def test_replay_and_history_open_the_game_in_the_app(store: Store) -> None:
    h = app_harness(store, LINKS)
    seen = Witness()
    number = await finished_game(h, seen)
    anna = (await h.table(GROUP)).seats[0]
    assert anna.user_id is not None
    user = person(anna.user_id, "Анна")
    await h.say(user.id, user, f"/replay {number}")
    sent = [m for m in h.tg.sent(user.id) if isinstance(m, SendMessage)]
    markup = sent[-1].reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    button = markup.inline_keyboard[0][0]
    assert button.web_app is not None
    assert button.web_app.url == LINKS.replay_url(number)
    # the group's /history: a button a game, to the private chat's deep link
    await h.say(GROUP, user, "/history")
    await h.settle()
    history = [m for m in h.tg.sent(GROUP) if isinstance(m, SendMessage)][-1]
    assert isinstance(history.reply_markup, InlineKeyboardMarkup)
    urls = [b.url for row in history.reply_markup.inline_keyboard for b in row]
    assert any(u is not None and u.endswith(f"?start={replay_param(number)}") for u in urls)
    # which answers in private with the app's button, at the move asked
    await h.say(user.id, user, f"/start {replay_param(number, 5)}")
    last = [m for m in h.tg.sent(user.id) if isinstance(m, SendMessage)][-1]
    assert isinstance(last.reply_markup, InlineKeyboardMarkup)
    opened = last.reply_markup.inline_keyboard[0][0].web_app
    assert opened is not None and opened.url == LINKS.replay_url(number, 5)
