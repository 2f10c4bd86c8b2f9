"""Shared by Инквизиция and Чума: each player in turn sends every doomed house of
theirs to the graveyard, in the order they choose (it decides which card ends
on top); a house goes oldest card first, so its newest card lands on top."""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import Colour
from engine.core import Ask, Game, Option, handler
from engine.smuty.base import round_handler, round_seat
from engine.state import DestroyFrame, House, RoundFrame

Doomed = Callable[[Game, House], bool]


def purge_round(name: str, doomed: Doomed) -> None:
    def advance(g: Game, f: RoundFrame) -> bool:
        if f.idx >= g.n:
            g.pop()
            return False
        seat = round_seat(g, f)
        f.idx += 1
        colours = [h.colour for h in g.player(seat).houses if doomed(g, h)]
        if colours:
            g.push(DestroyFrame(seat=seat, colours=colours))
        return False

    round_handler(name, advance)


def _advance(g: Game, f: DestroyFrame) -> bool:
    if len(f.colours) > 1:
        return True
    g.pop()
    if f.colours:
        g.destroy_house(f.seat, f.colours[0], by=_by(g))
    return False


def _by(g: Game) -> str:
    for frame in reversed(g.s.frames):
        if isinstance(frame, RoundFrame):
            return frame.smuta
    return ""


def _answer(g: Game, f: DestroyFrame, option: Option) -> None:
    colour: Colour = next(c for c in f.colours if c == option[0])
    f.colours.remove(colour)
    g.destroy_house(f.seat, colour, by=_by(g))


handler(
    "destroy",
    _advance,
    lambda g, f: Ask(f.seat, "destroy.order", [(c,) for c in f.colours]),
    _answer,
)
