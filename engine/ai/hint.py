"""A hint for a person: what the strong level would choose, and the concrete gain behind it.

    h = hint(state, decision, stop)   # h.option, h.reason (a message key), h.params, h.level

**The move** is the strong level's answer (`engine.ai.search.search`, with the
same seed as `engine.ai.decide(…, "strong")`), searched until `stop()` says
the caller's time is up; a search cut short is not trusted, and the normal
level's answer is given instead (`h.level` says whose answer it is). The
engine reads no clock: the caller's `stop` does (without one, strong always
finishes).

**The reason** is a fact of the position that the move uses, in a newcomer's
words, with its true number: the points of the card laid, of the castle
built, of the card taken or lost, the cards left in the game deck and how many
of them are смуты, a смута still in the game deck that threatens a house.
Each reason is given only when its fact holds in the position (`REASONS` says
what each one claims), and a reason about what a move does later is never
given on the game's last round (when the game deck is empty, nobody has
another turn). When no concrete reason fits, one comes from the normal
level's own count (`engine.ai.evaluate.terms`: the part that favours the move
most against the next best option) — only a part whose fact holds — and when
none does, a generic one (`GENERIC`).

Everything is read from `engine.hidden.observe(state, seat)`: the seat's own
hand, the table, the piles everyone sees, which смуты are already out (public)
and the cards the seat looked at. Parameters are numbers, never a card: a hint
cannot name a card the seat cannot see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.ai import LEVELS, Level
from engine.ai.evaluate import DEFAULT, terms
from engine.ai.lookahead import NormalConfig, played, ranked
from engine.ai.search import STRONG, search
from engine.api import playout_step
from engine.cards import Catalog, catalog_for
from engine.core import Decision, Option
from engine.hidden import Observation, copy_state, mix, observe
from engine.state import GameState

#: reason keys (``hint-reason-<key>`` in locales/), each with the parameters it
#: is given; what each claims is in its comment (the hint audit checks these)
REASONS: dict[str, tuple[str, ...]] = {
    # a turn's action
    "castle": ("points",),  # build: a castle is worth `points`, its house closed to смуты
    "lay": ("points",),  # lay a card of one's own: it is worth `points`
    "lay_lord": ("points",),  # lay a Лорд (`points`): its house may get a castle
    "lay_castle_ready": ("points",),  # lay (`points`): the house is ready, its Купец in hand
    "lay_property": ("points",),  # lay (`points`): its on-appearing property works now
    "plant": (),  # a 0-point Чумовой/Блудница laid into another player's house
    "plant_plague": (),  # … a Чумовой, and Чума is still in the game deck
    "plant_harlot": (),  # … a Блудница, and Инквизиция is still in the game deck
    "draw": ("n",),  # draw (no смута face up on top): `n` cards in hand now, a new one adds
    "order_merchant": ("n",),  # take an order: a house with a Лорд needs a Купец; `n` orders
    "infirmary": ("points",),  # Лазарет: the graveyard's top card comes back, worth `points`
    "ball": ("n",),  # Бал: `n` men may be taken from other players' houses
    "end_risk": ("deck", "smuty"),  # end the turn: `smuty` of the `deck` cards left are смуты
    "discard_zero": (),  # discard a card worth 0 points
    "order_safe": ("deck", "smuty"),  # take an order: `smuty` of the game deck's `deck` are смуты
    "towards_castle": (),  # a card (Брачный союз, a Слуга's side) goes into a house with a Лорд
    # a question inside a смута or a property
    "take": ("points",),  # a card worth `points` comes into one's own houses
    "kill": ("points",),  # another player loses a card worth `points`
    "cleanse_plague": (),  # a Чумовой leaves one's house while Чума is still to come
    "cleanse_harlot": (),  # a Блудница leaves one's house while Инквизиция is still to come
    "target_points": ("points",),  # the player with the most points on the table: `points`
    "cheapest": ("points",),  # giving up the cheapest card one may: `points`
    "quake": ("points",),  # Землетрясение: the left house taken is worth `points`
    "target_hand": ("n",),  # the player with the most cards in hand: `n`
    "spy_discard": (),  # Лазутчица: the other player loses an order
    "merchant": (),  # a Купец that a house with a Лорд needs for its castle
    "end_left": (),  # a new house at the right end: Землетрясение (still to come) takes the left
    "end_right": (),  # … at the left end: Удачный Поход (still to come) takes from the right
    "end_quake_out": (),  # a new house at the left end: Землетрясение is out of the game deck
    "end_campaign_out": (),  # … at the right end: Удачный Поход is out of the game deck
    # from the normal level's count
    "castle_soon": (),  # a house with a Лорд gets close to a castle (it has one after)
    "plague": (),  # Чума is still in the game deck: a house with a Чумовой may be lost
    "harlot": (),  # Инквизиция is still in the game deck: a house with a Блудница…
    "earthquake": (),  # Землетрясение is still in the game deck: the left house…
    "hand": (),  # cards in hand are moves later (not on the last round; no card given up)
    "castle_side": (),  # a permanent side chosen: it will still work (not on the last round)
    # generic: no concrete reason
    "others": (),  # it weakens the others
    "best": (),  # no single part: the whole table is better
}
#: reasons that tell no concrete fact
GENERIC = frozenset({"others", "best"})
#: reasons about what the move does on a later turn: never given on the last round
LATER = frozenset({"draw", "order_merchant", "hand", "castle_side", "lay_lord"})
#: a part of the normal level's count → its reason
_BY_TERM = {
    "permanent": "castle_side",
    "castle_chance": "castle_soon",
    "harlot_risk": "harlot",
    "plague_risk": "plague",
    "left_risk": "earthquake",
    "hand": "hand",
    "others": "others",
}
#: house cards whose property works when they appear, and the question it asks
#: (None: it works without one)
_PROPERTY = {
    "lady": "lady.take",
    "alchemist": "alchemist.kill",
    "priest": "priest.kill",
    "spy": "spy.target",
    "minstrel": "minstrel.target",
    "mercenary": "mercenary.target",
    "jester": "jester.smuta",
    "treasurer": None,
}
#: a smuta's type → the reason a house of one's own is at risk from it
_RISK = {"pestilence": "plague", "inquisition": "harlot", "earthquake": "earthquake"}
#: kinds of decision that take a card (second part) from a seat (first part) into one's houses
_TAKES = frozenset({"lady.take", "ball.take", "campaign.take"})
#: kinds that send a card (second part) of a seat (first part) to the graveyard
_KILLS = frozenset({"alchemist.kill", "priest.kill", "poison.target"})
#: kinds that choose another player's hand
_HAND_TARGETS = frozenset({"spy.target", "minstrel.target", "mercenary.target", "intrigue.target"})


@dataclass(frozen=True, slots=True)
class Hint:
    option: Option
    reason: str  # one of REASONS
    params: dict[str, int] = field(default_factory=dict)
    level: Level = "strong"  # whose answer: strong's, or normal's when strong ran out of time


def hint(state: GameState, decision: Decision, stop: Callable[[], bool] | None = None) -> Hint:
    """What the strong level would answer to `decision` (pending in `state`) — the
    normal level's answer when `stop` cut the search short — and why."""
    seat = decision.seat
    options = decision.options
    if len(options) == 1:
        return Hint(options[0], "best")
    obs = observe(state, seat)
    seed = mix(state.seed, decision.id, seat, LEVELS.index("strong"))
    # a hint stops at the caller's deadline or strong's budget, whichever is first:
    # with time to spare it is `decide(…, "strong")`'s move (the budget mode's)
    chosen, finished = search(obs, decision.kind, options, seed, stop=stop, budget=STRONG.budget)
    level: Level = "strong"
    normal_seed = mix(state.seed, decision.id, seat, LEVELS.index("normal"))
    order = ranked(obs, decision.kind, options, normal_seed, NormalConfig())
    if not finished:
        chosen, level = options[order[0][1]], "normal"
    facts = Facts(obs)
    reason, params = concrete(facts, decision, chosen) or counted(
        facts, decision, chosen, order, normal_seed
    )
    return Hint(chosen, reason, params, level)


class Facts:
    """What the seat sees of the position, read for reasons."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.table = obs.table
        self.seat = obs.seat
        self.cat: Catalog = catalog_for(obs.table.rules)
        # смуты still in the game deck (which are out is public), by type
        to_come = list(obs.smuty)
        if self.table.deck_top_open and self.table.deck:
            to_come.append(self.table.deck[0])
        self.to_come = {self.cat[c].type for c in to_come}
        self.smuty_in_deck = len(to_come)
        # the last round: the game deck is empty, nobody has another turn
        self.last_round = self.table.final_turns is not None

    def points(self, card: str) -> int:
        return self.cat[card].points

    def house_of(self, seat: int, card: str) -> int | None:
        for i, h in enumerate(self.table.players[seat].houses):
            if card in h.cards:
                return i
        return None


def concrete(facts: Facts, decision: Decision, option: Option) -> tuple[str, dict[str, int]] | None:
    """A reason that names the move's own gain, when one fits."""
    kind = decision.kind
    if kind == "action":
        return _action(facts, decision, option)
    t = facts.table
    seat = facts.seat
    if kind in _TAKES and len(option) == 2:
        points = facts.points(option[1])
        return ("take", {"points": points}) if points > 0 else None
    if kind == "minstrel.lay" and option[0] != "skip":
        points = facts.points(option[0])
        return ("take", {"points": points}) if points > 0 else None
    if kind in _KILLS and len(option) == 2:
        whose, card = int(option[0]), option[1]
        if whose != seat and facts.points(card) > 0:
            return "kill", {"points": facts.points(card)}
        if whose == seat and facts.cat[card].type == "plague" and "pestilence" in facts.to_come:
            house = facts.house_of(seat, card)
            if house is not None and not any(
                facts.cat[c].type == "healer" for c in t.players[seat].houses[house].cards
            ):
                return "cleanse_plague", {}
        if whose == seat and facts.cat[card].type == "harlot" and "inquisition" in facts.to_come:
            return "cleanse_harlot", {}
        return None
    if kind in ("fire.burn", "conspiracy.give") or (
        kind == "poison.discard" and option[0] != "pass"
    ):
        cards = {o[0] for o in decision.options if o[0] in facts.cat.cards}
        points = facts.points(option[0])
        if cards and points == min(facts.points(c) for c in cards):
            return "cheapest", {"points": points}
        return None
    if kind == "earthquake.target":
        houses = t.players[int(option[0])].houses
        if houses:
            return "quake", {"points": sum(facts.points(c) for c in houses[0].cards)}
        return None
    if kind in _HAND_TARGETS:
        sizes = {int(o[0]): len(t.players[int(o[0])].hand) for o in decision.options}
        n = sizes[int(option[0])]
        if n > 0 and n == max(sizes.values()):
            return "target_hand", {"n": n}
        scores = {int(o[0]): _table_points(facts, int(o[0])) for o in decision.options}
        points = scores[int(option[0])]
        return ("target_points", {"points": points}) if points == max(scores.values()) else None
    if kind == "spy.discard" and option[0] != "skip":
        return "spy_discard", {}
    if kind in ("power.order", "intrigue.take") and not facts.last_round:
        taken = facts.cat[option[0]]
        if taken.type == "merchant" and taken.colours[0] in _lord_houses_wanting(facts):
            return "merchant", {}
        return None
    if kind == "house_end":
        if option[0] == "right" and "earthquake" in facts.to_come:
            return "end_left", {}
        if option[0] == "left" and "campaign" in facts.to_come:
            return "end_right", {}
        if option[0] == "left" and "earthquake" not in facts.to_come:
            return "end_quake_out", {}
        if option[0] == "right" and "campaign" not in facts.to_come:
            return "end_campaign_out", {}
        return None
    if kind == "servant_side":
        colour = option[0]
        if colour in _lord_houses_wanting(facts, merchant=False):
            return "towards_castle", {}
        return None
    if kind == "plant_row" and int(option[0]) != seat:
        card = str(decision.params.get("card", ""))
        return _plant(facts, card, int(option[0]))
    return None


def _action(facts: Facts, decision: Decision, option: Option) -> tuple[str, dict[str, int]] | None:
    t = facts.table
    seat = facts.seat
    me = t.players[seat]
    verb = option[0]
    if verb == "build":
        return "castle", {"points": t.rules.castle_points}
    if verb == "lay":
        card_id, target = option[1], int(option[2])
        card = facts.cat[card_id]
        if target != seat:
            return _plant(facts, card_id, target)
        points = card.points
        if points == 0:
            return None
        colour = option[3] if card.is_servant else card.colours[0]
        house = next((h for h in me.houses if h.colour == colour), None)
        cards = [*(house.cards if house is not None else []), card_id]
        lord = any(facts.cat[c].type == "lord" for c in cards)
        free = (house is None or house.castle is None) and colour in t.castles
        merchant = any(
            facts.cat[c].type == "merchant" and facts.cat[c].colours[0] == colour for c in me.hand
        )
        ready = lord and free and merchant and len(cards) >= t.rules.castle_min_cards
        if ready and t.actions_left > 1:  # an action is left this turn to build it
            return "lay_castle_ready", {"points": points}
        if card.type in _PROPERTY and _property_works(facts, decision, option, card.type):
            return "lay_property", {"points": points}
        if card.type == "lord" and free and not facts.last_round:
            return "lay_lord", {"points": points}
        return "lay", {"points": points}
    if verb == "draw" and not facts.last_round and not t.deck_top_open:
        return "draw", {"n": len(me.hand)}
    if verb == "order" and not facts.last_round and _lord_houses_wanting(facts):
        return "order_merchant", {"n": len(t.orders)}
    if (
        verb == "order"
        and facts.smuty_in_deck > 0
        and any(o[0] == "draw" for o in decision.options)
    ):
        return "order_safe", {"deck": len(t.deck), "smuty": facts.smuty_in_deck}
    if verb == "play":
        order = facts.cat[option[1]].type
        if order == "infirmary" and t.graveyard:
            points = facts.points(t.graveyard[0])  # the graveyard's top comes back
            return ("infirmary", {"points": points}) if points > 0 else None
        if order == "marriage" and len(option) == 4 and facts.cat[option[2]].type != "lord":
            if option[3] in _lord_houses_wanting(facts, merchant=False):
                return "towards_castle", {}
            return None
        if order == "ball":
            men = _men_to_take(facts)
            ladies = sum(facts.cat[c].type == "lady" for h in me.houses for c in h.cards)
            n = min(men, 1 + ladies)
            return ("ball", {"n": n}) if n > 0 else None
        return None
    if verb == "end":
        drawable = any(o[0] == "draw" for o in decision.options)
        if drawable and facts.smuty_in_deck > 0:
            return "end_risk", {"deck": len(t.deck), "smuty": facts.smuty_in_deck}
        return None
    if verb == "discard" and facts.points(option[1]) == 0 and facts.cat[option[1]].kind == "house":
        return "discard_zero", {}
    return None


def _plant(facts: Facts, card_id: str, target: int) -> tuple[str, dict[str, int]] | None:
    """A Чумовой or a Блудница laid into `target`'s house (another player's)."""
    card = facts.cat[card_id]
    kind = card.type
    house = next(
        (h for h in facts.table.players[target].houses if h.colour == card.colours[0]), None
    )
    healer = house is not None and any(facts.cat[c].type == "healer" for c in house.cards)
    if kind == "plague" and "pestilence" in facts.to_come and not healer:
        return "plant_plague", {}
    if kind == "harlot" and "inquisition" in facts.to_come:
        return "plant_harlot", {}
    if facts.points(card_id) == 0:
        return "plant", {}
    return None


def _lord_houses_wanting(facts: Facts, merchant: bool = True) -> set[str]:
    """Colours of the seat's houses with a Лорд and no castle whose castle is in the
    supply — with `merchant`, only those with no Купец of their colour in hand."""
    t = facts.table
    me = t.players[facts.seat]
    held = {facts.cat[c].colours[0] for c in me.hand if facts.cat[c].type == "merchant"}
    return {
        h.colour
        for h in me.houses
        if h.castle is None
        and h.colour in t.castles
        and any(facts.cat[c].type == "lord" for c in h.cards)
        and not (merchant and h.colour in held)
    }


def _table_points(facts: Facts, seat: int) -> int:
    """`seat`'s points on the table now: its cards' and its castles'."""
    houses = facts.table.players[seat].houses
    castles = sum(h.castle is not None for h in houses)
    cards = sum(facts.points(c) for h in houses for c in h.cards)
    return cards + castles * facts.table.rules.castle_points


def _men_to_take(facts: Facts) -> int:
    """Men in other players' houses without a castle (what Бал may take)."""
    t = facts.table
    return sum(
        facts.cat[c].sex == "m"
        for s, p in enumerate(t.players)
        if s != facts.seat
        for h in p.houses
        if h.castle is None
        for c in h.cards
    )


def _property_works(facts: Facts, decision: Decision, option: Option, kind: str) -> bool:
    """Does the laid card's on-appearing property do something now? Played on a copy of
    a world: whether it asks its question, or (Казначей) an order comes into the hand —
    both follow from what the seat sees (houses, hand sizes, piles' sizes)."""
    world = facts.obs.world(0)
    seat = facts.seat
    orders_before = sum(1 for c in world.players[seat].hand if facts.cat[c].kind == "order")
    s = copy_state(world)
    ask = playout_step(s, option)
    # a Слуга's side or a new house's end may be asked first: answer the move's own parts
    for _ in range(4):
        if ask is None or ask.seat != seat or ask.kind not in ("servant_side", "house_end"):
            break
        ask = playout_step(s, ask.options[0])
    question = _PROPERTY[kind]
    if question is None:
        orders = sum(1 for c in s.players[seat].hand if facts.cat[c].kind == "order")
        return orders > orders_before
    return ask is not None and ask.seat == seat and ask.kind == question


def counted(
    facts: Facts,
    decision: Decision,
    chosen: Option,
    order: list[tuple[float, int]],
    seed: int,
) -> tuple[str, dict[str, int]]:
    """A reason from the normal level's count: the part that favours `chosen` most
    against the best other option, if its fact holds; else a generic one."""
    seat = facts.seat
    options = decision.options
    others = [options[i] for _, i in order if options[i] != chosen]
    if not others:
        return "best", {}
    world = facts.obs.world(seed)
    cat = facts.cat
    after = played(world, chosen, seat, decision.kind)
    mine = terms(after, seat, cat, DEFAULT)
    other = terms(played(world, others[0], seat, decision.kind), seat, cat, DEFAULT)
    gains = {t: mine[t] - other[t] for t in mine}
    gains["others"] = -gains["others"]  # the others' worth counts against the seat
    for term, gain in sorted(gains.items(), key=lambda kv: -kv[1]):
        if gain <= 0.05:
            break
        reason = _BY_TERM.get(term)
        if reason is None or (reason in LATER and facts.last_round):
            continue
        if reason in ("plague", "harlot", "earthquake"):
            smuta = next(k for k, v in _RISK.items() if v == reason)
            if smuta not in facts.to_come:
                continue
        if reason == "castle_soon" and not _near_castle(facts, after):
            continue
        if reason == "hand" and _gives_a_card(decision, chosen):
            continue  # «cards in hand are moves later» never advises giving one up
        if reason == "castle_side" and "permanent" not in chosen:
            continue
        return reason, {}
    return "best", {}


def _gives_a_card(decision: Decision, option: Option) -> bool:
    """Does the move take a card out of the seat's hand?"""
    if decision.kind == "action":
        return option[0] in ("lay", "discard", "play", "build")
    return option[0] not in ("skip", "pass", "done")


def _near_castle(facts: Facts, after: GameState) -> bool:
    """After the move the seat has a house with a Лорд, no castle, one card short of
    a castle or more, whose castle is in the supply."""
    seat = facts.seat
    need = after.rules.castle_min_cards - 1
    return any(
        h.castle is None
        and h.colour in after.castles
        and len(h.cards) >= need
        and any(facts.cat[c].type == "lord" for c in h.cards)
        for h in after.players[seat].houses
    )
