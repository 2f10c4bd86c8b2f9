"""Characters' on-appearing properties (RULES.md §1, §3.5).

A property fires whenever a house card enters a player's houses from outside
them (from a hand, the graveyard, another player's row) — during смуты too —
and the player who receives the card uses it. During a смута Лазутчица only
looks and discards (no draw) and Шут does nothing.
"""

from __future__ import annotations

from engine.cards import PLANTABLE
from engine.core import Ask, Game, Option, handler
from engine.state import (
    AlchemistFrame,
    JesterFrame,
    LadyFrame,
    MercenaryFrame,
    MinstrelFrame,
    PlaceFrame,
    PriestFrame,
    SpyFrame,
)

SKIP: Option = ("skip",)


def in_own_turn_outside_smuta(g: Game, seat: int) -> bool:
    return g.s.current == seat and g.s.smuta_depth == 0


def on_appearing(g: Game, seat: int, card_id: str) -> None:
    ctype = g.card(card_id).type
    if ctype == "lady":
        g.push(LadyFrame(seat=seat, card=card_id))
    elif ctype == "treasurer":
        g.draw_order(seat)
    elif ctype == "alchemist":
        g.push(AlchemistFrame(seat=seat))
    elif ctype == "priest":
        g.push(PriestFrame(seat=seat))
    elif ctype == "spy":
        g.push(SpyFrame(seat=seat, may_draw=in_own_turn_outside_smuta(g, seat)))
    elif ctype == "minstrel":
        g.push(MinstrelFrame(seat=seat))
    elif ctype == "jester":
        if in_own_turn_outside_smuta(g, seat):
            g.push(JesterFrame(seat=seat))
    elif ctype == "mercenary":
        g.push(MercenaryFrame(seat=seat))


def _wait_if(g: Game, options: list[Option]) -> bool:
    """Wait when there is a real choice (more than just skipping); else drop the frame."""
    if any(o != SKIP for o in options):
        return True
    g.pop()
    return False


# ------------------------------------------------------------------ Миледи
def _lady_options(g: Game, f: LadyFrame) -> list[Option]:
    colour = g.card(f.card).colour
    return [
        (str(seat), c)
        for seat, c in g.free_house_cards(g.opponents(f.seat))
        if g.card(c).sex == "m" and g.card(c).colour == colour
    ] + [SKIP]


def _lady_answer(g: Game, f: LadyFrame, option: Option) -> None:
    g.pop()
    if option == SKIP:
        return
    card_id = option[1]
    source, _ = g.take_from_house(card_id)
    g.emit("lady.took", seat=f.seat, card=card_id, source=source)
    g.push(PlaceFrame(card=card_id, seat=f.seat, placer=f.seat))


handler(
    "lady",
    lambda g, f: _wait_if(g, _lady_options(g, f)),
    lambda g, f: Ask(f.seat, "lady.take", _lady_options(g, f), {"card": f.card}),
    _lady_answer,
)


# ------------------------------------------------------------------ Алхимик, Священник
def _alchemist_options(g: Game, f: AlchemistFrame) -> list[Option]:
    return [(str(seat), c) for seat, c in g.killable_cards()] + [SKIP]


def _priest_options(g: Game, f: PriestFrame) -> list[Option]:
    return [(str(seat), c) for seat, c in g.free_house_cards() if g.card(c).type in PLANTABLE] + [
        SKIP
    ]


def _kill(g: Game, seat: int, option: Option) -> None:
    """Алхимик and Священник: the chosen card goes to the top of the graveyard."""
    g.pop()
    if option != SKIP:
        g.to_graveyard_from_house(option[1], by=seat)


# typed per frame: they tell `handler` which frame its callbacks get
def _alchemist_answer(g: Game, f: AlchemistFrame, option: Option) -> None:
    _kill(g, f.seat, option)


def _priest_answer(g: Game, f: PriestFrame, option: Option) -> None:
    _kill(g, f.seat, option)


handler(
    "alchemist",
    lambda g, f: _wait_if(g, _alchemist_options(g, f)),
    lambda g, f: Ask(f.seat, "alchemist.kill", _alchemist_options(g, f)),
    _alchemist_answer,
)
handler(
    "priest",
    lambda g, f: _wait_if(g, _priest_options(g, f)),
    lambda g, f: Ask(f.seat, "priest.kill", _priest_options(g, f)),
    _priest_answer,
)


# ------------------------------------------------------------------ looking at a hand
def hands_to_look_at(g: Game, seat: int) -> list[Option]:
    return [(str(o),) for o in g.opponents(seat) if g.player(o).hand]


def show_hand(g: Game, viewer: int, owner: int, reason: str) -> None:
    g.saw_hand(viewer, owner)
    g.emit("hand.looked", seat=viewer, target=owner, reason=reason)
    g.emit(
        "hand.shown",
        audience=[viewer],
        seat=viewer,
        target=owner,
        cards=list(g.player(owner).hand),
        reason=reason,
    )


# ------------------------------------------------------------------ Лазутчица
def _spy_orders(g: Game, f: SpyFrame) -> list[Option]:
    assert f.target is not None
    return [(c,) for c in g.player(f.target).hand if g.card(c).kind == "order"] + [SKIP]


def _spy_done(g: Game, f: SpyFrame) -> None:
    g.pop()
    if f.may_draw:
        g.draw_order(f.seat)


def _spy_advance(g: Game, f: SpyFrame) -> bool:
    if f.target is None:
        if hands_to_look_at(g, f.seat):
            return True
        _spy_done(g, f)
        return False
    if len(_spy_orders(g, f)) > 1:
        return True
    _spy_done(g, f)
    return False


def _spy_decide(g: Game, f: SpyFrame) -> Ask:
    if f.target is None:
        return Ask(f.seat, "spy.target", hands_to_look_at(g, f.seat))
    return Ask(f.seat, "spy.discard", _spy_orders(g, f), {"target": f.target})


def _spy_answer(g: Game, f: SpyFrame, option: Option) -> None:
    if f.target is None:
        f.target = int(option[0])
        show_hand(g, f.seat, f.target, "spy")
        return
    if option != SKIP:
        g.discard_from_hand(f.target, option[0])
    _spy_done(g, f)


handler("spy", _spy_advance, _spy_decide, _spy_answer)


# ------------------------------------------------------------------ Менестрель
def _minstrel_women(g: Game, f: MinstrelFrame) -> list[Option]:
    assert f.target is not None
    return [(c,) for c in g.player(f.target).hand if g.card(c).sex == "f"] + [SKIP]


def _minstrel_advance(g: Game, f: MinstrelFrame) -> bool:
    if f.target is None:
        if hands_to_look_at(g, f.seat):
            return True
    elif len(_minstrel_women(g, f)) > 1:
        return True
    g.pop()
    return False


def _minstrel_decide(g: Game, f: MinstrelFrame) -> Ask:
    if f.target is None:
        return Ask(f.seat, "minstrel.target", hands_to_look_at(g, f.seat))
    return Ask(f.seat, "minstrel.lay", _minstrel_women(g, f), {"target": f.target})


def _minstrel_answer(g: Game, f: MinstrelFrame, option: Option) -> None:
    if f.target is None:
        f.target = int(option[0])
        show_hand(g, f.seat, f.target, "minstrel")
        return
    g.pop()
    if option != SKIP:
        card_id = option[0]
        g.lose(f.target, card_id)
        g.emit("minstrel.took", seat=f.seat, card=card_id, source=f.target)
        g.push(PlaceFrame(card=card_id, seat=f.seat, placer=f.seat))


handler("minstrel", _minstrel_advance, _minstrel_decide, _minstrel_answer)


# ------------------------------------------------------------------ Наёмник
def _mercenary_targets(g: Game, f: MercenaryFrame) -> list[Option]:
    return hands_to_look_at(g, f.seat) if g.room(f.seat) else []


def _mercenary_answer(g: Game, f: MercenaryFrame, option: Option) -> None:
    g.pop()
    target = int(option[0])
    hand = g.player(target).hand
    card_id = hand[g.rand_below(len(hand))]
    g.take_secretly(f.seat, target, card_id)
    g.emit("mercenary.took", seat=f.seat, source=target)
    g.emit(
        "mercenary.took.private",
        audience=[f.seat, target],
        seat=f.seat,
        source=target,
        card=card_id,
    )


handler(
    "mercenary",
    lambda g, f: _wait_if(g, _mercenary_targets(g, f)),
    lambda g, f: Ask(f.seat, "mercenary.target", _mercenary_targets(g, f)),
    _mercenary_answer,
)


# ------------------------------------------------------------------ Шут
def _jester_options(g: Game, f: JesterFrame) -> list[Option]:
    return [(c,) for c in g.s.smuta_discard] + [SKIP]


def _jester_answer(g: Game, f: JesterFrame, option: Option) -> None:
    g.pop()
    if option == SKIP:
        return
    from engine.smuty import start_smuta

    card_id = option[0]
    g.s.smuta_discard.remove(card_id)
    g.emit("jester.replays", seat=f.seat, smuta=g.card(card_id).type)
    start_smuta(g, card_id, f.seat, "jester")


handler(
    "jester",
    lambda g, f: _wait_if(g, _jester_options(g, f)),
    lambda g, f: Ask(f.seat, "jester.smuta", _jester_options(g, f)),
    _jester_answer,
)
