"""Nothing private leaves the bot: Sentry gets no frame's local variables and
no request body; INFO logs name nobody and carry no raw user id; /forgetme
leaves nothing that names the person in either store."""

from __future__ import annotations

import gzip
import json
import logging
import textwrap
import zlib
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.ops import logs
from bot.store import Store
from bot.store.memory import MemoryStore
from bot.store.redis import RedisStore
from bot.words.keyboards import ForgetCb, LangCb, SettingsCb
from engine import pending
from engine.ai.easy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, answer_data
from tests.bot.helpers.finishing import finish_quickly
from tests.bot.helpers.probes import SENTRY_KEEPING_EVENTS, run_probe

ROOT = Path(__file__).resolve().parents[2]

# ====================================================================== Sentry
SENTRY_PRIVACY_PROBE = SENTRY_KEEPING_EVENTS + textwrap.dedent(
    """
    log = logging.getLogger("bot.service.play")

    def answer(state):
        hand = state["hands"][1]
        deck = state["deck"]
        name = state["names"][1]
        user_id = state["users"][1]
        raise KeyError("decision 41")

    state = {
        "hands": [["h1"], ["hZZ917 Лорд", "hZZ918 Граф"]],
        "deck": ["oZZ555 Пир", "sZZ556 Чума"],
        "seed": 98765432123,
        "names": ["Анна", "Ферапонт Зубов"],
        "users": [1, 777000111],
    }
    def webhook_request(event, hint):  # as a web framework's integration adds it
        event["request"] = {
            "url": "https://bot.example.org/hook",
            "method": "POST",
            "data": {"message": {"from": {"id": 777000111, "first_name": "Ферапонт Зубов"}}},
            "headers": {"X-Telegram-Bot-Api-Secret-Token": "secret"},
        }
        return event

    sentry_sdk.get_isolation_scope().add_event_processor(webhook_request)
    with logs.bind(chat_id=-100555, update_id=77, decision_id=41):
        try:
            answer(state)
        except KeyError:
            log.exception("update 77 failed", extra={"who": "Ферапонт Зубов"})
    sentry_sdk.flush()
    print(json.dumps(events, ensure_ascii=False, default=str))
    """
)


def test_a_sentry_event_carries_no_local_variables_names_hands_or_decks(tmp_path: Path) -> None:
    """An error raised where a hand, the deck, the seed, a name and a user id
    are local variables, while a webhook's request (its body an update) is in
    scope: the event sent (a transport stub keeps it) holds none of them, yet
    still tells what failed, where, and in which chat."""
    pytest.importorskip("sentry_sdk")
    done = run_probe(SENTRY_PRIVACY_PROBE)
    events = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(events) == 1, events
    sent = json.dumps(events[0], ensure_ascii=False)
    secrets = ("ZZ917", "ZZ918", "ZZ555", "ZZ556", "98765432123", "Ферапонт", "777000111")
    for secret in (*secrets, "Secret-Token"):
        assert secret not in sent, f"{secret} reached Sentry"
    (event,) = events
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]
    assert [f["function"] for f in frames][-1] == "answer"  # where it failed is kept
    assert all("vars" not in f for f in frames)
    assert event["request"]["url"] == "https://bot.example.org/hook"  # the body is gone
    assert event["tags"]["chat_id"] == "-100555"
    assert set(event["extra"]) <= {"chat_id", "update_id", "decision_id"}


# ====================================================================== logs
PEOPLE = (
    person(7123456781, "Ферапонт"),
    person(7123456782, "Евлампия"),
    person(7123456783, "Акакий"),
)
GROUP = -100717171


async def play_a_whole_game(h: Harness) -> None:
    """Everyone starts the bot, one asks to be called, a lobby with a computer
    starts; people answer their first decisions, then let the clock run out
    (the computer takes their seats); someone leaves and comes back, asks for
    their hand and the table; the game ends and is rated, /top and /stats.
    On the way what logs a person goes wrong: a private chat that Telegram
    fails (no call, no hand), a prompt that cannot be edited, an update
    delivered twice in a private chat."""
    first, second, third = PEOPLE
    for user in PEOPLE:
        await h.say(user.id, user, "/start")
    await h.say(GROUP, third, "/notify")
    await h.say(GROUP, first, "/notify")
    h.tg.down.add(third.id)  # Telegram fails third's private chat for a while
    await h.open_game(GROUP, first, [second, third], computers=1, seed=17)
    h.tg.down.discard(third.id)
    await h.leave_game(second, GROUP)
    await h.say(second.id, second, "/back")
    await h.say(GROUP, first, "/table")
    hand = h.updates.message(first.id, first, "/hand")
    await h.feed(hand)
    await h.feed(hand)  # delivered again
    for step in range(3000):
        if step == 3:  # the people's private messages are gone: their edits fail
            for key in [k for k in h.tg.texts if k[0] > 0]:
                del h.tg.texts[key]
        table = await h.table(GROUP)
        if table.status == "finished":
            break
        state = table.state
        assert state is not None
        decision = pending(state)
        assert decision is not None
        user_id = table.seats[decision.seat].user_id
        if state.players[decision.seat].computer or user_id is None:
            await h.tick(1.5)
        elif step < 12:
            prompt = (await h.store.messages(GROUP))[f"prompt:{decision.seat}"]
            option = choose(state.seed + step, decision)
            user = next(u for u in PEOPLE if u.id == user_id)
            await h.press(user, user.id, prompt, answer_data(table, decision, option))
        else:
            assert table.deadline is not None
            await h.tick(table.deadline - h.clock.now())
    else:
        raise AssertionError("the game did not end")
    await h.say(GROUP, first, "/top")
    await h.say(GROUP, first, "/history")
    await h.say(second.id, second, "/stats")


def leaks(text: str) -> list[str]:
    """The people's ids and names that `text` holds."""
    found = [str(u.id) for u in PEOPLE if str(u.id) in text]
    return found + [u.first_name for u in PEOPLE if u.first_name in text]


async def test_the_logs_of_a_whole_game_name_nobody_and_hold_no_user_id(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    logs.install_context()  # as `bot.run` does: the update's context on every line
    h = Harness(store)
    await play_a_whole_game(h)
    assert (await h.table(GROUP)).status == "finished"
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert lines, "the game logged nothing at all: the test saw nothing"
    pseudonyms = {logs.person(u.id) for u in PEOPLE}
    told: list[str] = []
    for record in lines:
        fields = " ".join(
            str(getattr(record, name, "")) for name in ("chat_id", "update_id", "decision_id")
        )
        text = f"{record.getMessage()} {fields} {record.exc_text or ''}"
        assert not leaks(text), f"{record.name}: {text}"
        told += [p for p in pseudonyms if p in text]
    # the lines that concern a person were written, with the pseudonym: in a
    # message (a call, a hand, an edit that failed) and as a private chat's context
    assert told, "no line concerned a person: the test saw nothing"
    assert any(isinstance(getattr(r, "chat_id", None), str) for r in lines)


# ====================================================================== /forgetme
FORGOTTEN = person(7123456789, "Ферапонт")
OTHERS = (person(7123456790, "Евлампия"), person(7123456791, "Акакий"))
HOME, PLAYING = -100717172, -100717173


def decoded(raw: Any) -> list[str]:
    """A stored value as text, every way the store may write it: as it is,
    decompressed, and as JSON read back (escapes undone)."""
    texts: list[str] = []
    if isinstance(raw, bytes):
        for unpack in (lambda b: b, zlib.decompress, gzip.decompress):
            try:
                texts.append(unpack(raw).decode("utf-8", "replace"))
            except (zlib.error, OSError, EOFError):
                continue
    else:
        texts.append(str(raw))
    for text in list(texts):
        for line in text.splitlines() or [text]:
            try:
                texts.append(json.dumps(json.loads(line), ensure_ascii=False))
            except ValueError:
                continue
    return texts


async def everything_in(store: Store) -> list[tuple[str, str]]:
    """Every key and every value the store holds, as text: (where, text)."""
    found: list[tuple[str, str]] = []
    if isinstance(store, RedisStore):
        client = store._r
        async for key in client.scan_iter(match=f"{store.prefix}:*", count=500):
            where = key.decode()
            found += [(where, t) for t in decoded(key)]
            kind = (await client.type(key)).decode()
            if kind == "string":
                values = [await client.get(key)]
            elif kind == "hash":
                values = [x for kv in (await client.hgetall(key)).items() for x in kv]
            elif kind == "list":
                values = await client.lrange(key, 0, -1)
            elif kind == "set":
                values = list(await client.smembers(key))
            elif kind == "zset":
                scored = await client.zrange(key, 0, -1, withscores=True)
                values = [x for member, score in scored for x in (member, str(score))]
            else:
                raise AssertionError(f"{key!r}: a {kind} the scan cannot read")
            for value in values:
                found += [(where, t) for t in decoded(value)]
        return found
    assert isinstance(store, MemoryStore)

    def walk(where: str, value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{where}[key]", k)
                walk(f"{where}[{k!r}]", v)
        elif isinstance(value, list | tuple | set | frozenset):
            for v in value:
                walk(f"{where}[]", v)
        elif is_dataclass(value) and not isinstance(value, type):
            walk(where, vars(value))
        elif isinstance(value, str | bytes | int | float):
            found.extend((where, t) for t in decoded(value))

    for name, value in vars(store).items():
        if name not in ("saved", "_clock"):
            walk(name, value)
    return found


async def test_forgetme_leaves_nothing_that_names_the_person_in_either_store(
    store: Store,
) -> None:
    """Ферапонт plays here and there: a finished game (history, figures), a
    call to lobbies, the settings he made as an admin, his language, a
    practice game, a game under way where the bot could not reach him (the
    group was asked to have him start it). He asks to be forgotten; the game
    he sat in plays on to its end. Then every key and value of the store is
    read: none holds his id or his name."""
    h = Harness(store)
    fer = FORGOTTEN
    evl, aka = OTHERS
    for user in (fer, evl, aka):
        await h.say(user.id, user, "/start")
    await h.press(fer, fer.id, 1, LangCb(lang="en").pack())
    assert (await store.user(fer.id)).lang == "en"
    h.tg.admins.add((HOME, fer.id))
    await h.say(HOME, fer, "/settings")
    await h.press(fer, HOME, h.last_with_button(HOME, "cf:"), SettingsCb(what="level").pack())
    profile = await store.profile(HOME)
    assert profile is not None and profile.owner_id == fer.id
    await h.say(HOME, fer, "/notify")
    await finish_quickly(h, HOME, fer, [evl, aka])
    assert f"u{fer.id}" in await store.stats(HOME)
    await h.tutor_taken(fer)
    await h.say(fer.id, fer, "/practice")
    h.tg.blocked.add(fer.id)  # the game's prompts cannot reach him: the group is asked
    await h.open_game(PLAYING, evl, [fer, aka], seed=5)
    for _ in range(40):  # play until his prompt was tried
        if f"unreachable:{fer.id}" in await store.messages(PLAYING):
            break
        table = await h.table(PLAYING)
        assert table.deadline is not None
        await h.tick(table.deadline - h.clock.now())
    assert f"unreachable:{fer.id}" in await store.messages(PLAYING)
    h.tg.blocked.discard(fer.id)
    assert any(fer.first_name in t for _, t in await everything_in(store))  # the scan sees him

    await h.say(fer.id, fer, "/forgetme")
    await h.press(fer, fer.id, h.last_with_button(fer.id, "fg:"), ForgetCb(confirm=True).pack())

    table = await h.table(PLAYING)
    seat = next(i for i, s in enumerate(table.seats) if s.forgotten)
    assert h.app.games.render.name("ru", table, seat) == "игрок"
    for _ in range(3000):  # the game plays on to its end
        table = await h.table(PLAYING)
        if table.status == "finished":
            break
        assert table.deadline is not None
        await h.tick(table.deadline - h.clock.now())
    assert table.status == "finished"
    await h.app.games.ratings.drain()
    assert await store.rating_head() is None

    texts = await everything_in(store)
    for where, text in texts:
        assert str(fer.id) not in text, f"{where}: {text[:300]}"
        assert fer.first_name not in text, f"{where}: {text[:300]}"
    # the others are still there: the scan reads what it should
    assert any(evl.first_name in t for _, t in texts)
    assert any(str(aka.id) in t for _, t in texts)
    await h.say(PLAYING, evl, "/history")
    assert "игрок" in h.tg.sent(PLAYING)[-1].text
