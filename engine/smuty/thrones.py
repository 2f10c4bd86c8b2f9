"""🪑 Игра Престолов: from the initiator, clockwise, each player shows their whole
hand to the player on their left, who lays every Лорд from it into their own
houses (a new house at either end of their row if needed)."""

from __future__ import annotations

from engine.characters import show_hand
from engine.core import Game
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import PlaceFrame, RoundFrame


@smuta("thrones")
def start(g: Game, initiator: int) -> None:
    start_round(g, "thrones", initiator)


def advance(g: Game, f: RoundFrame) -> bool:
    if f.idx >= g.n:
        g.pop()
        return False
    owner = round_seat(g, f)
    looker = (owner + 1) % g.n
    f.idx += 1
    show_hand(g, looker, owner, "thrones")
    hand = g.player(owner).hand
    lords = [c for c in hand if g.card(c).type == "lord"]
    for card_id in lords:
        g.lose(owner, card_id)
    if lords:
        g.emit("thrones.lords", seat=looker, source=owner, cards=lords)
        g.push(*(PlaceFrame(card=c, seat=looker, placer=looker, trigger=False) for c in lords))
    return False


round_handler("thrones", advance)
