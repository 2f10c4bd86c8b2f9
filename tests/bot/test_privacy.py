"""Nothing private leaves the bot: Sentry gets no frame's local variables and
no request body; INFO logs name nobody and carry no raw user id; /forgetme
leaves nothing that names the person in either store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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
