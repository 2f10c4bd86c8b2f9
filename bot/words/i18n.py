"""Every word a person reads comes from `locales/<lang>/*.ftl` (Project Fluent).

Russian is the default and the fallback; English stands beside it. Fluent
gives Russian its plural forms (`{ $n -> [one] … [few] … *[many] … }`); card
names carry their grammatical cases as attributes (``card-lord`` is the
nominative, ``.acc`` and ``.dat`` the accusative and dative), and messages
receive a card already in the case they need (``$card``, ``$card_acc``, …).
"""

from __future__ import annotations

import logging
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from fluent.runtime import FluentBundle, FluentResource

from bot.store.models import Lang
from engine.cards import Card

log = logging.getLogger(__name__)

LANGS: tuple[Lang, ...] = ("ru", "en")
Case = Literal["nom", "acc", "dat"]


def _locales_dir() -> Path:
    """The ``locales`` package's folder: the checkout's `locales/` (an editable
    install, or the tests), or the copy installed beside `bot` from the wheel —
    never the working directory, so the bot shows its texts wherever it starts."""
    found = files("locales")
    if not isinstance(found, Path):  # a zipped install: not one we make
        raise RuntimeError(f"the texts must be files on disk, not {found!r}")
    return found


LOCALES_DIR = _locales_dir()
TEXTS_KEPT = 50_000  # formatted texts kept in memory (a few MB at most)
COLOUR_EMOJI = {"red": "🔴", "blue": "🔵", "green": "🟢", "orange": "🟠"}


def pick_lang(code: str | None, default: Lang = "ru") -> Lang:
    """A supported language from a Telegram language code (``en-GB`` → ``en``)."""
    if code:
        short = code.split("-")[0].lower()
        for lang in LANGS:
            if short == lang:
                return lang
    return default


class Translator:
    def __init__(self, directory: Path = LOCALES_DIR) -> None:
        self.bundles: dict[str, FluentBundle] = {}
        self._cards: dict[tuple[str, str, str, str | None], str] = {}  # names never change
        for lang in LANGS:
            bundle = FluentBundle([lang], use_isolating=False)
            for path in sorted((directory / lang).glob("*.ftl")):
                bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
            self.bundles[lang] = bundle
        # a text is a pure function of its key and arguments, and a table repeats
        # most of its lines from one move to the next: formatting (Fluent, and
        # Babel for every number) is most of a move's rendering, so keep the
        # recent results
        self._formatted = lru_cache(maxsize=TEXTS_KEPT)(self._uncached)

    def has(self, lang: str, key: str) -> bool:
        return self.bundles[lang].has_message(key.split(".")[0])

    def t(self, lang: str, key: str, **args: Any) -> str:
        """The text of `key` (``message`` or ``message.attribute``) in `lang`."""
        items = tuple(sorted(args.items()))
        try:
            hash(items)
        except TypeError:  # an unhashable argument (a list): format it afresh
            return self._uncached(lang, key, items)
        return self._formatted(lang, key, items)

    def _uncached(self, lang: str, key: str, items: tuple[tuple[str, Any], ...]) -> str:
        args = dict(items)
        for tongue in (lang, "ru"):
            text = self._format(tongue, key, args)
            if text is not None:
                return text
        log.error("missing text %s", key)
        return key

    def _format(self, lang: str, key: str, args: dict[str, Any]) -> str | None:
        bundle = self.bundles.get(lang)
        message_id, _, attribute = key.partition(".")
        if bundle is None or not bundle.has_message(message_id):
            return None
        message = bundle.get_message(message_id)
        pattern = message.attributes.get(attribute) if attribute else message.value
        if pattern is None:
            return None
        text, errors = bundle.format_pattern(pattern, args)
        if errors:
            log.error("text %s in %s: %s", key, lang, errors)
        return str(text)

    # ------------------------------------------------------------------ cards
    def card(self, lang: str, card: Card, case: Case = "nom", side: str | None = None) -> str:
        """A card's name with its colour: ``🔴 Лорд``, ``🔴/🔵 Слуга``, ``🍗 Великий Пир``."""
        memo = (lang, card.type_key, case, side)
        name = self._cards.get(memo)
        if name is None:
            name = self._cards[memo] = self._card(lang, card, case, side)
        return name

    def _card(self, lang: str, card: Card, case: Case, side: str | None) -> str:
        key = f"card-{card.type}" + ("" if case == "nom" else f".{case}")
        name = self.t(lang, key)
        if card.kind == "smuta":
            return name
        if card.is_servant:
            colours = [side] + [c for c in card.colours if c != side] if side else card.colours
            return "/".join(COLOUR_EMOJI[c] for c in colours) + " " + name
        if card.colours:
            return f"{COLOUR_EMOJI[card.colours[0]]} {name}"
        return name
