"""🤢 Отрава: one round from the initiator. Each player may discard one card from
their hand (a house card or an order); for it they send one card from any house
— theirs or an opponent's — to the graveyard. Castle houses and houses with an
Алхимик cannot be targeted, by anyone. One may discard only when a target
exists, and must then send a card; the discard happens first."""

from __future__ import annotations

from engine.core import Ask, Game, Option
from engine.smuty.base import round_handler, round_seat, smuta, start_round
from engine.state import RoundFrame

PASS: Option = ("pass",)


@smuta("poison")
def start(g: Game, initiator: int) -> None:
    start_round(g, "poison", initiator)


def targets(g: Game) -> list[Option]:
    return [(str(seat), c) for seat, c in g.killable_cards()]


def advance(g: Game, f: RoundFrame) -> bool:
    while f.idx < g.n:
        if f.stage == 1 or (g.player(round_seat(g, f)).hand and targets(g)):
            return True
        f.idx += 1
    g.pop()
    return False


def decide(g: Game, f: RoundFrame) -> Ask:
    seat = round_seat(g, f)
    if f.stage == 0:
        return Ask(seat, "poison.discard", [*((c,) for c in g.player(seat).hand), PASS])
    return Ask(seat, "poison.target", targets(g))


def answer(g: Game, f: RoundFrame, option: Option) -> None:
    seat = round_seat(g, f)
    if f.stage == 0:
        if option == PASS:
            g.emit("poison.passed", seat=seat)
            f.idx += 1
        else:
            g.discard_from_hand(seat, option[0])
            f.stage = 1
        return
    g.to_graveyard_from_house(option[1], by=seat)
    f.stage = 0
    f.idx += 1


round_handler("poison", advance, decide, answer)
