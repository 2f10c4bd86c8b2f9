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

from bot.store.models import ANSWER, NOTE, Table
from bot.words.help import rules_args
from bot.words.i18n import COLOUR_EMOJI, Translator
from bot.words.names import shown_name
from bot.words.shape import pack, visible_len, wrap
from engine import Decision, Event, GameState, pending, view_for
from engine.cards import PLANTABLE, catalog_for
from engine.state import House, SmutaEndFrame
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
#: public events the table already shows, so the log leaves them out (a
#: смута's end is told only when it touched nobody: «никого не задело»)
SILENT = frozenset({"placed", "smuta.end", "house.vanished", "turn.ended", "castle.one_time"})
#: the table in the group fits a phone: at most this many lines, none wider
#: than `LINE_MAX` characters (the turn's log gives up its oldest lines first;
#: the whole of every house is in `/table full`)
TABLE_MAX_LINES = 20
LINE_MAX = 60
MAX_LOG_LINES = 12
#: public events that take something from a player, or land something on
#: them, who is not the one acting: event key → (that player's parameter, the
#: actor's parameter). That player is told in private, in one line
#: (``you-<event>``): by whom and how.
LANDS_ON: dict[str, tuple[str, str | None]] = {
    "ball.took": ("source", "seat"),
    "lady.took": ("source", "seat"),
    "campaign.took": ("source", "seat"),
    "earthquake.took": ("source", "seat"),
    "minstrel.took": ("source", "seat"),
    "thrones.lords": ("source", "seat"),
    "card.killed": ("seat", "by"),
    "house.destroyed": ("seat", None),
    "spy.discarded": ("target", "seat"),
    "discard.captured": ("seat", "owner"),
    "conspiracy.gave": ("target", "seat"),
    "lay": ("target", "seat"),
    "resurrected": ("target", "seat"),
}
#: public events a person is told in private when they are about them: the
#: смута they set off, and why their turn starts again
ABOUT_ME: dict[str, str] = {"smuta.start": "initiator", "smuta.end": "initiator"}
#: smuty whose own rounds send cards of houses to the graveyard (card.killed)
KILLING_SMUTY = frozenset({"poison", "fire"})


def kebab(key: str) -> str:
    return key.replace(".", "-").replace("_", "-")


def event_key(key: str) -> str:
    return "event-" + kebab(key)


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
            if "cause" in e.params:  # read when it happened (`bot.service.journal`)
                causes[i] = e.params["cause"]
                continue
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
        if s.forgotten:
            return self.tr.t(lang, "history-forgotten")
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
            elif isinstance(value, bool):
                args[key] = "yes" if value else "no"
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
        args = self._args(lang, table, state, event, reader, cause)
        return self.tr.t(lang, event_key(event.key), **args)

    def _args(
        self,
        lang: str,
        table: Table,
        state: GameState,
        event: Event,
        reader: int | None,
        cause: str | None,
    ) -> dict[str, Any]:
        args = self.event_args(lang, table, state, event.params, reader)
        extra = EXTRA.get(event.key)
        if extra is not None:
            args.update(extra(state, event))
        if cause is not None:
            args["cause"] = cause
        if event.key == "smuta.start":
            args["does"] = self.smuta_does(lang, state, str(event.params["smuta"]))
        return args

    def smuta_does(self, lang: str, state: GameState, smuta: str) -> str:
        """What a смута does, in one short line."""
        return self.tr.t(lang, "smuta-does-" + kebab(smuta), **rules_args(state.rules))

    def smuta_heading(self, lang: str, table: Table, state: GameState) -> str | None:
        """The line of the смута being resolved (the innermost: a Пророк's
        replayed one), as the log told its start: what heads every prompt
        it causes. None outside a смута."""
        for frame in reversed(state.frames):
            if isinstance(frame, SmutaEndFrame):
                smuta = catalog_for(state.rules)[frame.card].type
                params = {"smuta": smuta, "initiator": frame.initiator, "mode": frame.mode}
                start = Event(key="smuta.start", params=params)
                return self.event(lang, table, state, start)
        return None

    @staticmethod
    def logged(event: Event) -> bool:
        """Whether an event for everyone has a line in the log."""
        if event.to is not None or event.key == "game.over":
            return False
        if event.key == "smuta.end":
            return event.params.get("touched") is False
        return event.key not in SILENT

    def public_lines(
        self, table: Table, state: GameState, events: list[Event], lang: str | None = None
    ) -> list[str]:
        """The log's lines of `events` (in the group's language, or `lang`)."""
        causes = kill_causes(state, events)
        return [
            self.event(lang or table.lang, table, state, e, cause=causes.get(i))
            for i, e in enumerate(events)
            if self.logged(e)
        ]

    def log_lines(
        self, table: Table, state: GameState, entries: list[Event], lang: str | None = None
    ) -> list[str]:
        """The group's log lines of journal entries (`Table.log`): the engine's
        public events and the bot's notes (in the group's language, or `lang`)."""
        lang = lang or table.lang
        lines: list[str] = []
        chunk: list[Event] = []
        for e in entries:
            if e.key == NOTE:
                lines += self.public_lines(table, state, chunk, lang)
                chunk = []
                who = self.name(lang, table, int(e.params["seat"]))
                lines.append(self.tr.t(lang, str(e.params["text"]), player=who))
            elif e.key != ANSWER:
                chunk.append(e)
        return lines + self.public_lines(table, state, chunk, lang)

    def turn_lines(self, table: Table, state: GameState, lang: str | None = None) -> list[str]:
        """The lines of the turn the group's table message tells now."""
        return self.log_lines(table, state, table.entries(table.turn_at), lang)

    def closed_lines(self, table: Table, state: GameState) -> list[str] | None:
        """The lines of the turn(s) the last change closed (None: it closed none)."""
        if table.turn_closed is None:
            return None
        return self.log_lines(table, state, table.entries(*table.turn_closed))

    def private_lines(
        self, lang: str, table: Table, state: GameState, events: list[Event], seat: int
    ) -> list[str]:
        """The lines only `seat` sees, said to them («вы»)."""
        return [
            self.event(lang, table, state, e, reader=seat)
            for e in events
            if e.to is not None and seat in e.to
        ]

    def told_lines(
        self,
        lang: str,
        table: Table,
        state: GameState,
        events: list[Event],
        seat: int,
        everything: bool = False,
    ) -> list[str]:
        """What `seat` is told in private of `events`, in order: the lines only
        they see; what was taken from them or landed on them, by whom and how
        (`LANDS_ON`); the смута they set off (what it does, or that it
        touched nobody) and why their turn starts again. With `everything`
        (a practice game, whose table is far above), every line of the log
        instead of those about them."""
        causes = kill_causes(state, events)
        lines = []
        for i, e in enumerate(events):
            if e.to is not None:
                if seat in e.to:
                    lines.append(self.event(lang, table, state, e, reader=seat))
            elif everything:
                if self.logged(e):
                    lines.append(self.event(lang, table, state, e, cause=causes.get(i)))
            elif self.lands_on(e) == seat:
                args = self._args(lang, table, state, e, seat, causes.get(i))
                lines.append(self.tr.t(lang, "you-" + kebab(e.key), **args))
            elif self.about(e) == seat and self.logged(e):
                lines.append(self.event(lang, table, state, e, reader=seat))
        return lines

    @staticmethod
    def lands_on(event: Event) -> int | None:
        """The player an event takes something from (or lands something on),
        when another player (or a смута) does it."""
        found = LANDS_ON.get(event.key)
        if found is None:
            return None
        whom, actor = found
        seat = event.params.get(whom)
        if not isinstance(seat, int) or (actor is not None and event.params.get(actor) == seat):
            return None
        return seat

    @staticmethod
    def about(event: Event) -> int | None:
        if event.key == "turn.restart":
            seat = event.params.get("seat")
        else:
            seat = event.params.get(ABOUT_ME.get(event.key, ""))
        return seat if isinstance(seat, int) else None

    # ------------------------------------------------------------------ the table
    def table(self, table: Table, state: GameState, log: list[str]) -> str:
        """The group's table, made to fit a phone (`TABLE_MAX_LINES` lines,
        none wider than `LINE_MAX`): the turn and the piles; each player on a
        line (▶️ whose turn, 💭 who chooses), their row of houses left → right
        on the next (each house's cards while the line has room, else how many);
        then the latest lines of the turn's log, as many as fit. The whole of
        every house and pile is in `full_table`; the signs are explained in /rules."""
        lang = table.lang
        t = self.tr.t
        view = view_for(state, None)
        decision = pending(state) if view.result is None else None

        # a practice game's table is in its person's private chat, beside their
        # other games' prompts: it names its game
        title = (
            t(lang, "table-title-practice", title=self._title(table), turn=state.turn)
            if table.practice
            else t(lang, "table-title", turn=state.turn)
        )
        head = [title, t(lang, "table-deck", n=view.deck_size)]
        if view.deck_top_smuta is not None:
            head[-1] += " " + t(
                lang, "table-deck-top", smuta=self.card(lang, state, view.deck_top_smuta)
            )
        if view.final_turns is not None and view.result is None:
            head.append(t(lang, "table-final-turns", n=view.final_turns + 1))

        def top(key: str, cards: list[str]) -> str:
            return t(lang, key, n=len(cards), top=self.card(lang, state, cards[0]) if cards else "")

        # in words, what may still be taken (orders, castles), then what is
        # gone (the graveyard, the смуты: only once there is some); the orders'
        # discard never comes back into play: its count, not its top
        supply = "".join(COLOUR_EMOJI[c] for c in view.castle_supply)
        piles = [
            t(lang, "table-orders-short", n=view.orders_size, discarded=len(view.orders_discard)),
            t(lang, "table-castles-short", castles=supply, n=len(view.castle_supply)),
        ]
        if view.graveyard:
            piles.append(top("table-graveyard-short", view.graveyard))
        if view.smuta_discard:
            piles.append(top("table-smuta-discard-short", view.smuta_discard))
        if view.prophet_stack:
            piles.append(t(lang, "table-prophet-short", n=len(view.prophet_stack)))
        lines = pack(head + piles, LINE_MAX)
        for p in view.players:
            seat = table.seats[p.seat]
            who = self.name(lang, table, p.seat)
            if p.computer or seat.user_id is None:
                who += " 🤖"
            parts = [t(lang, "table-player", player=who, hand=p.hand_size, points=p.points)]
            if view.result is None and p.seat == view.current:
                parts[0] = "▶️ " + parts[0]
                if decision is not None and decision.kind == "action":
                    parts.append(t(lang, "table-actions", n=view.actions_left))
            if decision is not None and decision.seat == p.seat and decision.kind != "action":
                parts.append(t(lang, "table-choosing"))
            lines += pack(parts, LINE_MAX)
            if p.houses:
                lines.append(self.row_line(lang, state, p.houses))
        room = TABLE_MAX_LINES - len(lines) - 1
        if log and room > 0:
            shown: list[str] = []
            for line in reversed(log[-MAX_LOG_LINES:]):
                wrapped = wrap(line, LINE_MAX)
                if len(shown) + len(wrapped) > room:
                    if not shown:  # the newest line alone is too long: its start
                        shown = [*wrapped[: room - 1], "  …"]
                    break
                shown = wrapped + shown
            lines.append("")
            lines.extend(shown)
        return "\n".join(lines)

    def row_line(self, lang: str, state: GameState, houses: list[HouseView]) -> str:
        """A row of houses on one line, left → right: each house with its cards
        while the line has room, the largest houses first shown as a count."""
        full = [self.house(lang, state, h) for h in houses]
        short = [
            f"{COLOUR_EMOJI[h.colour]}{self._castle(lang, h)} "
            + self.tr.t(lang, "table-house-count", n=len(h.cards))
            for h in houses
        ]
        shown = list(full)
        for i in sorted(range(len(houses)), key=lambda i: -visible_len(full[i])):
            if visible_len("  " + " · ".join(shown)) <= LINE_MAX:
                break
            shown[i] = short[i]
        return "  " + " · ".join(shown)

    def full_table(self, table: Table, state: GameState) -> str:
        """`/table full`: the table with everything — the piles with their top
        cards, each player's row one house a line, its end marked (⬅️ left,
        ➡️ right, ↔️ the only one, ▫️ between)."""
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
        own_colour = colour + " "
        cards = ", ".join(self.card(lang, state, c).removeprefix(own_colour) for c in h.cards)
        return f"{colour}{self._castle(lang, h)} {cards}"

    def _castle(self, lang: str, h: HouseView | House) -> str:
        if h.castle is None:
            return ""
        return self.tr.t(lang, f"table-castle-{h.castle.replace('_', '-')}")

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
        if stopped or result.aborted:
            lines = [t(lang, "result-stopped" if stopped else "result-aborted")]
        elif table.practice:  # in its person's private chat: it names its game
            lines = [t(lang, "result-title-practice", title=self._title(table))]
        else:
            lines = [t(lang, "result-title")]
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
        """The line that opens every private message of a game: which game it is
        (the group's title; a practice game's, the tutor's)."""
        return self.tr.t(lang, "private-header", chat=self._title(table))

    @staticmethod
    def _title(table: Table) -> str:
        """The game's name for an HTML text: its chat's title (escaped)."""
        return html.escape(table.title or str(table.chat_id))

    def prompt(self, lang: str, table: Table, state: GameState, decision: Decision) -> str:
        args = self.event_args(lang, table, state, decision.params, decision.seat)
        kind = kebab(decision.kind)
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
