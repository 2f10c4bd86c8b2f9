"""🏰 Реформация: from the initiator, clockwise, each castle owner flips all their
castles, left to right. A permanent side works at once; a one-time side fires
at once. Whether the initiator plays again is decided by the Замок Власти side
they hold when the смута ends."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import FlipFrame, RoundFrame


@smuta("reformation")
def start(g: Game, initiator: int) -> None:
    start_round(g, "reformation", initiator)


def advance(g: Game, f: RoundFrame) -> bool:
    if f.idx >= g.n:
        g.pop()
        return False
    seat = round_seat(g, f)
    f.idx += 1
    colours = [h.colour for h in g.player(seat).houses if h.castle is not None]
    if colours:
        g.push(FlipFrame(seat=seat, colours=colours))
    return False


round_handler("reformation", advance)
