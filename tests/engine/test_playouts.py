"""Random playouts: 2,000 seeded games across 2–6 players, computer seats.

After every answer: every card in exactly one zone, hands within the limit, one
house per colour, castles one per colour and only on their own colour's house,
Слуги showing one of their colours, and the JSON round trip identical. Every
game ends (the step cap is never reached), and the same seed plays the same game.
"""

from __future__ import annotations

import pytest

from engine import GameSetup, GameState, apply, new_game, pending
from engine.ai.easy import choose
from engine.invariants import violations

GAMES_PER_CHUNK = 50
CHUNKS = 8  # 5 player counts x 8 chunks x 50 games = 2,000 games


Answer = tuple[int, int, tuple[str, ...]]


def play_checked(
    setup: GameSetup, same_as: list[str] | None = None
) -> tuple[GameState, list[Answer], list[str]]:
    """A game the easy level plays to its end: the final state, every answer,
    and the state's JSON after each answer — checked there (the invariants, the
    round trip). `same_as`: those JSON texts from a first playing of the same
    game, which this one must pass through, state by state (they were checked
    then: so they are not checked again)."""
    state, _ = new_game(setup)
    log: list[Answer] = []
    texts: list[str] = []
    while (d := pending(state)) is not None:
        option = choose(state.seed, d)
        assert option in d.options
        apply(state, d.seat, d.id, option)
        log.append((d.seat, d.id, option))
        text = state.to_json()
        if same_as is None:
            problems = violations(state)
            assert not problems, f"seed {setup.seed}, after {option}: {problems}"
            assert GameState.from_json(text) == state, f"seed {setup.seed}: round trip"
        else:
            step = len(texts)
            assert step < len(same_as) and text == same_as[step], (
                f"seed {setup.seed} is not repeatable: answer {step} led elsewhere"
            )
        texts.append(text)
    return state, log, texts


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant_and_end(players: int, chunk: int) -> None:
    for i in range(GAMES_PER_CHUNK):
        seed = 10_000 * players + chunk * GAMES_PER_CHUNK + i
        state, log, texts = play_checked(GameSetup(players=players, seed=seed))
        assert state.result is not None and not state.result.aborted, f"seed {seed} ran away"
        assert len(state.result.scores) == players
        if i % 10 == 0:
            again, again_log, _ = play_checked(GameSetup(players=players, seed=seed), texts)
            assert again_log == log and again == state, f"seed {seed} is not repeatable"
