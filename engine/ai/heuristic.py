"""The heuristic player: a few if-then rules for every kind of decision, no look-ahead.

(Not the game's rules: those are `engine.cards.Rules`.)

It plays the seats of a look-ahead (the other seats' answers, and the seat's own
answers below the option being weighed), so it must be cheap. It reads the whole
state it is given; the callers give it only re-dealt copies (`engine.hidden`), so
what it "sees" of other hands is a guess, never the truth.

The rule for each kind of decision:

- ``action``: build a castle (permanent side; the one-time side of the red and
  orange castles, which draw orders, when the hand has room); else lay the
  best house card (points; a Лорд into a house that wants a castle; a Чумовой
  or Блудница into the leader's row); else play a Бал when there is a man to
  take, a Лазарет when the graveyard's top card scores; else draw from the game
  deck, then from the orders deck; else end the turn. Never a plain discard.
- ``servant_side``: the colour whose house holds most cards.
- ``house_end``: the left end: Землетрясение takes a whole left house, so a new
  small house there shields the big ones.
- ``lady.take``, ``ball.take``, ``campaign.take``: the card worth most, from
  the leader first.
- ``alchemist.kill``, ``poison.target``: the leader's best card, never one's own.
- ``priest.kill``: a Блудница or Чумовой in one's own houses, else none.
- ``spy.target``, ``minstrel.target``, ``intrigue.target``, ``mercenary.target``:
  the largest hand (the leader on a tie).
- ``spy.discard``, ``intrigue.take``: the best order (Бал, Лазарет, Купец, Брачный союз).
- ``minstrel.lay``: the woman worth most (never a Блудница).
- ``jester.smuta``, ``prophet.smuta``: the смута best for its initiator by a fixed
  order (Новая Эпоха with a graveyard, Удачный Поход, Великий Пир, Святой Грааль,
  Землетрясение …); Шут skips when none of the good ones is there.
- ``power.order``: as ``intrigue.take``.
- ``destroy.order``: the house worth least first (its newest card ends on top
  of the graveyard, where it may come back).
- ``fire.burn``: the card worth least.
- ``conspiracy.give``: the card worth least (a Блудница or Чумовой first), to the leader.
- ``earthquake.target``: the opponent whose left house is worth most.
- ``poison.discard``: the card worth least when an opponent has a card worth 2+
  to kill, else pass.
- ``plant_row``: the leader's row.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import PLANTABLE, Catalog, catalog_for
from engine.core import Decision, Option
from engine.state import GameState, House

ORDER_RANK = {"ball": 4, "infirmary": 3, "merchant": 2, "marriage": 1}
SMUTA_RANK = {
    "new_era": 9,
    "campaign": 8,
    "feast": 7,
    "grail": 6,
    "earthquake": 5,
    "reformation": 3,
    "conspiracy": 2,
    "poison": 2,
    "thrones": 1,
}
GOOD_JESTER = 5  # Шут replays only a смута ranked this or better


def seat_points(state: GameState, cat: Catalog) -> list[int]:
    cards = cat.cards
    cp = state.rules.castle_points
    out = []
    for p in state.players:
        total = 0
        for h in p.houses:
            if h.castle is not None:
                total += cp
            for c in h.cards:
                total += cards[c].points
        out.append(total)
    return out


def _leader_bonus(pts: list[int], seat: int) -> dict[int, float]:
    """A small bonus for hurting seats, more for the better placed."""
    return {s: 0.01 * pts[s] for s in range(len(pts)) if s != seat}


def _card_value(cat: Catalog, card_id: str) -> float:
    card = cat.cards[card_id]
    if card.type == "lord":
        return card.points + 0.5
    if card.type in PLANTABLE:
        return -0.3  # worth nothing, and a risk to its house
    return float(card.points)


def choose(state: GameState, decision: Decision) -> Option:
    """The heuristic player's answer to `decision` (pending in `state`)."""
    return answer(state, decision.seat, decision.kind, decision.options)


def answer(state: GameState, seat: int, kind: str, options: Sequence[Option]) -> Option:
    if len(options) == 1:
        return options[0]
    rule = RULES[kind]  # every kind of decision has its rule (a test checks it)
    return rule(state, catalog_for(state.rules), seat, tuple(options))


def _best(options: tuple[Option, ...], score: dict[Option, float]) -> Option:
    best = options[0]
    best_score = score.get(best, float("-inf"))
    for o in options[1:]:
        v = score.get(o, float("-inf"))
        if v > best_score:
            best, best_score = o, v
    return best


# ------------------------------------------------------------------ the turn
def _action(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    cards = cat.cards
    me = state.players[seat]
    leader = -1  # worked out when a Чумовой or Блудница could be planted
    room = len(me.hand) < state.rules.hand_limit
    best: Option | None = None
    best_score = 0.0
    has: dict[str, Option] = {}
    for o in options:
        verb = o[0]
        has.setdefault(verb, o)
        score = 0.0
        if verb == "build":
            if o[2] == "permanent":
                score = 10.0
            elif cards[o[1]].colours[0] in ("red", "orange") and room:
                score = 10.5
            else:
                continue
        elif verb == "lay":
            card = cards[o[1]]
            target = int(o[2])
            colour: str = o[3]
            if card.type in PLANTABLE:
                if target == seat:
                    continue
                if leader < 0:
                    pts = seat_points(state, cat)
                    leader = max((s for s in range(len(pts)) if s != seat), key=lambda s: pts[s])
                score = 1.0 + (0.5 if target == leader else 0.0)
            else:
                score = card.points + 1.0
                house = next((h for h in me.houses if h.colour == colour), None)
                if house is not None:
                    score += 0.2
                    if card.type == "lord" and house.castle is None:
                        score += 0.5
                elif o[4] == "right":
                    score -= 0.05
        elif verb == "play":
            card = cards[o[1]]
            if card.type == "ball":
                if any(
                    cards[c].sex == "m"
                    for s, p in enumerate(state.players)
                    if s != seat
                    for h in p.houses
                    if h.castle is None
                    for c in h.cards
                ):
                    score = 2.5
            elif (
                card.type == "infirmary"
                and state.graveyard
                and cards[state.graveyard[0]].points > 0
            ):
                score = 0.5 + cards[state.graveyard[0]].points
        elif verb == "draw":
            score = 0.8
        elif verb == "order":
            score = 0.6
        if score > best_score:
            best, best_score = o, score
    if best is not None:
        return best
    return has.get("end", options[0])


# ------------------------------------------------------------------ laying
def _servant_side(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    sizes: dict[str, int] = {h.colour: len(h.cards) for h in state.players[seat].houses}
    return max(options, key=lambda o: sizes.get(o[0], -1))


def _house_end(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    return ("left",) if ("left",) in options else options[0]


# ------------------------------------------------------------------ taking and killing
def _take_best(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = seat_points(state, cat)
    bonus = _leader_bonus(pts, seat)
    score: dict[Option, float] = {}
    for o in options:
        if len(o) == 2 and o[0].isdigit():
            score[o] = _card_value(cat, o[1]) + bonus.get(int(o[0]), 0.0)
        else:
            score[o] = 0.0  # done / skip
    return _best(options, score)


def _kill_best(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = seat_points(state, cat)
    bonus = _leader_bonus(pts, seat)
    score: dict[Option, float] = {}
    for o in options:
        if len(o) == 2:
            target = int(o[0])
            v = _card_value(cat, o[1])
            score[o] = -v - 1.0 if target == seat else v + bonus.get(target, 0.0)
        else:
            score[o] = 0.0
    return _best(options, score)


def _priest(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    for o in options:
        if len(o) == 2 and int(o[0]) == seat:
            return o
    return ("skip",) if ("skip",) in options else options[0]


def _biggest_hand(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = seat_points(state, cat)
    return max(
        options,
        key=lambda o: (
            (len(state.players[int(o[0])].hand), pts[int(o[0])]) if o[0].isdigit() else (-1, 0)
        ),
    )


def _best_order(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    score = {
        o: float(ORDER_RANK.get(cat.cards[o[0]].type, 0)) for o in options if o[0] in cat.cards
    }
    return _best(options, score)


def _minstrel_lay(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    score = {
        o: float(cat.cards[o[0]].points)
        for o in options
        if o[0] in cat.cards and cat.cards[o[0]].type != "harlot"
    }
    score[("skip",)] = 0.0
    return _best(options, score)


def _smuta(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    score: dict[Option, float] = {}
    for o in options:
        if o[0] not in cat.cards:
            score[o] = GOOD_JESTER - 0.5  # skip
            continue
        t = cat.cards[o[0]].type
        v = float(SMUTA_RANK.get(t, 0))
        if t == "new_era" and not state.graveyard:
            v = 0.0
        score[o] = v
    return _best(options, score)


def _least(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    return min(options, key=lambda o: _card_value(cat, o[0]) if o[0] in cat.cards else 99.0)


def _destroy(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    houses: dict[str, House] = {h.colour: h for h in state.players[seat].houses}

    def worth(o: Option) -> float:
        h = houses.get(o[0])
        return sum(cat.cards[c].points for c in h.cards) if h is not None else 0.0

    return min(options, key=worth)


def _conspiracy(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = seat_points(state, cat)
    bonus = _leader_bonus(pts, seat)

    def score(o: Option) -> float:
        card = cat.cards[o[0]]
        v = -_card_value(cat, o[0])
        if card.type in PLANTABLE:
            v += 1.0
        return v + bonus.get(int(o[1]), 0.0)

    return max(options, key=score)


def _earthquake(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    def score(o: Option) -> float:
        houses = state.players[int(o[0])].houses
        return sum(_card_value(cat, c) for c in houses[0].cards) if houses else 0.0

    return max(options, key=score)


def _poison_discard(
    state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]
) -> Option:
    cards = cat.cards
    best_target = 0.0
    for s, p in enumerate(state.players):
        if s == seat:
            continue
        for h in p.houses:
            if h.castle is None and not any(cards[c].type == "alchemist" for c in h.cards):
                for c in h.cards:
                    best_target = max(best_target, _card_value(cat, c))
    if best_target < 2:
        return ("pass",) if ("pass",) in options else options[0]

    def cost(o: Option) -> float:
        if o[0] not in cards:
            return 99.0
        card = cards[o[0]]
        if card.kind == "order":
            return ORDER_RANK.get(card.type, 0) * 0.4
        return card.points * 0.6

    cheapest = min(options, key=cost)
    return cheapest if cost(cheapest) < best_target - 0.5 else ("pass",)


def _plant_row(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = seat_points(state, cat)
    return max(options, key=lambda o: -1 if int(o[0]) == seat else pts[int(o[0])])


KINDS = (
    "action",
    "servant_side",
    "house_end",
    "lady.take",
    "ball.take",
    "campaign.take",
    "alchemist.kill",
    "poison.target",
    "priest.kill",
    "spy.target",
    "minstrel.target",
    "intrigue.target",
    "mercenary.target",
    "spy.discard",
    "intrigue.take",
    "power.order",
    "minstrel.lay",
    "jester.smuta",
    "prophet.smuta",
    "destroy.order",
    "fire.burn",
    "conspiracy.give",
    "earthquake.target",
    "poison.discard",
    "plant_row",
)
Rule = Callable[[GameState, Catalog, int, tuple[Option, ...]], Option]
RULES: dict[str, Rule] = {
    "action": _action,
    "servant_side": _servant_side,
    "house_end": _house_end,
    "lady.take": _take_best,
    "ball.take": _take_best,
    "campaign.take": _take_best,
    "alchemist.kill": _kill_best,
    "poison.target": _kill_best,
    "priest.kill": _priest,
    "spy.target": _biggest_hand,
    "minstrel.target": _biggest_hand,
    "intrigue.target": _biggest_hand,
    "mercenary.target": _biggest_hand,
    "spy.discard": _best_order,
    "intrigue.take": _best_order,
    "power.order": _best_order,
    "minstrel.lay": _minstrel_lay,
    "jester.smuta": _smuta,
    "prophet.smuta": _smuta,
    "destroy.order": _destroy,
    "fire.burn": _least,
    "conspiracy.give": _conspiracy,
    "earthquake.target": _earthquake,
    "poison.discard": _poison_discard,
    "plant_row": _plant_row,
}
