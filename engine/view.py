"""What one seat may see (`view_for`): their own hand, every public zone,
others' hand sizes, and their own pending decision. Never another's hand."""

from __future__ import annotations

from pydantic import BaseModel

from engine.api import pending
from engine.cards import Colour
from engine.core import Decision, Game
from engine.state import GameState, Result, Side


class HouseView(BaseModel):
    colour: Colour
    cards: list[str]  # oldest first
    servant_sides: dict[str, Colour] = {}
    castle: Side | None = None


class PlayerView(BaseModel):
    seat: int
    hand_size: int
    houses: list[HouseView]
    points: int
    computer: bool
    #: cards of this hand the viewing seat knows are there (it looked at the
    #: hand, or gave or lost the card: `GameState.known`); never its own
    known: list[str] = []


class View(BaseModel):
    seat: int | None
    version: int
    hand: list[str] | None  # only the viewer's own
    players: list[PlayerView]
    deck_size: int
    deck_top_smuta: str | None  # a смута turned up by Великий Пир, face up on top
    orders_size: int
    graveyard: list[str]  # top first, face up
    orders_discard: list[str]
    smuta_discard: list[str]
    prophet_stack: list[str]
    castle_supply: list[Colour]
    current: int
    actions_left: int
    final_turns: int | None
    waiting_for: int | None
    decision: Decision | None  # only when it is the viewer's
    result: Result | None


def view_for(state: GameState, seat: int | None) -> View:
    """The table as `seat` sees it (None: a spectator, e.g. the group chat)."""
    g = Game(state)
    decision = pending(state)
    players = [
        PlayerView(
            seat=i,
            hand_size=len(p.hand),
            houses=[
                HouseView(
                    colour=h.colour,
                    cards=list(h.cards),
                    servant_sides={
                        c: state.servant_up[c] for c in h.cards if c in state.servant_up
                    },
                    castle=h.castle,
                )
                for h in p.houses
            ],
            points=g.points(i),
            computer=p.computer,
            # sorted: the hand's order is no business of the viewer's
            known=sorted(c for c in p.hand if seat in state.known.get(c, ()))
            if seat is not None and seat != i and state.known
            else [],
        )
        for i, p in enumerate(state.players)
    ]
    return View(
        seat=seat,
        version=state.version,
        hand=list(state.players[seat].hand) if seat is not None else None,
        players=players,
        deck_size=len(state.deck),
        deck_top_smuta=state.deck[0] if state.deck_top_open and state.deck else None,
        orders_size=len(state.orders),
        graveyard=list(state.graveyard),
        orders_discard=list(state.orders_discard),
        smuta_discard=list(state.smuta_discard),
        prophet_stack=list(state.prophet_stack),
        castle_supply=list(state.castles),
        current=state.current,
        actions_left=state.actions_left,
        final_turns=state.final_turns,
        waiting_for=decision.seat if decision else None,
        decision=decision if decision is not None and decision.seat == seat else None,
        result=state.result,
    )
