"""Decisions collected from seeded games, for the players' tests."""

from __future__ import annotations

from functools import cache

from engine import Decision, GameSetup, GameState, apply, new_game, pending
from engine.ai.easy import choose
from engine.hidden import copy_state
from tests.engine.helpers import play, setup


def _collect(per_kind: int) -> list[tuple[GameState, Decision]]:
    """Up to `per_kind` saved decisions of each kind from random games, 2–6 players."""
    found: dict[str, list[tuple[GameState, Decision]]] = {}
    for players in range(2, 7):
        for seed in range(12):
            state, _ = new_game(GameSetup(players=players, seed=500 + seed))
            n = 0
            late = False
            while (d := pending(state)) is not None:
                n += 1
                bucket = found.setdefault(d.kind, [])
                if len(bucket) < per_kind and (d.kind != "action" or n % 37 == 0):
                    bucket.append((copy_state(state), d))
                elif not late and len(state.deck) <= 8 and seed % 4 == 0:
                    # a late turn: where strong searches to the end of the game
                    late = True
                    found.setdefault("late", []).append((copy_state(state), d))
                apply(state, d.seat, d.id, choose(state.seed, d))
    return [x for bucket in found.values() for x in bucket] + _rare()


def _rare() -> list[tuple[GameState, Decision]]:
    """Замок Власти's and Замок Интриг's choices, which random games seldom reach."""
    out = []
    power = setup(
        players=[
            {
                "hand": ["merchant.red", "page.blue"],
                "houses": [{"colour": "red", "cards": ["lord.red", "page.red", "knight.red"]}],
            },
            {"hand": ["ball"]},
        ],
        deck=["page.green", "page.orange"],
        orders=["ball", "marriage", "infirmary", "marriage"],
    )
    play(power, "build", "merchant.red", "one_time")
    out.append((power, _pending(power)))
    intrigue = setup(
        players=[
            {
                "hand": ["merchant.blue"],
                "houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue", "knight.blue"]}],
            },
            {"hand": ["ball", "marriage", "lord.green"]},
            {"hand": ["infirmary"]},
        ],
        deck=["page.green", "page.orange"],
    )
    play(intrigue, "build", "merchant.blue", "one_time")
    out.append((copy_state(intrigue), _pending(intrigue)))
    play(intrigue, "1")
    out.append((intrigue, _pending(intrigue)))
    return out


def _pending(state: GameState) -> Decision:
    d = pending(state)
    assert d is not None
    return d


@cache
def decisions() -> list[tuple[GameState, Decision]]:
    return _collect(per_kind=3)
