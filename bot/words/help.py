"""/card, /cards and /rules: what a card does, every card by family, the rules.

/card forgives: case, ё/е, punctuation and emoji, colour words («красный
лорд», «зелёный купец» — a card's text does not depend on its colour, a
castle's does: «красный замок»), a name in either language, a word in
another case or with a typo (rapidfuzz). «замок» alone lists the four
castles; a query that matches nothing well offers the closest names.
A query is cut to its first `QUERY_MAX` characters (in its plain form, at a
word's end) before any matching: the longest name is 19 characters, and a
4,000-character query costs what a short one does.

Every number the owner may change in `Rules` (hand limit, actions, the deal,
castle points and cards, card points, Пожар's houses) comes into the texts as
a Fluent variable (`rules_args`), so the texts tell the game being played.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rapidfuzz import fuzz, process

from bot.words.i18n import LANGS, Translator
from engine.cards import COLOURS, DATA, DEFAULT_RULES, Colour, Rules

HOUSE_TYPES: tuple[str, ...] = (*DATA["house"], "servant")
ORDER_TYPES: tuple[str, ...] = tuple(DATA["orders"])
SMUTA_TYPES: tuple[str, ...] = tuple(DATA["smuty"]["ids"])
DISASTERS: tuple[str, ...] = ("drought", "earthquake", "fire", "pestilence")
CASTLES: tuple[str, ...] = tuple(f"castle-{c}" for c in COLOURS)
#: every thing /card can describe: ``card-<id>`` names it, ``about-<id>`` tells what it does
TOPICS: tuple[str, ...] = (*HOUSE_TYPES, *ORDER_TYPES, *SMUTA_TYPES, *CASTLES)

#: the start of a colour word, in any case or gender («красного», «зелёная», "red")
COLOUR_STEMS: dict[str, Colour] = {
    "красн": "red",
    "red": "red",
    "син": "blue",
    "blue": "blue",
    "зелен": "green",
    "green": "green",
    "рыж": "orange",
    "оранж": "orange",
    "orange": "orange",
}
#: words that mean "a castle" without naming one
CASTLE_WORDS = frozenset(
    {"замок", "замки", "замка", "замков", "замку", "castle", "castles", "крепость"}
)
FUZZY_MIN = 70  # a typo'd name still scores this much (WRatio, 0–100)
FUZZY_LEAD = 10  # … and this much more than the next topic, or it is a guess
SUGGEST_MIN = 55  # the closest names offered when nothing matches well
SUGGESTIONS = 3
QUERY_MAX = 64  # characters of a query matched: the longest name (19) and room to spare


def topic_name(tr: Translator, lang: str, topic: str) -> str:
    if topic.startswith("castle-"):
        return tr.t(lang, topic)
    return tr.t(lang, f"card-{topic}")


def _plain(text: str) -> str:
    """Lower case, ё as е, words of letters and digits only (no emoji, no
    punctuation: «Красно-зелёный» → «красно зеленый»)."""
    text = text.lower().replace("ё", "е")
    return " ".join(re.sub(r"[^\w]+|_", " ", text).split())


# ====================================================================== /card
@dataclass(frozen=True)
class Lookup:
    """What a /card query found: one topic, the castles, or names to offer."""

    topic: str | None = None
    castles: bool = False
    suggestions: tuple[str, ...] = field(default_factory=tuple)


@lru_cache(maxsize=4)
def _names(tr: Translator) -> tuple[tuple[str, str], ...]:
    """(plain name, topic) for every topic in every language."""
    return tuple((_plain(topic_name(tr, lang, topic)), topic) for topic in TOPICS for lang in LANGS)


def _query(text: str) -> str:
    """What of a /card query is matched: its plain form, at most `QUERY_MAX`
    characters, a word cut short dropped."""
    plain = _plain(text)
    if len(plain) <= QUERY_MAX:
        return plain
    cut = plain[:QUERY_MAX]
    if plain[QUERY_MAX] != " " and " " in cut:  # a word cut short: dropped
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip()


def lookup(tr: Translator, query: str) -> Lookup:
    words = _query(query).split()
    colours = {c for w in words for stem, c in COLOUR_STEMS.items() if w.startswith(stem)}
    rest = " ".join(w for w in words if not any(w.startswith(s) for s in COLOUR_STEMS))
    if not rest:
        if not words:
            return Lookup()
        rest = " ".join(words)  # only colour words: look for them as names
    if rest in CASTLE_WORDS:
        if len(colours) == 1:
            return Lookup(topic=f"castle-{colours.pop()}")
        return Lookup(castles=True)
    names = _names(tr)
    for match in (
        lambda n: n == rest,
        lambda n: n.startswith(rest),
        lambda n: rest in n,
    ):
        found = list(dict.fromkeys(topic for name, topic in names if match(name)))
        if len(found) == 1:
            return Lookup(topic=found[0])
        if found:
            return Lookup(suggestions=tuple(found[:SUGGESTIONS]))
    best: dict[str, float] = {}
    for _name, score, index in process.extract(
        rest, [n for n, _ in names], scorer=fuzz.WRatio, limit=None
    ):
        topic = names[index][1]
        best[topic] = max(best.get(topic, 0.0), score)
    ranked = sorted(best.items(), key=lambda item: -item[1])
    if ranked and ranked[0][1] >= FUZZY_MIN:
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        if ranked[0][1] - runner_up >= FUZZY_LEAD:
            return Lookup(topic=ranked[0][0])
    return Lookup(
        suggestions=tuple(t for t, s in ranked[:SUGGESTIONS] if s >= SUGGEST_MIN),
    )


def find_card(tr: Translator, query: str) -> str | None:
    """The one topic `query` names, or None."""
    return lookup(tr, query).topic


def card_reply(tr: Translator, lang: str, query: str, rules: Rules = DEFAULT_RULES) -> str:
    """The answer to ``/card <query>``."""
    if not _query(query):
        return tr.t(lang, "card-usage")
    found = lookup(tr, query)
    if found.topic is not None:
        return card_text(tr, lang, found.topic, rules)
    if found.castles:
        return castles_text(tr, lang, rules)
    names = ", ".join(topic_name(tr, lang, t) for t in found.suggestions)
    shown = html.escape(" ".join(query.split())[:40], quote=False)
    return tr.t(lang, "card-unknown", query=shown, names=names, n=len(found.suggestions))


def rules_args(rules: Rules = DEFAULT_RULES) -> dict[str, Any]:
    """The numbers of `rules` that the texts tell, as Fluent variables."""
    return {
        "hand": rules.hand_limit,
        "actions": rules.actions_per_turn,
        "trade_actions": rules.trade_castle_actions,
        "deal_house": rules.deal_house_cards,
        "deal_orders": rules.deal_orders,
        "castle_points": rules.castle_points,
        "castle_cards": rules.castle_min_cards,
        "fire_each": "yes" if rules.fire_each_house else "no",
    }


def card_points(rules: Rules, topic: str) -> int:
    if topic == "servant":
        return rules.servant_points
    return rules.house_points[topic]


def card_text(tr: Translator, lang: str, topic: str, rules: Rules = DEFAULT_RULES) -> str:
    """/card's answer for one topic: its name, what it does, and for a смута
    what becomes of the initiator's turn, for a castle how it is built."""
    args = rules_args(rules)
    if topic in HOUSE_TYPES:
        args["points"] = card_points(rules, topic)
    text = f"<b>{topic_name(tr, lang, topic)}</b>\n{tr.t(lang, f'about-{topic}', **args)}"
    if topic in SMUTA_TYPES:
        text += "\n" + tr.t(lang, "about-smuta-turn", smuta=topic, **rules_args(rules))
    elif topic in CASTLES:
        colour = topic.removeprefix("castle-")
        text += "\n" + tr.t(
            lang,
            "about-castle-build",
            colour=colour,
            cards=rules.castle_min_cards,
            points=rules.castle_points,
        )
    return text


def castles_text(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> str:
    """``/card замок``: the four castles, each with its two sides, and how one is built."""
    parts = [tr.t(lang, "card-castles")]
    for topic in CASTLES:
        about = tr.t(lang, f"about-{topic}", **rules_args(rules))
        parts.append(f"<b>{topic_name(tr, lang, topic)}</b>\n{about}")
    parts.append(
        tr.t(
            lang,
            "about-castle-build",
            colour="any",
            cards=rules.castle_min_cards,
            points=rules.castle_points,
        )
    )
    return "\n\n".join(parts)


# ====================================================================== /cards
def cards_text(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> str:
    """``/cards``: every card by family (house cards with their points)."""
    houses = ", ".join(f"{topic_name(tr, lang, t)} {card_points(rules, t)}" for t in HOUSE_TYPES)
    orders = ", ".join(topic_name(tr, lang, t) for t in ORDER_TYPES)
    smuty = ", ".join(topic_name(tr, lang, t) for t in SMUTA_TYPES if t not in DISASTERS)
    disasters = ", ".join(topic_name(tr, lang, t) for t in DISASTERS)
    castles = ", ".join(topic_name(tr, lang, t) for t in CASTLES)
    return tr.t(
        lang,
        "card-list",
        houses=houses,
        orders=orders,
        smuty=smuty,
        disasters=disasters,
        castles=castles,
    )


# ====================================================================== /rules
def points_list(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> str:
    """«Лорд, Миледи — 3; Рыцарь — 2; Чумовой, Блудница — 0; остальные — 1»:
    house cards by points, most first; the largest group is «the rest»."""
    by_points: dict[int, list[str]] = {}
    for t in HOUSE_TYPES:
        by_points.setdefault(card_points(rules, t), []).append(t)
    rest = max(by_points, key=lambda p: (len(by_points[p]), -p))
    parts = []
    for points in sorted(by_points, reverse=True):
        if points == rest:
            continue
        names = ", ".join(topic_name(tr, lang, t) for t in by_points[points])
        parts.append(f"{names} — {points}")
    parts.append(tr.t(lang, "rules-points-rest", points=rest))
    return "; ".join(parts)


def rules_parts(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> list[str]:
    """/rules in full, as its messages: the game, then its cards (characters,
    orders, castles) — each well inside Telegram's 4096 characters."""
    return [
        tr.t(lang, "rules-text", points=points_list(tr, lang, rules), **rules_args(rules)),
        tr.t(lang, "rules-cards", **rules_args(rules)),
    ]


def rules_text(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> str:
    """/rules in full, as one text."""
    return "\n\n".join(rules_parts(tr, lang, rules))


def rules_short(tr: Translator, lang: str, rules: Rules = DEFAULT_RULES) -> str:
    """/rules in a group: the game in a few lines (the full rules go in private)."""
    return tr.t(lang, "rules-short", **rules_args(rules))
