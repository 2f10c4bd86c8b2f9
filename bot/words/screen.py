"""A message's buttons as plain data: what a person can press, not how Telegram carries it.

The service builds screens from these and never an aiogram type; the Telegram
side (`bot.telegram.markup`) turns a `Keyboard` into Telegram's inline markup
when it sends. Being plain frozen data, a keyboard compares by value (an
outbox skips an edit that would show the same) and is cheap to build.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Button:
    """One button: exactly one of `data` (a callback the bot answers), `url` (a
    link it opens) or `app` (a Mini App page it opens, private chats only)."""

    text: str
    data: str | None = None
    url: str | None = None
    app: str | None = None


Row = tuple[Button, ...]
#: rows of buttons, top to bottom; () is a message with no buttons
Keyboard = tuple[Row, ...]
#: a message's text and buttons (None: none) as drawn or last shown
Shown = tuple[str, Keyboard | None]

#: Telegram's limits: a message's text (counted here on the HTML, which is
#: longer than what Telegram counts), a photo's caption
MAX_TEXT = 4096
CAPTION_MAX = 1024


def keyboard(*rows: Iterable[Button]) -> Keyboard:
    return tuple(tuple(row) for row in rows)


def rows(buttons: Sequence[Button], width: int) -> Keyboard:
    """`buttons` laid out `width` to a row."""
    return tuple(tuple(buttons[i : i + width]) for i in range(0, len(buttons), width))
