"""A one-ply greedy player written apart from the levels of `engine.ai`, for the arena.

The levels are measured against it so that *strong* is not tuned only against
its own family: it shares neither their evaluation (`engine.ai.evaluate`) nor
their rule player (`engine.ai.heuristic`). It is as honest as they are: it looks
ahead only in worlds re-dealt from what its seat has seen (`engine.hidden`).

Each option is played on a world; the seat's own questions that follow at once
(where to lay, which card to take…) are answered the same greedy way, one after
the other; then the table is scored: the seat's points on the table less the
best other seat's, plus half the points of the house cards in its hand, a point
for each order in hand, and a point for each house that is one card short of a
castle it could build. A draw is weighed on two worlds.
"""

from __future__ import annotations

from engine.api import playout_step
from engine.cards import Catalog, catalog_for
from engine.core import Ask, Decision, Option
from engine.hidden import copy_state, mix, observe
from engine.state import GameState

FOLLOW_UPS = 8  # the seat's own questions answered greedily after an option, at most


def score(state: GameState, seat: int, cat: Catalog) -> float:
    """How good the table is for `seat`, by this player's own count."""
    if state.result is not None:
        scores = state.result.scores
        others = max(s for i, s in enumerate(scores) if i != seat)
        return 100.0 * (seat in state.result.winners) + scores[seat] - others
    points = []
    for p in state.players:
        total = 0
        for h in p.houses:
            total += sum(cat[c].points for c in h.cards)
            if h.castle is not None:
                total += state.rules.castle_points
        points.append(total)
    me = state.players[seat]
    extra = 0.0
    for c in me.hand:
        card = cat[c]
        extra += 0.5 * card.points if card.kind == "house" else 1.0
    for h in me.houses:
        lord = any(cat[c].type == "lord" for c in h.cards)
        ready = len(h.cards) + 1 >= state.rules.castle_min_cards
        if h.castle is None and lord and ready and h.colour in state.castles:
            extra += 1.0
    best_other = max(p for i, p in enumerate(points) if i != seat)
    return points[seat] - best_other + extra


def _greedy(world: GameState, ask: Ask, seat: int, depth: int) -> tuple[float, int]:
    """(score, index) of the best option of `ask` (the seat's) in `world`."""
    cat = catalog_for(world.rules)
    best = (float("-inf"), 0)
    for i, option in enumerate(ask.options):
        s = copy_state(world)
        nxt = playout_step(s, option)
        v = _follow(s, nxt, seat, depth, cat)
        if v > best[0]:
            best = (v, i)
    return best


def _follow(s: GameState, ask: Ask | None, seat: int, depth: int, cat: Catalog) -> float:
    """Answer the seat's own follow-up questions greedily, then score the table."""
    while ask is not None and ask.seat == seat and ask.kind != "action" and depth > 0:
        depth -= 1
        if len(ask.options) == 1:
            ask = playout_step(s, ask.options[0])
            continue
        _, i = _greedy(s, ask, seat, 0)
        ask = playout_step(s, ask.options[i])
    return score(s, seat, cat)


def choose(state: GameState, decision: Decision) -> Option:
    """The greedy answer to `decision` (pending in `state`)."""
    if len(decision.options) == 1:
        return decision.options[0]
    seat = decision.seat
    obs = observe(state, seat)
    seed = mix(state.seed, decision.id, seat, 77)
    worlds = [obs.world(seed), obs.world(seed + 1)]
    cat = catalog_for(state.rules)
    best: tuple[float, int] = (float("-inf"), 0)
    for i, option in enumerate(decision.options):
        hidden = option[0] in ("draw", "order") or decision.kind.endswith(".target")
        total = 0.0
        used = worlds if hidden else worlds[:1]
        for world in used:
            s = copy_state(world)
            total += _follow(s, playout_step(s, option), seat, FOLLOW_UPS, cat)
        v = total / len(used)
        if v > best[0]:
            best = (v, i)
    return decision.options[best[1]]
