"""What the seats know of the cards in one another's hands, beyond their own view.

Two records live in the state, both kept here and read by `engine.hidden`:

- `GameState.known`: card -> the seats (other than its holder) that know exactly
  which hand it is in: they looked at the hand, or it was taken from them.
- `GameState.mixed`: groups of hand cards whose kinds (house card or order) the
  seats outside a secret take cannot tell apart. Everyone knows how many cards
  of each kind a hand holds as long as every card comes and goes in sight (a
  draw from the game deck is a house card, an order drawn is an order, a card
  laid or discarded is named). A card taken in secret from a hand — Наёмник and
  Предательство take one at random, Замок Интриг an order of the taker's choice —
  is seen by the two players only: for the others it could be any card of that
  hand. So the victim's whole hand, with the card taken, becomes one group whose
  number of orders everyone knows, but not which card is which; what a seat had
  seen exactly of that hand, it now knows only to be somewhere in the group.
  When a card leaves a hand that holds group cards in sight of all (laid,
  played, discarded), nobody but its holder knows which of the hand's cards it
  was, so the whole hand joins the group before the card leaves it.

The groups are built from what everyone sees, so reading them tells no seat
anything it has not seen.
"""

from __future__ import annotations

from engine.state import GameState, Mixed


def _merge_hand(state: GameState, seat: int) -> Mixed:
    """Make every card of `seat`'s hand, and every group they belong to, one group."""
    hand = state.players[seat].hand
    members = set(hand)
    seen: dict[str, list[int]] = {}
    keep: list[Mixed] = []
    for group in state.mixed:
        if members.isdisjoint(group.cards):
            keep.append(group)
            continue
        members.update(group.cards)
        for card_id, seats in group.seen.items():
            seen[card_id] = sorted(set(seen.get(card_id, [])) | set(seats))
    merged = Mixed(cards=sorted(members), seen=seen)
    keep.append(merged)
    state.mixed = keep
    return merged


def _drop(state: GameState, group: Mixed, card_id: str) -> None:
    """`card_id` is no longer in the group; a group of one card is no secret any more:
    whoever knew the card to be in it now knows where it is."""
    group.cards.remove(card_id)
    group.seen.pop(card_id, None)
    if len(group.cards) > 1:
        return
    state.mixed.remove(group)
    for other, seats in group.seen.items():
        exact = state.known.setdefault(other, [])
        state.known[other] = sorted(set(exact) | set(seats))


def leaves_openly(state: GameState, seat: int, card_id: str) -> None:
    """`card_id` is about to leave `seat`'s hand in sight of everyone (called while it
    is still there)."""
    if not state.mixed:
        return
    hand = state.players[seat].hand
    if all(set(group.cards).isdisjoint(hand) for group in state.mixed):
        return
    _drop(state, _merge_hand(state, seat), card_id)


def taken_in_secret(state: GameState, taker: int, victim: int, card_id: str) -> None:
    """`taker` is about to take `card_id` from `victim`'s hand, seen by the two of them
    only (called while it is still in the victim's hand)."""
    group = _merge_hand(state, victim)
    if len(group.cards) == 1:
        state.mixed.remove(group)  # the victim's only card: everyone knows which was taken
        return
    involved = (taker, victim)
    for other in state.players[victim].hand:
        seats = state.known.get(other)
        if not seats:
            continue
        outside = [s for s in seats if s not in involved]
        if not outside:
            continue
        # they saw this card in the victim's hand: now it may be the one taken
        group.seen[other] = sorted(set(group.seen.get(other, [])) | set(outside))
        inside = [s for s in seats if s in involved]
        if inside:
            state.known[other] = inside
        else:
            del state.known[other]
