"""🏆 Святой Грааль: round after round, from the initiator, each player takes the
top card of the orders deck; a full hand skips; it stops when everyone is full
or the orders deck is empty."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import smuta


@smuta("grail")
def start(g: Game, initiator: int) -> None:
    while True:
        took = False
        for seat in g.seats_from(initiator):
            if not g.s.orders:
                g.emit("grail.orders_empty")
                return
            if g.draw_order(seat, "grail") is not None:
                took = True
        if not took:
            return
