"""Copies of a game state for look-ahead, and re-dealing what one seat cannot see.

`copy_state` is a fast deep copy: every list, dict and model of the state is new,
the immutable parts (the rules, a finished game's result, card ids) are shared.
It is built straight from the instances' dicts, without validation, so it is
several times faster than ``model_copy(deep=True)``.

`redeal(state, seat, seed)` is a copy in which everything `seat` cannot see is
drawn anew, consistently with what it has seen (`view_for`, plus the cards it
knows are in other hands: `GameState.known`):

- each other hand keeps its size and its split into house cards and orders, and
  the cards `seat` knows are in it; its other cards are drawn from the unseen
  ones of their kind;
- the game deck keeps its size, its смуты (every смута not yet out is in it) and
  a face-up смута on top; the order of everything else is new;
- the orders deck keeps its size; its cards and their order are new (unless
  `seat` is looking through it for Замок Власти);
- the generator (`rng`) gets a new future.

The unseen cards are pooled in card-id order before they are shuffled, so the
copy depends only on what `seat` can see and on `seed`: two states that differ
only in what `seat` cannot see give the same copy for the same seed.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from pydantic import BaseModel

from engine import rng
from engine.cards import catalog_for
from engine.core import _ASK
from engine.state import GameState, Player, PowerFrame

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__
_LIST_FIELDS: dict[type[BaseModel], tuple[str, ...]] = {}


def _clone(obj: M, fields: dict[str, Any]) -> M:
    """A new instance of `obj`'s model with these field values, not validated."""
    new = _new(type(obj))
    _set(new, "__dict__", fields)
    fields_set = obj.__pydantic_fields_set__
    # a set that already names every field never changes again: it can be shared
    if len(fields_set) != len(fields):
        fields_set = set(fields_set)
    _set(new, "__pydantic_fields_set__", fields_set)
    _set(new, "__pydantic_extra__", None)
    _set(new, "__pydantic_private__", None)
    return new


def _copy_frame(frame: M) -> M:
    """Frames hold scalars and flat lists of strings."""
    fields = frame.__dict__.copy()
    for k, v in fields.items():
        if type(v) is list:
            fields[k] = v[:]
    return _clone(frame, fields)


def _copy_player(p: Player) -> Player:
    d = p.__dict__
    houses = []
    for h in d["houses"]:
        hd = h.__dict__
        houses.append(
            _clone(h, {"colour": hd["colour"], "cards": hd["cards"][:], "castle": hd["castle"]})
        )
    return _clone(p, {"hand": d["hand"][:], "houses": houses, "computer": d["computer"]})


_SHALLOW_LISTS = (
    "deck",
    "orders",
    "graveyard",
    "orders_discard",
    "smuta_discard",
    "prophet_stack",
    "castles",
    "box",
)


def copy_state(state: GameState) -> GameState:
    """A deep copy of `state` (its kept pending question is not copied)."""
    d = state.__dict__
    fields = d.copy()
    fields.pop(_ASK, None)
    for name in _SHALLOW_LISTS:
        fields[name] = d[name][:]
    fields["players"] = [_copy_player(p) for p in d["players"]]
    fields["frames"] = [_copy_frame(f) for f in d["frames"]]
    fields["servant_up"] = d["servant_up"].copy()
    known = d["known"]
    if known:
        fields["known"] = {c: seats[:] for c, seats in known.items()}
    else:
        fields["known"] = {}
    return _clone(state, fields)


def mix(*values: int) -> int:
    """A 64-bit generator state from a few integers (seed, decision id, seat, …)."""
    state = 0x243F6A8885A308D3
    for v in values:
        state, z = rng.next_value((state ^ (v & rng.MASK)) & rng.MASK)
        state = z
    return state


def redeal(state: GameState, seat: int, seed: int) -> GameState:
    """A copy of `state` with everything `seat` cannot see drawn anew (see the module
    doc). Deterministic given what `seat` sees and `seed`."""
    s = copy_state(state)
    cat = catalog_for(s.rules)
    known = s.known
    # the slots to fill: (hand, index) for unseen cards in other hands, by kind
    house_slots: list[tuple[list[str], int]] = []
    order_slots: list[tuple[list[str], int]] = []
    house_pool: list[str] = []
    order_pool: list[str] = []
    for other, p in enumerate(s.players):
        if other == seat:
            continue
        for i, card_id in enumerate(p.hand):
            if seat in known.get(card_id, ()):
                continue
            if cat.cards[card_id].kind == "order":
                order_slots.append((p.hand, i))
                order_pool.append(card_id)
            else:
                house_slots.append((p.hand, i))
                house_pool.append(card_id)
    open_top = s.deck[:1] if s.deck_top_open else []
    rest = s.deck[len(open_top) :]
    smuty = [c for c in rest if cat.cards[c].kind == "smuta"]
    house_pool.extend(c for c in rest if cat.cards[c].kind != "smuta")
    # Замок Власти's choice lists the kinds of order in the orders deck: while the seat
    # looks through it, that deck is seen (and shuffled once the choice is made)
    looking = bool(s.frames) and isinstance(s.frames[-1], PowerFrame) and s.frames[-1].seat == seat
    if not looking:
        order_pool.extend(s.orders)

    # Python's generator (a C Mersenne Twister) shuffles several times faster than
    # the game's own; the copy needs no cross-version guarantee, only determinism
    r = random.Random(mix(seed, seat))
    house_pool.sort()
    order_pool.sort()
    r.shuffle(house_pool)
    r.shuffle(order_pool)
    for (hand, i), card_id in zip(house_slots, house_pool, strict=False):
        hand[i] = card_id
    for (hand, i), card_id in zip(order_slots, order_pool, strict=False):
        hand[i] = card_id
    unseen_hands = {id(hand) for hand, _ in house_slots + order_slots}
    for p in s.players:
        if id(p.hand) in unseen_hands:
            p.hand.sort()  # the order of a hand not seen whole is not seen either
    deck = house_pool[len(house_slots) :] + smuty
    deck.sort()
    r.shuffle(deck)
    s.deck = open_top + deck
    if not looking:
        s.orders = order_pool[len(order_slots) :]
    s.rng = r.getrandbits(64)
    # knowledge of cards `seat` has not seen is no longer true in the new deal
    s.known = {c: [seat] for c, seats in known.items() if seat in seats}
    return s
