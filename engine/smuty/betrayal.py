"""🤴 Предательство: from the player on the initiator's left, clockwise, each
opponent takes one random card from the initiator's hand (if there is one and
they have room); then the initiator's turn starts again with fresh actions."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import smuta


@smuta("betrayal")
def start(g: Game, initiator: int) -> None:
    hand = g.player(initiator).hand
    for seat in g.opponents(initiator):
        if not hand:
            break
        if not g.room(seat):
            g.emit("betrayal.full_hand", seat=seat)
            continue
        card_id = hand[g.rand_below(len(hand))]
        g.take_secretly(seat, initiator, card_id)
        g.emit("betrayal.took", seat=seat, source=initiator)
        g.emit(
            "betrayal.took.private",
            audience=[seat, initiator],
            seat=seat,
            source=initiator,
            card=card_id,
        )
    g.s.restart_turn = True
