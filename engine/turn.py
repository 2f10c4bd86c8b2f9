"""A turn (RULES.md §4): 1–3 actions, the six actions, building a castle (§5),
turn order, the end of the game and the score (§7)."""

from __future__ import annotations

from typing import cast

from engine.cards import PLANTABLE, Colour
from engine.castles import fire_one_time
from engine.core import Ask, Game, Option, handler
from engine.placement import resurrect
from engine.smuty import start_smuta
from engine.state import BallFrame, End, Result, Side, TurnFrame, place_frame

END_TURN: Option = ("end",)
DRAW: Option = ("draw",)
ORDER: Option = ("order",)


def start_turn(g: Game, seat: int) -> None:
    s = g.s
    s.current = seat
    s.turn += 1
    trade = g.has_castle(seat, "orange", "permanent")
    s.actions_left = s.rules.trade_castle_actions if trade else s.rules.actions_per_turn
    s.actions_taken = 0
    s.turn_end = None
    g.emit("turn.start", seat=seat, actions=s.actions_left, turn=s.turn)


def next_turn(g: Game) -> None:
    s = g.s
    if s.final_turns is not None:
        if s.final_turns == 0:
            finish(g)
            return
        s.final_turns -= 1
    start_turn(g, (s.current + 1) % g.n)


def finish(g: Game, aborted: bool = False) -> None:
    """Score the game (§7): card points + castle points; ties go to more castles."""
    scores = [g.points(seat) for seat in range(g.n)]
    castles = [g.castle_count(seat) for seat in range(g.n)]
    best = max(zip(scores, castles, strict=True))
    winners = [seat for seat in range(g.n) if (scores[seat], castles[seat]) == best]
    g.s.result = Result(scores=scores, castles=castles, winners=winners, aborted=aborted)
    g.s.frames.clear()
    g.emit("game.over", scores=scores, castles=castles, winners=winners, aborted=aborted)


# ------------------------------------------------------------------ legal actions
def lay_options(g: Game, seat: int, card_id: str) -> list[Option]:
    card = g.card(card_id)
    options: list[Option] = []
    targets = range(g.n) if card.type in PLANTABLE else (seat,)
    for target in targets:
        for colour in g.open_colours(card_id, target, seat):
            if target == seat and g.needs_end(seat, colour):
                ends: tuple[str, ...] = ("left", "right")
            else:
                ends = ("-",)
            for end in ends:
                options.append(("lay", card_id, str(target), colour, end))
    return options


def marriage_moves(g: Game, seat: int) -> list[tuple[str, Colour]]:
    houses = g.player(seat).houses
    return [
        (c, to.colour) for h in houses for c in h.cards for to in houses if to.colour != h.colour
    ]


def can_build(g: Game, seat: int, colour: Colour) -> bool:
    h = g.house(seat, colour)
    return (
        h is not None
        and h.castle is None
        and colour in g.s.castles
        and len(h.cards) >= g.s.rules.castle_min_cards
        and any(g.card(c).type == "lord" for c in h.cards)
    )


def legal_actions(g: Game, seat: int) -> list[Option]:
    s = g.s
    d = s.__dict__
    p = d["players"][seat]
    hand = p.hand
    room = len(hand) < s.rules.hand_limit
    options: list[Option] = []
    deck = d["deck"]
    if deck and (room or d["deck_top_open"]):
        options.append(DRAW)
    if room and d["orders"]:
        options.append(ORDER)
    houses = p.houses
    own = [h.colour for h in houses]
    me = str(seat)
    cards = g.cat.cards
    append = options.append
    for card_id in hand:
        card = cards[card_id]
        if card.kind == "house":
            ctype = card.type
            if ctype in PLANTABLE:
                options.extend(lay_options(g, seat, card_id))
                append(("discard", card_id))
                continue
            # into one's own row (as lay_options, without its general checks)
            for colour in card.colours:
                if own and colour not in own:
                    append(("lay", card_id, me, colour, "left"))
                    append(("lay", card_id, me, colour, "right"))
                else:
                    append(("lay", card_id, me, colour, "-"))
        else:
            ctype = card.type
            if ctype == "merchant":
                colour = card.colours[0]
                if colour in own and can_build(g, seat, colour):
                    append(("build", card_id, "permanent"))
                    append(("build", card_id, "one_time"))
            elif ctype == "marriage":
                moves = marriage_moves(g, seat) if len(houses) > 1 else []
                if moves:
                    options.extend(("play", card_id, c, colour) for c, colour in moves)
                else:
                    append(("play", card_id))
            else:
                append(("play", card_id))
        append(("discard", card_id))
    if d["actions_taken"] > 0:
        append(END_TURN)
    return options


# ------------------------------------------------------------------ the turn frame
def _advance_turn(g: Game, frame: TurnFrame) -> bool:
    s = g.s
    if s.turn_end == "restart":
        if not g.quiet:
            # Предательство restarts the turn; else the permanent Замок Власти did
            power = g.has_castle(s.current, "red", "permanent")
            g.emit("turn.restart", seat=s.current, reason="power" if power else "betrayal")
        start_turn(g, s.current)
    elif s.turn_end == "end" or s.actions_left <= 0:
        next_turn(g)
        return False
    options = legal_actions(g, s.current)
    if options == [END_TURN] or not options:
        if s.actions_taken == 0:
            g.emit("turn.nothing_to_do", seat=s.current)
        s.turn_end = "end"
        return False
    g.turn_options = options  # the decide that follows at once uses them
    return True


def _decide_turn(g: Game, frame: TurnFrame) -> Ask:
    s = g.s
    options = g.turn_options
    g.turn_options = None
    return Ask(
        s.current,
        "action",
        options if options is not None else legal_actions(g, s.current),
        {"actions_left": s.actions_left, "actions_taken": s.actions_taken},
    )


def _answer_turn(g: Game, frame: TurnFrame, option: Option) -> None:
    s = g.s
    seat = s.current
    verb = option[0]
    if verb == "end":
        g.emit("turn.ended", seat=seat)
        s.turn_end = "end"
        return
    s.actions_left -= 1
    s.actions_taken += 1
    if verb == "draw":
        card_id = g.draw_from_deck(seat)
        card = g.card(card_id)
        if card.kind == "smuta":
            g.emit("deck.drew_smuta", seat=seat, smuta=card.type)
            start_smuta(g, card_id, seat, "drawn")
        else:
            g.gain(seat, card_id)
            g.emit("deck.drew", seat=seat)
            g.emit("deck.drew.private", audience=[seat], seat=seat, card=card_id)
    elif verb == "order":
        g.draw_order(seat)
    elif verb == "lay":
        _, card_id, target_str, colour, end = option
        target = int(target_str)
        g.lose(seat, card_id)
        g.emit("lay", seat=seat, card=card_id, target=target)
        g.push(
            place_frame(
                card_id,
                target,
                seat,
                cast(Colour, colour),
                None if end == "-" else cast(End, end),
            )
        )
    elif verb == "discard":
        g.discard_from_hand(seat, option[1])
    elif verb == "build":
        _, card_id, side = option
        colour = g.card(card_id).colours[0]
        g.lose(seat, card_id)
        s.orders_discard.insert(0, card_id)
        s.castles.remove(colour)
        house = g.house(seat, colour)
        assert house is not None
        house.castle = cast(Side, side)
        g.emit("castle.built", seat=seat, colour=colour, side=side)
        if side == "one_time":
            fire_one_time(g, seat, colour)
    elif verb == "play":
        _play_order(g, seat, option)


def _play_order(g: Game, seat: int, option: Option) -> None:
    s = g.s
    card_id = option[1]
    card = g.card(card_id)
    g.lose(seat, card_id)
    s.orders_discard.insert(0, card_id)
    g.emit("order.played", seat=seat, card=card_id, order=card.type)
    if card.type == "marriage" and len(option) == 2:
        # fewer than two houses: nothing to move (as `engine.explain.idle_orders` says)
        g.emit("order.idle", seat=seat, order=card.type, reason="marriage_houses")
    elif card.type == "infirmary" and not s.graveyard:
        g.emit("order.idle", seat=seat, order=card.type, reason="infirmary_empty")
    if card.type == "ball":
        ladies = sum(1 for h in g.player(seat).houses for c in h.cards if g.card(c).type == "lady")
        g.push(BallFrame(seat=seat, left=1 + ladies))
    elif card.type == "marriage":
        if len(option) == 4:
            moved = option[2]
            to = cast(Colour, option[3])
            up = s.servant_up.get(moved)
            _, source = g.take_from_house(moved)
            house = g.house(seat, to)
            assert house is not None
            house.cards.append(moved)
            if up is not None:
                s.servant_up[moved] = up
            g.emit("marriage.moved", seat=seat, card=moved, source=source, to=to)
    elif card.type == "infirmary":
        resurrect(g, seat)


handler("turn", _advance_turn, _decide_turn, _answer_turn)
