"""Orders whose effect takes more than one step: «Бал».

Брачный союз and Лазарет resolve within the play action (see `engine.turn`);
Купец is spent by building a castle.
"""

from __future__ import annotations

from engine.core import Ask, Game, Option, handler
from engine.state import BallFrame, PlaceFrame, TriggerFrame

DONE: Option = ("done",)


def _ball_men(g: Game, f: BallFrame) -> list[Option]:
    return [
        (str(seat), c)
        for seat, c in g.free_house_cards(g.opponents(f.seat))
        if g.card(c).sex == "m"
    ]


def _ball_finish(g: Game, f: BallFrame, declined: bool = False) -> None:
    """All transfers are made: now the men's properties resolve in transfer order.
    A Бал that took nobody did nothing (``order.idle``): no man was there to
    take (``ball_no_men``), or its player took none (`declined`)."""
    g.pop()
    if not f.moved:
        reason = "ball_declined" if declined else "ball_no_men"
        g.emit("order.idle", seat=f.seat, order="ball", reason=reason)
    g.push(*(TriggerFrame(card=c, seat=f.seat) for c in f.moved))


def _ball_advance(g: Game, f: BallFrame) -> bool:
    if f.left > 0 and _ball_men(g, f):
        return True
    _ball_finish(g, f)
    return False


def _ball_decide(g: Game, f: BallFrame) -> Ask:
    return Ask(
        f.seat, "ball.take", [*_ball_men(g, f), DONE], {"left": f.left, "taken": len(f.moved)}
    )


def _ball_answer(g: Game, f: BallFrame, option: Option) -> None:
    if option == DONE:
        _ball_finish(g, f, declined=True)
        return
    card_id = option[1]
    source, _ = g.take_from_house(card_id)
    f.left -= 1
    f.moved.append(card_id)
    g.emit("ball.took", seat=f.seat, card=card_id, source=source)
    g.push(PlaceFrame(card=card_id, seat=f.seat, placer=f.seat, trigger=False))


handler("ball", _ball_advance, _ball_decide, _ball_answer)
