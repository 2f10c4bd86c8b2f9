"""What every HTTP door of the bot does the same way (the webhook's server,
the Mini App's, the health port's).

- **No software version.** aiohttp names itself and its version in a
  ``Server`` header on every response — its own 400s for a request it cannot
  parse included, which no application hook reaches (aiohttp issues #1958,
  #8870) — so the name it reads is set once, without a version (`harden`).
- **A request that is no HTTP is the client's mistake, not ours.** aiohttp
  logs a request it cannot parse (a header over 8 KB, a line that is no HTTP
  at all) at ERROR with a traceback that quotes the offending bytes (an
  ``initData``: a name, a user id), so each one would be a Sentry event and a
  person in the log; `harden` makes it one INFO line naming the error's kind
  and status, nothing of what was sent. aiohttp still answers it 400.
- **A JSON body is bounded before it is parsed** (`bounded_json`): its nesting
  is counted first (Python's parser recurses: a 2,000-deep array raises
  ``RecursionError`` — a 500 — where it should be a 400); ``NaN`` and
  ``Infinity`` (no JSON) are refused, and so is any float where only integers
  are wanted (``1e999`` is ``inf``, which no integer can take).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from aiohttp import web_response
from aiohttp.http_exceptions import HttpProcessingError

#: what ``Server`` says: the product, no version
SERVER_NAME = "smuta"
#: where aiohttp logs a request it could not handle
AIOHTTP_SERVER_LOGGER = "aiohttp.server"


class BadBody(ValueError):
    """A request's body that is not the JSON it may be (why: the message,
    never the body)."""


def _quiet_parse_errors(record: logging.LogRecord) -> bool:
    """A record of aiohttp's about a request it could not parse, made one
    INFO line without the traceback or the request's bytes."""
    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, HttpProcessingError):
        record.msg = "refused a request that is no valid HTTP: %s (%d)"
        record.args = (type(exc).__name__, exc.code)
        record.exc_info = None
        record.exc_text = None
        record.levelno = min(record.levelno, logging.INFO)  # (aiohttp's DEBUG ones stay)
        record.levelname = logging.getLevelName(record.levelno)
    return True


def harden() -> None:
    """Every HTTP response of this process says ``Server: smuta``; a request
    that is no valid HTTP is logged as one INFO line. Idempotent."""
    # aiohttp reads this module global as it writes each response's headers
    # (its own 400s included); it has no option for it
    web_response.SERVER_SOFTWARE = SERVER_NAME  # type: ignore[attr-defined]
    logger = logging.getLogger(AIOHTTP_SERVER_LOGGER)
    if _quiet_parse_errors not in logger.filters:
        logger.addFilter(_quiet_parse_errors)


#: a JSON string (escapes included), or a bracket outside one
_STRINGS_AND_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _no_float(text: str) -> Any:
    raise BadBody("a number that is not an integer")


def _no_constant(text: str) -> Any:
    raise BadBody(f"{text[:8]} is no JSON")


def bounded_json(raw: bytes, max_depth: int, integers_only: bool = False) -> Any:
    """`raw` parsed as JSON when it nests no deeper than `max_depth` and holds
    no NaN or Infinity (nor any float, with `integers_only`); `BadBody`
    otherwise (or when it is no JSON)."""
    depth = 0
    for token in _STRINGS_AND_BRACKETS.finditer(raw):
        bracket = token.group()
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                raise BadBody(f"nested deeper than {max_depth}")
        elif bracket in (b"]", b"}"):
            depth -= 1
    try:
        if integers_only:
            return json.loads(raw, parse_float=_no_float, parse_constant=_no_constant)
        return json.loads(raw, parse_constant=_no_constant)
    except BadBody:
        raise
    except ValueError:  # no JSON, not UTF-8, an integer of over 4,300 digits
        raise BadBody("not JSON") from None
