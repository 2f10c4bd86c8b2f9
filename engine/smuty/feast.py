"""🍗 Великий Пир: round after round, from the initiator, each player takes the
top card of the game deck into their hand. A player with a full hand skips;
the feast stops when everyone is full, the deck is empty, or the top card is a
смута — which stays face up on top for whoever draws next."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import smuta


@smuta("feast")
def start(g: Game, initiator: int) -> None:
    s = g.s
    while True:
        took = False
        for seat in g.seats_from(initiator):
            if not g.room(seat):
                continue
            if not s.deck:
                g.emit("feast.deck_empty")
                return
            top = s.deck[0]
            if g.card(top).kind == "smuta":
                s.deck_top_open = True
                g.emit("feast.smuta_revealed", seat=seat, smuta=g.card(top).type)
                return
            card_id = g.draw_from_deck(seat)
            g.gain(seat, card_id)
            g.emit("feast.took", seat=seat)
            g.emit("feast.took.private", audience=[seat], seat=seat, card=card_id)
            took = True
        if not took:
            return
