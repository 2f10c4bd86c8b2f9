"""The game service: lobby, play, timers — everything between a chat and the engine.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything. The service never decides a
rule: it asks the engine for the pending decision, applies answers and renders
what the engine reports.

It is written in parts, one job each, in `bot.service`:

- `base`: who acts and what they are told back, the compare-and-set change, sending;
- `telling`: what a change records and, once saved, what everyone is told
  (the table, private lines, prompts), and catching up on a move never told;
- `lobby`: /newgame to the start;
- `play`: buttons, answers, timers;
- `seats`: leaving, stopping, /back, chat migration, /lang.
"""

from __future__ import annotations

from bot.service.base import Actor, Clock, Conflict, Defaults, Refusal, Reply
from bot.service.lobby import MAX_SEATS, MIN_SEATS
from bot.service.play import STRIKES_TO_AWAY, Play
from bot.service.seats import Seats
from bot.service.telling import ANNOUNCE_GRACE

__all__ = [
    "ANNOUNCE_GRACE",
    "MAX_SEATS",
    "MIN_SEATS",
    "STRIKES_TO_AWAY",
    "Actor",
    "Clock",
    "Conflict",
    "Defaults",
    "Games",
    "Refusal",
    "Reply",
]


class Games(Seats, Play):
    """The whole service, as the routers and the ticker use it."""
