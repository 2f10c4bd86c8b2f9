"""⚔️ Удачный Поход: from the initiator, clockwise, each player chooses an opponent
whose right house has no castle, takes one card of it and lays it out in their
own houses (a Слуга by either colour); compulsory if possible. With one house,
that house is both left and right. The card's on-appearing property fires."""

from __future__ import annotations

from engine.core import Ask, Game, Option
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import PlaceFrame, RoundFrame


@smuta("campaign")
def start(g: Game, initiator: int) -> None:
    start_round(g, "campaign", initiator)


def loot(g: Game, seat: int) -> list[Option]:
    options: list[Option] = []
    for o in g.opponents(seat):
        houses = g.player(o).houses
        if houses and houses[-1].castle is None:
            options.extend((str(o), c) for c in houses[-1].cards)
    return options


def advance(g: Game, f: RoundFrame) -> bool:
    while f.idx < g.n:
        if loot(g, round_seat(g, f)):
            return True
        g.emit("campaign.nothing", seat=round_seat(g, f))
        f.idx += 1
    g.pop()
    return False


def decide(g: Game, f: RoundFrame) -> Ask:
    seat = round_seat(g, f)
    return Ask(seat, "campaign.take", loot(g, seat))


def answer(g: Game, f: RoundFrame, option: Option) -> None:
    seat = round_seat(g, f)
    card_id = option[1]
    source, _ = g.take_from_house(card_id)
    f.idx += 1
    g.emit("campaign.took", seat=seat, card=card_id, source=source)
    g.push(PlaceFrame(card=card_id, seat=seat, placer=seat))


round_handler("campaign", advance, decide, answer)
