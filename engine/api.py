"""The engine's public API: start a game, see the pending decision, answer it.

    state, events = new_game(GameSetup(players=4, seed=7))
    decision = pending(state)            # who must choose, and every legal option
    events = apply(state, decision.seat, decision.id, decision.options[0])

`apply` changes `state` in place and returns the events of that answer. An
answer from the wrong seat, to a stale decision, or with an option not in the
list raises `Refused` and changes nothing. Every accepted answer is a
`Command`; `replay` rebuilds the identical game from the setup and the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.cards import COLOURS, DEFAULT_RULES, Rules
from engine.core import (
    _ASK,
    HANDLERS,
    Ask,
    Decision,
    Event,
    Game,
    Option,
    Refused,
    StepCapReached,
    _fingerprint,
    make_decision,
    run,
)
from engine.core import current_ask as _current_ask
from engine.rng import MASK
from engine.state import GameState, Player, TurnFrame
from engine.turn import finish, start_turn


class GameSetup(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(ge=2, le=6)
    seed: int = Field(ge=0)
    # the shared rules themselves, never a copy: pydantic deep-copies a
    # default it cannot hash, on every setup read (a record's every load)
    rules: Rules = Field(default_factory=lambda: DEFAULT_RULES)
    computer: tuple[int, ...] = ()  # seats played by the computer from the start


class Command(BaseModel):
    """One accepted command: an answer, or a seat handed to / taken back from the computer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    decision: int | None = None
    option: tuple[str, ...] | None = None
    computer: bool | None = None


def new_game(setup: GameSetup) -> tuple[GameState, list[Event]]:
    """Deal (RULES.md §2) and run up to the first decision."""
    from engine.cards import catalog_for

    rules = setup.rules
    cat = catalog_for(rules)
    state = GameState(
        seed=setup.seed,
        rng=setup.seed & MASK,
        custom_rules=None if rules == DEFAULT_RULES else rules,
        players=[Player(computer=seat in setup.computer) for seat in range(setup.players)],
        deck=[],
        orders=[],
        castles=list(COLOURS),
        frames=[TurnFrame()],
    )
    g = Game(state)
    house = list(cat.house_ids)
    orders = list(cat.order_ids)
    g.shuffle(house)
    g.shuffle(orders)
    for p in state.players:
        p.hand = house[: rules.deal_house_cards] + orders[: rules.deal_orders]
        del house[: rules.deal_house_cards]
        del orders[: rules.deal_orders]
    deck = house + list(cat.smuta_ids)
    g.shuffle(deck)
    state.deck = deck
    state.orders = orders
    first = g.rand_below(setup.players)
    g.emit("game.start", players=setup.players, first=first)
    start_turn(g, first)
    _run(g)
    return state, g.events


def _run(g: Game) -> None:
    try:
        run(g)
    except StepCapReached:
        g.emit("game.step_cap", steps=g.s.steps)
        finish(g, aborted=True)


def pending(state: GameState) -> Decision | None:
    """The decision the game waits for, with every legal option; None when it is over."""
    d = state.__dict__
    if d["result"] is not None:
        return None
    kept = d.get(_ASK)
    if kept is not None and len(kept) == 3 and kept[0] == _fingerprint(state):
        decision: Decision = kept[2]  # asked before, in this very position
        return decision
    ask = _current_ask(Game(state))
    if ask is None:
        return None
    decision = make_decision(ask, d["decision"])
    # the question is kept by now (`current_ask`): keep its Decision beside it
    d[_ASK] = (*d[_ASK][:2], decision)
    return decision


def apply(state: GameState, seat: int, decision_id: int, option: Sequence[str]) -> list[Event]:
    """Answer the pending decision. Raises `Refused` (and changes nothing) unless
    `seat` is the one asked, `decision_id` is the pending one and `option` is legal."""
    if state.result is not None:
        raise Refused("game_over")
    g = Game(state)
    ask = _current_ask(g)
    if ask is None:
        raise Refused("no_decision")
    if decision_id != state.decision:
        raise Refused("stale_decision")
    if seat != ask.seat:
        raise Refused("not_your_decision")
    chosen: Option = tuple(option)
    if chosen not in ask.options:
        raise Refused("illegal_option")
    frame = state.frames[-1]
    answer = HANDLERS[frame.kind].answer
    assert answer is not None
    answer(g, frame, chosen)
    state.version += 1
    _run(g)
    return g.events


def step(state: GameState, option: Option, events: bool = False) -> list[Event]:
    """Answer the pending decision with `option`, trusted: no check that it is legal
    (it must be one of `pending(state).options`; anything else corrupts the state).
    For playouts: `events=False` (the default) builds no events and returns []."""
    g = Game(state, quiet=not events)
    frame = state.frames[-1]
    answer = HANDLERS[frame.kind].answer
    assert answer is not None
    answer(g, frame, option)
    state.version += 1
    _run(g)
    return g.events


def playout_step(state: GameState, option: Option) -> Ask | None:
    """`step` for playouts: answer quietly and return the next question (None once
    the game is over) without building a `Decision`."""
    g = Game(state, quiet=True)
    frame = state.frames[-1]
    answer = HANDLERS[frame.kind].answer
    assert answer is not None
    answer(g, frame, option)
    state.version += 1
    _run(g)
    if state.result is not None:
        return None
    kept: Ask = state.__dict__[_ASK][1]  # run() keeps the question it stops on
    return kept


def set_computer(state: GameState, seat: int, computer: bool = True) -> list[Event]:
    """Hand a seat to the computer (RULES.md §8) or give it back to its player."""
    if not 0 <= seat < len(state.players):
        raise Refused("no_such_seat")
    g = Game(state)
    if state.players[seat].computer != computer:
        state.players[seat].computer = computer
        state.version += 1
        g.emit("seat.computer" if computer else "seat.human", seat=seat)
    return g.events


def stop(state: GameState) -> list[Event]:
    """End the game where it stands, as its players stopped it: the score as
    it stands now (§7's count), marked aborted, and nothing left to decide. A
    game already over is left as it is (no events)."""
    g = Game(state)
    if state.result is None:
        finish(g, aborted=True)
        state.version += 1
    return g.events


def execute(state: GameState, command: Command) -> list[Event]:
    """Carry out one logged command."""
    if command.computer is not None:
        return set_computer(state, command.seat, command.computer)
    assert command.decision is not None and command.option is not None
    return apply(state, command.seat, command.decision, command.option)


def replay(setup: GameSetup, commands: Sequence[Command]) -> GameState:
    """Rebuild a game from its setup and command log."""
    state, _ = new_game(setup)
    for command in commands:
        execute(state, command)
    return state


__all__ = [
    "Command",
    "Decision",
    "Event",
    "GameSetup",
    "Refused",
    "apply",
    "execute",
    "new_game",
    "pending",
    "replay",
    "set_computer",
    "step",
    "stop",
]
