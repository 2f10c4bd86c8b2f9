"""Text that fits a phone: how long a line looks, and lines made to fit.

A line's length is what Telegram shows of it: HTML tags leave nothing, an
entity (``&lt;``) is one character. A name's isolating marks (`names.FSI`,
`names.PDI`) count, as Telegram keeps them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from bot.words.names import FSI, PDI

_TAG = re.compile(r"<[^>]*>")


def plain(text: str) -> str:
    """`text` as Telegram shows it: tags out, entities read."""
    return html.unescape(_TAG.sub("", text))


def visible_len(text: str) -> int:
    return len(plain(text))


def pack(parts: Sequence[str], width: int, sep: str = " · ") -> list[str]:
    """`parts` joined by `sep` into as few lines of at most `width` characters
    as they go in order (a part wider than `width` alone on its line)."""
    lines: list[str] = []
    for part in parts:
        if lines and visible_len(lines[-1] + sep + part) <= width:
            lines[-1] += sep + part
        else:
            lines.append(part)
    return lines


def _words(line: str) -> list[str]:
    """The words of a line: split at spaces, but never inside a tag or
    inside a name (between its isolating marks)."""
    words: list[str] = []
    word: list[str] = []
    in_tag = in_name = False
    for ch in line:
        if ch == "<":
            in_tag = True
        elif ch == ">":
            in_tag = False
        elif ch == FSI:
            in_name = True
        elif ch == PDI:
            in_name = False
        if ch == " " and not in_tag and not in_name:
            words.append("".join(word))
            word = []
        else:
            word.append(ch)
    words.append("".join(word))
    return [w for w in words if w]


def wrap(line: str, width: int, indent: str = "  ") -> list[str]:
    """A line broken at spaces into lines of at most `width` characters; the
    lines after the first start with `indent` (a word wider than the room
    stands alone on its line)."""
    if visible_len(line) <= width:
        return [line]
    lines: list[str] = []
    for word in _words(line):
        if lines and visible_len(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word if not lines else indent + word)
    return lines
