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
from typing import Any

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
    - ``castle_no_merchant`` (``colour``): a house ready for its castle, but no
      Купец of its colour in hand;
    - ``castle_house`` (``colour``, ``cards``, ``lord``, ``has``): a Купец in
      hand whose house is missing, has a castle, lacks a Лорд or cards;
    - ``castle_taken`` (``colour``): a Купец in hand, but that castle is not in
      the supply.
    """
    rules = state.rules
    cat = catalog_for(rules)
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
    merchants: set[Colour] = set()
    for card_id in player.hand:
        card = cat[card_id]
        if card.type == "merchant" and card.colours:
            merchants.add(card.colours[0])
    houses = {h.colour: h for h in player.houses}
    for colour in COLOURS:
        h = houses.get(colour)
        ready = (
            h is not None
            and h.castle is None
            and len(h.cards) >= rules.castle_min_cards
            and any(cat[c].type == "lord" for c in h.cards)
        )
        if colour in merchants:
            if not ready:
                out.append(
                    Missing(
                        "castle_house",
                        {
                            "colour": colour,
                            "cards": rules.castle_min_cards,
                            "has": len(h.cards) if h is not None else 0,
                            "lord": "yes"
                            if h is not None and any(cat[c].type == "lord" for c in h.cards)
                            else "no",
                            "house": "none"
                            if h is None
                            else ("castle" if h.castle is not None else "open"),
                        },
                    )
                )
            elif colour not in state.castles:
                out.append(Missing("castle_taken", {"colour": colour}))
        elif ready and colour in state.castles:
            out.append(Missing("castle_no_merchant", {"colour": colour}))
    return out


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
