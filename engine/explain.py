"""Why a usual action is missing from a turn's choices (RULES.md §4, §5), and
which orders in a hand would do nothing if played now (§1: an order may be
played even then).

Pure facts for a front end to tell a player: the hand is at the limit (no
drawing), the deck is empty, no Купец of a house's colour (no castle), a
Брачный союз with one house… Every number comes from the game's `Rules`.
Nothing here changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from engine.cards import COLOURS, Colour, catalog_for
from engine.core import Game
from engine.state import GameState
from engine.turn import marriage_moves


@dataclass(frozen=True, slots=True)
class Missing:
    """One reason: `reason` names it, `params` carry its numbers and colours."""

    reason: str
    params: dict[str, Any] = field(default_factory=dict)


def missing_actions(state: GameState, seat: int) -> list[Missing]:
    """Why `seat`, choosing an action now, lacks a usual one:

    - ``hand_full`` (``limit``): no card from either deck (a face-up смута on
      top may still be drawn: ``smuta_open``);
    - ``deck_empty``: no card from the game deck; ``orders_empty``: no order;
    - ``castle`` (``colour``, ``needs``; ``cards`` and ``has`` when it lacks
      cards): a castle that can nearly be built (`castle_needs`), with every
      condition it still lacks.
    """
    rules = state.rules
    player = state.players[seat]
    out: list[Missing] = []
    full = len(player.hand) >= rules.hand_limit
    if full:
        out.append(
            Missing("hand_full", {"limit": rules.hand_limit, "smuta_open": state.deck_top_open})
        )
    if not state.deck:
        out.append(Missing("deck_empty"))
    if not state.orders and not full:
        out.append(Missing("orders_empty"))
    for colour in COLOURS:
        needs = castle_needs(state, seat, colour)
        if not needs:
            continue
        params: dict[str, Any] = {"colour": colour, "needs": needs}
        if "cards" in needs:  # how many it holds matters only while it lacks cards
            house = next(h for h in player.houses if h.colour == colour)
            params.update(cards=rules.castle_min_cards, has=len(house.cards))
        out.append(Missing("castle", params))
    return out


#: what a castle may lack (RULES.md §5): a Купец of its colour in hand, a Лорд
#: in its house, the game's number of cards there, the castle in the supply
CastleNeed = Literal["merchant", "lord", "cards", "supply"]


def castle_needs(state: GameState, seat: int, colour: Colour) -> tuple[CastleNeed, ...]:
    """Every condition `seat`'s castle of `colour` still lacks, when it can
    *nearly* be built; empty otherwise.

    Nearly built: the house of that colour stands, without a castle, and one
    move would complete it — one card laid (a Лорд also counts as one of the
    cards), a Купец of its colour got, or the castle back in the supply. A
    castle further off, or one that stands already, is not told about; nor is
    one that can be built now."""
    rules = state.rules
    cat = catalog_for(rules)
    player = state.players[seat]
    house = next((h for h in player.houses if h.colour == colour), None)
    if house is None or house.castle is not None:
        return ()
    merchant = any(
        cat[c].type == "merchant" and cat[c].colours[:1] == (colour,) for c in player.hand
    )
    lord = any(cat[c].type == "lord" for c in house.cards)
    short = max(0, rules.castle_min_cards - len(house.cards))
    supply = colour in state.castles
    needs: list[CastleNeed] = []
    if not merchant:
        needs.append("merchant")
    if not lord:
        needs.append("lord")
    if short:
        needs.append("cards")
    if not supply:
        needs.append("supply")
    # moves to make: the Лорд brings one of the missing cards with it
    moves = (not merchant) + (not lord) + max(0, short - (not lord)) + (not supply)
    return tuple(needs) if moves == 1 else ()


def idle_orders(state: GameState, seat: int) -> dict[str, Missing]:
    """The orders in `seat`'s hand that, played now, would do nothing — by
    card id, with why:

    - ``marriage_houses`` (``houses``): Брачный союз moves a card between two
      of your houses, and you have fewer;
    - ``infirmary_empty``: Лазарет lays out the top of the graveyard, which is empty;
    - ``ball_no_men``: Бал takes men from opponents' houses without a castle,
      and there are none.
    """
    g = Game(state, quiet=True)
    out: dict[str, Missing] = {}
    men: bool | None = None
    for card_id in state.players[seat].hand:
        kind = g.card(card_id).type
        if kind == "marriage" and not marriage_moves(g, seat):
            out[card_id] = Missing("marriage_houses", {"houses": len(g.player(seat).houses)})
        elif kind == "infirmary" and not state.graveyard:
            out[card_id] = Missing("infirmary_empty")
        elif kind == "ball":
            if men is None:
                men = any(g.card(c).sex == "m" for _, c in g.free_house_cards(g.opponents(seat)))
            if not men:
                out[card_id] = Missing("ball_no_men")
    return out
