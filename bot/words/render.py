"""Turn engine events and views into text for people, in their language.

Nothing here knows a rule: it reads `engine.view_for` and the events' keys and
parameters. Every word comes from `locales/` via `Translator`:

- ``event-<key>`` (dots become dashes) renders one event; its variables are
  filled from the event's parameters: a seat becomes a name (``$player`` for
  ``seat``, and ``$target``, ``$source``, ``$owner``, ``$initiator``, ``$by``,
  ``$first``), a card becomes ``$card`` / ``$card_acc`` / ``$card_dat``, a
  list of cards ``$cards`` with ``$n``, a смута ``$smuta``, a colour
  ``$colour`` (and ``$to``), a castle side ``$side``, a castle ``$castle``.
  Besides, every event gets ``$me`` — which of its seats the reader is
  (``player``, ``source``, ``target``…; ``none`` in the group), so a private
  line says «вы» to its reader — and ``$own`` (``yes`` when two of its seats
  are the same player: «выкладывает к себе», «из своего дома»). An event may
  get more (see `EXTRA`): what killed a card (``$cause``), the side a Слуга
  was flipped from (``$from``).
- ``prompt-<kind>`` asks a decision; ``opt-<word>`` labels an option part.
- ``table-*`` draws the table, ``result-*`` the end.

Names go through `bot.words.names`: cleaned, cut, isolated (so a right-to-left name
cannot turn a line around), with a fallback for a name that shows nothing.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from bot.store.models import Table
from bot.words.i18n import COLOUR_EMOJI, Translator
from bot.words.names import shown_name
from engine import Decision, Event, GameState, pending, view_for
from engine.cards import PLANTABLE, catalog_for
from engine.state import House
from engine.view import HouseView

SEAT_PARAMS = {
    "seat": "player",
    "target": "target",
    "source": "source",
    "owner": "owner",
    "initiator": "initiator",
    "by": "by",
    "first": "first",
    "current": "current",
}
#: public events the table already shows, so the log leaves them out
SILENT = frozenset({"placed", "smuta.end", "house.vanished", "turn.ended", "castle.one_time"})
#: the table in the group: lines and characters it keeps to on a phone (the
#: turn's log gives up its oldest lines first)
TABLE_MAX_LINES = 35
TABLE_MIN_LOG_LINES = 3
MAX_LOG_LINES = 12
#: smuty whose own rounds send cards of houses to the graveyard (card.killed)
KILLING_SMUTY = frozenset({"poison", "fire"})


def event_key(key: str) -> str:
    return "event-" + key.replace(".", "-").replace("_", "-")


def reader_role(params: dict[str, Any], reader: int | None) -> str:
    """Which seat parameter of an event the reader is: ``player`` (the one who
    acts), ``source``, ``target``…; ``none`` when none (or in the group)."""
    if reader is None:
        return "none"
    for key, var in SEAT_PARAMS.items():
        if params.get(key) == reader:
            return var
    return "none"


def own(params: dict[str, Any]) -> str:
    """``yes`` when two seat parameters of an event are the same player (Аня
    lays a card into her own row; her own card goes to the graveyard)."""
    seats = [v for k, v in params.items() if k in SEAT_PARAMS and isinstance(v, int)]
    return "yes" if len(seats) != len(set(seats)) else "no"


def kill_causes(state: GameState, events: list[Event]) -> dict[int, str]:
    """What sent each ``card.killed`` of `events` to the graveyard: ``poison``,
    ``fire``, ``alchemist``, ``priest`` — or ``other`` when the event alone
    cannot tell (an Алхимик or a Священник killing a Блудница when the
    killer holds both).

    The engine names the killer, not the cause; it follows from where the
    kill happened: inside Отрава's or Пожар's round (a смута started earlier
    in `events`, ended later in them, or still running in `state`), else it
    was an Алхимик's or a Священник's property."""
    cat = catalog_for(state.rules)
    running = _running_smuty(state)
    causes: dict[int, str] = {}
    opened: list[str] = []
    for i, e in enumerate(events):
        if e.key == "smuta.start":
            opened.append(e.params["smuta"])
        elif e.key == "smuta.end":
            if opened and opened[-1] == e.params["smuta"]:
                opened.pop()
        elif e.key == "card.killed":
            context = opened[-1] if opened else _ended_later(events, i)
            if context is None:
                # still running: below any смута this batch started after the kill
                started = _started_later(events, i)
                context = running[-1 - started] if started < len(running) else None
            if context in KILLING_SMUTY:
                causes[i] = context
                continue
            card = cat[e.params["card"]]
            if card.type not in PLANTABLE:
                causes[i] = "alchemist"  # a Священник takes only a Блудница or a Чумовой
                continue
            killer = e.params.get("by")
            held = {
                cat[c].type
                for h in (state.players[killer].houses if isinstance(killer, int) else [])
                for c in h.cards
            }
            if ("priest" in held) != ("alchemist" in held):
                causes[i] = "priest" if "priest" in held else "alchemist"
            else:
                causes[i] = "other"
    return causes


def _ended_later(events: list[Event], index: int) -> str | None:
    """The смута that a later event of the batch ends without having started it
    in the batch: the one `events[index]` happened in."""
    depth = 0
    for e in events[index + 1 :]:
        if e.key == "smuta.start":
            depth += 1
        elif e.key == "smuta.end":
            if depth == 0:
                return str(e.params["smuta"])
            depth -= 1
    return None


def _started_later(events: list[Event], index: int) -> int:
    """How many смуты later events of the batch start and do not end."""
    open_ = 0
    for e in events[index + 1 :]:
        if e.key == "smuta.start":
            open_ += 1
        elif e.key == "smuta.end" and open_:
            open_ -= 1
    return open_


def _running_smuty(state: GameState) -> list[str]:
    """The смуты still being resolved in `state`, outermost first (each смута
    being resolved keeps the frame that ends it under its effect)."""
    cat = catalog_for(state.rules)
    return [cat[f.card].type for f in state.frames if f.kind == "smuta_end"]


class Renderer:
    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    # ------------------------------------------------------------------ names
    def name(self, lang: str, table: Table, seat: int) -> str:
        """A seat's name for an HTML text: cleaned, isolated, escaped; a
        computer's («Компьютер 2 · сильный») in the reader's language."""
        s = table.seats[seat]
        if s.user_id is None and s.level is not None:
            number = 1 + sum(1 for x in table.seats[:seat] if x.user_id is None)
            level = self.tr.t(lang, f"level-{s.level}")
            return self.tr.t(lang, "bot-name", n=number, level=level)
        fallback = self.tr.t(lang, "player-fallback", n=seat + 1)
        return html.escape(shown_name(s.name, fallback), quote=False)

    def person(self, lang: str, raw: str) -> str:
        """Someone who may sit nowhere (an admin who stops the game) by their
        Telegram name: cleaned, isolated, escaped."""
        return html.escape(shown_name(raw, self.tr.t(lang, "person-fallback")), quote=False)

    def mention(self, table: Table, seat: int) -> str:
        """A seat's name that notifies its player when a group message shows it
        (a ``tg://user`` link); the bare name for a computer seat."""
        shown = self.name(table.lang, table, seat)
        user_id = table.seats[seat].user_id
        if user_id is None:
            return shown
        return f'<a href="tg://user?id={int(user_id)}">{shown}</a>'

    # ------------------------------------------------------------------ cards
    def card(self, lang: str, state: GameState, card_id: str, case: str = "nom") -> str:
        card = catalog_for(state.rules)[card_id]
        side = state.servant_up.get(card_id)
        return self.tr.card(lang, card, case, side)  # type: ignore[arg-type]

    def cards(self, lang: str, state: GameState, card_ids: list[str]) -> str:
        return ", ".join(self.card(lang, state, c) for c in card_ids)

    # ------------------------------------------------------------------ events
    def event_args(
        self,
        lang: str,
        table: Table,
        state: GameState,
        params: dict[str, Any],
        reader: int | None = None,
    ) -> dict[str, Any]:
        args: dict[str, Any] = {"me": reader_role(params, reader), "own": own(params)}
        for key, value in params.items():
            if key in SEAT_PARAMS and isinstance(value, int):
                args[SEAT_PARAMS[key]] = self.name(lang, table, value)
            elif key == "card":
                for case, suffix in (("nom", ""), ("acc", "_acc"), ("dat", "_dat")):
                    args["card" + suffix] = self.card(lang, state, value, case)
            elif key == "cards":
                args["cards"] = self.cards(lang, state, value)
                args["n"] = len(value)
            elif key in ("smuta", "order"):
                args[key] = self.tr.t(lang, f"card-{value}")
            elif key in ("colour", "to"):
                args[key] = COLOUR_EMOJI.get(value, value)
            elif key == "castle":
                args["castle"] = self.tr.t(lang, f"castle-{value}")
            elif key == "side":
                args["side"] = self.tr.t(lang, f"opt-{value.replace('_', '-')}")
            elif key == "reason":
                args["reason"] = value
            elif key == "seats" and isinstance(value, dict):
                args["players"] = ", ".join(self.name(lang, table, int(s)) for s in value)
            elif key in ("scores", "castles", "winners"):
                continue
            else:
                args[key] = value
        return args

    def event(
        self,
        lang: str,
        table: Table,
        state: GameState,
        event: Event,
        reader: int | None = None,
        cause: str | None = None,
    ) -> str:
        args = self.event_args(lang, table, state, event.params, reader)
        extra = EXTRA.get(event.key)
        if extra is not None:
            args.update(extra(state, event))
        if cause is not None:
            args["cause"] = cause
        return self.tr.t(lang, event_key(event.key), **args)

    def public_lines(self, table: Table, state: GameState, events: list[Event]) -> list[str]:
        causes = kill_causes(state, events)
        return [
            self.event(table.lang, table, state, e, cause=causes.get(i))
            for i, e in enumerate(events)
            if e.to is None and e.key not in SILENT and e.key != "game.over"
        ]

    def private_lines(
        self, lang: str, table: Table, state: GameState, events: list[Event], seat: int
    ) -> list[str]:
        """The lines only `seat` sees, said to them («вы»)."""
        return [
            self.event(lang, table, state, e, reader=seat)
            for e in events
            if e.to is not None and seat in e.to
        ]

    # ------------------------------------------------------------------ the table
    def table(self, table: Table, state: GameState, log: list[str]) -> str:
        """The group's table: the piles, then each player and their row of houses
        left → right, one line a house; then the latest lines of the turn's log,
        as many as fit in `TABLE_MAX_LINES` (at least `TABLE_MIN_LOG_LINES`)."""
        lang = table.lang
        t = self.tr.t
        view = view_for(state, None)
        decision = pending(state) if view.result is None else None

        head = t(lang, "table-title", turn=state.turn)
        head += " · " + t(lang, "table-deck", n=view.deck_size)
        if view.deck_top_smuta is not None:
            head += " " + t(
                lang, "table-deck-top", smuta=self.card(lang, state, view.deck_top_smuta)
            )
        head += " · " + t(lang, "table-orders", n=view.orders_size)
        if view.final_turns is not None and view.result is None:
            head += " · " + t(lang, "table-final-turns", n=view.final_turns + 1)
        lines = [head]

        def pile(key: str, cards: list[str]) -> str:
            top = self.card(lang, state, cards[0]) if cards else ""
            return t(lang, key, n=len(cards), top=top)

        lines.append(
            pile("table-graveyard", view.graveyard)
            + " · "
            + pile("table-orders-discard", view.orders_discard)
        )
        smuty = pile("table-smuta-discard", view.smuta_discard)
        if view.prophet_stack:
            smuty += " · " + t(
                lang, "table-prophet", smuty=self.cards(lang, state, view.prophet_stack)
            )
        supply = " ".join(COLOUR_EMOJI[c] for c in view.castle_supply) or "—"
        lines.append(smuty + " · " + t(lang, "table-castles", castles=supply))
        lines.append(t(lang, "table-rows"))
        for p in view.players:
            seat = table.seats[p.seat]
            who = self.name(lang, table, p.seat)
            if p.computer or seat.user_id is None:
                who += " 🤖"
            line = t(lang, "table-player", player=who, hand=p.hand_size, points=p.points)
            if view.result is None and p.seat == view.current:
                line = "▶️ " + line
                if decision is not None and decision.kind == "action":
                    line += " · " + t(lang, "table-actions", n=view.actions_left)
            if decision is not None and decision.seat == p.seat and decision.kind != "action":
                line += " · " + t(lang, "table-choosing")
            lines.append(line)
            for i, h in enumerate(p.houses):
                lines.append(self.house_line(lang, state, h, i, len(p.houses)))
        if log:
            room = max(TABLE_MIN_LOG_LINES, TABLE_MAX_LINES - len(lines) - 1)
            room = min(room, MAX_LOG_LINES)
            lines.append("")
            lines.extend(log[-room:])
        return "\n".join(lines)

    def house_line(
        self, lang: str, state: GameState, h: HouseView | House, i: int, count: int
    ) -> str:
        """`` ⬅️ 🔴🏰♾️ Лорд, Рыцарь, 🔵 Казначей``: the end it stands at, its colour
        and castle, its cards oldest first (a card of the house's own colour
        without its colour sign)."""
        if count == 1:
            end = "↔️"
        elif i == 0:
            end = "⬅️"
        elif i == count - 1:
            end = "➡️"
        else:
            end = "▫️"
        return f"  {end} {self.house(lang, state, h)}"

    def house(self, lang: str, state: GameState, h: HouseView | House) -> str:
        """``🔴🏰♾️ Лорд, Рыцарь, 🔵 Казначей``: a house's colour and castle, its
        cards oldest first (a card of the house's own colour without its sign)."""
        colour = COLOUR_EMOJI[h.colour]
        castle = ""
        if h.castle is not None:
            castle = self.tr.t(lang, f"table-castle-{h.castle.replace('_', '-')}")
        own_colour = colour + " "
        cards = ", ".join(self.card(lang, state, c).removeprefix(own_colour) for c in h.cards)
        return f"{colour}{castle} {cards}"

    def result(
        self, table: Table, state: GameState, lang: str | None = None, stopped: bool = False
    ) -> str:
        """The end: each player's points — their cards' and their castles' — best
        first; the castles break a tie. In the group's language unless `lang`
        says another; a game its players `stopped` shows the score it stood at,
        and no winner."""
        lang = lang or table.lang
        t = self.tr.t
        result = state.result
        assert result is not None
        each = state.rules.castle_points
        title = "result-title" if not result.aborted else "result-aborted"
        lines = [t(lang, "result-stopped" if stopped else title)]
        order = sorted(range(len(result.scores)), key=lambda s: (-result.scores[s], s))
        for seat in order:
            castles = result.castles[seat]
            lines.append(
                t(
                    lang,
                    "result-line",
                    player=self.name(lang, table, seat),
                    points=result.scores[seat],
                    cards=result.scores[seat] - castles * each,
                    castles=castles,
                    each=each,
                )
            )
        best = [s for s in order if result.scores[s] == result.scores[order[0]]]
        if len(best) > 1 and len(result.winners) < len(best):
            tied = ", ".join(
                t(
                    lang,
                    "result-tie-castles",
                    player=self.name(lang, table, s),
                    castles=result.castles[s],
                )
                for s in sorted(best, key=lambda s: (-result.castles[s], s))
            )
            lines.append(t(lang, "result-tie-break", players=tied))
        if stopped:
            return "\n".join(lines)
        winners = ", ".join(self.name(lang, table, s) for s in result.winners)
        lines.append(t(lang, "result-winners", players=winners, n=len(result.winners)))
        if not table.practice:
            hinted = [
                t(lang, "result-hints", player=self.name(lang, table, s), n=seat.hints)
                for s, seat in enumerate(table.seats)
                if seat.hints
            ]
            if hinted:
                lines.append(", ".join(hinted))
        return "\n".join(lines)

    # ------------------------------------------------------------------ private
    def hand(self, lang: str, table: Table, state: GameState, seat: int) -> str:
        cards = state.players[seat].hand
        listed = "\n".join("• " + self.card(lang, state, c) for c in cards)
        return self.tr.t(lang, "hand-title", n=len(cards)) + ("\n" + listed if listed else "")

    def header(self, lang: str, table: Table) -> str:
        return self.tr.t(
            lang, "private-header", chat=html.escape(table.title or str(table.chat_id))
        )

    def prompt(self, lang: str, table: Table, state: GameState, decision: Decision) -> str:
        args = self.event_args(lang, table, state, decision.params, decision.seat)
        kind = decision.kind.replace(".", "-").replace("_", "-")
        return self.tr.t(lang, f"prompt-{kind}", **args)

    def option_part(self, lang: str, table: Table, state: GameState, part: str) -> str:
        """One part of an option, as a button shows it (plain text, not HTML)."""
        cat = catalog_for(state.rules)
        if part in cat.cards:
            return self.card(lang, state, part)
        if part.isdigit() and int(part) < len(table.seats):
            return html.unescape(self.name(lang, table, int(part)))
        if part in COLOUR_EMOJI:
            return self.tr.t(lang, f"colour-{part}")
        if part == "-":
            return self.tr.t(lang, "opt-here")
        return self.tr.t(lang, "opt-" + part.replace("_", "-"))


def _flipped_from(state: GameState, event: Event) -> dict[str, Any]:
    """Засуха: the side a Слуга lay on before it was flipped to ``colour``."""
    card = catalog_for(state.rules)[event.params["card"]]
    new = event.params.get("colour")
    old = next((c for c in card.colours if c != new), new)
    return {"from": COLOUR_EMOJI.get(str(old), str(old))}


#: event key → more variables than its parameters give
EXTRA: dict[str, Callable[[GameState, Event], dict[str, Any]]] = {
    "drought.flipped": _flipped_from,
}
