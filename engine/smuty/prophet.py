"""🔮 Пророк: the initiator chooses a смута from the смута discard and resolves it
fully as its initiator; it is then laid on the Пророк, and the two stay on the
table out of Шут's reach. With an empty discard, Пророк has no effect. The
replayed смута's own turn clause applies (Предательство restarts the turn)."""

from __future__ import annotations

from engine.core import Ask, Game, Option, handler
from engine.smuty.base import smuta, start_smuta
from engine.state import ProphetFrame


@smuta("prophet")
def start(g: Game, initiator: int) -> None:
    g.push(ProphetFrame(seat=initiator))


def _advance(g: Game, f: ProphetFrame) -> bool:
    if g.s.smuta_discard:
        return True
    g.emit("prophet.nothing", seat=f.seat)
    g.pop()
    return False


def _answer(g: Game, f: ProphetFrame, option: Option) -> None:
    g.pop()
    card_id = option[0]
    g.s.smuta_discard.remove(card_id)
    g.emit("prophet.chose", seat=f.seat, smuta=g.card(card_id).type)
    start_smuta(g, card_id, f.seat, "prophet")


handler(
    "prophet",
    _advance,
    lambda g, f: Ask(f.seat, "prophet.smuta", [(c,) for c in g.s.smuta_discard]),
    _answer,
)
