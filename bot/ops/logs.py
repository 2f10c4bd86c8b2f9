"""Logging: level and format from the settings, the update's context on every
line, and (optionally) Sentry for what is logged as an error.

- ``LOG_LEVEL`` (``INFO``): the root level; aiogram's own chatter stays at
  WARNING below DEBUG.
- ``LOG_FORMAT=text`` (default): ``time LEVEL logger: message [chat=… update=…]``.
  ``LOG_FORMAT=json``: one JSON object per line — ``time``, ``level``,
  ``logger``, ``message``, the context fields that are known, and ``exc`` (the
  traceback) for an exception.
- The context — the game's chat id, the update id, the decision id a button
  answers — lives in context variables that `bot.handlers.observe.UpdateObserver` sets
  for each update (`bind` sets them elsewhere); each update runs in a task of
  its own, so one update's context never shows on another's lines. A record
  factory copies them onto every log record as it is made.
- Nobody is named, and no user id is written raw: a person's id — and a
  private chat's, which is the same number — is written as a pseudonym
  (`person`: ``user~`` and a keyed hash, the same in every line and every
  process that shares the key, which `set_pseudonym_key` sets from the bot's
  token), in the context fields and in messages alike (`chat`). A group's id
  (negative) names no one and is written as it is.
- ``SENTRY_DSN``: with the ``sentry`` extra installed (``pip install
  'smuta[sentry]'``), every record logged at ERROR or above — ``log.exception``
  included — becomes a Sentry event carrying the same context fields; INFO and
  WARNING lines before it become its breadcrumbs. An event carries no frame's
  local variables (they hold hands, decks, seeds and names), no request body,
  headers or cookies, no user and no extra but the context fields (`scrubbed`).
  Its breadcrumbs are the log's lines and nothing else: sentry-sdk's Redis
  integration, which it turns on by itself, is off (a crumb a command, each
  naming its key: ``smuta:user:{<user id>}:tables``), and any other
  integration's crumb is dropped (an HTTP call's names the bot's token).
- A value that failed validation is never written: pydantic's errors quote it
  (``input_value={…'h7'…}``: a hand, a name), so the quote is cut from every
  log line's message and traceback and from every Sentry event
  (`without_inputs`; the store's records do not quote it in the first place:
  ``hide_input_in_errors``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TextIO

CHAT_ID: ContextVar[int | None] = ContextVar("chat_id", default=None)
UPDATE_ID: ContextVar[int | None] = ContextVar("update_id", default=None)
DECISION_ID: ContextVar[int | None] = ContextVar("decision_id", default=None)
FIELDS: tuple[tuple[str, ContextVar[int | None]], ...] = (
    ("chat_id", CHAT_ID),
    ("update_id", UPDATE_ID),
    ("decision_id", DECISION_ID),
)
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
log = logging.getLogger(__name__)


_pseudonym_key = secrets.token_bytes(32)  # until `set_pseudonym_key`: this process's own


def pseudonym_key(secret: str | bytes) -> bytes:
    """The key pseudonyms are made with, from `secret` (the bot's token)."""
    raw = secret.encode() if isinstance(secret, str) else secret
    return hashlib.sha256(b"smuta-log-pseudonyms:" + raw).digest()


def set_pseudonym_key(secret: str | bytes) -> None:
    """Pseudonyms from `secret` (the bot's token): the same person gets the same
    pseudonym in every process and after a restart, and nobody without the
    secret can go from a pseudonym back to the id."""
    global _pseudonym_key
    _pseudonym_key = pseudonym_key(secret)


def person(user_id: int, key: bytes | None = None) -> str:
    """A person's id as log lines write it: a pseudonym (``user~`` and 10 hex
    digits), made with `key` (default: the one `set_pseudonym_key` set)."""
    digest = hmac.new(key or _pseudonym_key, str(int(user_id)).encode(), hashlib.sha256)
    return "user~" + digest.hexdigest()[:10]


def chat(chat_id: int) -> int | str:
    """A chat's id as log lines write it: a group's as it is; a private chat's
    (a person's id) as the person's pseudonym."""
    return chat_id if chat_id < 0 else person(chat_id)


@contextmanager
def bind(
    chat_id: int | None = None, update_id: int | None = None, decision_id: int | None = None
) -> Iterator[None]:
    """Log lines inside the block carry this context (a timer firing for a chat,
    say); it is put back as it was afterwards."""
    tokens = [
        var.set(value)
        for var, value in ((CHAT_ID, chat_id), (UPDATE_ID, update_id), (DECISION_ID, decision_id))
    ]
    try:
        yield
    finally:
        for var, token in zip((CHAT_ID, UPDATE_ID, DECISION_ID), tokens, strict=True):
            var.reset(token)


def _with_context(record: logging.LogRecord) -> logging.LogRecord:
    for name, var in FIELDS:
        if not hasattr(record, name):
            value = var.get()
            if value is not None:
                setattr(record, name, chat(value) if name == "chat_id" else value)
    return record


def install_context() -> None:
    """Every log record gets the known context fields (``record.chat_id``…)
    when it is made, so every handler sees them — the formatters here, pytest's
    capture, and Sentry, which reads a record before any handler. Idempotent."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "smuta_context", False):
        return

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return _with_context(factory(*args, **kwargs))

    make.smuta_context = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(make)


def _context(record: logging.LogRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name, _ in FIELDS if hasattr(record, name)}


#: what a pydantic error quotes of the value that failed (its repr never spans
#: lines), up to the type it names last on the line
_INPUT_VALUE = re.compile(r"input_value=.*, (input_type=[^,\]\n]*\])$", re.M)


def without_inputs(text: str) -> str:
    """`text` (a message, a traceback) with no value a validation error
    quoted: ``[type=int_parsing, input_value='h7', input_type=str]`` becomes
    ``[type=int_parsing, input_type=str]``."""
    if "input_value=" not in text:
        return text
    return _INPUT_VALUE.sub(r"\1", text)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        # (the traceback too, even as another handler cached it on the record)
        return without_inputs(super().format(record))

    def formatMessage(self, record: logging.LogRecord) -> str:
        text = super().formatMessage(record)
        context = _context(record)
        if context:
            short = {"chat_id": "chat", "update_id": "update", "decision_id": "decision"}
            text += " [" + " ".join(f"{short[k]}={v}" for k, v in context.items()) + "]"
        return text


class JsonFormatter(logging.Formatter):
    """One JSON object per line; a traceback is one string field, never lines of its own."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": without_inputs(record.getMessage()),
            **_context(record),
        }
        if record.exc_info:
            entry["exc"] = without_inputs(self.formatException(record.exc_info))
        elif record.exc_text:
            entry["exc"] = without_inputs(record.exc_text)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup(level: int | str = logging.INFO, fmt: str = "text", stream: TextIO | None = None) -> None:
    """Configure the root logger: one handler on `stream` (stderr), the context
    filter, the chosen format. Replaces handlers set before (a second call wins)."""
    install_context()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)  # a library's warning is a log line too (one JSON object)
    # aiogram logs every update it handles at INFO ("Update id=… is handled"):
    # useful when debugging, noise in production
    numeric = logging.getLevelName(level) if isinstance(level, str) else level
    if isinstance(numeric, int) and numeric > logging.DEBUG:
        logging.getLogger("aiogram.event").setLevel(logging.WARNING)


def init_sentry(dsn: str, **options: Any) -> bool:
    """Send what is logged at ERROR (exceptions included) to Sentry. False, with
    a warning, when the ``sentry`` extra is not installed. `options` go to
    ``sentry_sdk.init`` (tests pass a transport)."""
    try:
        import sentry_sdk
        from sentry_sdk.integrations.logging import LoggingIntegration
        from sentry_sdk.integrations.redis import RedisIntegration
    except ImportError:
        log.warning(
            "SENTRY_DSN is set, but sentry-sdk is not installed: pip install 'smuta[sentry]'"
        )
        return False
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = f"smuta@{version('smuta')}"
    except PackageNotFoundError:
        release = None
    install_context()

    sentry_sdk.init(
        dsn=dsn,
        release=release,
        send_default_pii=False,  # no names, no IP addresses, no cookies or headers
        include_local_variables=False,  # a frame's locals hold hands, decks, seeds, names
        max_request_body_size="never",  # a webhook's body is an update: names, texts
        integrations=[LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)],
        # its crumbs name keys, and keys name people (`scrubbed_breadcrumb`)
        disabled_integrations=[RedisIntegration()],
        before_send=scrubbed,  # type: ignore[arg-type]  # an Event is a TypedDict
        before_breadcrumb=scrubbed_breadcrumb,
        **options,
    )
    return True


#: what of an event's ``extra`` goes to Sentry: the context fields only (a log
#: record's other attributes may carry anything a caller passed)
SENT_EXTRA = frozenset(name for name, _ in FIELDS)


def scrubbed(event: dict[str, Any], hint: Any = None) -> dict[str, Any]:
    """An event as Sentry may keep it: no frame's local variables, no request
    body, cookies or headers, no user, no log arguments, no extra but the
    context fields — which also become tags, so Sentry can search by chat."""
    for exception in (event.get("exception") or {}).get("values") or []:
        if isinstance(exception.get("value"), str):
            exception["value"] = without_inputs(exception["value"])
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    for thread in (event.get("threads") or {}).get("values") or []:
        for frame in (thread.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    request = event.get("request")
    if isinstance(request, dict):
        for field in ("data", "cookies", "headers", "query_string", "env"):
            request.pop(field, None)
    event.pop("user", None)
    entry = event.get("logentry")
    if isinstance(entry, dict):
        entry.pop("params", None)
        for field in ("message", "formatted"):
            if isinstance(entry.get(field), str):
                entry[field] = without_inputs(entry[field])
    extra = {k: v for k, v in (event.get("extra") or {}).items() if k in SENT_EXTRA}
    event["extra"] = extra
    tags = event.setdefault("tags", {})
    for name in SENT_EXTRA:
        if name in extra:
            tags[name] = str(extra[name])
    breadcrumbs = event.get("breadcrumbs")
    if isinstance(breadcrumbs, dict):
        kept = [scrubbed_breadcrumb(crumb) for crumb in breadcrumbs.get("values") or []]
        breadcrumbs["values"] = [crumb for crumb in kept if crumb is not None]
    return event


#: the breadcrumbs kept: the log's lines (LoggingIntegration's), which name
#: nobody; an integration's (Redis commands, HTTP calls) name keys and URLs
KEPT_CRUMBS = frozenset({"log"})


def scrubbed_breadcrumb(crumb: dict[str, Any], hint: Any = None) -> dict[str, Any] | None:
    """A breadcrumb (an INFO line before the error) without its data: the
    context fields only, as on the log line; None (dropped) for anything but
    a log line."""
    if crumb.get("type") not in KEPT_CRUMBS:
        return None
    data = crumb.get("data")
    if isinstance(data, dict):
        crumb["data"] = {k: v for k, v in data.items() if k in SENT_EXTRA}
    if isinstance(crumb.get("message"), str):
        crumb["message"] = without_inputs(crumb["message"])
    return crumb
