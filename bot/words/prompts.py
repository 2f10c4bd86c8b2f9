"""A private prompt that says what it asks.

A decision's options are tuples of parts offered one menu level at a time
(`bot.words.keyboards.menu_level`). Each level gets:

- its **question** (``ask-…``; at the top level of a one-level decision the
  decision's own ``prompt-<kind>`` asks it), after the path chosen so far;
- what the choice is about: the candidates' houses (whose left house, whose
  right house, the house a card would go into…), the cards one may give and to
  whom, both sides of a castle;
- at the top of a turn, **why** a usual action is missing (`engine.explain`);
- buttons that name what they commit: «🗑 🔴 Лорд», «🎁 🔴 Лорд → Борис»;
- under the hand, the player's own row of houses, left → right;
- above the question, the seat's *recap*: what they were told since this
  message began (`bot.words.recaps`, drawn from the record's journal: what
  happened to them while they waited, each answer given in it — only the
  parts that were a choice — and what came of it), and, inside a смута, the
  смута's line of what it does. In a practice game what the computers did is
  a line a turn (`bot.words.digest`), the full lines behind «📜 Подробнее»;
  the hand and one's row go a few to a line.

A prompt message lives as long as its player goes on choosing: the next
decision of the same player edits it in place, and once someone else is
asked it is closed (`closed`): its recap, no question, no buttons.

A level is named by `level_of`: ``<kind>/<depth>``, for a turn's action
``action/<verb>/<depth>`` (``action/lay/2``: into whose row). `ASK` maps the
levels below the top to their question.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from bot.store.models import Table, TutorLine
from bot.words import reasons
from bot.words.app import AppLinks, with_app
from bot.words.digest import Digest
from bot.words.help import rules_args
from bot.words.i18n import COLOUR_EMOJI, Translator
from bot.words.keyboards import Option, details_row, hint_row, menu_level, prompt_keyboard
from bot.words.recaps import Recaps
from bot.words.render import LINE_MAX, Renderer, kebab
from bot.words.screen import MAX_TEXT, Keyboard
from bot.words.shape import pack
from engine import Decision, Event, GameState
from engine.cards import Colour, catalog_for
from engine.explain import idle_orders, missing_actions
from engine.state import House

#: a menu level → the key of its question (a level not named here is a top
#: level whose ``prompt-<kind>`` asks it)
ASK: dict[str, str] = {
    "action/lay/1": "ask-lay-card",
    "action/lay/2": "ask-lay-target",
    "action/lay/3": "ask-lay-side",
    "action/lay/4": "ask-lay-end",
    "action/discard/1": "ask-discard-card",
    "action/build/1": "ask-build-card",
    "action/build/2": "ask-build-side",
    "action/play/1": "ask-play-card",
    "action/play/2": "ask-marriage-card",
    "action/play/3": "ask-marriage-to",
    "lady.take/0": "ask-from-whom",
    "lady.take/1": "ask-take-man",
    "ball.take/0": "ask-from-whom",
    "ball.take/1": "ask-take-man",
    "alchemist.kill/0": "ask-from-whom",
    "alchemist.kill/1": "ask-kill-card",
    "priest.kill/0": "ask-from-whom",
    "priest.kill/1": "ask-kill-card",
    "poison.target/0": "ask-from-whom",
    "poison.target/1": "ask-kill-card",
    "campaign.take/0": "ask-campaign-whom",
    "campaign.take/1": "ask-campaign-card",
    "conspiracy.give/0": "ask-give-card",
    "conspiracy.give/1": "ask-give-to",
}
#: decisions whose first part is a seat and second a card in that seat's houses
SEAT_CARD = frozenset(
    {"lady.take", "ball.take", "alchemist.kill", "priest.kill", "poison.target", "campaign.take"}
)
#: decisions about an opponent's hand: the candidates' hand sizes help
HAND_TARGET = frozenset({"spy.target", "minstrel.target", "intrigue.target", "mercenary.target"})
#: a missing action's reason → its text
WHY = {
    "hand_full": "why-hand-full",
    "deck_empty": "why-deck-empty",
    "orders_empty": "why-orders-empty",
    "castle": "why-castle",
}
#: what a castle that can nearly be built lacks (`engine.explain.castle_needs`) → its words
CASTLE_NEEDS = {
    "merchant": "why-castle-merchant",
    "lord": "why-castle-lord",
    "cards": "why-castle-cards",
    "supply": "why-castle-supply",
}
#: why an order in hand would do nothing now → its text
IDLE = {
    "marriage_houses": "why-idle-marriage",
    "infirmary_empty": "why-idle-infirmary",
    "ball_no_men": "why-idle-ball",
}
#: a castle's two sides, a line each (as /card tells them)
CASTLE_SIDES = {
    "red": "about-castle-red",
    "blue": "about-castle-blue",
    "green": "about-castle-green",
    "orange": "about-castle-orange",
}
QUESTION = "❓ "
TUTOR = "🎓 "  # a tutor's sentence (`bot.service.lessons`)
ANSWERED = "✔️ "


def level_of(decision: Decision, path: Sequence[str]) -> str:
    """The name of the menu level shown after `path` (see the module's notes)."""
    if decision.kind == "action" and path:
        return f"action/{path[0]}/{len(path)}"
    return f"{decision.kind}/{len(path)}"


def choice_depths(decision: Decision, option: Sequence[str]) -> list[int]:
    """The depths of `option`'s parts that its menu offered as a choice (the
    others had one value under the parts chosen before: never asked)."""
    index = decision.options.index(tuple(option)) if tuple(option) in decision.options else 0
    depths: list[int] = []
    depth = 0
    while depth < len(option):
        shown, firsts = menu_level(decision.options, index, depth)
        if not firsts or shown >= len(option):
            break
        depths.append(shown)
        depth = shown + 1
    return depths


def shown_path(decision: Decision, index: int, depth: int) -> tuple[str, ...]:
    """The parts chosen at the level the menu shows when opened at
    `options[index][:depth]` (levels where every option agrees are passed)."""
    shown, _ = menu_level(decision.options, index, depth)
    return decision.options[index][:shown]


class Prompts:
    """The text and buttons of a decision's prompt, at any menu level."""

    def __init__(self, render: Renderer, tr: Translator, app: AppLinks | None = None) -> None:
        self.render = render
        self.tr = tr
        self.app = app  # the Mini App: its «🃏 Стол» button under every prompt
        self.digest = Digest(render)  # a practice game's computer turns, a line each
        self.recaps = Recaps(render, self.digest, self)  # the lines above a prompt's question

    # ------------------------------------------------------------------ the message
    def text(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: tuple[str, ...],
        full: bool = False,
    ) -> str:
        """The prompt at the menu level after `path`, under the seat's recap
        (`full`: in a practice game, the computers' turns in full lines, not
        a line each — as much of them as the message holds)."""
        if full:
            details = self.recaps.details(lang, table, state, decision.seat)
            if details is not None:
                told, rest = details
                for start in range(len(told)):
                    lines = (["…"] if start else []) + told[start:]
                    text = self._text(lang, table, state, decision, path, lines + rest)
                    if len(text) <= MAX_TEXT:
                        return text
        recap = self.recaps.open_lines(lang, table, state, decision.seat)
        return self._text(lang, table, state, decision, path, recap)

    def _text(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: tuple[str, ...],
        recap: list[str],
    ) -> str:
        t = self.tr.t
        lines = [self.render.header(lang, table), *recap]
        heading = self.render.smuta_heading(lang, table, state)
        if heading is not None and heading not in recap:
            lines.append(heading)
        tutor = table.tutor
        if tutor is not None and tutor.decision == decision.id:
            lines += self.tutor_lines(lang, table, state, tutor.lines)
        lines.append(self.render.prompt(lang, table, state, decision))
        if decision.kind == "action":
            lines.append(t(lang, "prompt-actions-left", n=state.actions_left))
            if not path:
                lines.extend(
                    self.why(lang, state, decision.seat, reasons.told(table, state, decision))
                )
        if path:
            lines.append("➡️ " + self._path(lang, table, state, decision, path, len(path)))
        question = self.question(lang, table, state, decision, path)
        if question is not None:
            lines.append(QUESTION + question)
        context = self.context(lang, table, state, decision, path)
        if table.practice:  # the table is in the same chat: a hand and a row that fit a phone
            tail = ["", *self.short_hand(lang, state, decision.seat)]
            tail += self.short_row(lang, state, decision.seat)
        else:
            tail = ["", self.render.hand(lang, table, state, decision.seat)]
            tail += self.own_row(lang, table, state, decision.seat)
        text = "\n".join([*lines, *context, *tail])
        if len(text) > MAX_TEXT:
            # six long names and a crowded table: the question and the hand come first
            text = "\n".join([*lines, *tail])
        return text

    def tutor_lines(
        self, lang: str, table: Table, state: GameState, lines: Sequence[TutorLine]
    ) -> list[str]:
        """The tutor's sentences (`bot.service.lessons`), a line each, with the game's numbers."""
        out = []
        for line in lines:
            args: dict[str, object] = dict(rules_args(state.rules))
            if line.card is not None:
                self._card_args(lang, state, line.card, args)
            out.append(TUTOR + self.tr.t(lang, "tutor-" + line.step, **args))
        return out

    def closed(self, lang: str, table: Table, lines: list[str]) -> str:
        """A prompt message once its player is no longer asked: what it told."""
        return "\n".join([self.render.header(lang, table), *lines])

    def answer_line(self, lang: str, table: Table, state: GameState, entry: Event) -> list[str]:
        """The recap's line of an answer kept in the journal
        (`bot.service.journal.answer`): what was chosen (the cards and the
        parts that were a choice: «🏠 Выложить → 🔴 Рыцарь», not the row and
        colour it could only go to), named by what asked it («👸 Миледи: …»)
        unless it is a turn's action. A choice the timer made says so first
        («⏰ Время вышло — бот выбрал: …»), so it never reads as the player's own."""
        p = entry.params
        option = tuple(str(part) for part in p["option"])
        seat = entry.to[0] if entry.to else 0
        decision = Decision(
            id=-1, seat=seat, kind=p["kind"], options=(option,), params=p.get("params", {})
        )
        path = self._path(lang, table, state, decision, option, len(option), set(p["depths"]))
        return self._answered(lang, table, state, decision, path, bool(p.get("timer")))

    def _answered(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: str,
        by_timer: bool,
    ) -> list[str]:
        if decision.kind != "action":
            args = self.render.event_args(lang, table, state, decision.params, decision.seat)
            did = self.tr.t(lang, "did-" + kebab(decision.kind), **args)
            path = f"{did}: {path}"
        if by_timer:
            return [self.tr.t(lang, "prompt-timed-out", choice=path)]
        return [ANSWERED + path]

    def markup(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        index: int,
        depth: int,
        full: bool = False,
    ) -> Keyboard:
        """The buttons of the menu level opened at `options[index][:depth]`;
        in a practice game whose prompt sums up turns, «Подробнее» (or, when
        they are shown in `full`, «Короче»)."""
        markup = prompt_keyboard(
            table.chat_id,
            table.game_no,
            decision.id,
            decision.options,
            index,
            depth,
            lambda option, i: self.label(lang, table, state, decision, option, i),
            self.tr.t(lang, "btn-back"),
        )
        if table.hints:
            markup = (
                *markup,
                hint_row(table.chat_id, table.game_no, decision.id, self.tr.t(lang, "btn-hint")),
            )
        summed = table.practice and self.recaps.details(lang, table, state, decision.seat)
        if summed:  # something summed up
            markup = (
                *markup,
                details_row(
                    table.chat_id,
                    table.game_no,
                    decision.id,
                    (index, depth),
                    not full,
                    self.tr.t(lang, "btn-details-less" if full else "btn-details"),
                ),
            )
        return with_app(markup, self.app, self.tr, lang, table.chat_id)

    def choice(
        self, lang: str, table: Table, state: GameState, decision: Decision, option: Option
    ) -> str:
        """An option in words, as its buttons name it part by part (plain text)."""
        return " → ".join(
            self.label(lang, table, state, decision, option, i)
            for i in range(len(option))
            if option[i] != "-"
        )

    def asked(
        self, lang: str, table: Table, state: GameState, decision: Decision, option: Option
    ) -> str:
        """An option in words as the player would press it: only the parts its menu
        asks (a part with one possible value under the parts before is passed)."""
        depths = choice_depths(decision, option)
        if not depths:
            return self.choice(lang, table, state, decision, option)
        return " → ".join(self.label(lang, table, state, decision, option, i) for i in depths)

    def _path(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: Option,
        depth: int,
        chosen: set[int] | None = None,
    ) -> str:
        """The first `depth` parts of `path` that were a choice (or name a
        card), as their buttons said them; escaped for the message's HTML (a button label is
        plain text: a player's name unescaped)."""
        if chosen is None:  # the parts its menu offers as a choice
            below = next(o for o in decision.options if o[: len(path)] == tuple(path))
            chosen = set(choice_depths(decision, below))
        cards = catalog_for(state.rules).cards
        return " → ".join(
            html.escape(self.label(lang, table, state, decision, path, i), quote=False)
            for i in range(min(depth, len(path)))
            if i in chosen or path[i] in cards
        )

    # ------------------------------------------------------------------ the question
    def question(
        self, lang: str, table: Table, state: GameState, decision: Decision, path: Sequence[str]
    ) -> str | None:
        """The question of the level after `path`; None at a top level that the
        decision's own ``prompt-<kind>`` asks."""
        key = ASK.get(level_of(decision, path))
        if key is None:
            return None
        args: dict[str, object] = {}
        if decision.kind == "action":
            if len(path) > 1:
                self._card_args(lang, state, path[1], args)
            if path[0] == "lay" and len(path) > 3:
                args["colour"] = COLOUR_EMOJI.get(path[3], path[3])
            if path[0] == "play" and len(path) > 2:
                self._card_args(lang, state, path[2], args)
            if path[0] == "build" and len(path) > 1:
                args["castle"] = self.tr.t(lang, f"castle-{self._merchant_colour(state, path[1])}")
        elif decision.kind == "conspiracy.give" and path:
            self._card_args(lang, state, path[0], args)
        elif path and path[0].isdigit():
            args["target"] = self.render.name(lang, table, int(path[0]))
        return self.tr.t(lang, key, **args)

    def _card_args(
        self, lang: str, state: GameState, card_id: str, args: dict[str, object]
    ) -> None:
        args["card"] = self.render.card(lang, state, card_id)
        args["card_acc"] = self.render.card(lang, state, card_id, "acc")

    def _merchant_colour(self, state: GameState, card_id: str) -> Colour:
        return catalog_for(state.rules)[card_id].colours[0]

    # ------------------------------------------------------------------ what the choice is about
    def context(
        self, lang: str, table: Table, state: GameState, decision: Decision, path: Sequence[str]
    ) -> list[str]:
        """Lines that show what the level's choice is about."""
        depth = len(path)
        below = [o for o in decision.options if o[:depth] == tuple(path)]
        nexts = list(dict.fromkeys(o[depth] for o in below if len(o) > depth))
        kind = decision.kind
        t = self.tr.t
        if kind == "action" and path:
            verb = path[0]
            if verb == "lay" and depth == 2:
                return self._planted_into(lang, table, state, path[1], [int(s) for s in nexts])
            if verb == "lay" and depth == 3:
                return self._planted_into(lang, table, state, path[1], [int(path[2])], nexts)
            if verb == "play" and depth == 1:
                return self._idle(lang, state, decision.seat, nexts)
            if verb == "build" and depth == 2:
                colour = self._merchant_colour(state, path[1])
                about = t(lang, CASTLE_SIDES[colour], **rules_args(state.rules))
                return about.split("\n")
            return []
        if kind in SEAT_CARD:
            if depth == 0:
                seats = [int(s) for s in nexts if s.isdigit()]
                if kind == "campaign.take":
                    return [self._end_house(lang, table, state, s, "right") for s in seats]
                return [
                    self._cards_of(lang, table, state, s, [o[1] for o in below if o[0] == str(s)])
                    for s in seats
                ]
            if depth == 1 and path[0].isdigit():
                return self._row(lang, table, state, int(path[0]))
            return []
        if kind == "earthquake.target":
            return [self._end_house(lang, table, state, int(s), "left") for s in nexts]
        if kind == "plant_row":
            card = str(decision.params.get("card"))
            return self._planted_into(lang, table, state, card, [int(s) for s in nexts])
        if kind in HAND_TARGET:
            return [
                "• "
                + t(
                    lang,
                    "ask-ctx-hand",
                    player=self.render.name(lang, table, int(s)),
                    n=len(state.players[int(s)].hand),
                )
                for s in nexts
                if s.isdigit()
            ]
        if kind == "conspiracy.give":
            if depth == 0:
                # cards that may go to the same players share a line (the
                # message stays short with 6 players and long names)
                groups: dict[tuple[str, ...], list[str]] = {}
                for card in nexts:
                    to = tuple(o[1] for o in below if o[0] == card)
                    groups.setdefault(to, []).append(card)
                return [
                    "• "
                    + t(
                        lang,
                        "ask-ctx-gift",
                        card=self.render.cards(lang, state, cards),
                        players=", ".join(self.render.name(lang, table, int(s)) for s in to),
                    )
                    for to, cards in groups.items()
                ]
            return self._planted_into(lang, table, state, path[0], [int(s) for s in nexts])
        return []

    def _planted_into(
        self,
        lang: str,
        table: Table,
        state: GameState,
        card_id: str,
        seats: Sequence[int],
        colours: Sequence[str] | None = None,
    ) -> list[str]:
        """For each seat: its house of the card's colour(s) (or that a new one
        would be made at an end of the row)."""
        card = catalog_for(state.rules)[card_id]
        lines = []
        for seat in seats:
            for colour in colours or card.colours:
                house = next((h for h in state.players[seat].houses if h.colour == colour), None)
                who = self.render.name(lang, table, seat)
                if house is None:
                    line = self.tr.t(
                        lang, "ask-ctx-no-house", player=who, colour=COLOUR_EMOJI[colour]
                    )
                else:
                    line = self.tr.t(
                        lang,
                        "ask-ctx-house",
                        player=who,
                        house=self.render.house(lang, state, house),
                    )
                lines.append("• " + line)
        return lines

    def _end_house(self, lang: str, table: Table, state: GameState, seat: int, end: str) -> str:
        houses = state.players[seat].houses
        who = self.render.name(lang, table, seat)
        if not houses:
            return "• " + self.tr.t(lang, "ask-ctx-no-houses", player=who)
        house = houses[0] if end == "left" else houses[-1]
        key = "ask-ctx-left" if end == "left" else "ask-ctx-right"
        return "• " + self.tr.t(lang, key, player=who, house=self.render.house(lang, state, house))

    def _cards_of(
        self, lang: str, table: Table, state: GameState, seat: int, cards: Sequence[str]
    ) -> str:
        return "• " + self.tr.t(
            lang,
            "ask-ctx-cards",
            player=self.render.name(lang, table, seat),
            cards=self.render.cards(lang, state, list(cards)),
        )

    def _row(self, lang: str, table: Table, state: GameState, seat: int) -> list[str]:
        houses = state.players[seat].houses
        head = self.tr.t(lang, "rows-of", player=self.render.name(lang, table, seat))
        return [head] + [
            self.render.house_line(lang, state, h, i, len(houses)) for i, h in enumerate(houses)
        ]

    def own_row(self, lang: str, table: Table, state: GameState, seat: int) -> list[str]:
        """The player's own row of houses, left → right, with castles and sides."""
        houses: list[House] = state.players[seat].houses
        if not houses:
            return [self.tr.t(lang, "rows-own-none")]
        return [self.tr.t(lang, "rows-own")] + [
            self.render.house_line(lang, state, h, i, len(houses)) for i, h in enumerate(houses)
        ]

    def short_hand(self, lang: str, state: GameState, seat: int) -> list[str]:
        """The hand's cards a few to a line (`LINE_MAX` characters at most)."""
        cards = state.players[seat].hand
        title = self.tr.t(lang, "hand-title", n=len(cards))
        return [title, *pack([self.render.card(lang, state, c) for c in cards], LINE_MAX)]

    def short_row(self, lang: str, state: GameState, seat: int) -> list[str]:
        """The player's own row, left → right, a few houses to a line."""
        houses: list[House] = state.players[seat].houses
        if not houses:
            return [self.tr.t(lang, "rows-own-none")]
        shown = [self.render.house(lang, state, h) for h in houses]
        return [self.tr.t(lang, "rows-own"), *pack(shown, LINE_MAX)]

    def _idle(self, lang: str, state: GameState, seat: int, cards: Sequence[str]) -> list[str]:
        """What each order offered would not do, played now."""
        idle = idle_orders(state, seat)
        return [
            "ℹ️ "
            + self.tr.t(
                lang, IDLE[idle[c].reason], card=self.render.card(lang, state, c), **idle[c].params
            )
            for c in cards
            if c in idle
        ]

    # ------------------------------------------------------------------ why not
    def why(
        self, lang: str, state: GameState, seat: int, only: set[int] | None = None
    ) -> list[str]:
        """Why a usual action is missing from this turn's choices (`only`
        those reasons: the news, see `bot.words.reasons`)."""
        lines = []
        for missing in missing_actions(state, seat):
            if only is not None and reasons.mark(reasons.reason_key(missing)) not in only:
                continue
            args = dict(missing.params)
            if "colour" in args:
                args["castle"] = self.tr.t(lang, f"castle-{args['colour']}")
                args["colour"] = COLOUR_EMOJI[str(args["colour"])]
            if "smuta_open" in args:
                args["smuta_open"] = "yes" if args["smuta_open"] else "no"
            if "needs" in args:  # a castle's note names all it lacks, in one line
                needs = [self.tr.t(lang, CASTLE_NEEDS[n], **args) for n in args.pop("needs")]
                args["needs"] = self.tr.t(lang, "why-castle-and").join(needs)
            lines.append("ℹ️ " + self.tr.t(lang, WHY[missing.reason], **args))
        return lines

    # ------------------------------------------------------------------ buttons
    def label(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        option: Option,
        i: int,
    ) -> str:
        """Part `i` of `option` on its button (plain text). A part that gives a
        card up says so: a discard, a card given away in a Заговор, a card of
        one's own burnt by Пожар; a Купец builds its castle."""
        part = option[i]
        t = self.tr.t
        kind = decision.kind
        if kind == "action" and i == 1 and option[0] == "discard":
            return t(lang, "opt-discard-card", card=self.render.card(lang, state, part))
        if kind == "action" and i == 1 and option[0] == "build":
            return t(lang, f"castle-{self._merchant_colour(state, part)}")
        if kind == "conspiracy.give" and i == 1:
            return t(
                lang,
                "opt-give",
                card=self.render.card(lang, state, option[0]),
                player=html.unescape(self.render.name(lang, table, int(part))),
            )
        if kind == "poison.discard" and part != "pass":
            return t(lang, "opt-discard-card", card=self.render.card(lang, state, part))
        if kind == "fire.burn":
            return t(lang, "opt-burn", card=self.render.card(lang, state, part))
        if kind == "action" and option[0] == "play" and len(option) == 2 and i < 2:
            # this button plays an order that would do nothing: it says so
            commits = sum(1 for o in decision.options if o[: i + 1] == option[: i + 1]) == 1
            if commits and option[1] in idle_orders(state, decision.seat):
                return t(lang, "opt-play-idle", card=self.render.card(lang, state, option[1]))
        if kind == "ball.take" and part == "done" and not decision.params.get("taken"):
            return t(lang, "opt-ball-none")  # «Хватит» before anyone was taken
        return self.render.option_part(lang, table, state, part)
