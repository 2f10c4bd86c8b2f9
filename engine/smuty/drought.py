"""🌞 Засуха (a disaster): every castle returns to the supply; then, from the
initiator, clockwise, each player flips every Слуга of theirs to its other side
and moves it to their house of the new colour (a new house at either end if
needed). A Слуга moved by Брачный союз flips from the side it shows. No
property fires: the cards never leave their owner's houses."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import round_handler, smuta, start_round
from engine.state import PlaceFrame, RoundFrame


@smuta("drought")
def start(g: Game, initiator: int) -> None:
    g.return_castles()
    start_round(g, "drought", initiator)


def advance(g: Game, f: RoundFrame) -> bool:
    """`cards` queues the current player's Слуги (`seats[0]`), fixed when their go starts."""
    if f.cards:
        _flip(g, f.seats[0], f.cards.pop(0))
        return False
    if f.idx >= g.n:
        g.pop()
        return False
    seat = (f.first + f.idx) % g.n
    f.idx += 1
    f.seats = [seat]
    f.cards = [c for h in g.player(seat).houses for c in h.cards if g.card(c).is_servant]
    return False


def _flip(g: Game, seat: int, card_id: str) -> None:
    card = g.card(card_id)
    old = g.colour_of(card_id)
    new = card.colours[1] if card.colours[0] == old else card.colours[0]
    found = g.locate(card_id)
    assert found is not None
    _, house = found
    g.emit("drought.flipped", seat=seat, card=card_id, colour=new)
    if house.colour == new:
        g.s.servant_up[card_id] = new
        return
    g.take_from_house(card_id)
    g.push(PlaceFrame(card=card_id, seat=seat, placer=seat, colour=new, trigger=False))


round_handler("drought", advance)
