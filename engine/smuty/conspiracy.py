"""🕵️ Заговор: from the initiator, clockwise, each player hands one of their
house cards to an opponent's house of its colour.

Compulsory whenever the player has a card outside a castle house, not received
in this Заговор, that some opponent can receive (an opponent's castle house of
that colour cannot; a Слуга goes if either colour is open there). The receiver
chooses the end of the row and a Слуга's side; the card's on-appearing property
fires for the receiver. The card handed over becomes «дарёная» for this Заговор.
"""

from __future__ import annotations

from engine.core import Ask, Game, Option
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import PlaceFrame, RoundFrame


@smuta("conspiracy")
def start(g: Game, initiator: int) -> None:
    start_round(g, "conspiracy", initiator)


def gifts(g: Game, f: RoundFrame) -> list[Option]:
    giver = round_seat(g, f)
    return [
        (card_id, str(o))
        for _, card_id in g.free_house_cards([giver])
        if card_id not in f.cards
        for o in g.opponents(giver)
        if g.open_colours(card_id, o, giver)
    ]


def advance(g: Game, f: RoundFrame) -> bool:
    while f.idx < g.n:
        if gifts(g, f):
            return True
        g.emit("conspiracy.nothing_to_give", seat=round_seat(g, f))
        f.idx += 1
    g.pop()
    return False


def decide(g: Game, f: RoundFrame) -> Ask:
    return Ask(round_seat(g, f), "conspiracy.give", gifts(g, f))


def answer(g: Game, f: RoundFrame, option: Option) -> None:
    giver = round_seat(g, f)
    card_id, target = option[0], int(option[1])
    g.take_from_house(card_id)
    f.cards.append(card_id)
    f.idx += 1
    g.emit("conspiracy.gave", seat=giver, card=card_id, target=target)
    g.push(PlaceFrame(card=card_id, seat=target, placer=giver))


round_handler("conspiracy", advance, decide, answer)
