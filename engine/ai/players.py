"""The look-ahead players: *normal* (one ply) and *strong* (determinized Monte Carlo).

Both first re-deal everything the deciding seat cannot see (`engine.hidden.redeal`),
so they are honest: what they choose depends only on that seat's view, the game's
seed and the decision. Both count work, not time, so they are deterministic.

**normal** weighs every option on a re-dealt copy: it answers with the option,
lets the game run on — every further answer, the seat's own included, from the
rule player (`engine.ai.rules`) — up to the next turn action (anyone's) or the
end of the game (for an answer within a смута or a property: up to the first
question to another seat), and values the table with `engine.ai.evaluate.value`. An option
whose outcome hangs on a hidden card (a draw, a look at a hand, a random take)
is weighed on a few re-deals and averaged. So every kind of decision, every
смута's included, is answered by what it does to the table: taking, killing,
giving, laying a Слуга or a new house at one end are all valued by the same
count (the left house carries the risk of Землетрясение, houses with a Блудница
or a Чумовой the risk of Инквизиция and Чума while those may still come).

**strong** values tables with its own weights (`STRONG_WEIGHTS`: a hand is
worth only what can still be laid before the end, a castle's points count by
the chance that no disaster is left to return it, a permanent side by what it
will still do) in the same one-ply look-ahead; once the game deck is down to
`endgame_deck` cards it searches: it keeps the best few options and plays each
of them on in the same set of re-deals (common random numbers: every candidate
meets the same sampled worlds) to the end of the game, every seat answered by
the rule player, and takes the option with the best mean result (score margin
over the best other seat, and a bonus for a win). `StrongConfig` also has a
search through the mid-game (to the end of the turn, or to the seat's next
turn); it did not measure better (BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.ai import rules
from engine.ai.evaluate import DEFAULT, Weights, value
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Ask, Option
from engine.hidden import copy_state, redeal
from engine.state import GameState

#: decisions played on by the rule player after an option, at most
SETTLE_CAP = 80
#: decisions played on to the end of a game, at most
ENDGAME_CAP = 600


def settle(state: GameState, ask: Ask | None, seat: int | None = None) -> None:
    """Play on from `ask` with the rule player up to the next turn action or the end —
    or, given `seat`, up to the first question to another seat."""
    for _ in range(SETTLE_CAP):
        if ask is None or ask.kind == "action" or (seat is not None and ask.seat != seat):
            return
        ask = playout_step(state, rules.answer(state, ask.seat, ask.kind, ask.options))


def play_until_turn_of(state: GameState, ask: Ask | None, seat: int, cap: int) -> None:
    """Play on from `ask` with the rule player until `seat`'s next turn starts (its
    first action with no action taken yet), the end, or `cap` decisions."""
    for _ in range(cap):
        if ask is None:
            return
        if ask.kind == "action" and ask.seat == seat and state.actions_taken == 0:
            return
        ask = playout_step(state, rules.answer(state, ask.seat, ask.kind, ask.options))


def play_out_turn(state: GameState, ask: Ask | None, seat: int, cap: int) -> None:
    """Play on from `ask` with the rule player until another seat's turn starts, the
    end, or `cap` decisions."""
    for _ in range(cap):
        if ask is None or (ask.kind == "action" and ask.seat != seat):
            return
        ask = playout_step(state, rules.answer(state, ask.seat, ask.kind, ask.options))


def hangs_on_hidden(kind: str, option: Option) -> bool:
    """Does the outcome of this option depend on a card the seat cannot see?"""
    if kind == "action":
        return option[0] in ("draw", "order")
    return kind in ("spy.target", "minstrel.target", "intrigue.target", "mercenary.target")


@dataclass(frozen=True, slots=True)
class NormalConfig:
    samples: int = 3  # re-deals for an option that hangs on a hidden card
    weights: Weights = DEFAULT


#: strong's own weights (normal keeps `DEFAULT`): hands valued by the turns left to
#: lay them, castles by their chance to outlast the disasters, permanent sides by
#: what they will still do
STRONG_WEIGHTS = Weights(
    timed_hand=True,
    castle_survival=True,
    permanent_orange=2.0,
    permanent_red=1.5,
    permanent_other=0.5,
)


@dataclass(frozen=True, slots=True)
class StrongConfig:
    candidates: int = 4  # the best options by the one-ply look-ahead searched further
    worlds: int = 16  # re-deals each candidate is played in (0: one ply only)
    horizon: int = 60  # decisions at most in each look-ahead
    until: str = "next_turn"  # look ahead to the seat's next turn, or "turn_end" of this one
    # with this few cards left in the game deck, look ahead to the end of the game
    endgame_deck: int = 15
    endgame_only: bool = True  # search only then (one ply before)
    weights: Weights = STRONG_WEIGHTS


#: the configuration `strong` plays with (the arena may set another for experiments)
STRONG = StrongConfig()


def _one_ply(world: GameState, option: Option, seat: int, kind: str, w: Weights) -> float:
    s = copy_state(world)
    ask = playout_step(s, option)
    # a turn action is followed to the next one (a смута drawn is played out); an
    # answer within a смута or a property only as far as this seat's own part
    settle(s, ask, None if kind == "action" else seat)
    return value(s, seat, catalog_for(s.rules), w)


def ranked(
    state: GameState,
    seat: int,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: NormalConfig,
) -> list[tuple[float, int]]:
    """(value, index) of every option by normal's one-ply look-ahead, best first."""
    world = redeal(state, seat, seed)
    more: list[GameState] = []
    scored: list[tuple[float, int]] = []
    # options that differ only in which of two alike cards of the seat's hand they
    # use (two Пажи of one colour) have one value: weigh it once
    cat = catalog_for(state.rules)
    hand = set(state.players[seat].hand)
    seen: dict[Option, float] = {}
    for i, option in enumerate(options):
        key = tuple(cat.cards[p].type_key if p in hand else p for p in option)
        if key in seen:
            scored.append((seen[key], i))
            continue
        if hangs_on_hidden(kind, option) and config.samples > 1:
            if not more:
                more = [redeal(state, seat, seed + k) for k in range(1, config.samples)]
            v = sum(_one_ply(wd, option, seat, kind, config.weights) for wd in (world, *more))
            v /= config.samples
        else:
            v = _one_ply(world, option, seat, kind, config.weights)
        seen[key] = v
        scored.append((v, i))
    # best value first; on a tie the earlier option
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def normal(
    state: GameState,
    seat: int,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: NormalConfig = NormalConfig(),
) -> Option:
    if len(options) == 1:
        return options[0]
    return options[ranked(state, seat, kind, options, seed, config)[0][1]]


def strong(
    state: GameState,
    seat: int,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: StrongConfig | None = None,
) -> Option:
    if len(options) == 1:
        return options[0]
    config = config or STRONG
    first = ranked(state, seat, kind, options, seed, NormalConfig(weights=config.weights))
    endgame = len(state.deck) <= config.endgame_deck
    searched = config.worlds and (endgame or not config.endgame_only)
    candidates = [i for _, i in first[: config.candidates]] if searched else []
    if len(candidates) <= 1:
        return options[first[0][1]]
    totals = dict.fromkeys(candidates, 0.0)
    cat = catalog_for(state.rules)
    for k in range(config.worlds):
        world = redeal(state, seat, seed + 1000 + k)
        for i in candidates:
            s = copy_state(world)
            ask = playout_step(s, options[i])
            if endgame:
                play_until_turn_of(s, ask, -1, ENDGAME_CAP)  # to the end of the game
            elif config.until == "turn_end":
                play_out_turn(s, ask, seat, config.horizon)
            else:
                play_until_turn_of(s, ask, seat, config.horizon)
            totals[i] += value(s, seat, cat, config.weights)
    # the best mean; on a tie normal's order decides
    order = {i: rank for rank, (_, i) in enumerate(first)}
    best = max(candidates, key=lambda i: (totals[i], -order[i]))
    return options[best]
