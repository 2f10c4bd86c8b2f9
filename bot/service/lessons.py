"""The tutor's script: which moment of a first game brings which sentence.

A tutor game (`bot.service.tutor`) is a practice game on a fixed deal
(`DEAL`, a position of `engine.scenario`) against computers at a fixed level,
so the moments below come up early and in the same order for everyone who
does what the tutor suggests. The script itself does not rely on that: each
sentence is told once, at the person's first prompt where its moment holds —
whoever played before, whatever the person did.

- **Steps** (`STEPS`, in this order of precedence): each kind of turn action
  the first time the person's turn offers it (a discard: when the hand is
  full; an order played: one that would do something), and the castle the
  first time they hold a Купец that cannot build yet; one a prompt, above
  the question, naming the card it suggests.
- **Смуты**: with the first смута that comes up, what a смута is; each смута
  the first time it comes up, what it means for the person — under the move
  of theirs that drew it, else in their next prompt (the смута's own question
  to them, when it asks one).
- When every step is told: that the rest of the game is theirs (``own``).

`note` runs inside the change that saves the move (`bookkeeping.book_move`), so
what was told is saved with it; the prompt (`bot.words.prompts`) shows the
pending decision's sentences (`Tutoring.lines`). Which actions are offered,
which orders would do nothing, how full a hand may be: the engine says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.store.models import Table, Tutoring, TutorLine
from engine import Decision, Event, GameState, pending
from engine.ai import Level
from engine.cards import DATA, catalog_for
from engine.explain import idle_orders

#: the tutor's seats: the person first (they start), then the computers, at this level
COMPUTERS = 2
COMPUTER_LEVEL: Level = "easy"

#: the fixed deal (`engine.scenario`: piles top card first, houses oldest card
#: first): the person starts, holding a Лорд, the red Купец and red cards for
#: its castle, and a Блудница to let go when the first draw fills the hand;
#: the orders deck gives them a Лазарет; the computers sit with a house each
#: (something for Бал, Удачный Поход and Землетрясение to take). The deck, 20
#: cards, brings six смуты — Великий Пир, Удачный Поход, Отрава, Чума, Заговор,
#: Землетрясение — and ends the game in some twenty turns (seven of the person's)
DEAL: dict[str, Any] = {
    "players": [
        {
            "hand": [
                "lord.red",
                "knight.red",
                "page.red",
                "harlot.blue",
                "healer.green",
                "merchant.red",
            ]
        },
        {
            "hand": ["page.orange", "lady.orange", "servant.blue.orange", "marriage"],
            "houses": [{"colour": "blue", "cards": ["page.blue", "knight.blue"]}],
            "computer": True,
        },
        {
            "hand": ["page.green", "spy.green", "treasurer.orange", "ball"],
            "houses": [{"colour": "orange", "cards": ["knight.orange", "page.orange"]}],
            "computer": True,
        },
    ],
    "deck": [
        "page.blue",
        "servant.red.green",
        "feast",
        "lord.blue",
        "knight.green",
        "treasurer.red",
        "lord.green",
        "plague.green",
        "minstrel.red",
        "page.green",
        "priest.blue",
        "campaign",
        "lady.red",
        "poison",
        "alchemist.red",
        "pestilence",
        "healer.red",
        "conspiracy",
        "jester.blue",
        "earthquake",
    ],
    "orders": ["infirmary", "ball", "marriage", "merchant.blue", "infirmary", "ball"],
    "current": 0,
    "seed": 24,
}


#: a step and when it holds: given the state and the person's action
#: decision, the card it names (a card id, or "" for none), or None: not now
Check = Callable[[GameState, Decision], str | None]


def _draw(state: GameState, decision: Decision) -> str | None:
    return "" if ("draw",) in decision.options else None


def _order(state: GameState, decision: Decision) -> str | None:
    return "" if ("order",) in decision.options else None


def _cards(decision: Decision, verb: str) -> list[str]:
    return list(dict.fromkeys(o[1] for o in decision.options if o[0] == verb and len(o) > 1))


def _lay(state: GameState, decision: Decision) -> str | None:
    """Lay out a house card: the one worth most."""
    cards = _cards(decision, "lay")
    points = catalog_for(state.rules)
    return max(cards, key=lambda c: points[c].points) if cards else None


def _castle(state: GameState, decision: Decision) -> str | None:
    """A Купец in hand that cannot build yet: what a castle needs."""
    cat = catalog_for(state.rules)
    if _cards(decision, "build"):
        return None
    hand = state.players[decision.seat].hand
    return next((c for c in hand if cat[c].type == "merchant"), None)


def _build(state: GameState, decision: Decision) -> str | None:
    cards = _cards(decision, "build")
    return cards[0] if cards else None


def _play(state: GameState, decision: Decision) -> str | None:
    """Play an order that does something now."""
    idle = idle_orders(state, decision.seat)
    return next((c for c in _cards(decision, "play") if c not in idle), None)


def _discard(state: GameState, decision: Decision) -> str | None:
    """A full hand: discard the card worth least."""
    if len(state.players[decision.seat].hand) < state.rules.hand_limit:
        return None
    cards = _cards(decision, "discard")
    cat = catalog_for(state.rules)
    return min(cards, key=lambda c: cat[c].points) if cards else None


#: the steps, in their order of precedence
STEPS: dict[str, Check] = {
    "draw": _draw,
    "lay": _lay,
    "order": _order,
    "discard": _discard,
    "castle": _castle,
    "build": _build,
    "play": _play,
}
SMUTA = "smuta"  # what a смута is (with the first one)
OWN = "own"  # every step told: the rest is theirs
#: the смуты the tutor has a sentence for: all of them (``tutor-smuta-<id>``)
SMUTY: tuple[str, ...] = tuple(DATA["smuty"]["ids"])


def smuta_step(name: str) -> str:
    return "-".join((SMUTA, name.replace("_", "-")))


def note(t: Table, state: GameState, events: list[Event]) -> None:
    """After a move of a tutor game: the смуты that came up, and the
    sentences of the person's next prompt (when the game asks them now).
    A смута the person's own move brought is told at once, under it, in
    the message that move closed."""
    notes = t.tutor
    if notes is None:
        return
    for e in events:
        if e.key == "smuta.start":
            step = smuta_step(str(e.params["smuta"]))
            if step not in notes.told and step not in notes.seen:
                notes.seen.append(step)
    notes.closed = []
    if notes.seen and any(s.user_id is not None and s.closed is not None for s in t.seats):
        notes.closed = smuta_lines(notes)
    decision = pending(state) if t.status == "playing" else None
    if decision is None or state.players[decision.seat].computer:
        return
    if decision.id == notes.decision:
        return  # its sentences are chosen already
    notes.decision = decision.id
    notes.lines = lines_for(notes, state, decision)


def smuta_lines(notes: Tutoring) -> list[TutorLine]:
    """The смуты come up and not yet told (with what a смута is, the first time)."""
    lines: list[TutorLine] = []
    if notes.seen and SMUTA not in notes.told:
        lines.append(_tell(notes, SMUTA))
    lines += [_tell(notes, step) for step in notes.seen]
    notes.seen = []
    return lines


def lines_for(notes: Tutoring, state: GameState, decision: Decision) -> list[TutorLine]:
    """The sentences of a prompt (each step marked told): the смуты come up
    since the last one, and the first step whose moment this is."""
    lines = smuta_lines(notes)
    if decision.kind != "action":
        return lines
    for step, check in STEPS.items():
        if step in notes.told:
            continue
        card = check(state, decision)
        if card is not None:
            lines.append(_tell(notes, step, card or None))
            return lines
    if OWN not in notes.told and all(step in notes.told for step in STEPS):
        lines.append(_tell(notes, OWN))
    return lines


def _tell(notes: Tutoring, step: str, card: str | None = None) -> TutorLine:
    notes.told.append(step)
    return TutorLine(step=step, card=card)
