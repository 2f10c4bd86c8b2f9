"""Which «ℹ️» reasons a turn's prompt tells: the news only.

A turn's prompt says why a usual action is missing (`engine.explain`: a full
hand, no Купец for a ready house…). Told once, a reason that still holds at
the player's next prompt is not told again — it comes back only after it
stopped holding. The record keeps, per seat, the reasons that held at their
last turn prompt and which of them that prompt told (`Table.reasons`), noted
inside the change that makes the decision (`note`), so every rendering of one
prompt — sent, resent, opened back to its top — tells the same. The record
keeps a reason as a short mark of its key (`mark`), never its words: a
prompt draws them from the position it asks in.
"""

from __future__ import annotations

import zlib

from bot.store.models import SeatReasons, Table
from engine import Decision, GameState, pending
from engine.explain import Missing, missing_actions


def reason_key(missing: Missing) -> str:
    """A reason with its figures: «castle cards=3 colour=red has=2 needs=…»."""
    return " ".join([missing.reason, *(f"{k}={v}" for k, v in sorted(missing.params.items()))])


def mark(key: str) -> int:
    """A reason key as the record keeps it: a 24-bit checksum (a seat holds a
    few reasons at a time, so two of them sharing one is out of reach)."""
    return zlib.crc32(key.encode()) & 0xFFFFFF


def note(t: Table) -> None:
    """The pending turn decision of a person: the reasons that hold now, and
    those its prompt tells (the ones that did not hold at their last prompt)."""
    state = t.state
    decision = pending(state) if state is not None and t.status == "playing" else None
    if decision is None or state is None or decision.kind != "action":
        return
    if state.players[decision.seat].computer:
        return
    last = t.reasons.get(decision.seat)
    if last is not None and last.decision == (t.game_no, decision.id):
        return  # noted already (a /back, a leave of someone else)
    now = [mark(reason_key(m)) for m in missing_actions(state, decision.seat)]
    same_game = last is not None and last.decision[0] == t.game_no
    before = set(last.held) if last is not None and same_game else set()
    t.reasons[decision.seat] = SeatReasons(
        decision=(t.game_no, decision.id), held=now, told=[k for k in now if k not in before]
    )


def told(table: Table, state: GameState, decision: Decision) -> set[int] | None:
    """The marks of the reasons `decision`'s prompt tells; None: all (nothing was noted)."""
    noted = table.reasons.get(decision.seat)
    if noted is None or noted.decision != (table.game_no, decision.id):
        return None
    return set(noted.told)
