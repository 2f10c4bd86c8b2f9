"""Nothing private leaves the bot: Sentry gets no frame's local variables and
no request body; INFO logs name nobody and carry no raw user id; /forgetme
leaves nothing that names the person in either store."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.ops import logs
from bot.store import Store
from engine import pending
from engine.policy import choose
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, answer_data

ROOT = Path(__file__).resolve().parents[2]

# ====================================================================== Sentry
SENTRY_PRIVACY_PROBE = textwrap.dedent(
    """
    import json, logging
    import sentry_sdk
    from bot.ops import logs

    events = []

    class Keep(sentry_sdk.Transport):
        def capture_envelope(self, envelope):
            event = envelope.get_event()
            if event is not None:
                events.append(event)

    assert logs.init_sentry("https://public@sentry.example.invalid/1", transport=Keep())
    logs.setup("INFO", "json")
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
    are local variables: the event sent (a transport stub keeps it) holds none
    of them, yet still tells what failed, where, and in which chat."""
    pytest.importorskip("sentry_sdk")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY")}
    done = subprocess.run(
        [sys.executable, "-c", SENTRY_PRIVACY_PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    events = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(events) == 1, events
    sent = json.dumps(events[0], ensure_ascii=False)
    for secret in ("ZZ917", "ZZ918", "ZZ555", "ZZ556", "98765432123", "Ферапонт", "777000111"):
        assert secret not in sent, f"{secret} reached Sentry"
    (event,) = events
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]
    assert [f["function"] for f in frames][-1] == "answer"  # where it failed is kept
    assert all("vars" not in f for f in frames)
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
