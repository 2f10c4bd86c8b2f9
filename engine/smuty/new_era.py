"""✨ Новая Эпоха: from the initiator, clockwise, round after round, each player
lays out the top card of the graveyard for themselves (a Чумовой or Блудница
into any player's house but an opponent's castle house) until the graveyard is
empty. Properties fire at once; a card sent to the graveyard meanwhile is the
next to come back."""

from __future__ import annotations

from engine.core import Game
from engine.placement import resurrect
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import RoundFrame


@smuta("new_era")
def start(g: Game, initiator: int) -> None:
    start_round(g, "new_era", initiator)


def advance(g: Game, f: RoundFrame) -> bool:
    if not g.s.graveyard:
        g.pop()
        return False
    seat = round_seat(g, f)
    f.idx += 1
    resurrect(g, seat)
    return False


round_handler("new_era", advance)
