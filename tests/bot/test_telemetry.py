"""Telemetry names nobody: what Sentry is sent about a real failure — a game's
record in a real Redis that no longer validates, met by an update through the
dispatcher — and what the log writes of it.

Sentry's own test transport keeps the events (a `Transport` that captures
each envelope), in a process of its own (Sentry hooks into logging for good).
Without the fixes the same run shows what issue 26 found: a breadcrumb per
Redis command naming ``…:user:{<user id>}:tables``, and pydantic's
``input_value={…}`` — the record: hands, names, the seed — in the event's
exception value and in the log line's ``exc``."""

from __future__ import annotations

import json
import logging
import textwrap
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from bot.ops import logs
from bot.store.redis import RedisStore
from tests.bot.conftest import REDIS_URL
from tests.bot.helpers.probes import SENTRY_KEEPING_EVENTS, run_probe

ANNA, BORIS = 700100200, 700100201
GROUP = -100424242

CORRUPT_RECORD_PROBE = SENTRY_KEEPING_EVENTS + textwrap.dedent(
    f"""
    import asyncio
    from redis.asyncio import Redis
    from bot.store.models import Table
    from bot.store.redis import RedisStore
    from tests.bot.fake_telegram import person
    from tests.bot.harness import Harness

    GROUP = {GROUP}
    found = {{}}

    async def main():
        prefix = sys.argv[1]
        store = RedisStore.from_url({REDIS_URL!r}, prefix)
        raw = Redis.from_url({REDIS_URL!r})
        try:
            h = Harness(store)
            anna, boris = person({ANNA}, "Анастасия"), person({BORIS}, "Борислав")
            await h.open_game(GROUP, anna, [boris], seed=5)
            await h.say(anna.id, anna, "/hand")  # reads her tables (her id in the key)
            table = await h.table(GROUP)
            found["hand"] = table.state.players[0].hand
            found["seed"] = table.state.seed
            # the record as a bad migration or a hand edit might leave it
            key = store._table_key(GROUP)
            record = json.loads(Table.from_json(await raw.hget(key, "data")).to_json())
            del record["chat_id"]
            await raw.hset(key, "data", json.dumps(record, ensure_ascii=False))
            logging.getLogger("bot.probe").info("a line before the error")
            await h.say(GROUP, anna, "/table")  # through the dispatcher: it meets the record
        finally:
            await raw.aclose()
            await store.close()

    asyncio.run(main())
    sentry_sdk.flush()
    print(json.dumps({{"events": events, **found}}, ensure_ascii=False, default=str))
    """
)


def test_a_record_that_fails_validation_reaches_sentry_and_the_log_naming_nobody(
    redis_store: RedisStore,
) -> None:
    """(`redis_store`: Redis reachable, and the probe's keys under its prefix,
    deleted afterwards.)"""
    pytest.importorskip("sentry_sdk")
    done = run_probe(CORRUPT_RECORD_PROBE, redis_store.prefix)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    failed = [
        e for e in out["events"] if any(v["type"] == "ValidationError" for v in _exceptions(e))
    ]
    assert failed, "the failed update is a Sentry event with its ValidationError"
    hand, seed = out["hand"], str(out["seed"])
    for event in failed:
        text = json.dumps(event, ensure_ascii=False)
        for secret in (str(ANNA), str(BORIS), "Анастасия", "Борислав"):
            assert secret not in text, f"{secret} reached Sentry"
        for card in hand:
            assert f"'{card}'" not in text and f'\\"{card}\\"' not in text, card
        assert "input_value" not in text and f"'seed': {seed}" not in text
        (value,) = [v["value"] for v in _exceptions(event) if v["type"] == "ValidationError"]
        assert "chat_id" in value and "Field required" in value, "the error still says what"
        crumbs = (event.get("breadcrumbs") or {}).get("values") or []
        assert crumbs, "the log's lines before the error are its breadcrumbs"
        assert {c.get("type") for c in crumbs} == {"log"}, "no Redis command, no HTTP call"
        assert "a line before the error" in [c.get("message") for c in crumbs]
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    (failure,) = [r for r in lines if "ValidationError" in r.get("exc", "")]
    assert "input_value" not in failure["exc"] and "Анастасия" not in failure["exc"]
    assert "chat_id" in failure["exc"] and failure["level"] == "ERROR"


def _exceptions(event: dict[str, Any]) -> list[dict[str, Any]]:
    return list((event.get("exception") or {}).get("values") or [])


class Record(BaseModel):  # a model of someone else's, which quotes its input
    hand: list[int]


#: a hand and a name that looks like the end of a quote
REFUSED = {"hand": ["h7", "Анастасия, input_type=str]"]}


def test_no_log_line_quotes_a_value_that_failed_validation(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Whatever model failed (the engine's, aiogram's, ours), the JSON and
    the text lines keep what failed and where, never the value."""
    try:
        Record.model_validate(REFUSED)
    except ValidationError:
        caplog.set_level(logging.ERROR)
        logging.getLogger("smuta-test.telemetry").exception("record refused")
    (record,) = caplog.records
    for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
        line = formatter.format(record)
        assert "hand.0" in line and "int_parsing" in line and "input_type=str" in line
        assert "h7" not in line and "Анастасия" not in line and "input_value" not in line


def test_sentry_keeps_the_logs_breadcrumbs_only() -> None:
    crumb = {"type": "redis", "category": "redis", "message": f"SMEMBERS 'smuta:user:{{{ANNA}}}'"}
    assert logs.scrubbed_breadcrumb(crumb) is None
    http = {
        "type": "http",
        "category": "httplib",
        "data": {"url": "https://api.telegram.org/bot42"},
    }
    assert logs.scrubbed_breadcrumb(http) is None
    line = {"type": "log", "category": "bot", "message": "saved", "data": {"chat_id": GROUP}}
    assert logs.scrubbed_breadcrumb(line) == line
