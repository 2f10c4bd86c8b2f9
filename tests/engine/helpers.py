"""Helpers for engine tests: build positions, answer by card kind, read the table back.

Cards are named by kind (``lord.red``, ``servant.red.blue``, ``ball``, ``feast``);
see `engine.scenario` for the position format.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import Decision, Event, GameState, pending
from engine.cards import catalog_for
from engine.invariants import violations
from engine.scenario import build, play, resolve

__all__ = [
    "asked",
    "build",
    "decision",
    "draw_smuta",
    "hand",
    "houses",
    "keys",
    "kind",
    "kinds",
    "named",
    "options",
    "play",
    "resolve",
    "row",
    "secret_takes",
    "setup",
    "smuta_over",
]


def setup(**position: Any) -> GameState:
    """Build a position (keyword arguments as in `engine.scenario.Position`)."""
    state = build(position)
    assert not violations(state), violations(state)
    return state


def draw_smuta(smuta: str, **position: Any) -> tuple[GameState, list[Event]]:
    """Build a position with the смута `smuta` on top of the game deck (by default over
    a plain ``lord.orange``), let the current player draw it, and return the state and
    the draw's events: the смута has been played as far as its first question.

    The current player must be asked for an action before the draw (a seat with a
    single legal action would take it on its own), and the table must be sound after.
    """
    position.setdefault("deck", [smuta, "lord.orange"])
    state = setup(**position)
    assert asked(state) == (position.get("current", 0), "action")
    events = play(state, "draw")
    assert not violations(state), violations(state)
    return state, events


def smuta_over(state: GameState, smuta: str, seat: int) -> None:
    """The смута has left the game deck for the смута discard, and the turn has passed:
    exactly one new turn began (a position starts at turn 1), and it is `seat`'s, with
    fresh actions."""
    assert smuta not in kinds(state, state.deck)
    assert kinds(state, state.smuta_discard) == [smuta]
    assert state.current == seat
    assert state.turn == 2
    assert state.actions_left == 3
    assert asked(state) == (seat, "action")


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


def row(state: GameState, seat: int) -> list[tuple[str, list[str]]]:
    """A row left to right, a Слуга with the side it shows (``servant.red.green@green``)."""
    return [(h.colour, kinds(state, h.cards)) for h in state.players[seat].houses]


def decision(state: GameState) -> Decision:
    d = pending(state)
    assert d is not None, "the game is over"
    return d


def asked(state: GameState) -> tuple[int, str]:
    """Who is asked, and what kind of question."""
    d = decision(state)
    return d.seat, d.kind


def named(state: GameState, option: tuple[str, ...]) -> tuple[str, ...]:
    """An option with its card ids read as kinds."""
    cat = catalog_for(state.rules)
    return tuple(cat[p].type_key if p in cat.cards else p for p in option)


def options(state: GameState) -> set[tuple[str, ...]]:
    """The options of the pending decision, card ids read as kinds."""
    return {named(state, o) for o in decision(state).options}


def secret_takes(
    state: GameState, events: list[Event], key: str
) -> list[tuple[tuple[int, ...] | None, str]]:
    """Cards taken in secret: every public `key` event names no card, and each
    ``key.private`` event gives (its audience, the kind taken), in order."""
    public = [e for e in events if e.key == key]
    assert all(e.to is None and "card" not in e.params for e in public)
    return [(e.to, kind(state, e.params["card"])) for e in events if e.key == f"{key}.private"]


def of(events: list[Event], key: str) -> list[Event]:
    """The events with `key`."""
    return [e for e in events if e.key == key]


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]


def strings(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON-like value (a view or an event, dumped)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)
