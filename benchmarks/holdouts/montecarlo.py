"""A flat Monte-Carlo hold-out: the same share of playouts for every option.

For a decision, each distinct option (two alike cards of the hand are one
option) gets `PLAYOUTS // options` playouts, at least one; when there are more
distinct options than playouts, a seeded random `PLAYOUTS` of them get one
each. A playout draws a world from what the seat sees
(`engine.hidden.observe` → `world`; the k-th playout of every option meets
the same world), answers the option, then plays every seat
by a quick policy of its own until the seat's next turn starts (or the game
ends, or `HORIZON` decisions), and counts the table. The best mean wins.

The quick policy: in a turn, lay the house card worth most (a random one among
equals, never a 0-point card into one's own row), else draw from the game deck,
else end the turn; any other question is answered at random.

The count: points on the table (a castle its points and 1), 0.4 a card in hand,
less 0.7 of the best other seat's and 0.3 of the mean; a finished game: 25 for
a win, plus the margin over the best other.
"""

from __future__ import annotations

import random

from engine.api import playout_step
from engine.cards import Catalog, catalog_for
from engine.core import Ask, Decision, Option
from engine.hidden import mix, observe
from engine.state import GameState

PLAYOUTS = 12
HORIZON = 70
SALT = 0x3C0


def count(state: GameState, seat: int, cat: Catalog) -> float:
    n = len(state.players)
    if state.result is not None:
        scores = state.result.scores
        best = max(s for i, s in enumerate(scores) if i != seat)
        return 25.0 * (seat in state.result.winners) + scores[seat] - best
    cp = state.rules.castle_points + 1
    worth = []
    for p in state.players:
        total = 0.4 * len(p.hand)
        for h in p.houses:
            total += sum(cat.cards[c].points for c in h.cards)
            if h.castle is not None:
                total += cp
        worth.append(total)
    others = [worth[s] for s in range(n) if s != seat]
    return worth[seat] - 0.7 * max(others) - 0.3 * sum(others) / len(others)


def quick(state: GameState, ask: Ask, cat: Catalog, r: random.Random) -> Option:
    options = ask.options
    if len(options) == 1:
        return options[0]
    if ask.kind != "action":
        return options[r.randrange(len(options))]
    best: list[Option] = []
    best_points = 0
    draw: Option | None = None
    for o in options:
        if o[0] == "lay":
            pts = cat.cards[o[1]].points
            if pts == 0 and int(o[2]) == ask.seat:
                continue
            if pts > best_points:
                best, best_points = [o], pts
            elif pts == best_points and pts > 0:
                best.append(o)
        elif o[0] == "draw":
            draw = o
    if best:
        return best[r.randrange(len(best))]
    if draw is not None:
        return draw
    if ("end",) in options:
        return ("end",)
    return options[r.randrange(len(options))]


def playout(s: GameState, ask: Ask | None, seat: int, cat: Catalog, r: random.Random) -> float:
    for _ in range(HORIZON):
        if ask is None:
            break
        if ask.kind == "action" and ask.seat == seat and s.actions_taken == 0:
            break
        ask = playout_step(s, quick(s, ask, cat, r))
    return count(s, seat, cat)


def choose(state: GameState, decision: Decision) -> Option:
    options = decision.options
    if len(options) == 1:
        return options[0]
    seat = decision.seat
    obs = observe(state, seat)
    cat = catalog_for(state.rules)
    hand = set(obs.table.players[seat].hand)
    distinct: dict[tuple[str, ...], int] = {}
    for i, o in enumerate(options):
        distinct.setdefault(tuple(cat.cards[p].type_key if p in hand else p for p in o), i)
    tried = list(distinct.values())
    seed = mix(state.seed, decision.id, seat, SALT)
    r = random.Random(seed)
    if len(tried) > PLAYOUTS:
        tried = sorted(r.sample(tried, PLAYOUTS))
    each = max(1, PLAYOUTS // len(tried))
    best_i, best_v = tried[0], float("-inf")
    for i in tried:
        total = 0.0
        for k in range(each):
            s = obs.world(seed + k)  # every option meets the same worlds
            total += playout(s, playout_step(s, options[i]), seat, cat, r)
        if total / each > best_v:
            best_i, best_v = i, total / each
    return options[best_i]
