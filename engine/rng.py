"""A tiny seeded generator whose whole state is one integer (splitmix64).

Every shuffle and random pick in a game goes through it, and its state lives in
the game state, so a saved game resumes with the same future on any Python.
"""

from __future__ import annotations

from typing import TypeVar

MASK = (1 << 64) - 1
T = TypeVar("T")


def next_value(state: int) -> tuple[int, int]:
    """Advance the generator: return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias: (new state, value)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (MASK + 1) - ((MASK + 1) % n)
    while True:
        state, z = next_value(state)
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher–Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
