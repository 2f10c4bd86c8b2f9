"""/card: find a card, order, смута or castle by (part of) its name, in any language."""

from __future__ import annotations

from bot.i18n import LANGS, Translator
from engine.cards import COLOURS, DATA

HOUSE_TYPES: tuple[str, ...] = (*DATA["house"], "servant")
ORDER_TYPES: tuple[str, ...] = tuple(DATA["orders"])
SMUTA_TYPES: tuple[str, ...] = tuple(DATA["smuty"]["ids"])
#: every thing /card can describe: ``card-<id>`` names it, ``about-<id>`` tells what it does
TOPICS: tuple[str, ...] = (
    *HOUSE_TYPES,
    *ORDER_TYPES,
    *SMUTA_TYPES,
    *(f"castle-{c}" for c in COLOURS),
)


def topic_name(tr: Translator, lang: str, topic: str) -> str:
    if topic.startswith("castle-"):
        return tr.t(lang, topic)
    return tr.t(lang, f"card-{topic}")


def _plain(text: str) -> str:
    return "".join(ch for ch in text.lower().replace("ё", "е") if ch.isalnum() or ch == " ").strip()


def find_card(tr: Translator, query: str) -> str | None:
    """The topic whose name (in any language) matches `query`: exact, then prefix, then part."""
    wanted = _plain(query)
    if not wanted:
        return None
    names = [(topic, _plain(topic_name(tr, lang, topic))) for topic in TOPICS for lang in LANGS]
    for test in (
        lambda n: n == wanted,
        lambda n: n.startswith(wanted),
        lambda n: wanted in n,
    ):
        for topic, name in names:
            if test(name):
                return topic
    return None


def card_text(tr: Translator, lang: str, topic: str) -> str:
    return f"<b>{topic_name(tr, lang, topic)}</b>\n{tr.t(lang, f'about-{topic}')}"
