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


def worths(state: GameState, cat: Catalog, w: Weights = DEFAULT) -> list[float]:
    """Every seat's worth."""
    cards = cat.cards
    castle_points = state.rules.castle_points
    min_cards = state.rules.castle_min_cards
    supply = state.castles
    # смуты that may still strike: in the deck, or in the discard (Шут, Пророк)
    to_come = {cards[c].type for c in state.deck if cards[c].kind == "smuta"}
    replayable = {cards[c].type for c in state.smuta_discard}
    castle_worth = float(castle_points)
    if w.castle_survival:
        if DISASTERS & to_come:
            castle_worth = 0.0
        else:
            castle_worth *= w.disaster_in_discard ** len(DISASTERS & replayable)
    chance_scale = (castle_worth + w.castle_bonus) / (castle_points + w.castle_bonus)
    inquisition = 1.0 if "inquisition" in to_come else 0.3 if "inquisition" in replayable else 0.0
    pestilence = 1.0 if "pestilence" in to_come else 0.3 if "pestilence" in replayable else 0.0
    earthquake = 1.0 if "earthquake" in to_come else 0.3 if "earthquake" in replayable else 0.0
    late = state.final_turns is not None
    hand_scale = w.late_hand if late else 1.0
    n = len(state.players)
    time_left = len(state.deck) / 85.0  # 1 at the start, 0 once the game deck is empty
    out: list[float] = []
    for seat, p in enumerate(state.players):
        if w.timed_hand:
            hand_scale = _hand_scale(state, seat, n, w)
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
            if h.castle is not None:
                total += castle_worth + w.castle_bonus
                if h.castle == "permanent":
                    if h.colour == "orange":
                        total += w.permanent_orange * time_left
                    elif h.colour == "red":
                        total += w.permanent_red * time_left
                    else:
                        total += w.permanent_other * time_left
                continue
            if lord:
                lord_houses.add(h.colour)
                if len(h.cards) >= min_cards - 1 and h.colour in supply:
                    total += w.castle_chance * chance_scale
            if harlot and inquisition:
                total -= w.harlot_risk * inquisition * pts
            if plague and not healer and pestilence:
                total -= w.plague_risk * pestilence * pts
            if i == 0 and earthquake and len(p.houses) > 1:
                total -= w.left_risk * earthquake * pts
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
        out.append(total + hand_scale * hand_total)
    return out


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
