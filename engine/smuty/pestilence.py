"""💀 Чума (a disaster): every castle returns to the supply; then, from the
initiator, clockwise, each player sends to the graveyard every house of theirs
with a Чумовой and no Лекарь."""

from __future__ import annotations

from engine.core import Game
from engine.smuty.base import smuta, start_round
from engine.smuty.purge import purge_round
from engine.state import House


def doomed(g: Game, house: House) -> bool:
    types = {g.card(c).type for c in house.cards}
    return "plague" in types and "healer" not in types


@smuta("pestilence")
def start(g: Game, initiator: int) -> None:
    g.return_castles()
    start_round(g, "pestilence", initiator)


purge_round("pestilence", doomed)
