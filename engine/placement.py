"""Laying a card into a row of houses (RULES.md §3): the colour of the house,
the end of the row, castles, and the on-appearing trigger."""

from __future__ import annotations

from typing import cast

from engine.cards import PLANTABLE, Colour
from engine.characters import on_appearing
from engine.core import Ask, Game, Option, handler
from engine.state import (
    End,
    PlaceFrame,
    ResurrectFrame,
    TriggerFrame,
    place_frame,
    trigger_frame,
)


# ------------------------------------------------------------------ place
def _advance_place(g: Game, f: PlaceFrame) -> bool:
    if f.colour is None:
        colours = g.open_colours(f.card, f.seat, f.placer)
        if len(colours) != 1:
            return True
        f.colour = colours[0]
    if f.end is None and g.needs_end(f.seat, f.colour):
        return True
    g.pop()
    g.put_in_house(f.seat, f.card, f.colour, f.end)
    g.emit("placed", seat=f.seat, card=f.card, colour=f.colour, placer=f.placer)
    if f.trigger:
        g.push(trigger_frame(f.card, f.seat))
    return False


def _decide_place(g: Game, f: PlaceFrame) -> Ask:
    if f.colour is None:
        colours = g.open_colours(f.card, f.seat, f.placer)
        return Ask(f.seat, "servant_side", [(c,) for c in colours], {"card": f.card})
    return Ask(f.seat, "house_end", [("left",), ("right",)], {"card": f.card, "colour": f.colour})


def _answer_place(g: Game, f: PlaceFrame, option: Option) -> None:
    if f.colour is None:
        f.colour = cast(Colour, option[0])
    else:
        f.end = cast(End, option[0])


handler("place", _advance_place, _decide_place, _answer_place)


# ------------------------------------------------------------------ trigger
def _advance_trigger(g: Game, f: TriggerFrame) -> bool:
    g.pop()
    if g.in_houses_of(f.seat, f.card):
        on_appearing(g, f.seat, f.card)
    return False


handler("trigger", _advance_trigger)


# ------------------------------------------------------------------ resurrection
def resurrect(g: Game, seat: int) -> None:
    """`seat` lays out the top card of the graveyard (Лазарет, Новая Эпоха, Замок Знаний)."""
    g.push(ResurrectFrame(seat=seat))


def plant_targets(g: Game, seat: int, card_id: str) -> list[int]:
    """Rows a Чумовой or Блудница may go to: any player's, never an opponent's castle house."""
    return [t for t in range(g.n) if g.open_colours(card_id, t, seat)]


def _lift_and_place(g: Game, seat: int, target: int) -> None:
    card_id = g.s.graveyard.pop(0)
    g.emit("resurrected", seat=seat, card=card_id, target=target)
    g.push(place_frame(card_id, target, seat))


def _advance_resurrect(g: Game, f: ResurrectFrame) -> bool:
    if not g.s.graveyard:
        g.pop()
        return False
    top = g.s.graveyard[0]
    if g.card(top).type in PLANTABLE and len(plant_targets(g, f.seat, top)) > 1:
        return True
    g.pop()
    _lift_and_place(g, f.seat, f.seat)
    return False


def _decide_resurrect(g: Game, f: ResurrectFrame) -> Ask:
    top = g.s.graveyard[0]
    targets = plant_targets(g, f.seat, top)
    return Ask(f.seat, "plant_row", [(str(t),) for t in targets], {"card": top})


def _answer_resurrect(g: Game, f: ResurrectFrame, option: Option) -> None:
    g.pop()
    _lift_and_place(g, f.seat, int(option[0]))


handler("resurrect", _advance_resurrect, _decide_resurrect, _answer_resurrect)
