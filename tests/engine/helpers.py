"""Helpers for engine tests: build positions, answer by card kind, read the table back.

Cards are named by kind (``lord.red``, ``servant.red.blue``, ``ball``, ``feast``);
see `engine.scenario` for the position format.
"""

from __future__ import annotations

from typing import Any

from engine import Decision, Event, GameState, pending
from engine.cards import catalog_for
from engine.invariants import violations
from engine.scenario import build, play, resolve

__all__ = ["build", "decision", "hand", "houses", "kind", "kinds", "play", "resolve", "setup"]


def setup(**position: Any) -> GameState:
    """Build a position (keyword arguments as in `engine.scenario.Position`)."""
    state = build(position)
    assert not violations(state), violations(state)
    return state


def kind(state: GameState, card_id: str) -> str:
    card = catalog_for(state.rules)[card_id]
    up = state.servant_up.get(card_id)
    return card.type_key + (f"@{up}" if up and card.is_servant else "")


def kinds(state: GameState, card_ids: list[str]) -> list[str]:
    return [kind(state, c) for c in card_ids]


def hand(state: GameState, seat: int) -> list[str]:
    """The kinds in a hand, sorted."""
    return sorted(catalog_for(state.rules)[c].type_key for c in state.players[seat].hand)


def houses(state: GameState, seat: int) -> list[tuple[str, list[str], str | None]]:
    """A row left to right: (colour, kinds oldest first, castle side)."""
    return [
        (h.colour, [catalog_for(state.rules)[c].type_key for c in h.cards], h.castle)
        for h in state.players[seat].houses
    ]


def decision(state: GameState) -> Decision:
    d = pending(state)
    assert d is not None, "the game is over"
    return d


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]
