"""Resolving a смута: the start, the end, and rounds round the table."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Ask, Game, Handler, Option, handler
from engine.state import RoundFrame, SmutaEndFrame, SmutaMode

Start = Callable[[Game, int], None]
STARTS: dict[str, Start] = {}
ROUNDS: dict[str, Handler[RoundFrame]] = {}


def smuta(name: str) -> Callable[[Start], Start]:
    """Register the start of a смута's effect: `start(g, initiator)`."""

    def register(start: Start) -> Start:
        STARTS[name] = start
        return start

    return register


def round_handler(
    name: str,
    advance: Callable[[Game, RoundFrame], bool],
    decide: Callable[[Game, RoundFrame], Ask] | None = None,
    answer: Callable[[Game, RoundFrame, Option], None] | None = None,
) -> None:
    ROUNDS[name] = Handler(advance, decide, answer)


def start_round(g: Game, name: str, initiator: int) -> None:
    g.push(RoundFrame(smuta=name, first=initiator))


def round_seat(g: Game, f: RoundFrame) -> int:
    return (f.first + f.idx) % g.n


def start_smuta(g: Game, card_id: str, initiator: int, mode: SmutaMode) -> None:
    name = g.card(card_id).type
    g.s.smuta_depth += 1
    g.emit("smuta.start", smuta=name, initiator=initiator, mode=mode)
    g.push(SmutaEndFrame(card=card_id, initiator=initiator, mode=mode))
    STARTS[name](g, initiator)


def _advance_end(g: Game, f: SmutaEndFrame) -> bool:
    s = g.s
    g.pop()
    s.smuta_depth -= 1
    name = g.card(f.card).type
    if f.mode == "prophet":
        s.prophet_stack.insert(0, f.card)
    elif name == "prophet":
        s.prophet_stack.append(f.card)
    else:
        s.smuta_discard.insert(0, f.card)
    if not g.quiet:
        g.emit("smuta.end", smuta=name, initiator=f.initiator, touched=_touched(g))
    if f.mode != "prophet":
        if s.restart_turn or g.has_castle(f.initiator, "red", "permanent"):
            s.turn_end = "restart"
        else:
            s.turn_end = "end"
        s.restart_turn = False
    return False


handler("smuta_end", _advance_end)

#: events that say a смута found nothing to do for someone
IDLE = frozenset(
    {
        "betrayal.full_hand",
        "campaign.nothing",
        "conspiracy.nothing_to_give",
        "earthquake.nothing",
        "feast.deck_empty",
        "grail.orders_empty",
        "poison.passed",
        "prophet.nothing",
    }
)


def _touched(g: Game) -> bool:
    """Whether the смута ending now did anything to anyone («никого не задело»
    otherwise): any event since its start but those that say it found nothing
    to do. One that stopped for a decision asked someone, so it counts as
    touching (its start is then in an earlier answer's events)."""
    depth = 0
    for e in reversed(g.events):
        if e.key == "smuta.end":
            depth += 1
        elif e.key == "smuta.start":
            if depth == 0:
                return False
            depth -= 1
        elif e.key not in IDLE:
            return True
    return True


def _round(f: RoundFrame) -> Handler[RoundFrame]:
    return ROUNDS[f.smuta]


def _decide_round(g: Game, f: RoundFrame) -> Ask:
    decide = _round(f).decide
    assert decide is not None
    return decide(g, f)


def _answer_round(g: Game, f: RoundFrame, option: Option) -> None:
    answer = _round(f).answer
    assert answer is not None
    answer(g, f, option)


handler("round", lambda g, f: _round(f).advance(g, f), _decide_round, _answer_round)
