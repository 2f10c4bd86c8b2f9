"""Turn engine events and views into text for people, in their language.

Nothing here knows a rule: it reads `engine.view_for` and the events' keys and
parameters. Every word comes from `locales/` via `Translator`:

- ``event-<key>`` (dots become dashes) renders one event; its variables are
  filled from the event's parameters: a seat becomes a name (``$player`` for
  ``seat``, and ``$target``, ``$source``, ``$owner``, ``$initiator``, ``$by``,
  ``$first``), a card becomes ``$card`` / ``$card_acc`` / ``$card_dat``, a
  list of cards ``$cards`` with ``$n``, a смута ``$smuta``, a colour
  ``$colour`` (and ``$to``), a castle side ``$side``, a castle ``$castle``.
- ``prompt-<kind>`` asks a decision; ``opt-<word>`` labels an option part.
- ``table-*`` draws the table.
"""

from __future__ import annotations

import html
from typing import Any

from bot.i18n import COLOUR_EMOJI, Translator
from bot.models import Table
from engine import Decision, Event, GameState, view_for
from engine.cards import catalog_for

SEAT_PARAMS = {
    "seat": "player",
    "target": "target",
    "source": "source",
    "owner": "owner",
    "initiator": "initiator",
    "by": "by",
    "first": "first",
}
#: public events the table already shows, so the log leaves them out
SILENT = frozenset({"placed", "smuta.end", "house.vanished", "turn.ended", "castle.one_time"})
MAX_LOG_LINES = 12


def name(table: Table, seat: int) -> str:
    return html.escape(table.seats[seat].name)


def event_key(key: str) -> str:
    return "event-" + key.replace(".", "-").replace("_", "-")


class Renderer:
    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    # ------------------------------------------------------------------ cards
    def card(self, lang: str, state: GameState, card_id: str, case: str = "nom") -> str:
        card = catalog_for(state.rules)[card_id]
        side = state.servant_up.get(card_id)
        return self.tr.card(lang, card, case, side)  # type: ignore[arg-type]

    def cards(self, lang: str, state: GameState, card_ids: list[str]) -> str:
        return ", ".join(self.card(lang, state, c) for c in card_ids)

    # ------------------------------------------------------------------ events
    def event_args(
        self, lang: str, table: Table, state: GameState, params: dict[str, Any]
    ) -> dict[str, Any]:
        args: dict[str, Any] = {}
        for key, value in params.items():
            if key in SEAT_PARAMS and isinstance(value, int):
                args[SEAT_PARAMS[key]] = name(table, value)
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
                args["players"] = ", ".join(name(table, int(s)) for s in value)
            elif key in ("scores", "castles", "winners"):
                continue
            else:
                args[key] = value
        return args

    def event(self, lang: str, table: Table, state: GameState, event: Event) -> str:
        args = self.event_args(lang, table, state, event.params)
        return self.tr.t(lang, event_key(event.key), **args)

    def public_lines(self, table: Table, state: GameState, events: list[Event]) -> list[str]:
        return [
            self.event(table.lang, table, state, e)
            for e in events
            if e.to is None and e.key not in SILENT and e.key != "game.over"
        ]

    def private_lines(
        self, lang: str, table: Table, state: GameState, events: list[Event], seat: int
    ) -> list[str]:
        return [
            self.event(lang, table, state, e) for e in events if e.to is not None and seat in e.to
        ]

    # ------------------------------------------------------------------ the table
    def table(self, table: Table, state: GameState, log: list[str]) -> str:
        lang = table.lang
        t = self.tr.t
        view = view_for(state, None)
        lines = [t(lang, "table-title", turn=state.turn)]
        deck = t(lang, "table-deck", n=view.deck_size)
        if view.deck_top_smuta is not None:
            deck += " · " + t(
                lang, "table-deck-top", smuta=self.card(lang, state, view.deck_top_smuta)
            )
        if view.final_turns is not None and view.result is None:
            deck += " · " + t(lang, "table-final-turns", n=view.final_turns + 1)
        lines.append(deck + " · " + t(lang, "table-orders", n=view.orders_size))
        grave = t(lang, "table-graveyard", n=len(view.graveyard))
        if view.graveyard:
            grave += " · " + t(lang, "table-top", card=self.card(lang, state, view.graveyard[0]))
        lines.append(grave)
        if view.smuta_discard:
            lines.append(
                t(lang, "table-smuta-discard", smuty=self.cards(lang, state, view.smuta_discard))
            )
        if view.prophet_stack:
            lines.append(
                t(lang, "table-prophet", smuty=self.cards(lang, state, view.prophet_stack))
            )
        supply = " ".join(COLOUR_EMOJI[c] for c in view.castle_supply) or "—"
        lines.append(t(lang, "table-castles", castles=supply))
        lines.append("")
        for p in view.players:
            marker = "▶️ " if p.seat == view.current and view.result is None else ""
            seat = table.seats[p.seat]
            who = name(table, p.seat) + (" 🤖" if p.computer or seat.user_id is None else "")
            lines.append(
                marker + t(lang, "table-player", player=who, hand=p.hand_size, points=p.points)
            )
            for h in p.houses:
                castle = ""
                if h.castle is not None:
                    castle = " " + t(lang, f"table-castle-{h.castle.replace('_', '-')}")
                cards = ", ".join(self.card(lang, state, c) for c in h.cards)
                lines.append(f"   {COLOUR_EMOJI[h.colour]}{castle} [{cards}]")
        lines.append("")
        if view.result is None:
            lines.append(
                t(lang, "table-turn", player=name(table, view.current), actions=view.actions_left)
            )
            if view.waiting_for is not None:
                lines.append(t(lang, "table-waiting", player=name(table, view.waiting_for)))
        if log:
            lines.append("")
            lines.extend(log[-MAX_LOG_LINES:])
        return "\n".join(lines)

    def result(self, table: Table, state: GameState) -> str:
        lang = table.lang
        result = state.result
        assert result is not None
        lines = [self.tr.t(lang, "result-title" if not result.aborted else "result-aborted")]
        order = sorted(range(len(result.scores)), key=lambda s: (-result.scores[s], s))
        for seat in order:
            lines.append(
                self.tr.t(
                    lang,
                    "result-line",
                    player=name(table, seat),
                    points=result.scores[seat],
                    castles=result.castles[seat],
                )
            )
        winners = ", ".join(name(table, s) for s in result.winners)
        lines.append(self.tr.t(lang, "result-winners", players=winners, n=len(result.winners)))
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
        args = self.event_args(lang, table, state, decision.params)
        kind = decision.kind.replace(".", "-").replace("_", "-")
        return self.tr.t(lang, f"prompt-{kind}", **args)

    def option_part(self, lang: str, table: Table, state: GameState, part: str) -> str:
        cat = catalog_for(state.rules)
        if part in cat.cards:
            return self.card(lang, state, part)
        if part.isdigit() and int(part) < len(table.seats):
            return html.unescape(name(table, int(part)))
        if part in COLOUR_EMOJI:
            return self.tr.t(lang, f"colour-{part}")
        if part == "-":
            return self.tr.t(lang, "opt-here")
        return self.tr.t(lang, "opt-" + part.replace("_", "-"))
