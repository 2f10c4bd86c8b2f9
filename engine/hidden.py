"""Copies of a game state for look-ahead, and what one seat cannot see drawn anew.

`copy_state` is a fast deep copy: every list, dict and model of the state is new,
the immutable parts (the rules, a finished game's result, card ids) are shared.
It is built straight from the instances' dicts, without validation, so it is
several times faster than ``model_copy(deep=True)``.

`observe(state, seat)` is what `seat` knows, and nothing more: a copy of the
state in which every card the seat cannot see is a blank (`BLANK`), each blank
labelled with what the seat knows of it, and the cards that may fill them.
`Observation.world(seed)` fills the blanks at random — a world the seat cannot
tell from the real one:

- a card in another hand is kept where it is only if the seat knows it is there
  (it looked at the hand, or the card was taken from it: `GameState.known`);
- any other card in another hand is a blank of its kind (house card or order) —
  or, where a secret take mixed the kinds (`GameState.mixed`, see
  `engine.knowledge`), a blank of its group: the group's blanks get the cards
  the seat knows to be somewhere in it, then as many orders as the group holds,
  then house cards, spread over the group's hands at random;
- the game deck keeps its size, its смуты (every смута not yet out is in it) and
  a face-up смута on top; the order of everything else is new;
- the orders deck keeps its size; its cards and their order are new (unless
  the seat is looking through it for Замок Власти);
- the generator (`rng`) gets a new future.

The blanks are filled from the cards that no zone the seat sees holds, pooled in
card-id order before they are shuffled, so a world depends only on the
observation and the seed: two states the seat cannot tell apart give the same
worlds. `redeal(state, seat, seed)` is `observe(state, seat).world(seed)`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from engine import rng
from engine.cards import catalog_for
from engine.core import _ASK
from engine.state import GameState, PlaceFrame, Player, PowerFrame, SmutaEndFrame

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
    fields["mixed"] = [
        _clone(m, {"cards": m.cards[:], "seen": {c: seats[:] for c, seats in m.seen.items()}})
        for m in d["mixed"]
    ]
    return _clone(state, fields)


def mix(*values: int) -> int:
    """A 64-bit generator state from a few integers (seed, decision id, seat, …)."""
    state = 0x243F6A8885A308D3
    for v in values:
        state, z = rng.next_value((state ^ (v & rng.MASK)) & rng.MASK)
        state = z
    return state


#: a card the seat cannot see, in an observation
BLANK = "?"

Slot = tuple[int, int]  # (seat, index in its hand)


@dataclass(slots=True)
class Group:
    """The blanks of one group of mixed kinds, as one seat knows them."""

    slots: list[Slot]
    known: list[str]  # cards the seat knows to be among these blanks
    orders: int  # how many of the other blanks are orders


@dataclass(slots=True)
class Observation:
    """What `seat` knows of a game: `table` is the state with every card it cannot
    see blanked; `world(seed)` fills the blanks."""

    seat: int
    table: GameState
    house_slots: list[Slot] = field(default_factory=list)  # blanks known to be house cards
    order_slots: list[Slot] = field(default_factory=list)  # blanks known to be orders
    groups: list[Group] = field(default_factory=list)
    deck_blanks: int = 0  # the game deck below a face-up смута
    orders_blanks: int = 0
    # the cards that fill the blanks, in card-id order
    house_pool: list[str] = field(default_factory=list)
    order_pool: list[str] = field(default_factory=list)
    smuty: list[str] = field(default_factory=list)  # смуты still in the game deck

    def world(self, seed: int) -> GameState:
        """A state the seat cannot tell from the real one, drawn with `seed`."""
        s = copy_state(self.table)
        # Python's generator (a C Mersenne Twister) shuffles several times faster than
        # the game's own; a world needs no cross-version guarantee, only determinism
        r = random.Random(mix(seed, self.seat))
        houses = self.house_pool[:]
        orders = self.order_pool[:]
        r.shuffle(houses)
        r.shuffle(orders)
        hands = [p.hand for p in s.players]
        for other, i in self.house_slots:
            hands[other][i] = houses.pop()
        for other, i in self.order_slots:
            hands[other][i] = orders.pop()
        for group in self.groups:
            fill = group.known[:]
            fill.extend(orders.pop() for _ in range(group.orders))
            fill.extend(houses.pop() for _ in range(len(group.slots) - len(fill)))
            r.shuffle(fill)
            for (other, i), card_id in zip(group.slots, fill, strict=True):
                hands[other][i] = card_id
        for other, hand in enumerate(hands):
            if other != self.seat:
                hand.sort()  # the order of another's hand is not the seat's to see
        deck = houses + self.smuty
        if len(deck) != self.deck_blanks or len(orders) < self.orders_blanks:
            raise AssertionError("the blanks and the unseen cards do not match")
        deck.sort()
        r.shuffle(deck)
        s.deck[len(s.deck) - self.deck_blanks :] = deck
        if self.orders_blanks:
            s.orders = orders
        s.rng = r.getrandbits(64)
        return s


def observe(state: GameState, seat: int) -> Observation:
    """What `seat` knows of `state` (see the module doc)."""
    table = copy_state(state)
    cat = catalog_for(table.rules)
    cards = cat.cards
    known = table.known
    own = set(table.players[seat].hand)
    obs = Observation(seat, table)
    # groups of mixed kinds: which blanks are theirs, and what the seat knows of them
    group_of: dict[str, int] = {}
    orders_left: list[int] = []
    vague: list[list[str]] = []
    for g, mixed in enumerate(table.mixed):
        group_of.update(dict.fromkeys(mixed.cards, g))
        # how many orders the group holds is known to all; less those the seat sees
        orders_left.append(
            sum(
                1
                for c in mixed.cards
                if cards[c].kind == "order" and c not in own and seat not in known.get(c, ())
            )
        )
        vague.append(
            sorted(
                c
                for c, seats in mixed.seen.items()
                if seat in seats and c not in own and seat not in known.get(c, ())
            )
        )
    group_slots: list[list[Slot]] = [[] for _ in table.mixed]
    for other, p in enumerate(table.players):
        if other == seat:
            continue
        hand = p.hand
        for i, card_id in enumerate(hand):
            if seat in known.get(card_id, ()):
                continue
            g = group_of.get(card_id, -1)
            if g >= 0:
                group_slots[g].append((other, i))
            elif cards[card_id].kind == "order":
                obs.order_slots.append((other, i))
            else:
                obs.house_slots.append((other, i))
            hand[i] = BLANK
    for g, slots in enumerate(group_slots):
        if slots:
            known_orders = sum(1 for c in vague[g] if cards[c].kind == "order")
            obs.groups.append(Group(slots, vague[g], orders_left[g] - known_orders))
    start = 1 if table.deck_top_open and table.deck else 0
    obs.deck_blanks = len(table.deck) - start
    table.deck[start:] = [BLANK] * obs.deck_blanks
    # Замок Власти's choice lists the kinds of order in the orders deck: while the seat
    # looks through it, that deck is seen (and shuffled once the choice is made)
    frames = table.frames
    looking = bool(frames) and isinstance(frames[-1], PowerFrame) and frames[-1].seat == seat
    if not looking:
        obs.orders_blanks = len(table.orders)
        table.orders[:] = [BLANK] * obs.orders_blanks
    table.rng = 0
    table.known = {c: [seat] for c, seats in known.items() if seat in seats}
    table.mixed = []
    # what fills the blanks: every card of the game that no zone the seat sees holds
    seen: set[str] = set()
    for p in table.players:
        seen.update(p.hand)
        for h in p.houses:
            seen.update(h.cards)
    for pile in (
        table.deck,
        table.orders,
        table.graveyard,
        table.orders_discard,
        table.smuta_discard,
        table.prophet_stack,
        table.box,
    ):
        seen.update(pile)
    for f in frames:
        if isinstance(f, PlaceFrame | SmutaEndFrame):
            seen.add(f.card)
    for group in obs.groups:
        seen.update(group.known)
    obs.house_pool = [c for c in cat.house_ids if c not in seen]
    obs.order_pool = [c for c in cat.order_ids if c not in seen]
    obs.smuty = [c for c in cat.smuta_ids if c not in seen]
    return obs


def redeal(state: GameState, seat: int, seed: int) -> GameState:
    """A copy of `state` with everything `seat` cannot see drawn anew (see the module
    doc). Deterministic given what `seat` sees and `seed`."""
    return observe(state, seat).world(seed)
