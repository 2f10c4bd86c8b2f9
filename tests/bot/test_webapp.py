"""The Mini App's API through a real HTTP server: who may call it and what
each caller sees, answers that go the button's way, and live updates.

Every bot here is the real one (`Harness`), built with the app's links; the
page's calls are made as the page makes them (`webapp_client`)."""

from __future__ import annotations

import base64
import hashlib
import random
import re
from typing import Any

import pytest
from aiogram.methods import SetChatMenuButton
from aiogram.types import InlineKeyboardMarkup
from pydantic import ValidationError

from bot.config import Settings, describe
from bot.store import Store, StoreUnavailable
from bot.webapp.limits import RateLimit
from bot.webapp.payload import Payloads
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.prompts import Prompts
from bot.words.render import Renderer
from engine import pending, view_for
from engine.cards import catalog_for
from tests.bot.fake_telegram import BOT_USER, person
from tests.bot.harness import Harness, Witness, decisions_of, may_see, people, public_zones
from tests.bot.helpers.webapps import CARD_ID, GROUP, LINKS, app_harness, game_of, webapp_of
from tests.bot.webapp_client import (
    BASE_URL,
    FULL_NAMES,
    PREFIX,
    auth,
    crowded_states,
    init_data,
    serving,
)

#: a card instance id anywhere in a response (in JSON, or marked in a text: ‹h3›)


# ====================================================================== who calls
async def test_init_data_must_be_signed_by_the_bots_token_and_fresh(store: Store) -> None:
    h = app_harness(store)
    anna, boris = await game_of(h, 2)
    url = f"{PREFIX}/api/state?chat={GROUP}"
    now = h.clock.now()
    async with serving(webapp_of(h), h.clock.now) as app:
        ok = await app.client.get(url, headers=auth(init_data(anna, now)))
        assert ok.status == 200
        # tampered: Anna's signed data, the user swapped for Boris
        signed = init_data(anna, now)
        forged = signed.replace(f"%22id%22%3A{anna.id}", f"%22id%22%3A{boris.id}")
        assert forged != signed
        # expired: signed a day and a minute ago; foreign: another bot's token
        for data in (
            forged,
            init_data(anna, now - 24 * 3600 - 60),
            init_data(anna, now, token="43:OTHER"),
            "",
        ):
            r = await app.client.get(url, headers=auth(data))
            assert r.status == 401, data
            body = await r.json()
            assert body["ok"] is False and "hand" not in body
        r = await app.client.get(url)  # no header at all
        assert r.status == 401


async def test_a_seated_player_a_member_and_a_stranger_see_what_they_may(store: Store) -> None:
    h = app_harness(store)
    anna, boris = await game_of(h, 2)
    watcher, stranger = person(300, "Зритель"), person(301, "Чужой")
    h.tg.outsiders.add((GROUP, stranger.id))
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    async with serving(webapp_of(h), h.clock.now) as app:
        for user in (anna, boris):
            status, body = await app.state(user, GROUP)
            assert status == 200
            seat = table.seat_of(user.id)
            state = body["state"]
            assert state["me"] == seat
            assert state["hand"] == table.state.players[seat].hand
            assert ("decision" in state) == (decision.seat == seat)
            assert len(state["players"]) == 2
        status, body = await app.state(watcher, GROUP)
        assert status == 200
        state = body["state"]
        assert state["me"] is None and "hand" not in state and "decision" not in state
        assert [p["hand"] for p in state["players"]] == [
            len(p.hand) for p in table.state.players
        ], "a spectator sees hand sizes, not hands"
        status, body = await app.state(stranger, GROUP)
        assert status == 403 and "state" not in body
        # someone's private chat is theirs alone
        status, _ = await app.state(watcher, anna.id)
        assert status == 403


async def test_a_practice_game_is_its_players_alone(store: Store) -> None:
    h = app_harness(store)
    anna, boris = people("Анна", "Борис")
    await h.say(anna.id, anna, "/start")
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    lobby = (await h.store.messages(anna.id))["lobby"]
    data = [d for _, d in h.buttons(anna.id, lobby) if d.startswith("lb:go")]
    await h.press(anna, anna.id, lobby, data[0])
    table = await h.table(anna.id)
    assert table.status == "playing"
    async with serving(webapp_of(h), h.clock.now) as app:
        status, body = await app.state(anna, anna.id)
        assert status == 200 and body["state"]["me"] == 0
        status, _ = await app.state(boris, anna.id)
        assert status == 403


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_no_response_shows_a_card_its_caller_may_not_see(store: Store, players: int) -> None:
    """Random games, answered from the app and from the chat in turn: at
    every step every player's and a spectator's response names (by id, in
    JSON or marked in a text) only cards they may see — their hand, what lies
    face up or was named to everyone (the log), what they were shown — never
    another hand, the deck below its top, or the orders deck."""
    h = app_harness(store)
    witness = Witness()
    with witness.watching():
        await _no_hidden_card(h, witness, players)


async def _no_hidden_card(h: Harness, witness: Witness, players: int) -> None:
    users = await game_of(h, players, seed=players)
    watcher = person(300, "Зритель")
    rng = random.Random(players)
    # a whole game's answers in a few seconds: more than a person gives
    webapp_of(h).answers = RateLimit(burst=10**6, per_second=0)
    webapp_of(h).reads = RateLimit(burst=10**6, per_second=0)
    async with serving(webapp_of(h), h.clock.now) as app:
        for step in range(24 if players == 6 else 36):
            table = await h.table(GROUP)
            state = table.state
            assert state is not None
            catalog = set(catalog_for(state.rules).cards)
            for seat, user in enumerate(users):
                status, text = await app.raw_state(user, GROUP)
                assert status == 200
                shown = {c for c in CARD_ID.findall(text) if c in catalog}
                allowed = may_see(state, seat, witness.told(state, seat)) | witness.public
                hidden = shown - allowed
                assert not hidden, f"step {step}: seat {seat} was shown {hidden}"
            status, text = await app.raw_state(watcher, GROUP)
            shown = {c for c in CARD_ID.findall(text) if c in catalog}
            hidden = shown - public_zones(state) - witness.public
            assert not hidden, f"step {step}: a spectator was shown {hidden}"
            assert '"seed"' not in text and '"rng"' not in text and '"deck":[' not in text
            decision = pending(state)
            if decision is None or table.status != "playing":
                break
            user = users[decision.seat]
            option = rng.randrange(len(decision.options))
            if step % 2:
                status, body = await app.answer(user, GROUP, table.game_no, decision.id, option)
                assert status == 200 and body["ok"], body
                await h.settle()
            else:
                await h.answer(user, GROUP, decision.options[option])


# ====================================================================== answers
async def test_an_answer_from_the_app_moves_the_game_and_the_chat_prompt_shows_it(
    store: Store,
) -> None:
    h = app_harness(store)
    users = await game_of(h, 2)
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    user = users[decision.seat]
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    assert h.buttons(user.id, prompt), "the chat's prompt has its buttons"
    option = next(i for i, o in enumerate(decision.options) if o[0] != "end")
    before = len(h.tg.requests)
    async with serving(webapp_of(h), h.clock.now) as app:
        status, body = await app.answer(user, GROUP, table.game_no, decision.id, option)
        assert status == 200 and body == {"ok": True, "error": None, "text": ""}
        await h.settle()
    after = await h.table(GROUP)
    assert after.version > table.version
    assert (await store.log(GROUP))[-1].option == decision.options[option]
    # the very prompt in the chat: the choice shown, its buttons gone (or, the
    # same player asked again at once, the next question's in their place)
    assert "✔️" in h.tg.texts[(user.id, prompt)]
    assert decision.id not in decisions_of(h.tg.markups.get((user.id, prompt)))
    now = await h.decision(GROUP)
    assert now is not None and now.id != decision.id
    if not after.state.players[now.seat].computer:  # type: ignore[union-attr]
        assert any(
            getattr(r, "chat_id", None) == users[now.seat].id for r in h.tg.requests[before:]
        ), "the next decider got their prompt"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_stale_foreign_and_strangers_answers_are_refused_as_buttons_are(
    store: Store, lang: str
) -> None:
    h = app_harness(store)
    users = people("Анна", "Борис")
    users = [person(u.id, u.first_name, lang) for u in users]
    await h.open_game(GROUP, users[0], users[1:], seed=5)
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider, other = users[decision.seat], users[1 - decision.seat]
    stranger = person(300, "Чужой", lang)
    t = h.tr.t
    async with serving(webapp_of(h), h.clock.now) as app:
        cases = [
            (decider, decision.id - 1, 0, "err-old-button"),
            (other, decision.id, 0, "err-not-your-turn"),
            (stranger, decision.id, 0, "err-not-seated"),
            (decider, decision.id, len(decision.options), "err-bad-button"),
        ]
        for user, decision_id, option, key in cases:
            status, body = await app.answer(user, GROUP, table.game_no, decision_id, option)
            assert status == 200
            assert body == {"ok": False, "error": key, "text": t(lang, key)}
        status, body = await app.answer(decider, GROUP, table.game_no + 1, decision.id, 0)
        assert body["error"] == "err-old-game"
    assert (await h.table(GROUP)).version == table.version, "nothing changed"


async def test_answers_are_rate_limited_per_user(store: Store) -> None:
    h = app_harness(store)
    users = await game_of(h, 2)
    table = await h.table(GROUP)
    async with serving(webapp_of(h), h.clock.now) as app:
        statuses = []
        for _ in range(10):
            status, body = await app.answer(users[0], GROUP, table.game_no, 0, 0)
            statuses.append(status)
        assert 429 in statuses, "ten answers at once are too many"
        assert body == {"ok": False, "error": "err-too-fast", "text": h.tr.t("ru", "err-too-fast")}
        status, _ = await app.answer(users[1], GROUP, table.game_no, 0, 0)
        assert status == 200, "another user is not held back"


# ====================================================================== live
async def test_a_move_in_the_chat_reaches_an_open_stream(store: Store) -> None:
    h = app_harness(store)
    users = await game_of(h, 3)
    watcher = person(300, "Зритель")
    table = await h.table(GROUP)
    async with serving(webapp_of(h), h.clock.now) as app:
        _, body = await app.state(watcher, GROUP)
        assert body["state"]["v"] == table.version
        async with app.stream(watcher, GROUP, last=table.version) as stream:
            decision = await h.decision(GROUP)
            assert decision is not None
            await h.answer(users[decision.seat], GROUP, decision.options[0])
            name, version, state = await stream.next()
            assert name == "state" and version > table.version
            assert state["v"] == version and state["me"] is None
            newest = await h.table(GROUP)
            while version < newest.version:  # the move may have saved more than once
                name, version, state = await stream.next()
            assert version == newest.version
            assert newest.state is not None
            points = [p.points for p in view_for(newest.state, None).players]
            assert [p["points"] for p in state["players"]] == points


async def test_a_reconnect_catches_up_from_its_version(store: Store) -> None:
    h = app_harness(store)
    users = await game_of(h, 2)
    table = await h.table(GROUP)
    async with serving(webapp_of(h), h.clock.now) as app:
        decision = await h.decision(GROUP)
        assert decision is not None
        await h.answer(users[decision.seat], GROUP, decision.options[0])
        newest = await h.table(GROUP)
        # the page had the old version: the newest comes at once
        async with app.stream(users[0], GROUP, last=table.version) as stream:
            name, version, state = await stream.next()
            assert (name, version) == ("state", newest.version)
            assert state["hand"] == newest.state.players[0].hand  # type: ignore[union-attr]
        # the page is up to date: what comes next is the next move, not this one again
        async with app.stream(users[0], GROUP, last=newest.version) as stream:
            decision = await h.decision(GROUP)
            assert decision is not None
            await h.answer(users[decision.seat], GROUP, decision.options[0])
            _, version, _ = await stream.next()
            assert version > newest.version


async def test_a_move_saved_by_another_process_reaches_this_ones_viewers(
    redis_factory: Any,
) -> None:
    """Two bot processes over one Redis: a move through the first's
    dispatcher reaches a stream open on the second (pub/sub), which read
    the record once for all its viewers."""
    first = app_harness(await redis_factory())
    second = Harness(await redis_factory(), first.tg, first.clock, app=LINKS)
    users = await game_of(first, 2)
    table = await first.table(GROUP)
    async with serving(webapp_of(second), second.clock.now) as app:
        viewers = [users[0], users[1], person(300, "Зритель")]
        async with (
            app.stream(viewers[0], GROUP, last=table.version) as a,
            app.stream(viewers[1], GROUP, last=table.version) as b,
            app.stream(viewers[2], GROUP, last=table.version) as c,
        ):
            hub = webapp_of(second).hub
            await hub.idle()  # the reads each new viewer asks for
            loads = hub.loads
            # the game's log (its story) is read once a move too, not once a viewer
            logs = [0]
            real_log = second.store.log

            async def counted_log(chat_id: int) -> Any:
                logs[0] += 1
                return await real_log(chat_id)

            second.store.log = counted_log  # type: ignore[method-assign]
            decision = await first.decision(GROUP)
            assert decision is not None
            await first.answer(users[decision.seat], GROUP, decision.options[0])
            newest = await first.table(GROUP)
            for stream in (a, b, c):
                version = 0
                while version < newest.version:
                    _, version, _ = await stream.next()
            moves = newest.version - table.version
            assert hub.loads - loads <= moves, "one read per move for all the viewers"
            assert 1 <= logs[0] <= moves, "one log read per move for all the viewers"


# ====================================================================== where it opens
async def test_prompts_hand_and_table_open_the_app_only_when_it_is_configured(
    store: Store,
) -> None:
    for links in (None, LINKS, AppLinks(BASE_URL, short_name="table")):
        h = Harness(store, app=links)
        users = people("Анна", "Борис")
        chat = GROUP - (0 if links is None else 1 if links.short_name is None else 2)
        await h.open_game(chat, users[0], users[1:])
        decision = await h.decision(chat)
        assert decision is not None
        decider = users[decision.seat]
        prompt = (await store.messages(chat))[f"prompt:{decision.seat}"]
        markup = h.tg.markups[(decider.id, prompt)]
        assert isinstance(markup, InlineKeyboardMarkup)
        apps = [b.web_app.url for row in markup.inline_keyboard for b in row if b.web_app]
        table_id = (await store.messages(chat))["table"]
        table_markup = h.tg.markups.get((chat, table_id))
        await h.say(users[0].id, users[0], "/hand")
        asked = h.tg.sent(users[0].id)[-1]
        if asked.text == h.tr.t("ru", "games-which"):  # her games of the runs before too
            data = [d for _, d in h.buttons(users[0].id, h.message_id_of(asked)) if str(chat) in d]
            await h.press(users[0], users[0].id, h.message_id_of(asked), data[0])
        hand = h.tg.sent(users[0].id)[-1].reply_markup
        if links is None:
            assert apps == [] and table_markup is None
            assert not any(isinstance(r, SetChatMenuButton) for r in h.tg.requests)
            continue
        assert apps == [f"{BASE_URL}/?chat={chat}"]
        assert isinstance(hand, InlineKeyboardMarkup)
        assert any(b.web_app for row in hand.inline_keyboard for b in row)
        assert isinstance(table_markup, InlineKeyboardMarkup)
        url = table_markup.inline_keyboard[0][0].url
        if links.short_name is None:
            assert url == f"https://t.me/{BOT_USER.username}?start=app_{chat}"
        else:
            assert url == f"https://t.me/{BOT_USER.username}/table?startapp={chat}"
        menus = [r for r in h.tg.requests if isinstance(r, SetChatMenuButton)]
        assert {r.chat_id for r in menus} >= {u.id for u in users}, "/start set the menu button"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_group_links_deep_link_answers_with_the_apps_button(
    store: Store, lang: str
) -> None:
    h = app_harness(store)
    watcher = person(300, "Зритель", lang)
    await h.say(watcher.id, watcher, f"/start app_{GROUP}")
    sent = h.tg.sent(watcher.id)[-1]
    assert sent.text == h.tr.t(lang, "app-open-watch")  # no seat: the public table
    markup = sent.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    button = markup.inline_keyboard[0][0]
    assert button.text == h.tr.t(lang, "btn-app")
    assert button.web_app is not None and button.web_app.url == f"{BASE_URL}/?chat={GROUP}"


# ====================================================================== the page
async def test_the_page_and_the_api_send_a_strict_content_security_policy(store: Store) -> None:
    """The page is one document: its style and script inline, allowed by their
    hashes alone (no 'unsafe-inline', no eval, no inline attribute), scripts
    from Telegram and nowhere else."""
    h = app_harness(store)
    anna, _ = await game_of(h, 2)
    async with serving(webapp_of(h), h.clock.now) as app:
        page = await app.client.get(f"{PREFIX}/")
        assert page.status == 200
        html = await page.text()
        csp = page.headers["Content-Security-Policy"]
        assert re.findall(r'<script src="([^"]+)"', html) == [
            "https://telegram.org/js/telegram-web-app.js"
        ]
        scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
        assert len(scripts) == 2, "boot.js in the head, app.js at the end"
        (style,) = re.findall(r"<style>(.*?)</style>", html, re.S)
        blocks = [(script, "script-src") for script in scripts] + [(style, "style-src")]
        for block, directive in blocks:
            digest = base64.b64encode(hashlib.sha256(block.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in csp.split(f"{directive} ")[1].split(";")[0]
        assert "script-src https://telegram.org 'sha256-" in csp
        assert "default-src 'none'" in csp and "connect-src 'self'" in csp
        assert "unsafe" not in csp and "'self'" not in csp.split("script-src")[1].split(";")[0]
        assert " style=" not in html and " onclick=" not in html and " onload=" not in html
        again = await app.client.get(f"{PREFIX}/", headers={"If-None-Match": page.headers["ETag"]})
        assert again.status == 304
        r = await app.client.get(f"{PREFIX}/api/state?chat={GROUP}", headers=app.headers(anna))
        assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")
        r = await app.client.get(f"{PREFIX}", allow_redirects=False)
        assert r.status == 302 and r.headers["Location"] == f"{PREFIX}/"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_cards_text_is_the_card_commands(store: Store, lang: str) -> None:
    h = app_harness(store)
    anna, boris = (person(u.id, u.first_name, lang) for u in people("Анна", "Борис"))
    await h.open_game(GROUP, anna, [boris])
    async with serving(webapp_of(h), h.clock.now) as app:
        r = await app.client.get(
            f"{PREFIX}/api/card?chat={GROUP}&topic=lord", headers=app.headers(anna)
        )
        body = await r.json()
        assert body["title"] == h.tr.t(lang, "card-lord")
        assert body["text"] and "<" not in body["text"]
        r = await app.client.get(
            f"{PREFIX}/api/card?chat={GROUP}&topic=nothing", headers=app.headers(anna)
        )
        assert r.status == 404


async def test_the_menu_button_lists_the_callers_games(store: Store) -> None:
    h = app_harness(store)
    anna, _ = await game_of(h, 2)
    async with serving(webapp_of(h), h.clock.now) as app:
        r = await app.client.get(f"{PREFIX}/api/games", headers=app.headers(anna))
        body = await r.json()
        assert [g["chat"] for g in body["games"]] == [GROUP]
        nobody = person(300, "Никто")
        r = await app.client.get(f"{PREFIX}/api/games", headers=app.headers(nobody))
        assert (await r.json())["games"] == []


async def test_a_store_that_cannot_be_reached_is_answered_not_raised(store: Store) -> None:
    h = app_harness(store)
    anna, _ = await game_of(h, 2)

    async def down(chat_id: int) -> None:
        raise StoreUnavailable("Redis went away")

    async with serving(webapp_of(h), h.clock.now) as app:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(store, "load", down)
            status, body = await app.state(anna, GROUP)
            assert status == 503
            assert body == {
                "ok": False,
                "error": "err-unavailable",
                "text": h.tr.t("ru", "err-unavailable"),
            }
        status, _ = await app.state(anna, GROUP)
        assert status == 200, "and answered again once it is back"


def test_a_six_player_state_stays_under_18_kb() -> None:
    """Every seat's and a spectator's state at every decision of random
    6-player games (crowded tables, long names) fits the app's budget of 18 KB
    (16 KB until issue 27 gave each card type, house, hand and score an
    accessible name in words; the game's story is bounded on its own:
    `STORY_TURNS`)."""
    tr = Translator()
    render = Renderer(tr)
    payloads = Payloads(tr, render, Prompts(render, tr))
    states = crowded_states(payloads, range(3), FULL_NAMES, random.Random(6))
    largest = max(len(body) for _, body in states)
    assert largest <= 18 * 1024, f"{largest} bytes"


def test_the_apps_settings_are_checked_when_they_load() -> None:
    """Telegram opens a Web App over HTTPS only; a short name is what @BotFather
    takes; the app shares the webhook's server when it listens where it does."""

    def settings(**values: Any) -> Settings:
        return Settings(_env_file=None, bot_token="42:TEST", **values)  # type: ignore[call-arg]

    for url in ("http://example.com/app", "example.com/app", "https://example.com/app?x=1"):
        with pytest.raises(ValidationError) as refused:
            settings(webapp_url=url)
        assert describe(refused.value).startswith("WEBAPP_URL:"), url
    with pytest.raises(ValidationError) as refused:
        settings(webapp_url=BASE_URL, miniapp_short_name="no spaces!")
    assert describe(refused.value).startswith("MINIAPP_SHORT_NAME:")
    app = settings(webapp_url=BASE_URL + "/", miniapp_short_name="table")
    assert (app.webapp_url, app.webapp_path) == (BASE_URL, PREFIX)
    assert not app.webapp_on_webhook_server, "polling: the app has its own server"
    hook = {"webhook_url": "https://example.com/hook", "webhook_secret": "s3cret"}
    assert settings(webapp_url=BASE_URL, **hook).webapp_on_webhook_server
    assert not settings(webapp_url=BASE_URL, webapp_port=8090, **hook).webapp_on_webhook_server
    assert settings(webapp_url="").webapp_url is None
