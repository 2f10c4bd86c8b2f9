"""A tiny seeded generator whose whole state is one integer (splitmix64).

Every shuffle and random pick in a game goes through it, and its state lives in
the game state, so a saved game resumes with the same future on any Python.
"""

from __future__ import annotations

from typing import TypeVar

MASK = (1 << 64) - 1
_SPAN = MASK + 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
T = TypeVar("T")


def next_value(state: int) -> tuple[int, int]:
    """Advance the generator: return (new state, 64-bit output)."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias: (new state, value)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _SPAN - _SPAN % n
    while True:
        # next_value, inlined: this runs for every random number of a game
        state = (state + GOLDEN) & MASK
        z = ((state ^ (state >> 30)) * _M1) & MASK
        z = ((z ^ (z >> 27)) * _M2) & MASK
        z ^= z >> 31
        if z < limit:
            return state, z % n


def shuffle(state: int, items: list[T]) -> int:
    """Fisher–Yates shuffle in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _SPAN - _SPAN % n
        while True:  # below(state, n), inlined
            state = (state + GOLDEN) & MASK
            z = ((state ^ (state >> 30)) * _M1) & MASK
            z = ((z ^ (z >> 27)) * _M2) & MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state
