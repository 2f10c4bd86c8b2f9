"""Смута's rules engine: pure, deterministic, serialisable. No I/O, no asyncio.

See `engine.api` for the calls and `engine.scenario` for building positions.
"""

from engine import characters, orders, placement, turn  # noqa: F401  (register handlers)
from engine.api import (
    Command,
    Decision,
    Event,
    GameSetup,
    Refused,
    apply,
    execute,
    new_game,
    pending,
    replay,
    set_computer,
    stop,
)
from engine.cards import DEFAULT_RULES, Rules
from engine.state import GameState
from engine.view import View, view_for

__all__ = [
    "DEFAULT_RULES",
    "Command",
    "Decision",
    "Event",
    "GameSetup",
    "GameState",
    "Refused",
    "Rules",
    "View",
    "apply",
    "execute",
    "new_game",
    "pending",
    "replay",
    "set_computer",
    "stop",
    "view_for",
]
