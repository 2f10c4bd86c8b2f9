"""Castles (RULES.md §1, §5): the one-time sides and Реформация's flips.

Permanent sides are read where they act: Замок Власти in `engine.smuty`
(a new turn), Замок Интриг and Замок Знаний in `Game.discard_from_hand`,
Замок Торговли in `engine.turn.start_turn`.
"""

from __future__ import annotations

from engine.cards import Colour
from engine.characters import hands_to_look_at, show_hand
from engine.core import Ask, Game, Option, handler
from engine.placement import resurrect
from engine.state import FlipFrame, IntrigueFrame, PowerFrame


def fire_one_time(g: Game, seat: int, colour: Colour) -> None:
    """The one-time side of a castle has just turned up for `seat`."""
    g.emit("castle.one_time", seat=seat, colour=colour)
    if colour == "red":
        g.push(PowerFrame(seat=seat))
    elif colour == "blue":
        g.push(IntrigueFrame(seat=seat))
    elif colour == "green":
        resurrect(g, seat)
    else:
        for _ in range(2):
            g.draw_order(seat)


# ------------------------------------------------------------------ Замок Власти
def _power_options(g: Game, f: PowerFrame) -> list[Option]:
    """One option per kind of order in the deck (identical cards are one choice)."""
    seen: dict[str, str] = {}
    for c in g.s.orders:
        seen.setdefault(g.card(c).type_key, c)
    return [(c,) for c in seen.values()]


def _power_advance(g: Game, f: PowerFrame) -> bool:
    if g.room(f.seat) and g.s.orders:
        return True
    g.pop()
    return False


def _power_answer(g: Game, f: PowerFrame, option: Option) -> None:
    g.pop()
    card_id = option[0]
    g.s.orders.remove(card_id)
    g.gain(f.seat, card_id)
    g.shuffle(g.s.orders)
    g.emit("power.took", seat=f.seat)
    g.emit("power.took.private", audience=[f.seat], seat=f.seat, card=card_id)


handler(
    "power",
    _power_advance,
    lambda g, f: Ask(f.seat, "power.order", _power_options(g, f)),
    _power_answer,
)


# ------------------------------------------------------------------ Замок Интриг
def _intrigue_orders(g: Game, f: IntrigueFrame) -> list[Option]:
    assert f.target is not None
    return [(c,) for c in g.player(f.target).hand if g.card(c).kind == "order"]


def _intrigue_advance(g: Game, f: IntrigueFrame) -> bool:
    if f.target is None:
        if hands_to_look_at(g, f.seat):
            return True
    elif g.room(f.seat) and _intrigue_orders(g, f):
        return True
    g.pop()
    return False


def _intrigue_decide(g: Game, f: IntrigueFrame) -> Ask:
    if f.target is None:
        return Ask(f.seat, "intrigue.target", hands_to_look_at(g, f.seat))
    return Ask(f.seat, "intrigue.take", _intrigue_orders(g, f), {"target": f.target})


def _intrigue_answer(g: Game, f: IntrigueFrame, option: Option) -> None:
    if f.target is None:
        f.target = int(option[0])
        show_hand(g, f.seat, f.target, "intrigue")
        return
    g.pop()
    card_id = option[0]
    g.take_secretly(f.seat, f.target, card_id)
    # which order changed hands is known only to the two players (as with Наёмник)
    g.emit("intrigue.took", seat=f.seat, source=f.target)
    g.emit(
        "intrigue.took.private",
        audience=[f.seat, f.target],
        seat=f.seat,
        source=f.target,
        card=card_id,
    )


handler("intrigue", _intrigue_advance, _intrigue_decide, _intrigue_answer)


# ------------------------------------------------------------------ Реформация's flips
def _flip_advance(g: Game, f: FlipFrame) -> bool:
    if not f.colours:
        g.pop()
        return False
    colour = f.colours.pop(0)
    house = g.house(f.seat, colour)
    if house is None or house.castle is None:
        return False
    house.castle = "one_time" if house.castle == "permanent" else "permanent"
    g.emit("castle.flipped", seat=f.seat, colour=colour, side=house.castle)
    if house.castle == "one_time":
        fire_one_time(g, f.seat, colour)
    return False


handler("flip", _flip_advance)
