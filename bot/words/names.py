"""Players' names as every text shows them: cleaned, cut at one limit, isolated.

A Telegram name is whatever its owner typed: 64 characters, right-to-left
script, bidirectional controls (an RLO would turn the rest of the line
around), zero-width or blank-looking characters only. So a name is

- **cleaned** once, when a seat is taken (`clean_name`): control and format
  characters out (bidirectional controls, zero-width spaces and joiners
  between words), runs of spaces made one, cut to `NAME_MAX` characters with
  «…»; a name with nothing visible left becomes empty;
- **shown** (`shown_name`) inside FSI … PDI (U+2068, U+2069), so an Arabic or
  Hebrew name keeps its own direction without reordering the words around
  it; an empty name shows as the fallback («Игрок 3», "Player 3"), which the
  caller takes from the locales.

`shown_name` cleans again, so a name saved before cleaning existed (or by
any other path) is shown the same way.
"""

from __future__ import annotations

import functools
import unicodedata

NAME_MAX = 32  # characters a name keeps, «…» included
ELLIPSIS = "…"
FSI = "\u2068"  # first strong isolate
PDI = "\u2069"  # pop directional isolate

#: characters that draw nothing though Unicode counts them as letters or symbols
#: (Hangul fillers, the blank Braille pattern, the Mongolian vowel separator…)
_BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
#: format characters kept inside a name: they build an emoji sequence (the
#: zero-width joiner; the tags of a flag like 🏴󠁧󠁢󠁳󠁣󠁴󠁿) and draw nothing alone
#: (variation selectors are category Mn, kept anyway)
_JOINERS = frozenset("\u200d") | frozenset(chr(c) for c in range(0xE0020, 0xE0080))


def _is_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Zs" or ch in _BLANK_LOOKING


def _dropped(ch: str) -> bool:
    """Control and format characters: bidi controls, zero-width spaces, BOM…"""
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in _JOINERS


def _visible(ch: str) -> bool:
    return not _is_space(ch) and unicodedata.category(ch)[0] not in "CMZ"


@functools.lru_cache(maxsize=4096)  # every table shows every name again: clean each once
def clean_name(raw: str, limit: int = NAME_MAX) -> str:
    """The name to keep for a seat: see the module's text. Empty when nothing
    in `raw` can be seen."""
    words: list[str] = []
    word: list[str] = []
    for ch in raw:
        if _is_space(ch):
            if word:
                words.append("".join(word))
                word = []
        elif not _dropped(ch):  # joiners are not dropped
            word.append(ch)
    if word:
        words.append("".join(word))
    name = " ".join(w.strip("\u200d") for w in words).strip()
    if not any(_visible(ch) for ch in name):
        return ""
    if len(name) > limit:
        cut = name[: limit - 1]
        # no half of an emoji sequence or a lone accent at the cut
        while cut and (
            cut[-1] in _JOINERS
            or unicodedata.category(cut[-1]) == "Mn"
            or _is_space(cut[-1])
            or "\ud800" <= cut[-1] <= "\udfff"
        ):
            cut = cut[:-1]
        name = cut + ELLIPSIS
    return name


def shown_name(raw: str, fallback: str) -> str:
    """A name ready for a text (not yet HTML-escaped): cleaned, isolated."""
    return FSI + (clean_name(raw) or fallback) + PDI
