"""How good a table is for one seat: a material count with a few weights.

A seat's *worth* is what it would score now (card points and castles) plus a
share of what it holds in hand, less the risk that a смута still to come takes
something away; the *value* of a table for a seat is its worth less a mix of
the best and the mean worth of the others (the game is won by being first).
The weights live in `Weights`, so they can be tuned by self-play.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Catalog
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class Weights:
    hand_house: float = 0.55  # share of a house card's points while it is in hand
    hand_card: float = 0.25  # any card in hand: a choice later
    lord_in_hand: float = 0.6  # a Лорд in hand: a castle later
    ball: float = 1.6
    infirmary: float = 0.7
    marriage: float = 0.3
    merchant_ready: float = 1.8  # a Купец whose castle this seat could build soon
    merchant: float = 0.3
    castle_bonus: float = 1.0  # a castle is worth its points and this
    castle_chance: float = 0.8  # a house with a Лорд and 2+ cards and no castle
    harlot_risk: float = 0.25  # share of a house lost to Инквизиция while it may come
    plague_risk: float = 0.25  # share of a house lost to Чума while it may come
    left_risk: float = 0.08  # share of the left house Землетрясение may take
    late_hand: float = 0.35  # hand shares kept once the game deck is empty
    leader: float = 0.6  # weight of the best other worth (the rest: the mean)
    # Time-aware hands: a card in hand is worth something only if it can still be
    # laid. When on, the hand's worth is scaled by how many cards the seat can
    # still lay (about `lays_per_turn` a turn over the turns it has left, those
    # guessed from the game deck at `deck_per_turn` cards a turn) over its hand.
    timed_hand: bool = False
    lays_per_turn: float = 1.5
    deck_per_turn: float = 1.1
    # a castle's permanent side, for what it will still do (scaled by the game deck
    # left): Замок Торговли's fourth action, Замок Власти's new turn, the others' captures
    permanent_orange: float = 0.0
    permanent_red: float = 0.0
    permanent_other: float = 0.0
    # Every disaster (Засуха, Землетрясение, Пожар, Чума) returns all castles: while
    # one may still come, a castle's points are likely lost. When on, a castle's
    # points count by that chance, its protection by `castle_bonus` as before.
    castle_survival: bool = False
    disaster_in_discard: float = 0.8  # a castle's chance per disaster Шут or Пророк may replay


DEFAULT = Weights()
DISASTERS = frozenset({"drought", "earthquake", "fire", "pestilence"})


@dataclass(slots=True)
class _Context:
    """What every seat's worth reads of the table, worked out once per valuation."""

    castle_worth: float
    chance_scale: float
    inquisition: float
    pestilence: float
    earthquake: float
    hand_scale: float
    time_left: float


def _context(state: GameState, cat: Catalog, w: Weights) -> _Context:
    cards = cat.cards
    castle_points = state.rules.castle_points
    # смуты that may still strike: in the deck, or in the discard (Шут, Пророк)
    to_come = {cards[c].type for c in state.deck if cards[c].kind == "smuta"}
    replayable = {cards[c].type for c in state.smuta_discard}
    castle_worth = float(castle_points)
    if w.castle_survival:
        if DISASTERS & to_come:
            castle_worth = 0.0
        else:
            castle_worth *= w.disaster_in_discard ** len(DISASTERS & replayable)

    def threat(name: str) -> float:
        return 1.0 if name in to_come else 0.3 if name in replayable else 0.0

    return _Context(
        castle_worth=castle_worth,
        chance_scale=(castle_worth + w.castle_bonus) / (castle_points + w.castle_bonus),
        inquisition=threat("inquisition"),
        pestilence=threat("pestilence"),
        earthquake=threat("earthquake"),
        hand_scale=w.late_hand if state.final_turns is not None else 1.0,
        time_left=len(state.deck) / 85.0,  # 1 at the start, 0 once the game deck is empty
    )


#: the parts of a seat's worth (`terms`), in the order they are added up
TERMS = (
    "points",  # card points in houses
    "castles",  # castles: their points and the protection they give
    "permanent",  # what a castle's permanent side will still do
    "castle_chance",  # a house with a Лорд one card short of a castle
    "harlot_risk",  # a Блудница's house while Инквизиция may come
    "plague_risk",  # a Чумовой's house while Чума may come
    "left_risk",  # the left house while Землетрясение may come
    "hand",  # the cards in hand
)


def _seat_worth(
    state: GameState,
    cat: Catalog,
    w: Weights,
    ctx: _Context,
    seat: int,
    terms: dict[str, float] | None = None,
) -> float:
    cards = cat.cards
    supply = state.castles
    min_cards = state.rules.castle_min_cards
    p = state.players[seat]
    hand_scale = _hand_scale(state, seat, len(state.players), w) if w.timed_hand else ctx.hand_scale
    total = 0.0
    lord_houses: set[str] = set()
    for i, h in enumerate(p.houses):
        pts = 0
        lord = harlot = plague = healer = False
        for c in h.cards:
            card = cards[c]
            pts += card.points
            t = card.type
            if t == "lord":
                lord = True
            elif t == "harlot":
                harlot = True
            elif t == "plague":
                plague = True
            elif t == "healer":
                healer = True
        total += pts
        if terms is not None:
            terms["points"] += pts
        if h.castle is not None:
            total += ctx.castle_worth + w.castle_bonus
            side = 0.0
            if h.castle == "permanent":
                if h.colour == "orange":
                    side = w.permanent_orange * ctx.time_left
                elif h.colour == "red":
                    side = w.permanent_red * ctx.time_left
                else:
                    side = w.permanent_other * ctx.time_left
            total += side
            if terms is not None:
                terms["castles"] += ctx.castle_worth + w.castle_bonus
                terms["permanent"] += side
            continue
        if lord:
            lord_houses.add(h.colour)
            if len(h.cards) >= min_cards - 1 and h.colour in supply:
                total += w.castle_chance * ctx.chance_scale
                if terms is not None:
                    terms["castle_chance"] += w.castle_chance * ctx.chance_scale
        if harlot and ctx.inquisition:
            total -= w.harlot_risk * ctx.inquisition * pts
            if terms is not None:
                terms["harlot_risk"] -= w.harlot_risk * ctx.inquisition * pts
        if plague and not healer and ctx.pestilence:
            total -= w.plague_risk * ctx.pestilence * pts
            if terms is not None:
                terms["plague_risk"] -= w.plague_risk * ctx.pestilence * pts
        if i == 0 and ctx.earthquake and len(p.houses) > 1:
            total -= w.left_risk * ctx.earthquake * pts
            if terms is not None:
                terms["left_risk"] -= w.left_risk * ctx.earthquake * pts
    hand_total = 0.0
    for c in p.hand:
        card = cards[c]
        t = card.type
        v = w.hand_card
        if card.kind == "house":
            v += w.hand_house * card.points
            if t == "lord":
                v += w.lord_in_hand
        elif t == "ball":
            v += w.ball
        elif t == "infirmary":
            v += w.infirmary
        elif t == "marriage":
            v += w.marriage
        elif t == "merchant":
            colour = card.colours[0]
            v += w.merchant_ready if colour in lord_houses and colour in supply else w.merchant
        hand_total += v
    if terms is not None:
        terms["hand"] += hand_scale * hand_total
    return total + hand_scale * hand_total


def worths(state: GameState, cat: Catalog, w: Weights = DEFAULT) -> list[float]:
    """Every seat's worth."""
    ctx = _context(state, cat, w)
    return [_seat_worth(state, cat, w, ctx, seat) for seat in range(len(state.players))]


def terms(state: GameState, seat: int, cat: Catalog, w: Weights = DEFAULT) -> dict[str, float]:
    """`seat`'s worth part by part (`TERMS`), and ``others``: the others' part of
    `value` (less is better for `seat`)."""
    parts = dict.fromkeys(TERMS, 0.0)
    ctx = _context(state, cat, w)
    _seat_worth(state, cat, w, ctx, seat, parts)
    others = [_seat_worth(state, cat, w, ctx, s) for s in range(len(state.players)) if s != seat]
    parts["others"] = w.leader * max(others) + (1.0 - w.leader) * sum(others) / len(others)
    return parts


def _hand_scale(state: GameState, seat: int, n: int, w: Weights) -> float:
    """The share of `seat`'s hand it can still lay before the game ends."""
    hand = len(state.players[seat].hand)
    if hand == 0:
        return 1.0
    if state.final_turns is None:
        turns = 1.0 + len(state.deck) / (w.deck_per_turn * n)
        capacity = turns * w.lays_per_turn
    else:
        # the last round: seats after the current one, `final_turns` of them, still play
        ahead = (seat - state.current) % n
        if ahead == 0:
            capacity = float(state.actions_left)
        elif ahead <= state.final_turns:
            capacity = float(state.rules.actions_per_turn)
        else:
            capacity = 0.0
    return min(1.0, capacity / hand)


def final_value(state: GameState, seat: int) -> float:
    """A finished game: 1 for a win (shared wins split), less the margin behind the best."""
    result = state.result
    assert result is not None
    best = max(result.scores)
    win = 1.0 / len(result.winners) if seat in result.winners else 0.0
    others = result.scores[:seat] + result.scores[seat + 1 :]
    return result.scores[seat] - max(others) + 5.0 * win + 0.0 * best


def value(state: GameState, seat: int, cat: Catalog, w: Weights = DEFAULT) -> float:
    """The table's value for `seat`: its worth against the others'."""
    if state.result is not None:
        return final_value(state, seat)
    ws = worths(state, cat, w)
    mine = ws[seat]
    others = ws[:seat] + ws[seat + 1 :]
    return mine - w.leader * max(others) - (1.0 - w.leader) * sum(others) / len(others)
