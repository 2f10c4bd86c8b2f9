"""The *strong* level: normal's look-ahead on more worlds, and a search to the end of
the game once the game deck runs low — until a deadline, or within a budget.

Until the game deck is down to `StrongConfig.endgame_deck` cards, strong weighs
every option as normal does (`engine.ai.lookahead.ranked`), with more worlds
for an option whose outcome hangs on a hidden card. Then it searches:

1. Candidates: the best `candidates` options by that one-ply count (those
   within `margin` of the best).
2. Worlds: states the seat cannot tell from the real one, drawn from its
   observation (`engine.hidden`); every candidate meets the same worlds (common
   random numbers: the differences between candidates are not luck).
3. Rollouts: in each world a candidate is answered and the game played to its
   end by the heuristic player (`engine.ai.heuristic`) for every seat; the real result
   counts (score margin over the best other seat, and a bonus for a win).
4. Successive halving: after each pass over the worlds drawn so far, the worse
   half of the candidates is dropped and the survivors meet as many new worlds
   again, so the rollouts go to the options that are close, until two are left
   and have met their worlds (the schedule).
5. With a deadline and time left, the two meet `worlds` new worlds a pass
   until the leader is `settled` standard errors ahead of the other (paired
   over the worlds both met) or `max_worlds` are met.

**When it stops**: `stop`, a function asked before every rollout (and every
`STOP_EVERY` decisions within one, which is then dropped), says when
time is up — the bot's computer seats pass a wall-clock deadline (the engine
never reads a clock itself: the caller's `stop` does); the best so far is the
answer (stopped in the middle of a pass, the candidates are compared over the
worlds all of them met). Without `stop` the search runs in *budget mode*: the
schedule (1–4) alone, cut once its rollouts have played `StrongConfig.budget`
decisions, so the same observation and seed give the same answer (tests, the
honesty pairs, reproducible arenas). On a quiet core a deadline does what the
budget mode does and more (step 5); on a busy one it may cut the schedule.

**Luck is not a reason**: while the one-ply leader is still among the
candidates, the search's leader replaces it only when ahead by `overrule`
standard errors (paired over the worlds both met): among options the rollouts
cannot tell apart, the winner of a few noisy worlds is luck, and it was that
luck that had the old strong throw cards away and end turns with cards unlaid.

**No bad habits**: the search never turns a one-ply choice that keeps its cards
into a discard (`search_discards` off): the rollouts play the seat's own later
answers by the heuristic player, not by strong, so a line that keeps a card is
valued by what the heuristic would do with it — a Шут laid replays the смута the
heuristic ranks first, where strong would choose — and a discard that dodges
such a choice looked "ahead" by several standard errors for a gain that is not
there (BENCHMARKS.md, issue 28: 0.18–0.33 discards a game against normal's
0.04–0.15). Where the one-ply count itself leads with a discard, the search
weighs it against the best option that keeps the card, and the discard stands
only when ahead by `discard_gain` standard errors (a card thrown away is lost; a
tie keeps it). Likewise an end of the turn that the search prefers to the one-ply
leader (a lay, a draw) while a card that scores could be laid into the seat's own
row stands only when ahead by `end_gain` standard errors of the option it replaces:
with ~17 points of spread between two candidates' rollouts of one world and a few
dozen worlds a candidate, the best of five by the rollouts is often a lucky one, and
an end that keeps a card was that lucky one ~1 turn a game — re-weighed on 200 fresh
worlds those ends were no better than the one-ply leader (BENCHMARKS.md, issue 28,
2026-12-04). On the seat's last turn (the game deck empty) it never ends the
turn while a card that scores can still be laid into its own row — laid, it
counts; kept, it counts nothing.

Rollouts to the seat's next turn through the middle of the game were tried
(`midgame=True`) and did not measure better (BENCHMARKS.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.evaluate import DEFAULT, Weights, value
from engine.ai.lookahead import NormalConfig, ranked
from engine.ai.playout import ENDGAME_CAP, play_until_turn_of
from engine.api import playout_step
from engine.cards import catalog_for
from engine.core import Option
from engine.hidden import Observation, copy_state
from engine.turn import END_TURN

#: strong's weights: normal's count (a castle worth its points and protection)
STRONG_WEIGHTS = DEFAULT


@dataclass(frozen=True, slots=True)
class StrongConfig:
    candidates: int = 5  # the best options by one ply that the search weighs
    worlds: int = 16  # worlds in the first pass; each later pass adds as many again
    endgame_deck: int = 36  # with this few cards left in the game deck, play to the end
    samples: int = 6  # one ply: worlds for an option that hangs on a hidden card
    midgame: bool = False  # also search before the end game, rollouts to the next turn
    horizon: int = 160  # decisions in a rollout to the seat's next turn, at most
    margin: float = 6.0  # one-ply values this far below the best are not searched
    # budget mode (no `stop`): decisions played in a search's rollouts, at most —
    # about what a deadline of `engine.ai.STRONG_SECONDS` allows a core of its own
    budget: int = 20_000
    max_worlds: int = 128  # worlds a candidate meets, at most
    settled: float = 2.5  # two left: done once the leader is this many standard errors ahead
    discard_gain: float = 2.0  # a discard beats the best other only this many SEs ahead
    # an end of the turn the search chose over a one-ply lay or draw, while a card that
    # scores could be laid into the seat's own row, stands only this many SEs ahead of the
    # option it replaces (0: the strong before this guard, for before/after lines)
    end_gain: float = 2.0
    # may the search choose a discard where the one-ply leader keeps its cards? (off:
    # the rollouts' own-seat answers are the heuristic's, and a discard's "gain" there
    # was the heuristic's mistake dodged; on: the old strong, for before/after lines)
    search_discards: bool = False
    # the search's leader replaces the one-ply leader only this many SEs ahead of it: among
    # options the rollouts cannot tell apart, the winner of a few noisy worlds is luck
    overrule: float = 0.5
    weights: Weights = STRONG_WEIGHTS
    rollout_weights: Weights = DEFAULT


#: the configuration `strong` plays with (the arena may set another for experiments)
STRONG = StrongConfig()


def strong(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: StrongConfig | None = None,
    stop: Callable[[], bool] | None = None,
) -> Option:
    return search(obs, kind, options, seed, config, stop)[0]


def _lead(a: list[float], b: list[float], n: int) -> tuple[float, float]:
    """The mean of `a - b` over their first `n` worlds, and its standard error."""
    diffs = [a[k] - b[k] for k in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _is_discard(option: Option) -> bool:
    return option[0] == "discard"


def search(
    obs: Observation,
    kind: str,
    options: Sequence[Option],
    seed: int,
    config: StrongConfig | None = None,
    stop: Callable[[], bool] | None = None,
    budget: int | None = None,
) -> tuple[Option, bool]:
    """Strong's answer, and whether the search got as far as one whole pass over its
    first worlds: False when `stop` said time was up before (the answer is then the
    one-ply leader, or the leader of a partial pass: a caller should not trust it).

    It stops at `stop` (a deadline) or after `budget` decisions played in rollouts,
    whichever comes first; `budget` defaults to the configuration's without a
    `stop` (budget mode), to none with one (a deadline alone)."""
    if len(options) == 1:
        return options[0], True
    config = config or STRONG
    seat = obs.seat
    first = ranked(
        obs, kind, options, seed, NormalConfig(samples=config.samples, weights=config.weights)
    )
    order = {i: rank for rank, (_, i) in enumerate(first)}
    if stop is not None and stop():
        return options[first[0][1]], False
    endgame = len(obs.table.deck) <= config.endgame_deck
    best_value = first[0][0]
    candidates = [i for v, i in first[: config.candidates] if v >= best_value - config.margin]
    incumbent = first[0][1]  # the one-ply leader: while it is alive, the search must beat it
    if not config.search_discards and not _is_discard(options[incumbent]):
        candidates = [i for i in candidates if not _is_discard(options[i])]
    if candidates and _is_discard(options[candidates[0]]):
        # a discard leads: the best option that keeps the card is weighed against it
        keep = next((i for _, i in first if not _is_discard(options[i])), None)
        if keep is not None and keep not in candidates:
            candidates.append(keep)
    if len(candidates) <= 1 or config.worlds == 0 or not (endgame or config.midgame):
        return _last_turn(obs, kind, options, options[first[0][1]], order), True
    if budget is None and stop is None:
        budget = config.budget
    cat = catalog_for(obs.table.rules)
    values: dict[int, list[float]] = {i: [] for i in candidates}
    alive = candidates
    played = steps = 0
    batch = config.worlds
    finished = False  # one whole pass done

    def leader(n: int) -> int:
        def mean(i: int) -> float:
            return sum(values[i][:n]) / n

        return max(alive, key=lambda i: (mean(i), -order[i]))

    def best_of(pool: list[int], n: int) -> int:
        """The best of `pool` over the first `n` worlds (the one-ply order breaks ties)."""
        return max(pool, key=lambda i: (sum(values[i][:n]), -order[i]))

    def answer(n: int) -> Option:
        """The best candidate over the first `n` worlds, a discard only when clearly
        ahead of the best candidate that keeps its card."""
        if n == 0:
            return options[first[0][1]]
        best = leader(n)
        if best != incumbent and incumbent in alive:
            gain, se = _lead(values[best], values[incumbent], n)
            if gain <= config.overrule * se:
                best = incumbent
        if _is_discard(options[best]):
            keeping = [i for i in alive if not _is_discard(options[i])]
            if keeping:
                other = best_of(keeping, n)
                gain, se = _lead(values[best], values[other], n)
                if gain <= config.discard_gain * se:
                    best = other
        if (
            options[best] == END_TURN
            and options[incumbent] != END_TURN
            and config.end_gain > 0
            and _scoring_lays(obs, kind, options)
        ):
            # the search turns a lay or a draw into an end that keeps a card that scores:
            # only clearly ahead of what it replaces — the one-ply leader while it is
            # alive, else the best other option that is alive
            if incumbent in alive:
                other = incumbent
            else:
                rest = [i for i in alive if options[i] != END_TURN]
                other = best_of(rest, n) if rest else -1
            if other >= 0:
                gain, se = _lead(values[best], values[other], n)
                if gain <= config.end_gain * se:
                    best = other
        return _last_turn(obs, kind, options, options[best], order)

    while True:
        for k in range(played, played + batch):
            world = obs.world(seed + 1000 + k)
            for i in alive:
                if budget is not None and steps >= budget:
                    return answer(min(len(values[c]) for c in alive)), True
                if stop is not None and stop():
                    return answer(min(len(values[c]) for c in alive)), finished
                s = copy_state(world)
                ask = playout_step(s, options[i])
                if endgame:
                    steps += play_until_turn_of(s, ask, -1, ENDGAME_CAP, stop)
                else:
                    steps += play_until_turn_of(s, ask, seat, config.horizon, stop)
                if stop is not None and stop():
                    # time ran out within this rollout (or just at its end): dropped
                    return answer(min(len(values[c]) for c in alive)), finished
                values[i].append(value(s, seat, cat, config.rollout_weights))
        played += batch
        finished = True
        if played >= config.max_worlds:
            break
        if len(alive) > 2:
            # keep the better half (the one-ply order breaks ties), then meet new worlds
            ranked_alive = sorted(alive, key=lambda i: (-sum(values[i]), order[i]))
            kept = ranked_alive[: (len(alive) + 1) // 2]
            if _is_discard(options[kept[0]]) and all(_is_discard(options[i]) for i in kept):
                keep = next((i for i in ranked_alive if not _is_discard(options[i])), None)
                if keep is not None:
                    kept[-1] = keep
            alive = kept
            batch = min(played, config.max_worlds - played)
            continue
        if stop is None:
            break  # budget mode: the schedule ends when two are left and have met their worlds
        # with a deadline: the two meet new worlds while time is left, until one is clear
        best = leader(played)
        other = next(i for i in alive if i != best)
        gain, se = _lead(values[best], values[other], played)
        if gain > config.settled * se:
            break
        batch = min(config.worlds, config.max_worlds - played)
    return answer(played), True


def _scoring_lays(obs: Observation, kind: str, options: Sequence[Option]) -> list[int]:
    """The turn options that lay a card that scores into the seat's own row."""
    if kind != "action":
        return []
    cards = catalog_for(obs.table.rules).cards
    me = str(obs.seat)
    return [
        i for i, o in enumerate(options) if o[0] == "lay" and o[2] == me and cards[o[1]].points > 0
    ]


def _last_turn(
    obs: Observation, kind: str, options: Sequence[Option], chosen: Option, order: dict[int, int]
) -> Option:
    """On the seat's last turn (the game deck is empty: no turn of its comes again), a
    card that scores and can be laid into its own row is laid rather than the turn
    ended: in hand it counts nothing, laid it counts its points (what it may set off
    is the seat's own choice). The lay the one-ply count likes best."""
    if kind != "action" or chosen != END_TURN or obs.table.final_turns is None:
        return chosen
    lays = _scoring_lays(obs, kind, options)
    if not lays:
        return chosen
    return options[min(lays, key=lambda i: order[i])]
