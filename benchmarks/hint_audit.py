"""The hint audit (issue 24): are «💡 Подсказка»'s reasons true, concrete, and is the move strong's?

    python -m benchmarks.hint_audit --positions 2000 [--seed 1] [--every 3] [--budget 1.0]

Plays seeded computer games (normal at every seat; 2 to 5 players in turn) and,
at every `every`-th decision with two options or more — a decision a person
would face — asks for the hint as the bot does (`engine.ai.hint.hint`, with a
wall-clock budget of `budget` seconds from the press), until `positions` are
audited. Prints one JSON line:

- `false`: reasons false in the position, by what is false — checked here apart
  from the code that gives them (`falsity`): a number that is not the laid
  card's, the castle's, the taken or lost card's, the graveyard top's, the hand's
  or the game deck's; a reason for another kind of move than the one advised; a
  «later» reason on the last round (the game deck empty); a смута named as still
  to come that is out; a target that does not hold the most cards;
- `generic`: reasons that tell no concrete fact (`engine.ai.hint.GENERIC`),
  their share, and the moves they were given for (a turn's action by its verb);
- `strong_in_time`: hints whose search finished within the budget, and
  `agree`: of those, how many advise what `decide(…, "strong")` (no deadline)
  chooses; `fell_back`: hints that ran out of time (the normal level's move);
- `ms_mean`, `ms_p99`: the time of one hint (wall clock, this process);
- `reasons`: how often each reason was given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

from engine import Decision, GameSetup, GameState, apply, new_game, pending
from engine.ai import decide
from engine.ai.hint import GENERIC, LATER, Hint, hint
from engine.cards import catalog_for

#: смуты a reason names as still in the game deck
_NAMES = {
    "plant_plague": "pestilence",
    "cleanse_plague": "pestilence",
    "plague": "pestilence",
    "plant_harlot": "inquisition",
    "harlot": "inquisition",
    "earthquake": "earthquake",
    "end_left": "earthquake",
    "end_right": "campaign",
    "cleanse_harlot": "inquisition",
}
#: смуты a reason names as out of the game deck
_OUT = {"end_quake_out": "earthquake", "end_campaign_out": "campaign"}


def _to_come(state: GameState) -> set[str]:
    cat = catalog_for(state.rules)
    return {cat[c].type for c in state.deck if cat[c].kind == "smuta"}


def falsity(state: GameState, d: Decision, h: Hint) -> str | None:
    """What is false in `h`'s reason in this position (the real one), or None."""
    cat = catalog_for(state.rules)
    o, r, p = h.option, h.reason, h.params
    me = state.players[d.seat]
    lay = d.kind == "action" and o[0] == "lay"
    if r in LATER and state.final_turns is not None:
        return "later_on_last_round"
    if r in _NAMES and _NAMES[r] not in _to_come(state):
        return "smuta_not_to_come"
    if r == "hand" and (d.kind == "action" and o[0] in ("lay", "discard", "play", "build")):
        return "hand_but_gives_a_card"
    if r == "castle_side" and "permanent" not in o:
        return "side_not_permanent"
    if r in _OUT and _OUT[r] in _to_come(state):
        return "smuta_not_out"
    if r == "castle":
        if not (d.kind == "action" and o[0] == "build"):
            return "castle_not_build"
        return None if p["points"] == state.rules.castle_points else "castle_points"
    if r in ("lay", "lay_lord", "lay_castle_ready", "lay_property"):
        if not lay or int(o[2]) != d.seat:
            return "points_not_lay"
        if p["points"] != cat[o[1]].points or p["points"] == 0:
            return "points_not_card"
        if r == "lay_lord" and cat[o[1]].type != "lord":
            return "lord_not_lord"
        return None
    if r in ("plant", "plant_plague", "plant_harlot"):
        card = o[1] if lay else d.params.get("card")
        target = int(o[2]) if lay else int(o[0])
        if card is None or target == d.seat or cat[card].points != 0:
            return "plant_not_plant"
        house = [h for h in state.players[target].houses if h.colour == cat[card].colours[0]]
        healed = bool(house) and any(cat[c].type == "healer" for c in house[0].cards)
        if r == "plant_plague" and healed:
            return "plague_house_has_healer"
        return None
    if r == "draw":
        if not (d.kind == "action" and o[0] == "draw"):
            return "draw_not_draw"
        if state.deck_top_open:
            return "draw_takes_a_smuta_face_up"
        return None if p["n"] == len(me.hand) else "draw_hand"
    if r == "order_merchant":
        if not (d.kind == "action" and o[0] == "order"):
            return "order_not_order"
        return None if p["n"] == len(state.orders) else "order_count"
    if r == "infirmary":
        if not (d.kind == "action" and o[0] == "play" and cat[o[1]].type == "infirmary"):
            return "infirmary_not_played"
        top = state.graveyard[0] if state.graveyard else None
        return None if top is not None and p["points"] == cat[top].points else "infirmary_points"
    if r == "ball":
        if not (d.kind == "action" and o[0] == "play" and cat[o[1]].type == "ball"):
            return "ball_not_played"
        return None if p["n"] >= 1 else "ball_count"
    if r in ("end_risk", "order_safe"):
        if o != (("end",) if r == "end_risk" else ("order",)):
            return "deck_reason_not_its_move"
        smuty = sum(cat[c].kind == "smuta" for c in state.deck)
        return None if (p["deck"], p["smuty"]) == (len(state.deck), smuty) else "deck_counts"
    if r == "discard_zero":
        if not (d.kind == "action" and o[0] == "discard"):
            return "discard_not_discard"
        return None if cat[o[1]].points == 0 else "discard_points"
    if r == "take":
        card = o[1] if len(o) == 2 else o[0]
        if card not in cat.cards or d.kind not in (
            "lady.take",
            "ball.take",
            "campaign.take",
            "minstrel.lay",
        ):
            return "take_not_take"
        return None if p["points"] == cat[card].points else "take_points"
    if r == "kill":
        if d.kind not in ("alchemist.kill", "priest.kill", "poison.target") or len(o) != 2:
            return "kill_not_kill"
        if int(o[0]) == d.seat:
            return "kill_own"
        return None if p["points"] == cat[o[1]].points else "kill_points"
    if r == "cheapest":
        cards = [x[0] for x in d.options if x[0] in cat.cards]
        if o[0] not in cards:
            return "cheapest_not_card"
        return None if p["points"] == min(cat[c].points for c in cards) else "cheapest_points"
    if r == "quake":
        if d.kind != "earthquake.target":
            return "quake_not_quake"
        houses = state.players[int(o[0])].houses
        points = sum(cat[c].points for c in houses[0].cards) if houses else -1
        return None if p["points"] == points else "quake_points"
    if r == "target_points":

        def points(seat: int) -> int:
            houses = state.players[seat].houses
            castles = sum(h.castle is not None for h in houses) * state.rules.castle_points
            return castles + sum(cat[c].points for h in houses for c in h.cards)

        scores = [points(int(x[0])) for x in d.options]
        return None if p["points"] == points(int(o[0])) == max(scores) else "target_not_leader"
    if r in ("cleanse_plague", "cleanse_harlot"):
        if len(o) != 2 or int(o[0]) != d.seat:
            return "cleanse_not_own"
        want = "plague" if r == "cleanse_plague" else "harlot"
        return None if cat[o[1]].type == want else "cleanse_wrong_card"
    if r == "target_hand":
        sizes = [len(state.players[int(x[0])].hand) for x in d.options]
        n = len(state.players[int(o[0])].hand)
        return None if p["n"] == n == max(sizes) else "target_not_most"
    if r == "spy_discard":
        return None if d.kind == "spy.discard" and o[0] != "skip" else "spy_not_discard"
    if r == "merchant":
        return None if cat[o[0]].type == "merchant" else "merchant_not_merchant"
    if r in ("end_left", "end_campaign_out"):
        return None if d.kind == "house_end" and o[0] == "right" else "end_side"
    if r in ("end_right", "end_quake_out"):
        return None if d.kind == "house_end" and o[0] == "left" else "end_side"
    return None


def until(deadline: float) -> Callable[[], bool]:
    """A hint's `stop`: true once the wall clock reaches `deadline`."""
    return lambda: time.perf_counter() >= deadline


def audit(positions: int, seed: int, every: int, budget: float) -> dict[str, object]:
    false: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    generic_moves: Counter[str] = Counter()
    times: list[float] = []
    in_time = agree = fell_back = 0
    audited = eligible = 0
    game = 0
    while audited < positions:
        players = 2 + game % 4
        state, _ = new_game(
            GameSetup(players=players, seed=seed + game, computer=tuple(range(players)))
        )
        game += 1
        while audited < positions and (d := pending(state)) is not None:
            if len(d.options) >= 2:
                eligible += 1
                if eligible % every == 0:
                    pressed = time.perf_counter()
                    h = hint(state, d, until(pressed + budget))
                    times.append((time.perf_counter() - pressed) * 1000)
                    audited += 1
                    reasons[h.reason] += 1
                    if h.reason in GENERIC:
                        move = h.option[0] if d.kind == "action" else d.kind
                        generic_moves[move] += 1
                    why = falsity(state, d, h)
                    if why is not None:
                        false[why] += 1
                    if h.level == "strong":
                        in_time += 1
                        agree += h.option == decide(state, d, "strong")
                    else:
                        fell_back += 1
            apply(state, d.seat, d.id, decide(state, d, "normal"))
    generic = sum(reasons[r] for r in GENERIC)
    times.sort()
    return {
        "positions": audited,
        "games": game,
        "budget_s": budget,
        "false": sum(false.values()),
        "false_by_kind": dict(false),
        "generic": generic,
        "generic_share": round(generic / audited, 3),
        "generic_by_move": dict(generic_moves.most_common()),
        "strong_in_time": in_time,
        "agree": agree,
        "agree_share": round(agree / in_time, 3) if in_time else 0.0,
        "fell_back": fell_back,
        "ms_mean": round(statistics.fmean(times), 1),
        "ms_p99": round(times[min(len(times) - 1, int(0.99 * len(times)))], 1),
        "reasons": dict(reasons.most_common()),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hint_audit", description=__doc__)
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=3, help="audit every n-th decision")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds a hint may think")
    args = parser.parse_args(argv)
    print(json.dumps(audit(args.positions, args.seed, args.every, args.budget)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
