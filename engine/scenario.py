"""Positions on demand, and scripted answers — for tests and bug reports.

A *position* names every card by its kind (``lord.red``, ``servant.red.blue``,
``ball``, ``merchant.green``, ``feast``); the builder gives each the next free
card of that kind. Piles list their **top card first**; houses list their cards
**oldest first**, and a Слуга in a house may name its side up after ``@``
(``servant.red.green@green``; by default the side of the house's colour).
Cards the position does not mention stay out of play (the box).

    {
      "players": [
        {"hand": ["lord.red", "ball"],
         "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"],
                     "castle": "permanent"}]},
        {"hand": [], "houses": []}
      ],
      "deck": ["conspiracy", "page.blue"],
      "orders": ["marriage"], "graveyard": [], "smuta_discard": ["poison"],
      "current": 0, "actions_left": 3, "seed": 1, "rules": {"fire_each_house": false}
    }

An *answer* is a list of option parts; a part may name a card by its kind, and
it matches the first legal option whose parts agree (``["lay", "lord.red"]``
matches ``("lay", "h3", "0", "red", "-")``; leading parts are enough).
``["computer"]`` lets the computer policy answer.

A scenario file is JSON (or TOML) with ``position`` and ``answers``:

    python -m engine.scenario bug.json          # prints events, the pending decision, views
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel, ConfigDict, Field

from engine.ai.easy import choose as computer_choice
from engine.api import apply, pending
from engine.cards import COLOURS, DEFAULT_RULES, Catalog, Colour, Rules, catalog_for
from engine.core import Event, Game, Option, Refused, run
from engine.state import GameState, House, Player, Side, TurnFrame
from engine.view import view_for


class HouseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    colour: Colour
    cards: list[str]
    castle: Side | None = None


class PlayerSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand: list[str] = Field(default_factory=list)
    houses: list[HouseSpec] = Field(default_factory=list)
    computer: bool = False


class Position(BaseModel):
    model_config = ConfigDict(extra="forbid")

    players: list[PlayerSpec] = Field(min_length=2, max_length=6)
    deck: list[str] = Field(default_factory=list)
    deck_top_open: bool = False
    orders: list[str] = Field(default_factory=list)
    graveyard: list[str] = Field(default_factory=list)
    orders_discard: list[str] = Field(default_factory=list)
    smuta_discard: list[str] = Field(default_factory=list)
    prophet_stack: list[str] = Field(default_factory=list)
    current: int = 0
    actions_left: int | None = None
    actions_taken: int = 0
    final_turns: int | None = None  # default with an empty deck: every other player's last turn
    seed: int = 0
    rules: dict[str, Any] = Field(default_factory=dict)


class _Allocator:
    def __init__(self, cat: Catalog) -> None:
        self.free = {k: list(v) for k, v in cat.by_type_key.items()}

    def take(self, kind: str) -> str:
        ids = self.free.get(kind)
        if ids is None:
            raise ValueError(f"no card kind {kind!r}")
        if not ids:
            raise ValueError(f"no {kind!r} left: the game has no more of them")
        return ids.pop(0)

    def pile(self, kinds: Sequence[str]) -> list[str]:
        return [self.take(k) for k in kinds]


def build(position: Position | dict[str, Any]) -> GameState:
    """Build the state of a position and run it to its first decision."""
    pos = position if isinstance(position, Position) else Position.model_validate(position)
    rules = Rules(**pos.rules) if pos.rules else DEFAULT_RULES
    cat = catalog_for(rules)
    alloc = _Allocator(cat)
    servant_up: dict[str, Colour] = {}
    players: list[Player] = []
    used_castles: set[Colour] = set()
    for spec in pos.players:
        houses = []
        for hs in spec.houses:
            cards = []
            for ref in hs.cards:
                kind, _, side = ref.partition("@")
                card_id = alloc.take(kind)
                if cat[card_id].is_servant:
                    servant_up[card_id] = cast(Colour, side or hs.colour)
                cards.append(card_id)
            if hs.castle is not None:
                if hs.colour in used_castles:
                    raise ValueError(f"two {hs.colour} castles")
                used_castles.add(hs.colour)
            houses.append(House(colour=hs.colour, cards=cards, castle=hs.castle))
        players.append(Player(hand=alloc.pile(spec.hand), houses=houses, computer=spec.computer))
    state = GameState(
        seed=pos.seed,
        rng=pos.seed,
        custom_rules=None if rules == DEFAULT_RULES else rules,
        players=players,
        deck=alloc.pile(pos.deck),
        deck_top_open=pos.deck_top_open,
        orders=alloc.pile(pos.orders),
        graveyard=alloc.pile(pos.graveyard),
        orders_discard=alloc.pile(pos.orders_discard),
        smuta_discard=alloc.pile(pos.smuta_discard),
        prophet_stack=alloc.pile(pos.prophet_stack),
        castles=[c for c in COLOURS if c not in used_castles],
        servant_up=servant_up,
        current=pos.current,
        turn=1,
        actions_left=rules.actions_per_turn if pos.actions_left is None else pos.actions_left,
        actions_taken=pos.actions_taken,
        # an empty game deck means the final turns are under way (RULES.md §7)
        final_turns=pos.final_turns
        if pos.final_turns is not None or pos.deck
        else len(pos.players) - 1,
        frames=[TurnFrame()],
    )
    state.box = [c for ids in alloc.free.values() for c in ids]
    run(Game(state))
    return state


def _part_matches(cat: Catalog, wanted: str, actual: str) -> bool:
    if wanted == actual:
        return True
    card = cat.cards.get(actual)
    return card is not None and wanted in (card.type_key, card.type)


def resolve(state: GameState, parts: Sequence[str]) -> Option:
    """The first legal option of the pending decision that `parts` describes."""
    decision = pending(state)
    if decision is None:
        raise Refused("game_over")
    if list(parts) == ["computer"]:
        return computer_choice(state.seed, decision)
    cat = catalog_for(state.rules)
    for option in decision.options:
        if len(parts) <= len(option) and all(
            _part_matches(cat, w, a) for w, a in zip(parts, option, strict=False)
        ):
            return option
    raise Refused("illegal_option")


def play(state: GameState, *parts: str) -> list[Event]:
    """Answer the pending decision as its player, naming the option by its parts."""
    option = resolve(state, parts)
    decision = pending(state)
    assert decision is not None
    return apply(state, decision.seat, decision.id, option)


def _load(path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".toml":
        return tomllib.loads(text)
    data: dict[str, Any] = json.loads(text)
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.scenario",
        description="Load a position, apply scripted answers, print events and views.",
    )
    parser.add_argument("file", type=Path)
    parser.add_argument("--seat", type=int, default=None, help="print only this seat's view")
    args = parser.parse_args(argv)
    data = _load(args.file)
    state = build(data["position"])
    out: dict[str, Any] = {"answers": []}
    for parts in data.get("answers", []):
        try:
            events = play(state, *parts)
        except Refused as refused:
            out["answers"].append({"answer": parts, "refused": refused.reason})
            break
        out["answers"].append({"answer": parts, "events": [e.model_dump() for e in events]})
    decision = pending(state)
    out["pending"] = decision.model_dump() if decision else None
    seats = [args.seat] if args.seat is not None else list(range(len(state.players)))
    out["views"] = [view_for(state, s).model_dump() for s in seats]
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
