"""Seeded games stay byte-identical across engine changes.

A game saved in Redis before a deploy must resume after it with the same future,
and a command log must replay into the same game: so a change that only makes
the engine faster must not change one byte of what a seeded game does. These
digests were taken from the engine before its speed work (issue 20); each
covers 60 games of 2–6 players (default rules and two variants), played through
the public API by the random policy:

- `PLAY`: everything the players are told — every event (key, parameters,
  audience) and every decision (seat, kind, options, parameters);
- `STATE`: the state after every answer, as JSON with every field but the
  empty ones (how it was saved until issue 39 made the saving leave out
  every default too: what a state holds is pinned, not how compactly it is
  saved — `GameState.from_json(state.to_json()) == state` is the playouts').

If a change is *meant* to change a game (a rule, a new state field), say so in
its commit and take the new digest from `python -m tests.engine.test_golden`.
`PLAY` was taken anew when events came to name their causes (issue 16: what
gave an order, a Лазутчица's discard, whether a смута touched anyone, why a
turn starts again); `STATE` did not change with it. `PLAY` was taken anew
again when an order that did nothing came to say so (issue 24: ``order.idle``);
`STATE` did not change.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine import GameSetup, Rules, apply, new_game, pending
from engine.ai.easy import choose

VARIANTS: tuple[Rules, ...] = (
    Rules(),
    Rules(hand_limit=5, actions_per_turn=2, fire_each_house=False),
    Rules(deal_house_cards=3, deal_orders=2, castle_min_cards=2, castle_points=4),
)
PLAY = "fec3742fc70281a7d5d4a25d289a13bf2ea45aa81e17d75ce9ef835b72e3d14b"
STATE = "9c54f1544c94a18e2428b8309547e461bcbe1b74204bafd384cda95ce0e97847"


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=list).encode()


def digests(games_per_count: int = 4) -> tuple[str, str]:
    play, state_digest = hashlib.sha256(), hashlib.sha256()
    n = 0
    for rules in VARIANTS:
        for players in range(2, 7):
            for i in range(games_per_count):
                n += 1
                state, events = new_game(GameSetup(players=players, seed=7919 * n + i, rules=rules))
                while True:
                    for e in events:
                        play.update(_dump([e.key, e.params, e.to]))
                    d = pending(state)
                    if d is None:
                        break
                    play.update(_dump([d.id, d.seat, d.kind, d.options, d.params]))
                    events = apply(state, d.seat, d.id, choose(state.seed, d))
                    state_digest.update(state.model_dump_json(exclude_none=True).encode())
    return play.hexdigest(), state_digest.hexdigest()


def test_seeded_games_are_byte_identical_to_the_recorded_ones() -> None:
    play, state = digests()
    assert play == PLAY, "what the players are told changed"
    assert state == STATE, "the saved state changed"


if __name__ == "__main__":
    print(json.dumps(dict(zip(("PLAY", "STATE"), digests(), strict=True))))
