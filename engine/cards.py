"""The static card table and the rule options, loaded from `data/cards.toml`.

A game refers to cards by *instance* ids (``h0`` … house cards, ``o0`` …
orders, ``s0`` … смуты). The catalog maps each id to a `Card` record; it is
rebuilt from the `Rules` of a game, so a game with other counts gets other ids
but the same game always gets the same ones.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Colour = Literal["red", "blue", "green", "orange"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "green", "orange")
CardKind = Literal["house", "order", "smuta"]
Sex = Literal["m", "f", "n"]

#: characters that may be laid into any player's house
PLANTABLE = frozenset({"plague", "harlot"})


def _load_data() -> dict[str, Any]:
    text = resources.files("engine").joinpath("data/cards.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


DATA = _load_data()


def _default(name: str) -> Any:
    return DATA["options"][name]


class Rules(BaseModel):
    """Every value the owner may change without touching code (RULES.md [R])."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hand_limit: int = Field(default_factory=lambda: _default("hand_limit"), ge=1)
    actions_per_turn: int = Field(default_factory=lambda: _default("actions_per_turn"), ge=1)
    trade_castle_actions: int = Field(
        default_factory=lambda: _default("trade_castle_actions"), ge=1
    )
    deal_house_cards: int = Field(default_factory=lambda: _default("deal_house_cards"), ge=0)
    deal_orders: int = Field(default_factory=lambda: _default("deal_orders"), ge=0)
    castle_points: int = Field(default_factory=lambda: _default("castle_points"))
    castle_min_cards: int = Field(default_factory=lambda: _default("castle_min_cards"), ge=1)
    fire_each_house: bool = Field(default_factory=lambda: _default("fire_each_house"))
    step_cap: int = Field(default_factory=lambda: _default("step_cap"), ge=100)
    house_counts: dict[str, int] = Field(
        default_factory=lambda: {k: v["count"] for k, v in DATA["house"].items()}
    )
    house_points: dict[str, int] = Field(
        default_factory=lambda: {k: v["points"] for k, v in DATA["house"].items()}
    )
    servant_points: int = Field(default_factory=lambda: DATA["servant"]["points"])
    order_counts: dict[str, int] = Field(default_factory=lambda: dict(DATA["orders"]))


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card."""

    id: str
    type: str  # lord, servant, ball, merchant, feast, …
    kind: CardKind
    colours: tuple[Colour, ...]  # house card: its colour (a Слуга: both); merchant: its colour
    sex: Sex = "n"
    points: int = 0

    @property
    def colour(self) -> Colour | None:
        """The card's single colour; None for a Слуга (its side decides) or a colourless card."""
        return self.colours[0] if len(self.colours) == 1 else None

    @property
    def is_servant(self) -> bool:
        return self.type == "servant"

    @property
    def type_key(self) -> str:
        """Type and colour(s), e.g. ``lord.red``, ``servant.red.blue``, ``ball``."""
        return ".".join((self.type, *self.colours))


class Catalog:
    """All cards of a game by instance id, in a fixed order."""

    def __init__(self, rules: Rules) -> None:
        cards: list[Card] = []
        n = 0
        for colour in COLOURS:
            for ctype, count in rules.house_counts.items():
                sex = DATA["house"][ctype]["sex"]
                for _ in range(count):
                    cards.append(
                        Card(f"h{n}", ctype, "house", (colour,), sex, rules.house_points[ctype])
                    )
                    n += 1
        for a, b in DATA["servant"]["pairs"]:
            cards.append(Card(f"h{n}", "servant", "house", (a, b), "n", rules.servant_points))
            n += 1
        n = 0
        for otype, count in rules.order_counts.items():
            colours: tuple[tuple[Colour, ...], ...] = (
                tuple((c,) for c in COLOURS) if otype == "merchant" else ((),)
            )
            for cols in colours:
                for _ in range(count):
                    cards.append(Card(f"o{n}", otype, "order", cols))
                    n += 1
        for i, stype in enumerate(DATA["smuty"]["ids"]):
            cards.append(Card(f"s{i}", stype, "smuta", ()))
        self.cards: dict[str, Card] = {c.id: c for c in cards}
        self.house_ids = [c.id for c in cards if c.kind == "house"]
        self.order_ids = [c.id for c in cards if c.kind == "order"]
        self.smuta_ids = [c.id for c in cards if c.kind == "smuta"]
        self.by_type_key: dict[str, list[str]] = {}
        for c in cards:
            self.by_type_key.setdefault(c.type_key, []).append(c.id)

    def __getitem__(self, card_id: str) -> Card:
        return self.cards[card_id]


DEFAULT_RULES = Rules()
_DEFAULT_CATALOG = Catalog(DEFAULT_RULES)


@lru_cache(maxsize=32)
def _catalog_for_json(rules_json: str) -> Catalog:
    return Catalog(Rules.model_validate_json(rules_json))


def catalog_for(rules: Rules) -> Catalog:
    if rules is DEFAULT_RULES or rules == DEFAULT_RULES:
        return _DEFAULT_CATALOG
    return _catalog_for_json(rules.model_dump_json())
