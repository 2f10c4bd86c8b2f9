"""The machinery every rule uses: the game context, the frame loop, decisions, events.

A rule is a *handler* for one frame kind with three functions:

- ``advance(g, frame) -> bool`` does the automatic part of the step. It returns
  True when the frame now waits for a player's answer (it must then leave the
  state so that calling it again changes nothing), or False once it has popped
  itself or pushed new frames on top.
- ``decide(g, frame) -> Ask`` says, without changing anything, who must answer
  and every legal option.
- ``answer(g, frame, option)`` carries out a legal option.

Options are tuples of short strings; a multi-step choice (lay *which* card, in
*which* colour, at *which* end) is one option whose parts a front end can offer
as successive button sets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from engine import rng
from engine.cards import Card, Catalog, Colour, catalog_for
from engine.knowledge import leaves_openly, taken_in_secret
from engine.state import End, GameState, House, Player

Option = tuple[str, ...]


class Event(BaseModel):
    """Something that happened, for the log. `to` is None for everyone, else the seats allowed."""

    model_config = ConfigDict(frozen=True)

    key: str
    params: dict[str, Any] = {}
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


_EVENT_FIELDS = {"key", "params", "to"}
_set = object.__setattr__


def _event(key: str, params: dict[str, Any], to: tuple[int, ...] | None) -> Event:
    """An event built without validation (the engine itself is the only author) and
    without `model_construct`'s overhead: events are built on every step."""
    event = object.__new__(Event)
    _set(event, "__dict__", {"key": key, "params": params, "to": to})
    _set(event, "__pydantic_fields_set__", _EVENT_FIELDS)
    _set(event, "__pydantic_extra__", None)
    _set(event, "__pydantic_private__", None)
    return event


def rebuilt_event(key: str, params: dict[str, Any], to: tuple[int, ...] | None) -> Event:
    """An event the engine made once, built again from its parts as they were
    kept (a bot's record keeps the events it has still to tell): trusted, so
    built the engine's own quick way, without validation."""
    return _event(key, params, to)


_DECISION_FIELDS = {"id", "seat", "kind", "options", "params"}


def make_decision(ask: Ask, decision_id: int) -> Decision:
    """The `Decision` of an ask, built like `_event` (without validation)."""
    decision = object.__new__(Decision)
    _set(
        decision,
        "__dict__",
        {
            "id": decision_id,
            "seat": ask.seat,
            "kind": ask.kind,
            "options": tuple(ask.options),
            "params": ask.params,
        },
    )
    _set(decision, "__pydantic_fields_set__", _DECISION_FIELDS)
    _set(decision, "__pydantic_extra__", None)
    _set(decision, "__pydantic_private__", None)
    return decision


class Decision(BaseModel):
    """A choice the game waits for: only `seat` may answer, with one of `options`."""

    model_config = ConfigDict(frozen=True)

    id: int
    seat: int
    kind: str
    options: tuple[Option, ...]
    params: dict[str, Any] = {}


class Refused(Exception):
    """An answer the game does not accept; nothing was changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(slots=True)
class Ask:
    seat: int
    kind: str
    options: list[Option]
    params: dict[str, Any] = field(default_factory=dict)


F = TypeVar("F", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Handler(Generic[F]):
    advance: Callable[[Game, F], bool]
    decide: Callable[[Game, F], Ask] | None = None
    answer: Callable[[Game, F, Option], None] | None = None


HANDLERS: dict[str, Handler[Any]] = {}


def handler(
    kind: str,
    advance: Callable[[Game, F], bool],
    decide: Callable[[Game, F], Ask] | None = None,
    answer: Callable[[Game, F, Option], None] | None = None,
) -> None:
    """Register the behaviour of one frame kind."""
    HANDLERS[kind] = Handler(advance, decide, answer)


class StepCapReached(Exception):
    pass


class Game:
    """A game state with the catalog and the events of the current command."""

    __slots__ = ("cat", "events", "quiet", "s", "turn_options")

    def __init__(self, state: GameState, quiet: bool = False) -> None:
        self.s = state
        self.cat: Catalog = catalog_for(state.rules)
        self.events: list[Event] = []
        # quiet: build no events (playouts, where nobody reads them)
        self.quiet = quiet
        # the turn's legal actions, computed by its advance for the decide that follows
        self.turn_options: list[Option] | None = None

    # ---------------------------------------------------------------- basics
    @property
    def n(self) -> int:
        return len(self.s.players)

    def card(self, card_id: str) -> Card:
        return self.cat.cards[card_id]

    def colour_of(self, card_id: str) -> Colour:
        """The colour a house card shows: a Слуга's side up, else its own colour."""
        up = self.s.servant_up.get(card_id)
        if up is not None:
            return up
        colour = self.cat.cards[card_id].colour
        assert colour is not None, f"{card_id} shows no colour outside a house"
        return colour

    def player(self, seat: int) -> Player:
        return self.s.players[seat]

    def emit(self, key: str, audience: Iterable[int] | None = None, **params: Any) -> None:
        """Record an event for everyone, or only for the seats in `audience`."""
        if self.quiet:
            return
        to = None if audience is None else tuple(audience)
        self.events.append(_event(key, params, to))

    def seats_from(self, first: int) -> list[int]:
        """Every seat once, clockwise, starting with `first`."""
        return [(first + i) % self.n for i in range(self.n)]

    def opponents(self, seat: int) -> list[int]:
        """The other seats, clockwise from the one on `seat`'s left."""
        return [(seat + i) % self.n for i in range(1, self.n)]

    def rand_below(self, n: int) -> int:
        d = self.s.__dict__
        d["rng"], value = rng.below(d["rng"], n)
        return value

    def shuffle(self, items: list[Any]) -> None:
        d = self.s.__dict__
        d["rng"] = rng.shuffle(d["rng"], items)

    def push(self, *frames: BaseModel) -> None:
        """Push frames so that the first one given resolves first."""
        self.s.frames.extend(reversed(frames))  # type: ignore[arg-type]

    def pop(self) -> None:
        self.s.frames.pop()

    # ---------------------------------------------------------------- hands
    def room(self, seat: int) -> bool:
        return len(self.s.players[seat].hand) < self.s.rules.hand_limit

    def gain(self, seat: int, card_id: str, seen_by: Iterable[int] = ()) -> None:
        """Put a card into a hand (the caller has checked `room`). `seen_by`: the other
        seats that know which card it is (e.g. the one it was taken from); see `known`."""
        self.s.players[seat].hand.append(card_id)
        known = self.s.known
        if known:
            known.pop(card_id, None)
        if seen_by:
            others = sorted({o for o in seen_by if o != seat})
            if others:
                known[card_id] = others

    def lose(self, seat: int, card_id: str) -> None:
        """A card leaves `seat`'s hand in sight of everyone (laid, played, discarded)."""
        leaves_openly(self.s, seat, card_id)
        self.s.players[seat].hand.remove(card_id)

    def take_secretly(self, taker: int, victim: int, card_id: str) -> None:
        """`taker` takes `card_id` from `victim`'s hand; only the two see which card
        (the caller has checked `room` and tells the table)."""
        taken_in_secret(self.s, taker, victim, card_id)
        self.s.players[victim].hand.remove(card_id)
        self.gain(taker, card_id, seen_by=[victim])

    def saw_hand(self, viewer: int, owner: int) -> None:
        """`viewer` has seen every card of `owner`'s hand: remember it (`known`)."""
        known = self.s.known
        in_hands = {c for p in self.s.players for c in p.hand}
        for card_id in [c for c in known if c not in in_hands]:
            del known[card_id]  # left its hand long ago: no longer a secret
        for card_id in self.s.players[owner].hand:
            seats = known.setdefault(card_id, [])
            if viewer not in seats:
                seats.append(viewer)
                seats.sort()

    def draw_order(self, seat: int, reason: str = "action") -> str | None:
        """`seat` takes the top order if there is one and they have room;
        `reason`: what gives it (the action, a Казначей, a Лазутчица, …), for the log."""
        if not self.s.orders or not self.room(seat):
            return None
        card_id = self.s.orders.pop(0)
        self.gain(seat, card_id)
        self.emit("order.drawn", seat=seat, reason=reason)
        self.emit("order.drawn.private", audience=[seat], seat=seat, card=card_id, reason=reason)
        return card_id

    def draw_from_deck(self, seat: int) -> str:
        """Take the top card of the game deck (the caller has checked there is one)."""
        card_id = self.s.deck.pop(0)
        self.s.deck_top_open = False
        if not self.s.deck and self.s.final_turns is None:
            self.s.final_turns = self.n - 1
            # `current`: whose turn is played out (the taker's, or — in a Великий
            # Пир — the initiator's); every other player then has one more
            self.emit("deck.empty", seat=seat, current=self.s.current)
        return card_id

    def discard_from_hand(self, seat: int, card_id: str, by: int | None = None) -> None:
        """A card leaves `seat`'s hand as a discard (`by` another player's
        Лазутчица); another player's permanent Замок Знаний (house cards) or
        Замок Интриг (orders) takes it if they have room."""
        self.lose(seat, card_id)
        card = self.cat.cards[card_id]
        castle: Colour = "green" if card.kind == "house" else "blue"
        owner = self.castle_owner(castle, "permanent")
        if owner is not None and owner != seat and self.room(owner):
            self.gain(owner, card_id, seen_by=range(self.n))  # the capture is public
            self.emit("discard.captured", seat=seat, card=card_id, owner=owner, castle=castle)
            return
        if card.kind == "house":
            self.s.graveyard.insert(0, card_id)
        else:
            self.s.orders_discard.insert(0, card_id)
        if by is None:
            self.emit("discard", seat=seat, card=card_id)
        else:
            self.emit("spy.discarded", seat=by, target=seat, card=card_id)

    # ---------------------------------------------------------------- houses
    def house(self, seat: int, colour: Colour) -> House | None:
        for h in self.s.players[seat].houses:
            if h.colour == colour:
                return h
        return None

    def locate(self, card_id: str) -> tuple[int, House] | None:
        for seat, p in enumerate(self.s.players):
            for h in p.houses:
                if card_id in h.cards:
                    return seat, h
        return None

    def in_houses_of(self, seat: int, card_id: str) -> bool:
        for h in self.s.players[seat].houses:  # noqa: SIM110 (a loop: no generator per call)
            if card_id in h.cards:
                return True
        return False

    def castle_owner(self, colour: Colour, side: str | None = None) -> int | None:
        for seat, p in enumerate(self.s.players):
            for h in p.houses:
                if h.colour == colour and h.castle is not None:
                    return seat if side is None or h.castle == side else None
        return None

    def has_castle(self, seat: int, colour: Colour, side: str) -> bool:
        h = self.house(seat, colour)
        return h is not None and h.castle == side

    def take_from_house(self, card_id: str) -> tuple[int, Colour]:
        """Lift a card out of whatever house holds it; an emptied house vanishes
        and its castle returns to the supply."""
        found = self.locate(card_id)
        assert found is not None, f"{card_id} is in no house"
        seat, h = found
        h.cards.remove(card_id)
        self.s.servant_up.pop(card_id, None)
        if not h.cards:
            self.s.players[seat].houses.remove(h)
            if h.castle is not None:
                self.s.castles.append(h.colour)
                self.emit("castle.returned", seat=seat, colour=h.colour)
            self.emit("house.vanished", seat=seat, colour=h.colour)
        return seat, h.colour

    def to_graveyard_from_house(self, card_id: str, by: int) -> None:
        seat, _colour = self.take_from_house(card_id)
        self.s.graveyard.insert(0, card_id)
        self.emit("card.killed", seat=seat, card=card_id, by=by)

    def put_in_house(self, seat: int, card_id: str, colour: Colour, end: End | None) -> None:
        """Lay a card into `seat`'s house of `colour`, creating it at `end` if needed."""
        p = self.s.players[seat]
        h = self.house(seat, colour)
        if h is None:
            h = House(colour=colour, cards=[])
            if end == "left":
                p.houses.insert(0, h)
            else:
                p.houses.append(h)
        h.cards.append(card_id)
        if self.cat.cards[card_id].is_servant:
            self.s.servant_up[card_id] = colour

    def needs_end(self, seat: int, colour: Colour) -> bool:
        """Would a card of `colour` need a new house at one end of `seat`'s row?"""
        houses = self.s.players[seat].houses
        return bool(houses) and all(h.colour != colour for h in houses)

    def open_colours(self, card_id: str, seat: int, placer: int) -> list[Colour]:
        """Colours a card may take in `seat`'s row when `placer` puts it there:
        never an opponent's castle house."""
        card = self.cat.cards[card_id]
        colours = list(card.colours)
        if placer == seat:
            return colours
        return [c for c in colours if (h := self.house(seat, c)) is None or h.castle is None]

    def return_castles(self) -> dict[int, list[Colour]]:
        """Disasters: every castle goes back to the supply at once."""
        lost: dict[int, list[Colour]] = {}
        for seat, p in enumerate(self.s.players):
            for h in p.houses:
                if h.castle is not None:
                    lost.setdefault(seat, []).append(h.colour)
                    h.castle = None
                    self.s.castles.append(h.colour)
        if lost:
            self.emit("castles.returned", seats={str(k): v for k, v in lost.items()})
        return lost

    def destroy_house(self, seat: int, colour: Colour, by: str) -> None:
        """The whole house goes to the graveyard, oldest card first (newest ends on top)."""
        h = self.house(seat, colour)
        assert h is not None
        for card_id in h.cards:
            self.s.graveyard.insert(0, card_id)
            self.s.servant_up.pop(card_id, None)
        self.s.players[seat].houses.remove(h)
        if h.castle is not None:
            self.s.castles.append(h.colour)
        self.emit("house.destroyed", seat=seat, colour=colour, cards=list(h.cards), by=by)

    def points(self, seat: int) -> int:
        total = 0
        for h in self.s.players[seat].houses:
            total += sum(self.cat.cards[c].points for c in h.cards)
            if h.castle is not None:
                total += self.s.rules.castle_points
        return total

    def castle_count(self, seat: int) -> int:
        return sum(1 for h in self.s.players[seat].houses if h.castle is not None)

    def free_house_cards(self, seats: Sequence[int] | None = None) -> Iterable[tuple[int, str]]:
        """(seat, card) for every card in a house without a castle."""
        for seat in range(self.n) if seats is None else seats:
            for h in self.s.players[seat].houses:
                if h.castle is None:
                    for c in h.cards:
                        yield seat, c

    def killable_cards(self) -> Iterable[tuple[int, str]]:
        """(seat, card) for every card Отрава or an Алхимик may kill: in a house
        with no castle and no Алхимик (an Алхимик shields his own house)."""
        for seat, p in enumerate(self.s.players):
            for h in p.houses:
                if h.castle is None and not any(self.card(x).type == "alchemist" for x in h.cards):
                    for c in h.cards:
                        yield seat, c


# -------------------------------------------------------------------- the loop
def run(g: Game) -> None:
    """Advance until a decision is needed or the game is over."""
    s = g.s
    d = s.__dict__  # the hot loop reads and counts through the dict (plain data)
    cap = s.rules.step_cap
    frames = d["frames"]
    while d["result"] is None:
        if not frames:
            raise AssertionError("the frame stack is empty in a running game")
        frame = frames[-1]
        d["steps"] += 1
        if d["steps"] > cap:
            raise StepCapReached
        h = HANDLERS[frame.__dict__["kind"]]
        if h.advance(g, frame):
            assert h.decide is not None and h.answer is not None, f"{frame.kind} cannot ask"
            ask = h.decide(g, frame)
            assert ask.options, f"{frame.kind} waits with no legal option"
            if len(ask.options) == 1:
                # a forced choice is made at once: nobody is asked a question with one answer
                h.answer(g, frame, ask.options[0])
                continue
            d["decision"] += 1
            d[_ASK] = (_fingerprint(s), ask)
            return


# The pending question is worked out once, when `run` stops, and kept in the state's
# __dict__ under a name that is not a field: pydantic neither saves nor compares it.
# It is used only while the state still has the fingerprint it had then, which every
# engine call changes (`steps` grows on every step, `version` on every answer, the top
# frame is another object). Code that edits a state's cards by hand after it stopped
# (no test does; scenario building runs the game afterwards, which keeps a new one)
# must call `forget_ask`. Copies (`engine.hidden.copy_state`, JSON) start without it.
_ASK = "_pending_ask"  # also read by engine.hidden.copy_state


def _fingerprint(s: GameState) -> tuple[Any, ...]:
    d = s.__dict__
    frames = d["frames"]
    return (
        d["version"],
        d["decision"],
        d["steps"],
        d["actions_left"],
        len(frames),
        id(frames[-1]) if frames else 0,
    )


def forget_ask(state: GameState) -> None:
    """Drop the kept pending question (after editing a state by hand)."""
    state.__dict__.pop(_ASK, None)


def current_ask(g: Game) -> Ask | None:
    s = g.s
    if s.result is not None or not s.frames:
        return None
    kept = s.__dict__.get(_ASK)
    if kept is not None and kept[0] == _fingerprint(s):
        ask: Ask = kept[1]
        return ask
    frame = s.frames[-1]
    decide = HANDLERS[frame.kind].decide
    assert decide is not None, f"{frame.kind} waits but cannot decide"
    ask = decide(g, frame)
    s.__dict__[_ASK] = (_fingerprint(s), ask)
    return ask
