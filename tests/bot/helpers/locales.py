"""Every text of the locales, with sample arguments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from fluent.syntax import FluentParser
from fluent.syntax import ast as fl
from fluent.syntax.visitor import Visitor

from bot.words.i18n import LOCALES_DIR, Translator

PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


NUMBERS = (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101)


@dataclass
class Entry:
    """One message: the variables it uses and, for selectors, the variant keys."""

    attributes: set[str] = field(default_factory=set)
    variables: set[str] = field(default_factory=set)
    selectors: dict[str, set[str]] = field(default_factory=dict)


class _Collect(Visitor):
    def __init__(self, entry: Entry) -> None:
        super().__init__()
        self.entry = entry

    def visit_VariableReference(self, node: fl.VariableReference) -> None:
        self.entry.variables.add(node.id.name)

    def visit_SelectExpression(self, node: fl.SelectExpression) -> None:
        if isinstance(node.selector, fl.VariableReference):
            keys = self.entry.selectors.setdefault(node.selector.id.name, set())
            for variant in node.variants:
                k = variant.key
                keys.add(f"#{k.value}" if isinstance(k, fl.NumberLiteral) else k.name)
        self.generic_visit(node)


@cache
def parsed(lang: str) -> tuple[dict[str, Entry], tuple[str, ...], tuple[str, ...]]:
    """(entries by id, syntax errors, ids defined twice) of a language's files."""
    entries: dict[str, Entry] = {}
    errors: list[str] = []
    twice: list[str] = []
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        for item in resource.body:
            if isinstance(item, fl.Junk):
                notes = "; ".join(str(a.message) for a in item.annotations)
                errors.append(f"{path.name}: {notes}: {(item.content or '')[:60]!r}")
            elif isinstance(item, fl.Message):
                name = item.id.name
                if name in entries:
                    twice.append(name)
                entry = Entry(attributes={a.id.name for a in item.attributes})
                _Collect(entry).visit(item)
                entries[name] = entry
    return entries, tuple(errors), tuple(twice)


def messages(lang: str) -> dict[str, Entry]:
    return parsed(lang)[0]


@cache
def translator() -> Translator:
    return Translator()


def _numeric(keys: set[str]) -> bool:
    """A selector on a number: its variants are plural categories or number literals (#0)."""
    return all(k in PLURAL_CATEGORIES or k.startswith("#") for k in keys)


def samples(entry: Entry) -> Iterator[dict[str, Any]]:
    """Argument sets for a message: plausible values, each selector through its variants."""
    base: dict[str, Any] = {v: "Иван" for v in entry.variables}
    choices: dict[str, list[Any]] = {}
    for var, keys in entry.selectors.items():
        if _numeric(keys):
            choices[var] = list(NUMBERS)
        else:
            choices[var] = [*sorted(str(k) for k in keys), "unexpected"]
        base[var] = choices[var][0]
    yield dict(base)
    for var, values in choices.items():
        for value in values:
            yield {**base, var: value}


def formatted(lang: str, key: str, args: dict[str, Any]) -> tuple[str, list[Any]]:
    bundle = translator().bundles[lang]
    name, _, attribute = key.partition(".")
    message = bundle.get_message(name)
    pattern = message.attributes[attribute] if attribute else message.value
    assert pattern is not None, f"{lang}: {key} has no value"
    text, errors = bundle.format_pattern(pattern, args)
    return str(text), list(errors)


def all_texts(lang: str) -> Iterator[tuple[str, str]]:
    """(key, text) for every message and attribute, formatted with every sample."""
    for name, entry in sorted(messages(lang).items()):
        for key in (name, *(f"{name}.{a}" for a in sorted(entry.attributes))):
            for args in samples(entry):
                text, _ = formatted(lang, key, args)
                yield key, text
