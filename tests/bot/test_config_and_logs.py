"""Settings that cannot work are refused at load and never print a secret;
log lines carry the update's context; JSON logs are one object per line;
Sentry gets what is logged as an error, with its context."""

from __future__ import annotations

import io
import json
import logging
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.config import Settings, describe
from bot.ops import logs
from bot.store.memory import MemoryStore
from bot.words.keyboards import PromptCb
from tests.bot.harness import Harness, people
from tests.bot.helpers.probes import SENTRY_KEEPING_EVENTS, run_probe

TOKEN = "123456:AAE-very-secret-token"
SECRET = "hook-secret_42"
GROUP = -100246


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, bot_token=TOKEN, **values)  # type: ignore[arg-type]


# ====================================================================== settings
def test_webhook_mode_without_a_secret_is_refused_when_the_settings_load() -> None:
    with pytest.raises(ValidationError) as refused:
        settings(webhook_url="https://bot.example.org/hook")
    assert "WEBHOOK_SECRET" in describe(refused.value)
    assert TOKEN not in str(refused.value) and TOKEN not in describe(refused.value)
    # an empty value is no secret either
    with pytest.raises(ValidationError):
        settings(webhook_url="https://bot.example.org/hook", webhook_secret="")
    # polling needs none
    assert settings(webhook_url="").webhook_url is None


def test_a_secret_telegram_would_refuse_is_refused_without_being_printed() -> None:
    bad = "has spaces & symbols!"
    with pytest.raises(ValidationError) as refused:
        settings(webhook_url="https://bot.example.org/hook", webhook_secret=bad)
    assert bad not in str(refused.value) and bad not in describe(refused.value)
    assert "A-Z a-z 0-9 _ -" in describe(refused.value)


def test_secrets_never_print() -> None:
    s = settings(
        webhook_url="https://bot.example.org/hook",
        webhook_secret=SECRET,
        sentry_dsn="https://key@sentry.example.org/1",
    )
    assert s.webhook_secret is not None and s.webhook_secret.get_secret_value() == SECRET
    for shown in (repr(s), str(s), s.model_dump_json(), str(s.model_dump())):
        assert SECRET not in shown and TOKEN not in shown and "key@" not in shown


def test_the_ops_settings_and_their_defaults() -> None:
    s = settings()
    assert (s.health_host, s.health_port, s.drain_seconds) == ("127.0.0.1", 8081, 8.0)
    assert (s.log_level, s.log_format, s.sentry_dsn) == ("INFO", "text", None)
    assert settings(log_level="debug").log_level == "DEBUG"
    for wrong in ({"log_level": "LOUD"}, {"log_format": "xml"}, {"drain_seconds": -1}):
        with pytest.raises(ValidationError):
            settings(**wrong)


# ====================================================================== log lines
@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """The root logger also writes JSON lines (as LOG_FORMAT=json does) to a buffer."""
    logs.install_context()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield stream
    finally:
        root.removeHandler(handler)


def records(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


async def test_a_failing_update_is_one_json_line_naming_its_chat_and_update(
    json_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(MemoryStore())
    (anna,) = people("Анна")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom\nwith a second line")

    monkeypatch.setattr(h.app.games.lobby, "new_lobby", broken)
    update = h.updates.message(GROUP, anna, "/newgame")
    await h.feed(update)
    failed = [r for r in records(json_lines) if r["level"] == "ERROR"]
    assert len(failed) == 1, records(json_lines)
    line = failed[0]
    assert line["chat_id"] == GROUP and line["update_id"] == update.update_id
    assert "decision_id" not in line
    assert "boom" in str(line["exc"]) and "RuntimeError" in str(line["exc"])
    assert len(json_lines.getvalue().splitlines()) == len(records(json_lines)), "one per line"


async def test_a_prompt_button_logs_the_game_chat_and_the_decision(
    json_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt is pressed in a private chat, but its lines name the group's game."""
    h = Harness(MemoryStore())
    (anna,) = people("Анна")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(h.app.games.play, "press", broken)
    data = PromptCb(chat=GROUP, game=3, decision=17, option=0, depth=1).pack()
    update = h.updates.press(anna, anna.id, 5000, data)
    await h.feed(update)
    (line,) = [r for r in records(json_lines) if r["level"] == "ERROR"]
    assert (line["chat_id"], line["update_id"], line["decision_id"]) == (
        GROUP,
        update.update_id,
        17,
    )


def test_text_lines_carry_the_context_and_bind_puts_it_back() -> None:
    logs.install_context()
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.TextFormatter())
    log = logging.getLogger("smuta-test.context")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    try:
        with logs.bind(chat_id=-100, decision_id=9):
            log.info("timer fired")
        log.info("after")
    finally:
        log.removeHandler(handler)
    first, second = stream.getvalue().splitlines()
    assert first.endswith("INFO smuta-test.context: timer fired [chat=-100 decision=9]")
    assert second.endswith("INFO smuta-test.context: after")


# ====================================================================== Sentry


SENTRY_PROBE = SENTRY_KEEPING_EVENTS + textwrap.dedent(
    """
    log = logging.getLogger("bot.handlers.dispatcher")
    log.info("a breadcrumb")
    log.warning("only a warning")
    with logs.bind(chat_id=-100555, update_id=77, decision_id=12):
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            log.exception("update 77 failed")
    sentry_sdk.flush()
    print(json.dumps([
        {
            "message": (e.get("logentry") or {}).get("message"),
            "level": e.get("level"),
            "tags": e.get("tags"),
            "extra": e.get("extra"),
            "exception": [v["type"] for v in e.get("exception", {}).get("values", [])],
            "breadcrumbs": [b.get("message") for b in e.get("breadcrumbs", {}).get("values", [])],
        }
        for e in events
    ]))
    """
)


def test_what_is_logged_as_an_exception_goes_to_sentry_with_its_context(tmp_path: Path) -> None:
    """In a process of its own: Sentry hooks into logging for good."""
    pytest.importorskip("sentry_sdk")
    done = run_probe(SENTRY_PROBE)
    events = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(events) == 1, events  # the warning and the info line are no events
    (event,) = events
    assert event["level"] == "error" and event["exception"] == ["RuntimeError"]
    assert event["message"] == "update 77 failed"
    assert {k: event["extra"][k] for k in ("chat_id", "update_id", "decision_id")} == {
        "chat_id": -100555,
        "update_id": 77,
        "decision_id": 12,
    }
    assert event["tags"]["chat_id"] == "-100555"
    assert "a breadcrumb" in event["breadcrumbs"]
    # and the JSON log line of the same error was written as well
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    assert any(r["message"] == "update 77 failed" and r["chat_id"] == -100555 for r in lines)


def test_without_sentry_sdk_a_dsn_is_a_warning_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "sentry_sdk", None)  # as if not installed
    caplog.set_level(logging.WARNING)
    assert logs.init_sentry("https://public@sentry.example.invalid/1") is False
    assert "sentry-sdk is not installed" in caplog.text
