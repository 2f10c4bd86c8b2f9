"""Pairs of games that differ only in what one player may not see."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from engine import Command, Decision, Event, GameSetup, GameState, apply, new_game, pending
from engine.ai.easy import choose
from engine.cards import catalog_for
from engine.core import Refused, forget_ask
from engine.hidden import copy_state, mix
from engine.view import view_for

GAMES = 14


PLAYERS = (3, 4, 5)


@dataclass(frozen=True)
class Pair:
    """Two states that `seat` cannot tell apart, both asking it `decision`."""

    a: GameState
    b: GameState
    seat: int
    decision: Decision
    how: str  # "swap": unseen cards swapped; "take": another card taken in secret

    @property
    def split_differs(self) -> bool:
        """Do the two states differ in how many orders some other hand holds?"""
        cat = catalog_for(self.a.rules)

        def orders(s: GameState, p: int) -> int:
            return sum(1 for c in s.players[p].hand if cat[c].kind == "order")

        return any(
            orders(self.a, p) != orders(self.b, p)
            for p in range(len(self.a.players))
            if p != self.seat
        )


def _seen(events: list[Event], seat: int) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]


def _play(setup_: GameSetup) -> tuple[list[Command], list[int]]:
    """A random game: its commands, and the command index of each secret take."""
    state, _ = new_game(setup_)
    log: list[Command] = []
    takes: list[int] = []
    while (d := pending(state)) is not None:
        option = choose(state.seed, d)
        events = apply(state, d.seat, d.id, option)
        if any(e.key in ("mercenary.took", "betrayal.took") for e in events):
            takes.append(len(log))
        log.append(Command(seat=d.seat, decision=d.id, option=option))
    return log, takes


def _run_to_seat(
    a: GameState, b: GameState, log: list[Command], start: int, seat: int, after: int = 0
) -> Pair | None:
    """Apply `log[start:]` to both states until `seat` is asked (at command `after` or
    later): a Pair if the seat was told exactly the same in both all along."""
    for index in range(start, len(log)):
        da, db = pending(a), pending(b)
        if da is None or da != db or view_for(a, seat) != view_for(b, seat):
            return None
        if da.seat == seat and index >= after:
            return Pair(copy_state(a), copy_state(b), seat, da, "")
        cmd = log[index]
        assert cmd.option is not None and cmd.decision is not None
        try:
            ea = apply(a, cmd.seat, cmd.decision, cmd.option)
            eb = apply(b, cmd.seat, cmd.decision, cmd.option)
        except Refused:
            return None
        if _seen(ea, seat) != _seen(eb, seat):
            return None
    return None


def _swapped(setup_: GameSetup, r: random.Random, seat: int) -> GameState:
    """The start of the game with two cards of one kind that `seat` cannot see swapped:
    in other hands, the game deck or the orders deck."""
    state, _ = new_game(setup_)
    cat = catalog_for(state.rules)
    places: list[tuple[list[str], int]] = [
        (p.hand, i) for o, p in enumerate(state.players) if o != seat for i in range(len(p.hand))
    ]
    places += [(state.deck, i) for i in range(len(state.deck))]
    places += [(state.orders, i) for i in range(len(state.orders))]
    kind = r.choice(["house", "order", "house"])
    mine = [(pile, i) for pile, i in places if cat[pile[i]].kind == kind]
    (p1, i1), (p2, i2) = r.sample(mine, 2)
    p1[i1], p2[i2] = p2[i2], p1[i1]
    forget_ask(state)  # the kept question named the cards as they were
    return state


def _other_take(state: GameState, r: random.Random) -> GameState:
    """The same state with another future for the generator: a random take that follows
    falls on another card."""
    other = copy_state(state)
    other.rng = mix(state.rng, r.getrandbits(32))
    return other


def _pairs() -> Iterator[Pair]:
    r = random.Random(20)
    for g in range(GAMES):
        players = PLAYERS[g % len(PLAYERS)]
        setup_ = GameSetup(players=players, seed=3_000 + g)
        log, takes = _play(setup_)
        # (1) two unseen cards swapped before the deal; the seat asked a while later
        for _ in range(12):
            seat = r.randrange(players)
            a, _ = new_game(setup_)
            b = _swapped(setup_, r, seat)
            pair = _run_to_seat(a, b, log, 0, seat, after=r.randrange(len(log) // 2))
            if pair is not None:
                yield Pair(pair.a, pair.b, seat, pair.decision, "swap")
        # (2) another card taken in secret between two other seats
        for index in takes:
            state, _ = new_game(setup_)
            for cmd in log[:index]:
                assert cmd.decision is not None and cmd.option is not None
                apply(state, cmd.seat, cmd.decision, cmd.option)
            for seat in range(players):
                for _ in range(3):
                    a, b = copy_state(state), _other_take(state, r)
                    pair = _run_to_seat(a, b, log, index, seat)
                    if pair is not None:
                        yield Pair(pair.a, pair.b, seat, pair.decision, "take")


@cache
def pairs() -> list[Pair]:
    return list(_pairs())
