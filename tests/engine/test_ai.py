"""Computer players (engine.ai): legal, honest, deterministic, every kind of decision.

Decisions are collected from seeded random games of 2–6 players (and two built
positions for the rarest kinds); each level answers each of them.
"""

from __future__ import annotations

import json
import pickle

import pytest

from engine import GameSetup, GameState, apply, new_game, pending
from engine.ai import LEVELS, decide
from engine.ai.easy import choose
from engine.ai.heuristic import KINDS, RULES
from engine.api import step
from engine.cards import catalog_for
from engine.hidden import copy_state, redeal
from engine.invariants import violations
from tests.engine.decisions import _pending, decisions
from tests.engine.helpers import draw_smuta, play, setup


def test_the_rule_player_has_a_rule_for_every_kind_the_engine_asks() -> None:
    asked = {d.kind for _, d in decisions()}
    assert asked == set(KINDS) == set(RULES)


@pytest.mark.parametrize("level", LEVELS)
def test_every_kind_of_decision_is_answered_legally_without_touching_the_state(
    level: str,
) -> None:
    per_kind: dict[str, int] = {}
    for state, d in decisions():
        if level == "strong" and per_kind.get(d.kind, 0) >= 1 and len(state.deck) > 8:
            continue  # strong is slow: one of each kind, and the late turns it searches
        per_kind[d.kind] = per_kind.get(d.kind, 0) + 1
        before = state.to_json()
        option = decide(state, d, level)  # type: ignore[arg-type]
        assert option in d.options, (level, d.kind, option)
        assert state.to_json() == before, f"{level} changed the state at {d.kind}"
        # the answer is accepted by the engine and the table stays sound
        after = copy_state(state)
        apply(after, d.seat, d.id, option)
        assert not violations(after)
    assert set(per_kind) == set(KINDS)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_normal_plays_whole_games_legally(players: int) -> None:
    for seed in range(2):
        state, _ = new_game(GameSetup(players=players, seed=900 + seed))
        while (d := pending(state)) is not None:
            level = "normal" if d.seat % 2 == 0 else "easy"
            option = decide(state, d, level)
            assert option in d.options
            apply(state, d.seat, d.id, option)
        assert state.result is not None and not state.result.aborted


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_same_state_and_decision_give_the_same_answer(level: str) -> None:
    for state, d in decisions()[::9]:
        first = decide(state, d, level)  # type: ignore[arg-type]
        again = decide(GameState.from_json(state.to_json()), d, level)  # type: ignore[arg-type]
        assert first == again
        # the inputs pickle (a worker process), and the JSON text is accepted too
        s2, d2 = pickle.loads(pickle.dumps((state, d)))
        assert decide(s2, d2, level) == first  # type: ignore[arg-type]
        assert decide(state.to_json(), d, level) == first  # type: ignore[arg-type]


def test_easy_is_the_old_random_policy() -> None:
    for state, d in decisions():
        assert decide(state, d, "easy") == choose(state.seed, d)


# ------------------------------------------------------------------ what a seat knows
# (pairs of games a seat cannot tell apart: tests/engine/test_honesty.py)
def test_a_hand_seen_through_the_spy_stays_in_the_redeal() -> None:
    state = setup(
        players=[
            {"hand": ["spy.red", "page.blue"]},
            {"hand": ["ball", "marriage", "lord.green", "knight.orange"]},
            {"hand": ["infirmary", "page.green"]},
        ],
        deck=["page.orange", "lord.blue", "knight.blue"],
        orders=["ball", "marriage", "infirmary"],
    )
    play(state, "lay", "spy.red")
    play(state, "1")  # look at seat 1's hand: now asked which order to discard
    d = _pending(state)
    assert d.kind == "spy.discard"
    seen = sorted(state.players[1].hand)
    assert all(0 in state.known[c] for c in seen)
    for seed in range(20):
        world = redeal(state, 0, seed)
        assert sorted(world.players[1].hand) == seen
        assert pending(world) == d
    # seat 2's hand was not seen: the re-deals vary it
    assert len({tuple(redeal(state, 0, seed).players[2].hand) for seed in range(20)}) > 1


def test_cards_taken_from_a_hand_are_known_to_the_one_who_lost_them() -> None:
    state = setup(
        players=[
            {"hand": ["mercenary.red", "page.blue"]},
            {"hand": ["lord.green"]},
        ],
        deck=["page.orange", "lord.blue"],
    )
    play(state, "lay", "mercenary.red")
    taken = [c for c in state.players[0].hand if catalog_for(state.rules)[c].type == "lord"]
    assert taken and state.known[taken[0]] == [1]


# ------------------------------------------------------------------ the engine's fast paths
def test_copy_state_is_an_equal_independent_copy() -> None:
    for state, _ in decisions()[::5]:
        c = copy_state(state)
        assert c == state and c.to_json() == state.to_json()
        c.players[0].hand.append("x")
        assert c.players[0].hand != state.players[0].hand
        assert all(a is not b for a, b in zip(c.frames, state.frames, strict=True))  # new frames


def test_step_plays_like_apply_without_events() -> None:
    for seed in range(3):
        a, _ = new_game(GameSetup(players=4, seed=seed))
        b = copy_state(a)
        while (d := pending(a)) is not None:
            option = choose(a.seed, d)
            apply(a, d.seat, d.id, option)
            assert step(b, option) == []
            assert pending(b) == pending(a)
        assert a == b


def test_the_kept_question_is_dropped_once_the_state_moves() -> None:
    state, _ = new_game(GameSetup(players=3, seed=8))
    d = _pending(state)
    assert pending(state) == d
    apply(state, d.seat, d.id, d.options[0])
    assert pending(state) != d
    # a saved game loads without it and asks the same
    assert pending(GameState.from_json(state.to_json())) == pending(state)


def test_a_game_saved_before_known_existed_loads_and_plays_on() -> None:
    state, _ = new_game(GameSetup(players=4, seed=12))
    for _ in range(40):
        d = _pending(state)
        apply(state, d.seat, d.id, choose(state.seed, d))
    old = json.loads(state.to_json())
    old.pop("known", None)  # the JSON the bot saved before this field
    loaded = GameState.from_json(json.dumps(old))
    assert loaded.known == {}
    assert pending(loaded) == pending(state)
    d = _pending(loaded)
    apply(loaded, d.seat, d.id, decide(loaded, d, "normal"))


def test_the_thrones_look_is_remembered_for_the_looker() -> None:
    state, _ = draw_smuta(
        "thrones",
        players=[
            {"hand": ["page.red", "lord.blue"]},
            {"hand": ["ball", "knight.green"]},
            {"hand": ["page.orange"]},
        ],
    )
    # seat 0 drew: seat 0 shows seat 1, seat 1 shows seat 2, seat 2 shows seat 0
    assert all(1 in state.known[c] for c in state.players[0].hand)
    assert all(2 in state.known[c] for c in state.players[1].hand)
    assert all(0 in state.known[c] for c in state.players[2].hand)
