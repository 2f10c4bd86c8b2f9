"""A rule-based hold-out: fixed priorities, no look-ahead, its own rules.

It reads only the observation of its seat (`engine.hidden.observe`: its own
hand, every house on the table, the piles in sight, the sizes of the other
hands). It plays for points on the table and castles, and hurts whoever leads
on points; its rules are not `engine.ai.heuristic`':

- a turn: build a castle (the one-time side when its hand has two cards or
  fewer and the castle gives cards — red or orange — else the permanent side);
  lay the house card that scores most where it helps most (a Лорд into a house
  of its colour without one, a card into a house it already has, a Чумовой or
  Блудница only into the leader's house); play a Лазарет on a graveyard whose
  top card scores 2+, a Бал on a man worth 2+ outside castles; draw from the
  game deck while the hand has room and the deck more than a round's cards,
  else from the orders deck; otherwise end the turn, or discard a 0-point card
  when the hand is full and nothing else can be done;
- a choice of a seat (spy, Менестрель, Наёмник, Замок Интриг, Землетрясение, a
  planted row): the leader on points (the other hands' sizes break ties);
- a take or a kill: the card worth most, from the leader first, never its own;
  Священник clears its own houses first;
- a card to give away or burn: the one worth least; an order to keep: Лазарет,
  Бал, Купец, Брачный союз, in that order; a смута to replay: Удачный Поход,
  Великий Пир, Святой Грааль, Новая Эпоха (with a graveyard), else none.
"""

from __future__ import annotations

from engine.cards import PLANTABLE, Catalog, catalog_for
from engine.core import Decision, Option
from engine.hidden import observe
from engine.state import GameState

ORDER_KEEP = {"infirmary": 4, "ball": 3, "merchant": 2, "marriage": 1}
SMUTA_WANT = {"campaign": 4, "feast": 3, "grail": 2, "new_era": 1}
PASS = {"skip", "pass", "done"}


def _points(state: GameState, cat: Catalog) -> list[int]:
    cp = state.rules.castle_points
    return [
        sum(cat.cards[c].points for h in p.houses for c in h.cards)
        + cp * sum(h.castle is not None for h in p.houses)
        for p in state.players
    ]


def _leader(state: GameState, cat: Catalog, seat: int) -> int:
    pts = _points(state, cat)
    others = [s for s in range(len(pts)) if s != seat]
    return max(others, key=lambda s: (pts[s], len(state.players[s].hand), -s))


def _card_worth(cat: Catalog, card_id: str) -> float:
    card = cat.cards.get(card_id)
    if card is None:
        return 0.0
    if card.kind == "order":
        return 0.5 + ORDER_KEEP.get(card.type, 0) * 0.3
    if card.type in PLANTABLE:
        return -0.5
    return card.points + (1.0 if card.type == "lord" else 0.0)


def _action(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    cards = cat.cards
    me = state.players[seat]
    houses = {h.colour: h for h in me.houses}
    leader = _leader(state, cat, seat)
    best: Option | None = None
    best_score = 0.0
    for o in options:
        verb = o[0]
        score = 0.0
        if verb == "build":
            colour = cards[o[1]].colours[0]
            wants_one_time = len(me.hand) <= 2 and colour in ("red", "orange")
            score = 20.0 + (0.5 if (o[2] == "one_time") == wants_one_time else 0.0)
        elif verb == "lay":
            card = cards[o[1]]
            target = int(o[2])
            colour = o[3]
            if card.type in PLANTABLE:
                if target != leader:
                    continue
                score = 1.5
            else:
                score = 2.0 + card.points
                house = houses.get(colour)
                if house is not None:
                    score += 1.0
                    if card.type == "lord" and not any(
                        cards[c].type == "lord" for c in house.cards
                    ):
                        score += 2.0
                elif o[4] == "left":
                    score -= 0.1
        elif verb == "play":
            card = cards[o[1]]
            if card.type == "infirmary":
                if state.graveyard and cards[state.graveyard[0]].points >= 2:
                    score = 3.0
            elif card.type == "ball":
                for s, p in enumerate(state.players):
                    if s == seat:
                        continue
                    for h in p.houses:
                        if h.castle is None and any(
                            cards[c].sex == "m" and cards[c].points >= 2 for c in h.cards
                        ):
                            score = 3.5
        elif verb == "draw":
            score = 1.2 if len(state.deck) > len(state.players) else 0.6
        elif verb == "order":
            score = 0.9
        if score > best_score:
            best, best_score = o, score
    if best is not None:
        return best
    if ("end",) in options:
        return ("end",)
    discards = [o for o in options if o[0] == "discard"]
    if discards:
        return min(discards, key=lambda o: _card_worth(cat, o[1]))
    return options[0]


def _pick_seat(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    pts = _points(state, cat)
    seats = [o for o in options if o[0].isdigit() and int(o[0]) != seat]
    if not seats:
        return options[0]
    return max(seats, key=lambda o: (pts[int(o[0])], len(state.players[int(o[0])].hand)))


def _take(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    leader = _leader(state, cat, seat)

    def score(o: Option) -> float:
        if len(o) != 2 or not o[0].isdigit():
            return 0.0  # done / skip
        if int(o[0]) == seat:
            return -10.0 - _card_worth(cat, o[1])
        return 1.0 + _card_worth(cat, o[1]) + (0.5 if int(o[0]) == leader else 0.0)

    return max(options, key=score)


def _priest(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    own = [o for o in options if len(o) == 2 and int(o[0]) == seat]
    if own:
        return own[0]
    return next((o for o in options if o[0] in PASS), options[0])


def _least(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    return min(options, key=lambda o: _card_worth(cat, o[0]) if o[0] in cat.cards else 50.0)


def _keep_order(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    def score(o: Option) -> float:
        card = cat.cards.get(o[0])
        return float(ORDER_KEEP.get(card.type, 0)) if card is not None else -1.0

    return max(options, key=score)


def _smuta(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    def score(o: Option) -> float:
        card = cat.cards.get(o[0])
        if card is None:
            return 0.5  # skip
        if card.type == "new_era" and not state.graveyard:
            return 0.0
        return float(SMUTA_WANT.get(card.type, 0))

    return max(options, key=score)


def _minstrel_lay(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    return max(options, key=lambda o: _card_worth(cat, o[0]) if o[0] in cat.cards else 0.1)


def _give(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    leader = _leader(state, cat, seat)
    return min(
        options,
        key=lambda o: (_card_worth(cat, o[0]), 0 if int(o[1]) == leader else 1),
    )


def _destroy(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    houses = {h.colour: h for h in state.players[seat].houses}
    return min(options, key=lambda o: len(houses[o[0]].cards) if o[0] in houses else 0)


def _servant(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    houses = {h.colour: h for h in state.players[seat].houses}

    def score(o: Option) -> tuple[int, int]:
        h = houses.get(o[0])
        if h is None:
            return (0, 0)
        return (int(any(cat.cards[c].type == "lord" for c in h.cards)), len(h.cards))

    return max(options, key=score)


def _house_end(state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]) -> Option:
    return ("right",) if ("right",) in options else options[0]


def _poison_discard(
    state: GameState, cat: Catalog, seat: int, options: tuple[Option, ...]
) -> Option:
    cheap = [o for o in options if o[0] in cat.cards and _card_worth(cat, o[0]) <= 0.5]
    pts = _points(state, cat)
    if cheap and max(p for s, p in enumerate(pts) if s != seat) >= pts[seat]:
        return cheap[0]
    return next((o for o in options if o[0] in PASS), options[0])


RULES = {
    "action": _action,
    "servant_side": _servant,
    "house_end": _house_end,
    "lady.take": _take,
    "ball.take": _take,
    "campaign.take": _take,
    "alchemist.kill": _take,
    "poison.target": _take,
    "priest.kill": _priest,
    "spy.target": _pick_seat,
    "minstrel.target": _pick_seat,
    "intrigue.target": _pick_seat,
    "mercenary.target": _pick_seat,
    "earthquake.target": _pick_seat,
    "plant_row": _pick_seat,
    "spy.discard": _keep_order,
    "intrigue.take": _keep_order,
    "power.order": _keep_order,
    "minstrel.lay": _minstrel_lay,
    "jester.smuta": _smuta,
    "prophet.smuta": _smuta,
    "destroy.order": _destroy,
    "fire.burn": _least,
    "conspiracy.give": _give,
    "poison.discard": _poison_discard,
}


def choose(state: GameState, decision: Decision) -> Option:
    options = tuple(decision.options)
    if len(options) == 1:
        return options[0]
    table = observe(state, decision.seat).table
    rule = RULES.get(decision.kind)
    if rule is None:
        return options[0]
    return rule(table, catalog_for(table.rules), decision.seat, options)
