"""🔥 Пожар (a disaster): every castle returns to the supply; then every player who
lost a castle, from the initiator clockwise, sends one card of each house that
lost its castle to the graveyard (rule option `fire_each_house`; when off, one
card from one such house, as the seed text reads)."""

from __future__ import annotations

from engine.core import Ask, Game, Option, handler
from engine.smuty.base import smuta
from engine.state import BurnFrame


@smuta("fire")
def start(g: Game, initiator: int) -> None:
    lost = g.return_castles()
    g.push(
        *(
            BurnFrame(seat=seat, colours=lost[seat])
            for seat in g.seats_from(initiator)
            if seat in lost
        )
    )


def _cards(g: Game, f: BurnFrame) -> list[Option]:
    colours = f.colours if not g.s.rules.fire_each_house else f.colours[:1]
    return [(c,) for h in g.player(f.seat).houses if h.colour in colours for c in h.cards]


def _advance(g: Game, f: BurnFrame) -> bool:
    f.colours = [c for c in f.colours if g.house(f.seat, c) is not None]
    if f.colours:
        return True
    g.pop()
    return False


def _answer(g: Game, f: BurnFrame, option: Option) -> None:
    card_id = option[0]
    found = g.locate(card_id)
    assert found is not None
    f.colours.remove(found[1].colour)
    if not g.s.rules.fire_each_house:
        f.colours.clear()
    g.to_graveyard_from_house(card_id, by=f.seat)


handler("burn", _advance, lambda g, f: Ask(f.seat, "fire.burn", _cards(g, f)), _answer)
