"""Invariants that hold after every step of every game (checked by the playouts)."""

from __future__ import annotations

from collections import Counter

from engine.cards import COLOURS, catalog_for
from engine.state import GameState, PlaceFrame, SmutaEndFrame


def violations(state: GameState) -> list[str]:
    """Every broken invariant, described; empty when the state is sound."""
    cards = catalog_for(state.rules).cards
    problems: list[str] = []
    zones: list[str] = [
        *state.deck,
        *state.orders,
        *state.graveyard,
        *state.orders_discard,
        *state.smuta_discard,
        *state.prophet_stack,
        *state.box,
    ]
    in_houses: set[str] = set()
    placed_castles: list[str] = []
    for seat, p in enumerate(state.players):
        zones.extend(p.hand)
        if len(p.hand) > state.rules.hand_limit:
            problems.append(f"seat {seat} holds {len(p.hand)} cards")
        colours = [h.colour for h in p.houses]
        if len(colours) != len(set(colours)):
            problems.append(f"seat {seat} has two houses of one colour: {colours}")
        for h in p.houses:
            if not h.cards:
                problems.append(f"seat {seat} has an empty {h.colour} house")
            zones.extend(h.cards)
            in_houses.update(h.cards)
            if h.castle is not None:
                placed_castles.append(h.colour)
            for c in h.cards:
                if cards[c].kind != "house":
                    problems.append(f"{c} ({cards[c].type}) lies in a house")
    for f in state.frames:
        if isinstance(f, PlaceFrame | SmutaEndFrame):
            zones.append(f.card)
    # each card in exactly one zone: as many zones as cards, and no card missing
    # (what comparing the two sorted lists says, without sorting them)
    if len(zones) != len(cards) or set(zones) != cards.keys():
        counts = Counter(zones)
        for card_id in cards:
            if counts[card_id] != 1:
                problems.append(f"{card_id} is in {counts[card_id]} zones")
    castles = sorted(placed_castles + list(state.castles))
    if castles != sorted(COLOURS):
        problems.append(f"castles are not one per colour: {castles}")
    servants_in_houses = {c for c in in_houses if cards[c].is_servant}
    if set(state.servant_up) != servants_in_houses:
        problems.append("servant sides do not match the Слуги in houses")
    for c, up in state.servant_up.items():
        if up not in cards[c].colours:
            problems.append(f"{c} shows {up}, not one of its colours")
    if state.deck_top_open and (not state.deck or cards[state.deck[0]].kind != "smuta"):
        problems.append("the open top card is not a смута")
    in_hands = {c for p in state.players for c in p.hand}
    grouped: list[str] = [c for group in state.mixed for c in group.cards]
    if len(grouped) != len(set(grouped)):
        problems.append("a card is in two groups of mixed kinds")
    for group in state.mixed:
        if len(group.cards) < 2:
            problems.append(f"a group of mixed kinds has {len(group.cards)} card(s)")
        if not set(group.cards) <= in_hands:
            problems.append(f"a group of mixed kinds holds cards out of hands: {group.cards}")
        if not set(group.seen) <= set(group.cards):
            problems.append("a group knows of cards that are not in it")
    if state.result is None and not state.frames:
        problems.append("a running game has no frames")
    return problems
