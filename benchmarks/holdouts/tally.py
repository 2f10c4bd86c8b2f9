"""A one-ply greedy hold-out with its own count (`worth`).

Each distinct option (two alike cards of the hand are one option) is answered
on a world re-dealt from what the seat sees; the seat's own questions that
follow at once (where a house goes, which card to take …) are answered the same
greedy way; then the table is counted. A draw from either deck, and a look at
or a take from a hidden hand, is weighed on three worlds and averaged.

The count is its own, unlike `engine.ai.evaluate` and `benchmarks.greedy`: a
seat's worth is its points on the table, a castle's points and 1.5 more for
the protection; a house with a Лорд and no castle is worth a third of a point
a card it holds (a castle coming); a house holding an opponent's Чумовой or
Блудница loses a point; the hand counts 0.35 of each house card's points, 1
for a Лорд, 0.9 an order, 1.2 a Купец whose house holds a Лорд. The value of
a table is the seat's worth less the *mean* of the others' (not the best
other's): this player plays for its share of the table, not against the
leader. A finished game: 40 for a win, plus the margin over the mean.
"""

from __future__ import annotations

from engine.api import playout_step
from engine.cards import PLANTABLE, Catalog, catalog_for
from engine.core import Ask, Decision, Option
from engine.hidden import Observation, copy_state, mix, observe
from engine.state import GameState

FOLLOW_UPS = 6  # the seat's own questions answered greedily after an option, at most
HIDDEN_WORLDS = 3
SALT = 0x7A11  # this player's own stream of worlds


def _seat_worth(state: GameState, seat: int, cat: Catalog, own_hand: bool) -> float:
    cards = cat.cards
    p = state.players[seat]
    total = 0.0
    lord_colours: set[str] = set()
    for h in p.houses:
        pts = 0
        lord = False
        planted = False
        for c in h.cards:
            card = cards[c]
            pts += card.points
            lord = lord or card.type == "lord"
            planted = planted or card.type in PLANTABLE
        total += pts
        if h.castle is not None:
            total += state.rules.castle_points + 1.5
        elif lord:
            total += len(h.cards) / 3.0
            lord_colours.add(h.colour)
        if planted and h.castle is None:
            total -= 1.0
    if own_hand:
        for c in p.hand:
            card = cards[c]
            if card.kind == "house":
                total += 1.0 if card.type == "lord" else 0.35 * card.points
            elif card.type == "merchant":
                total += 1.2 if card.colours[0] in lord_colours else 0.4
            else:
                total += 0.9
    else:
        total += 0.5 * len(p.hand)  # another's hand, by its size only
    return total


def worth(state: GameState, seat: int, cat: Catalog) -> float:
    """How good the table is for `seat`, by this player's count."""
    n = len(state.players)
    if state.result is not None:
        scores = state.result.scores
        mean_other = (sum(scores) - scores[seat]) / (n - 1)
        return 40.0 * (seat in state.result.winners) + scores[seat] - mean_other
    mine = _seat_worth(state, seat, cat, True)
    others = [_seat_worth(state, s, cat, False) for s in range(n) if s != seat]
    return mine - sum(others) / len(others)


def _follow(s: GameState, ask: Ask | None, seat: int, depth: int, cat: Catalog) -> float:
    while ask is not None and ask.seat == seat and ask.kind != "action" and depth > 0:
        depth -= 1
        if len(ask.options) == 1:
            ask = playout_step(s, ask.options[0])
            continue
        best_i, best_v = 0, float("-inf")
        for i, option in enumerate(ask.options):
            t = copy_state(s)
            v = _follow(t, playout_step(t, option), seat, 0, cat)
            if v > best_v:
                best_i, best_v = i, v
        ask = playout_step(s, ask.options[best_i])
    return worth(s, seat, cat)


def _hidden(kind: str, option: Option) -> bool:
    return option[0] in ("draw", "order") or kind.endswith(".target")


def rank(obs: Observation, kind: str, options: tuple[Option, ...], seed: int) -> list[float]:
    """This player's value of every option."""
    seat = obs.seat
    cat = catalog_for(obs.table.rules)
    worlds = [obs.world(seed + k) for k in range(HIDDEN_WORLDS)]
    hand = set(obs.table.players[seat].hand)
    seen: dict[tuple[str, ...], float] = {}
    out = []
    for option in options:
        key = tuple(cat.cards[p].type_key if p in hand else p for p in option)
        if key not in seen:
            used = worlds if _hidden(kind, option) else worlds[:1]
            total = 0.0
            for world in used:
                s = copy_state(world)
                total += _follow(s, playout_step(s, option), seat, FOLLOW_UPS, cat)
            seen[key] = total / len(used)
        out.append(seen[key])
    return out


def choose(state: GameState, decision: Decision) -> Option:
    options = decision.options
    if len(options) == 1:
        return options[0]
    obs = observe(state, decision.seat)
    values = rank(obs, decision.kind, tuple(options), mix(state.seed, decision.id, SALT))
    best = max(range(len(options)), key=lambda i: (values[i], -i))
    return options[best]
