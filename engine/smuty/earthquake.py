"""🌎 Землетрясение (a disaster): every castle returns to the supply; then, from the
initiator, clockwise, each player chooses an opponent and takes every card of
that opponent's left house, laying each out by its own colour (a Слуга by
either). All are placed first, then their properties fire oldest first
(Лазутчица only looks and discards during a смута; Слуги have none)."""

from __future__ import annotations

from engine.core import Ask, Game, Option
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import PlaceFrame, RoundFrame, TriggerFrame


@smuta("earthquake")
def start(g: Game, initiator: int) -> None:
    g.return_castles()
    start_round(g, "earthquake", initiator)


def victims(g: Game, seat: int) -> list[Option]:
    return [(str(o),) for o in g.opponents(seat) if g.player(o).houses]


def advance(g: Game, f: RoundFrame) -> bool:
    while f.idx < g.n:
        if victims(g, round_seat(g, f)):
            return True
        g.emit("earthquake.nothing", seat=round_seat(g, f))
        f.idx += 1
    g.pop()
    return False


def decide(g: Game, f: RoundFrame) -> Ask:
    seat = round_seat(g, f)
    return Ask(seat, "earthquake.target", victims(g, seat))


def answer(g: Game, f: RoundFrame, option: Option) -> None:
    seat = round_seat(g, f)
    victim = int(option[0])
    left = g.player(victim).houses[0]
    cards = list(left.cards)
    for card_id in cards:
        g.take_from_house(card_id)
    f.idx += 1
    g.emit("earthquake.took", seat=seat, source=victim, colour=left.colour, cards=cards)
    g.push(
        *(PlaceFrame(card=c, seat=seat, placer=seat, trigger=False) for c in cards),
        *(TriggerFrame(card=c, seat=seat) for c in cards),
    )


round_handler("earthquake", advance, decide, answer)
