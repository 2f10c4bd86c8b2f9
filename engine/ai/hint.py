"""A hint for a person: what the normal level would choose, and one reason for it.

    h = hint(state, decision)     # h.option, h.reason (a message key), h.params

The option is exactly the normal level's answer (`engine.ai.decide(…, "normal")`).
The reason comes from the normal level's own count (`engine.ai.evaluate.terms`):
the chosen option and the next best are each played on the same world, drawn
from what the seat has seen (never the real hidden cards), and the part of the
count that favours the choice most names the reason — a castle built, points
laid, a house kept out of a смута's way, the others weakened. Its parameters
are numbers and the seat's own or public facts (a castle's points, how many
points, a смута still to come: which смуты are out is public), never a card
the seat cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.ai import LEVELS
from engine.ai.evaluate import DEFAULT, terms
from engine.ai.lookahead import NormalConfig, played, ranked
from engine.cards import catalog_for
from engine.core import Decision, Option
from engine.hidden import mix, observe
from engine.state import GameState

#: reason keys (``hint-reason-<key>`` in locales/), each with the parameters it is
#: given, by the part of the count that decides, and for a few kinds of option
#: whatever the parts say
REASONS: dict[str, tuple[str, ...]] = {
    "castle": ("points",),  # a castle: its points, and its house is safe from смуты
    "points": ("points",),  # points on the table now
    "castle_soon": (),  # a house with a Лорд gets close to a castle
    "plague": (),  # Чума still to come: a house with a Чумовой may be lost
    "harlot": (),  # Инквизиция still to come: a house with a Блудница may be lost
    "earthquake": (),  # Землетрясение still to come: the left house may be taken
    "hand": (),  # cards in hand: more to lay later
    "castle_side": (),  # what the castle's permanent side will still do
    "others": (),  # it weakens the others
    "last_turn": ("points",),  # the game ends: lay what scores
    "best": (),  # no single part: the whole table is better
}
_BY_TERM = {
    "points": "points",
    "castles": "castle",
    "permanent": "castle_side",
    "castle_chance": "castle_soon",
    "harlot_risk": "harlot",
    "plague_risk": "plague",
    "left_risk": "earthquake",
    "hand": "hand",
    "others": "others",
}


@dataclass(frozen=True, slots=True)
class Hint:
    option: Option
    reason: str  # one of REASONS
    params: dict[str, int] = field(default_factory=dict)


def hint(state: GameState, decision: Decision) -> Hint:
    """What the normal level would answer to `decision` (pending in `state`), and why."""
    seat = decision.seat
    options = decision.options
    if len(options) == 1:
        return Hint(options[0], "best")
    obs = observe(state, seat)
    seed = mix(state.seed, decision.id, seat, LEVELS.index("normal"))
    order = ranked(obs, decision.kind, options, seed, NormalConfig())
    chosen = options[order[0][1]]
    if decision.kind == "action" and chosen[0] == "build":
        return Hint(chosen, "castle", {"points": state.rules.castle_points})
    if decision.kind == "action" and chosen[0] == "lay" and state.final_turns == 0:
        points = catalog_for(state.rules)[chosen[1]].points
        return Hint(chosen, "last_turn", {"points": points})
    runner_up = options[order[1][1]]
    world = obs.world(seed)
    cat = catalog_for(state.rules)
    mine = terms(played(world, chosen, seat, decision.kind), seat, cat, DEFAULT)
    other = terms(played(world, runner_up, seat, decision.kind), seat, cat, DEFAULT)
    gains = {t: mine[t] - other[t] for t in mine}
    gains["others"] = -gains["others"]  # the others' worth counts against the seat
    term, gain = max(gains.items(), key=lambda kv: kv[1])
    if gain <= 0.05:
        return Hint(chosen, "best")
    params = {"points": round(gain)} if term == "points" else {}
    return Hint(chosen, _BY_TERM[term], params)
