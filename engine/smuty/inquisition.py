"""🔥 Инквизиция: from the initiator, clockwise, each player sends to the graveyard
every house of theirs holding at least one Блудница — except a castle house."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import smuta, start_round
from engine.smuty.purge import purge_round
from engine.state import House


def doomed(g: Game, house: House) -> bool:
    return house.castle is None and any(g.card(c).type == "harlot" for c in house.cards)


@smuta("inquisition")
def start(g: Game, initiator: int) -> None:
    start_round(g, "inquisition", initiator)


purge_round("inquisition", doomed)
