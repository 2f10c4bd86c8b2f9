"""A practice game's computer turns, a line each: what changed.

In a practice game one person plays against computers in their private chat,
and each of their prompts used to carry every line of the computers' turns
since their last one (a dozen lines a turn). Here each turn is said in one
line — «Компьютер 2: выложил 🔴 Лорда, 🌀 🦠 Чума — ваш дом 🟢 ушёл»: what its
player did (in the order it happened, the same kind of deed merged: «выложил
🔴 Лорда и 🔵 Пажа»), what others lost, and after the dash what it did to the
reader. The full lines stay a tap away (the prompt's «Подробнее»), and in
/table and the Mini App.

Nothing here knows a rule: it reads the events a seat was allowed to see (the
public ones and those told to it), so it names only what the reader may see.
The words are ``practice-digest-*`` (locales/*/practice.ftl); the one acting is a
computer, «Компьютер N», whose name is declined (``practice-digest-bot``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store.models import Table
from bot.words.i18n import COLOUR_EMOJI
from bot.words.render import Renderer
from bot.words.shape import visible_len
from engine import Event, GameState

#: events that take cards out of someone's houses for the one acting:
#: key → (the one who loses them, the one who takes them)
TAKES = {
    "lady.took": ("source", "seat"),
    "ball.took": ("source", "seat"),
    "campaign.took": ("source", "seat"),
}
#: events that take cards from someone's hand, said by their private event
#: (which names the card to the one it was taken from or who took it)
FROM_HAND_PRIVATE = {"mercenary.took.private", "intrigue.took.private", "betrayal.took.private"}
#: cards a reader gets into their hand, told to them alone
GAINS_PRIVATE = {"feast.took.private", "order.drawn.private", "power.took.private"}


#: a turn's line holds at most this many characters: past them, the least
#: telling deeds give way to «…» (what happened to the reader always stays)
WIDTH = 110
#: what a turn's line keeps first when it must give some deeds up
RANK = {
    kind: i
    for i, kind in enumerate(
        [
            "smuta",
            "last_card",
            "built",
            "laid",
            "played",
            "took",
            "took_house",
            "lost_houses",
            "lost",
            "planted",
            "raised",
            "castles_back",
            "flipped",
            "spied",
            "discarded",
            "skipped",
            "orders",
            "drew",
            "drew_orders",
        ]
    )
}


#: a deed's kind → its words
DEEDS = {
    "drew": "practice-digest-drew",
    "orders": "practice-digest-orders",
    "drew_orders": "practice-digest-drew-orders",
    "laid": "practice-digest-laid",
    "planted": "practice-digest-planted",
    "discarded": "practice-digest-discarded",
    "played": "practice-digest-played",
    "built": "practice-digest-built",
    "flipped": "practice-digest-flipped",
    "raised": "practice-digest-raised",
    "took": "practice-digest-took",
    "took_house": "practice-digest-took-house",
    "spied": "practice-digest-spied",
    "lost": "practice-digest-lost",
    "lost_houses": "practice-digest-lost-houses",
    "castles_back": "practice-digest-castles-back",
    "last_card": "practice-digest-last-card",
    "skipped": "practice-digest-skipped",
}
#: what happened to the reader → its words
TO_YOU = {
    "got": "practice-digest-you-got",
    "drew": "practice-digest-you-drew",
    "planted": "practice-digest-you-planted",
    "lost": "practice-digest-you-lost",
    "hand_taken": "practice-digest-you-hand-taken",
    "hand_discarded": "practice-digest-you-hand-discarded",
    "looked": "practice-digest-you-looked",
    "houses": "practice-digest-you-houses",
    "castle": "practice-digest-you-castle",
}


@dataclass
class Turn:
    """One player's turn as the reader saw it: the parts of its line."""

    seat: int
    #: (kind, whose, more) → the cards (or colours, orders…) merged into it
    deeds: dict[tuple[str, int | None, int | None], list[str]] = field(default_factory=dict)
    counts: dict[tuple[str, int | None], int] = field(default_factory=dict)
    to_you: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, doer: int | None, whom: int | None, *items: str) -> None:
        self.deeds.setdefault((kind, doer, whom), []).extend(items)

    def count(self, kind: str, doer: int | None) -> None:
        key = (kind, doer)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.deeds.setdefault((kind, doer, None), [])

    def you(self, kind: str, *items: str) -> None:
        self.to_you.setdefault(kind, []).extend(items)

    @property
    def empty(self) -> bool:
        return not self.deeds and not self.to_you


def turns_of(events: Sequence[Event], reader: int) -> list[list[Event]]:
    """`events` cut at each turn's start (a turn started again by its own
    player stays one); the first part may lack its start."""
    parts: list[list[Event]] = []
    for e in events:
        if not e.visible_to(reader):
            continue
        if e.key == "turn.start":
            seat = e.params.get("seat")
            if parts and parts[-1] and _seat_of(parts[-1]) == seat:
                continue  # the same player's turn again (Предательство, Замок Власти)
            parts.append([e])
        elif parts:
            parts[-1].append(e)
        else:
            parts.append([e])
    return parts


def turn_head(table: Table, state: GameState, start: int) -> Event:
    """The start of the turn that the journal's position `start` is inside,
    as `turns_of` reads it: whose turn it is, and the смута
    under way there, if any (the journal is cut only at a turn's start)."""
    before = table.entries(table.log_at, start)
    at = next(
        (i for i in range(len(before) - 1, -1, -1) if _starts_turn(before[i])),
        None,
    )
    if at is None:  # cut (a recap older than the journal keeps): the turn now
        return Event(key="turn.start", params={"seat": state.current})
    head = before[at]
    params: dict[str, Any] = {"seat": head.params.get("seat")}
    running = [str(head.params["smuta"])] if "smuta" in head.params else []
    for e in before[at + 1 :]:
        if e.key == "smuta.start":
            running.append(str(e.params["smuta"]))
        elif e.key == "smuta.end" and running:
            running.pop()
    if running:
        params["smuta"] = running[-1]
    return Event(key="turn.start", params=params)


def _starts_turn(entry: Event) -> bool:
    return entry.key == "turn.start" and entry.to is None


def _seat_of(part: list[Event]) -> int | None:
    head = part[0]
    seat = head.params.get("seat") if head.key == "turn.start" else None
    return seat if isinstance(seat, int) else None


class Digest:
    """The lines of a practice game's computer turns, for one reader."""

    def __init__(self, render: Renderer) -> None:
        self.render = render
        self.tr = render.tr

    def lines(
        self, lang: str, table: Table, state: GameState, events: Sequence[Event], reader: int
    ) -> list[str]:
        """A line for each turn `events` tell of that changed something the
        reader may see (their own turn's start says nothing: their prompt asks)."""
        # «Игра началась…» as the log says it: who plays, who starts
        lines = [
            self.render.event(lang, table, state, e, reader)
            for e in events
            if e.key == "game.start"
        ]
        for part in turns_of(events, reader):
            seat = _seat_of(part)
            turn = self.turn(state, part, reader, seat if seat is not None else reader)
            if not turn.empty:
                lines.append(self.line(lang, table, state, turn, reader))
        return lines

    # ------------------------------------------------------------------ reading events
    def turn(self, state: GameState, events: list[Event], reader: int, actor: int) -> Turn:
        turn = Turn(actor)
        for e in events:
            self._read(turn, e, reader)
        return turn

    def _read(self, turn: Turn, e: Event, reader: int) -> None:
        p = e.params
        key = e.key
        seat = p.get("seat")
        if key == "turn.start" and "smuta" in p:  # a turn taken up inside a смута
            turn.add("smuta", None, None, f"going:{p['smuta']}")
            return
        if e.to is not None:  # told to the reader alone
            if key in GAINS_PRIVATE or key == "deck.drew.private":
                if seat == reader and "card" in p:
                    turn.you("drew" if key == "deck.drew.private" else "got", p["card"])
            elif key in FROM_HAND_PRIVATE:
                if p.get("source") == reader:
                    turn.you("hand_taken", p["card"])
                elif seat == reader:
                    turn.you("got", p["card"])
            return
        if key == "deck.drew" or key == "feast.took":
            if seat == turn.seat:
                turn.count("drew", seat)
        elif key in ("order.drawn", "power.took"):
            if seat == turn.seat:
                turn.count("orders", seat)
        elif key == "smuta.start":
            turn.add("smuta", None, None, f"{p.get('mode', 'drawn')}:{p['smuta']}")
        elif key == "lay":
            target = p.get("target")
            if target == seat:
                turn.add("laid", seat, None, p["card"])
            elif target == reader:
                turn.you("planted", p["card"])
            else:
                turn.add("planted", seat, target, p["card"])
        elif key in ("discard", "discard.captured"):
            turn.add("discarded", seat, None, p["card"])
            if key == "discard.captured" and p.get("owner") == reader:
                turn.you("got", p["card"])
        elif key == "order.played":
            turn.add("played", seat, None, str(p["order"]))
        elif key == "castle.built":
            turn.add("built", seat, None, str(p["colour"]))
        elif key == "castle.flipped":
            turn.add("flipped", seat, None, str(p["colour"]))
        elif key == "castle.returned":
            if seat == reader:
                turn.you("castle", str(p["colour"]))
        elif key == "castles.returned":
            turn.add("castles_back", None, None)
        elif key == "resurrected":
            if p.get("target") == reader and seat != reader:
                turn.you("planted", p["card"])
            else:
                turn.add("raised", seat, None, p["card"])
        elif key in TAKES or key == "minstrel.took":
            self._took(turn, e, reader)
        elif key == "thrones.lords":
            if p.get("source") == reader:
                turn.you("hand_taken", *p["cards"])
            elif seat == reader:
                turn.you("got", *p["cards"])
            else:
                turn.add("took", seat, p.get("source"), *p["cards"])
        elif key == "earthquake.took":
            if p.get("source") == reader:
                turn.you("houses", str(p["colour"]))
            else:
                turn.add("took_house", seat, p.get("source"), str(p["colour"]))
        elif key == "spy.discarded":
            if p.get("target") == reader:
                turn.you("hand_discarded", p["card"])
            else:
                turn.add("spied", seat, p.get("target"), p["card"])
        elif key == "hand.looked":
            if p.get("target") == reader:
                turn.you("looked")
        elif key == "conspiracy.gave":
            if p.get("target") == reader:
                turn.you("got", p["card"])
        elif key == "card.killed":
            if seat == reader:
                turn.you("lost", p["card"])
            else:
                turn.add("lost", seat, None, p["card"])
        elif key == "house.destroyed":
            if seat == reader:
                turn.you("houses", str(p["colour"]))
            else:
                turn.add("lost_houses", seat, None, str(p["colour"]))
        elif key == "deck.empty":
            turn.add("last_card", None, None)
        elif key == "turn.nothing_to_do":
            turn.add("skipped", seat, None)

    @staticmethod
    def _took(turn: Turn, e: Event, reader: int) -> None:
        p = e.params
        loser, taker = p.get("source"), p.get("seat")
        if loser == reader:
            turn.you("hand_taken" if e.key == "minstrel.took" else "lost", p["card"])
        elif taker == reader:
            turn.you("got", p["card"])
        else:
            turn.add("took", taker, loser, p["card"])

    # ------------------------------------------------------------------ saying it
    def line(self, lang: str, table: Table, state: GameState, turn: Turn, reader: int) -> str:
        t = self.tr.t
        parts: list[tuple[int, str]] = []  # (rank, text), in the order they happened
        for (kind, doer, whom), items in turn.deeds.items():
            if doer == reader:
                continue  # the reader's own answer: their message told it
            args: dict[str, Any] = {}
            both = ("drew", doer) in turn.counts and ("orders", doer) in turn.counts
            if kind == "orders" and both:
                continue  # said with the cards drawn: «взял 2 карты и приказ»
            if kind == "drew" and both:
                args["orders"] = turn.counts[("orders", doer)]
                kind = "drew_orders"
                args["n"] = turn.counts[("drew", doer)]
            elif kind in ("drew", "orders"):
                args["n"] = turn.counts[(kind, doer)]
            elif kind == "smuta":
                for item in items:
                    mode, smuta = item.split(":", 1)
                    smuta_name = t(lang, f"card-{smuta}")
                    parts.append(
                        (RANK[kind], t(lang, "practice-digest-smuta", mode=mode, smuta=smuta_name))
                    )
                continue
            elif kind == "played":
                args["orders"] = self.joined(lang, [f"«{t(lang, f'card-{o}')}»" for o in items])
            elif kind in ("built", "flipped", "lost_houses", "took_house"):
                args["colours"] = " ".join(COLOUR_EMOJI.get(c, c) for c in items)
                args["n"] = len(items)
            else:
                args["cards"] = self.cards(lang, state, items)
            if whom is not None:
                args["whom"] = self.who(lang, table, whom, "gen")
                args["whom_dat"] = self.who(lang, table, whom, "dat")
            deed = t(lang, DEEDS[kind], **args)
            if doer is not None and doer != turn.seat:
                deed = t(
                    lang, "practice-digest-by", doer=self.who(lang, table, doer, "nom"), deed=deed
                )
            parts.append((RANK[kind], deed))
        yours = []
        for kind, items in turn.to_you.items():
            args = {"n": len(items)}
            if kind in ("houses", "castle"):
                args["colours"] = " ".join(COLOUR_EMOJI.get(c, c) for c in items)
            elif kind != "looked":
                args["cards"] = self.cards(lang, state, items)
            yours.append(t(lang, TO_YOU[kind], **args))
        who = (
            t(lang, "practice-digest-your-turn")
            if turn.seat == reader
            else self.who(lang, table, turn.seat, "nom")
        )
        kept = list(parts)
        while True:
            line = self._said(lang, who, [text for _, text in kept], yours, len(kept) < len(parts))
            if len(kept) <= 1 or visible_len(line) <= WIDTH:
                return line
            # the least telling deed gives way (the latest of its kind first)
            worst = max(range(len(kept)), key=lambda i: (kept[i][0], i))
            del kept[worst]

    def _said(self, lang: str, who: str, parts: list[str], yours: list[str], cut: bool) -> str:
        t = self.tr.t
        did = ", ".join(parts) + (" …" if cut else "")
        if not parts:
            return t(lang, "practice-digest-line", player=who, parts=", ".join(yours))
        if not yours:
            return t(lang, "practice-digest-line", player=who, parts=did)
        return t(lang, "practice-digest-line-you", player=who, parts=did, you=", ".join(yours))

    def who(self, lang: str, table: Table, seat: int, case: str) -> str:
        """A seat's short name, declined: «Компьютера 2» (a computer's number
        counts the computers before it, as its full name does)."""
        s = table.seats[seat]
        if s.user_id is None and s.level is not None and not s.forgotten:
            number = 1 + sum(1 for x in table.seats[:seat] if x.user_id is None)
            return self.tr.t(lang, "practice-digest-bot", n=number, case=case)
        return self.tr.t(
            lang, "practice-digest-player", player=self.render.name(lang, table, seat), case=case
        )

    def cards(self, lang: str, state: GameState, cards: Sequence[str]) -> str:
        return self.joined(lang, [self.render.card(lang, state, c, "acc") for c in cards])

    def joined(self, lang: str, items: Sequence[str]) -> str:
        """«A», «A и B», «A, B и C»."""
        if len(items) < 2:
            return "".join(items)
        return (
            ", ".join(items[:-1]) + " " + self.tr.t(lang, "practice-digest-and") + " " + items[-1]
        )
