"""What the Mini App draws: one seat's view of a chat's game as JSON.

Built only from `engine.view_for` for the viewer's own seat (None: the public
table), so a response never holds another hand, the deck's order or the seed.
Every word comes from the same Fluent texts as the chat (`bot.words`), in the
viewer's language; texts made for Telegram's HTML become plain text here (the
page shows them with ``textContent``, never as HTML).

The decision the viewer must answer comes as the private prompt's menu, level
by level (`bot.words.prompts`: the same questions, reasons why an action is
missing, and button labels); each option names the index the answer carries,
and the part it chooses at its level (a card or a seat), which the page
highlights in the table. The prompt's lines about what a choice is about
(whose houses hold what) are left out where the table itself shows it: at a
level that offers cards or players.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

from bot.service.viewing import Table
from bot.webapp.story import Story, Turn
from bot.words.help import TOPICS, card_text
from bot.words.i18n import COLOUR_EMOJI, Translator
from bot.words.keyboards import Option, menu_level
from bot.words.prompts import QUESTION, Prompts
from bot.words.render import Renderer
from engine import Command, Decision, GameSetup, GameState, pending, view_for
from engine.cards import Rules, catalog_for
from engine.view import View

#: the log lines the app shows without a story (the newest)
LOG_LINES = 12
#: the turns of a story the app shows (the newest): a bound on a response
STORY_TURNS = 80
#: words the page shows as they are (``words`` of `/api/state`)
WORDS = (
    "btn-back",
    "app-hand-empty",
    "app-log",
    "app-spectator",
    "app-offline",
    "app-no-game",
    "app-no-games",
    "app-pick-game",
    "app-denied",
    "app-close",
    "app-finished",
    "app-log-new",
    "app-log-earlier",
    "app-last-mark",
    "app-order-tag",
    "app-known",
    "app-can-pick",
    "app-computer",
    "app-replay-prev",
    "app-replay-next",
    "app-replay-slider",
)
TAG = re.compile(r"<[^>]+>")
#: a name's leading emoji and spaces (an accessible name reads words)
LEADING_MARKS = re.compile(r"^[^\w]+")


def plain(text: str) -> str:
    """A text made for Telegram's HTML as plain text."""
    return html.unescape(TAG.sub("", text))


def bare(text: str) -> str:
    """A name without its leading emoji («🔴 красный» → «красный»)."""
    return LEADING_MARKS.sub("", plain(text))


class Cards:
    """The cards a response shows, each once: ``cards[key]`` is its name,
    type and colours (a Слуга's side first); ``types`` each type's kind
    (house, order, smuta), points and accessible name. A Слуга turned to
    another side since it was first added (a replay) gets a key of its own."""

    def __init__(self, payloads: Payloads, lang: str) -> None:
        self.payloads = payloads
        self.lang = lang
        self.cards: dict[str, list[Any]] = {}
        self.types: dict[str, list[Any]] = {}
        #: accessible names shared by many parts (a house's, a hand size's)
        self.labels: dict[str, str] = {}

    def label(self, key: str, make: Callable[[], str]) -> None:
        if key not in self.labels:
            self.labels[key] = make()

    def add(self, state: GameState, card_id: str) -> str:
        side = state.servant_up.get(card_id)
        key = card_id
        kept = self.cards.get(card_id)
        if kept is not None and side is not None and kept[2][0] != side:
            key = f"{card_id}.{side}"
            kept = self.cards.get(key)
        if kept is None:
            c = catalog_for(state.rules)[card_id]
            colours = [side] + [x for x in c.colours if x != side] if side else list(c.colours)
            self.cards[key] = [
                plain(self.payloads.render.card(self.lang, state, card_id)),
                c.type,
                colours,
            ]
            if c.type not in self.types:
                label = self.payloads.card_label(self.lang, c.type, c.kind, c.points, c.colours)
                self.types[c.type] = [c.kind, c.points, label]
        return key


class Payloads:
    """The JSON the app's API answers with."""

    def __init__(self, tr: Translator, render: Renderer, prompts: Prompts) -> None:
        self.tr = tr
        self.render = render
        self.prompts = prompts

    def words(self, lang: str) -> dict[str, str]:
        return {key: plain(self.tr.t(lang, key)) for key in WORDS}

    def card_label(
        self, lang: str, kind_type: str, kind: str, points: int, colours: Sequence[str]
    ) -> str:
        """A card's accessible name, in words: «Наёмник, 1 очко, синий»."""
        t = self.tr.t
        name = bare(t(lang, f"card-{kind_type}"))
        if kind == "order":
            return plain(t(lang, "app-card-order", name=name))
        if kind == "smuta":
            return plain(t(lang, "app-card-smuta", name=name))
        named = "/".join(bare(t(lang, f"colour-{c}")) for c in colours)
        return plain(t(lang, "app-card-house", name=name, points=points, colours=named))

    def card(self, lang: str, rules: Rules, topic: str) -> dict[str, str] | None:
        """/card's text for a card type or castle (``castle-red``) in the
        game's rules; None when `topic` names nothing."""
        if topic not in TOPICS:
            return None
        title, _, about = card_text(self.tr, lang, topic, rules).partition("\n")
        return {"title": plain(title), "text": plain(about)}

    # ------------------------------------------------------------------ the table
    def table(
        self,
        table: Table,
        seat: int | None,
        lang: str,
        now: float,
        story: Story | None = None,
    ) -> dict[str, Any]:
        """`seat`'s view of the chat's game (None: the public table); `story`:
        the game's public story so far (else the record's last lines)."""
        state = table.state
        out: dict[str, Any] = {
            "v": table.version,
            "chat": table.chat_id,
            "game": table.game_no,
            "status": table.status,
            "title": table.title,
            "lang": lang,
            "me": seat,
        }
        if state is None:
            return out
        t = self.tr.t
        view = view_for(state, seat)
        decision = pending(state) if view.result is None else None
        cards = Cards(self, lang)
        card = cards.add
        out.update(self.board(lang, table, state, view, cards))
        out.update(
            deciding=decision.seat if decision is not None else None,
            now=now,
            deadline=table.deadline if decision is not None else None,
        )
        if decision is not None:
            name = plain(self.render.name(lang, table, decision.seat))
            out["timer"] = [
                plain(t(lang, "app-timer", name=name, time="{time}")),
                plain(t(lang, "app-timer-label", name=name, time="{time}")),
            ]
        for p in out["players"]:
            status = ""
            if decision is not None and decision.seat == p["seat"]:
                if decision.kind == "action":
                    status = t(lang, "table-actions", n=view.actions_left)
                else:
                    status = t(lang, "table-choosing")
            p["status"] = plain(status)
        if view.hand is not None and seat is not None:
            out["hand"] = [card(state, c) for c in view.hand]
            out["hand_title"] = plain(self.render.hand(lang, table, state, seat).split("\n")[0])
        if story is not None:
            out["story"] = self.story(lang, table, story, seat, cards)
        else:
            log = []
            if view.result is None:
                log = [
                    *(self.render.closed_lines(table, state) or []),
                    *self.render.turn_lines(table, state),
                ]
            out["log"] = [plain(line) for line in log[-LOG_LINES:]]
        if view.result is not None:
            out["result"] = [plain(line) for line in self.render.result(table, state).split("\n")]
        if view.decision is not None:
            out["decision"] = self.levels(
                lang, table, state, view.decision, lambda c: card(state, c)
            )
        out["cards"] = cards.cards
        out["types"] = cards.types
        out["labels"] = cards.labels
        return out

    def board(
        self, lang: str, table: Table, state: GameState, view: View, cards: Cards
    ) -> dict[str, Any]:
        """What lies on the table as `view` sees it: the piles, the castles in
        supply, every player's row, hand size, score (cards + castles) and the
        cards of their hand the viewer knows; what a replay's frame holds too."""
        t = self.tr.t

        def card(card_id: str) -> str:
            return cards.add(state, card_id)

        def pile(key: str, ids: list[str]) -> dict[str, Any]:
            top = self.render.card(lang, state, ids[0]) if ids else ""
            return {
                "text": plain(t(lang, key, n=len(ids), top=top)),
                "top": card(ids[0]) if ids else None,
            }

        head = t(lang, "table-title", turn=state.turn)
        if view.final_turns is not None and view.result is None:
            head += " · " + t(lang, "table-final-turns", n=view.final_turns + 1)
        deck = t(lang, "table-deck", n=view.deck_size)
        if view.deck_top_smuta is not None:
            card(view.deck_top_smuta)
            deck += " " + t(
                lang, "table-deck-top", smuta=self.render.card(lang, state, view.deck_top_smuta)
            )
        supply = " ".join(COLOUR_EMOJI[c] for c in view.castle_supply) or "—"
        each = state.rules.castle_points
        players = []
        for p in view.players:
            s = table.seats[p.seat]
            n = p.hand_size
            cards.label(f"hand:{n}", lambda n=n: plain(t(lang, "app-hand-label", n=n)))  # type: ignore[misc]
            for h in p.houses:
                key = f"house:{h.colour}:{h.castle or ''}"
                cards.label(key, lambda h=h: self.house_label(lang, h.colour, h.castle))  # type: ignore[misc]
            castles = each * sum(1 for h in p.houses if h.castle is not None)
            label = t(
                lang, "app-score-label", total=p.points, cards=p.points - castles, castles=castles
            )
            players.append(
                {
                    "seat": p.seat,
                    "name": plain(self.render.name(lang, table, p.seat)),
                    "bot": p.computer or s.user_id is None,
                    "hand": p.hand_size,
                    "points": p.points,
                    "score": [p.points - castles, castles],
                    "score_label": plain(label),
                    "houses": [
                        {"colour": h.colour, "castle": h.castle, "cards": list(map(card, h.cards))}
                        for h in p.houses
                    ],
                    "known": list(map(card, p.known)),
                }
            )
        return {
            "head": plain(head),
            "deck": plain(deck),
            "orders": plain(t(lang, "table-orders", n=view.orders_size)),
            "graveyard": pile("table-graveyard", view.graveyard),
            "orders_discard": pile("table-orders-discard", view.orders_discard),
            "smuta_discard": pile("table-smuta-discard", view.smuta_discard),
            "prophet": [card(c) for c in view.prophet_stack],
            "castles": plain(t(lang, "table-castles", castles=supply)),
            "current": view.current if view.result is None else None,
            "players": players,
        }

    def house_label(self, lang: str, colour: str, castle: str | None) -> str:
        t = self.tr.t
        name = bare(t(lang, f"colour-{colour}"))
        if castle is None:
            return plain(t(lang, "app-house", colour=name))
        side = t(lang, "app-castle-permanent" if castle == "permanent" else "app-castle-once")
        return plain(t(lang, "app-house-castle", colour=name, castle=side))

    def _turn_title(self, lang: str, table: Table, turn: Turn) -> str:
        """A turn's heading in the story: the deal, or whose turn it was."""
        if turn.seat is None or turn.number == 0:
            return self.tr.t(lang, "app-deal")
        name = self.render.name(lang, table, turn.seat)
        return self.tr.t(lang, "app-turn", n=turn.number, name=name)

    def story(
        self, lang: str, table: Table, story: Story, seat: int | None, cards: Cards
    ) -> dict[str, Any]:
        """The game's log, newest turn first (the last `STORY_TURNS`), each
        turn's lines in the order they happened; the turns since the viewer's
        own last turn marked ``new``; the last move (its lines, and the cards
        it named, which the table highlights)."""
        t = self.tr.t
        state = story.state
        turns = story.turns
        # the viewer's last turn before the running one: what came after is new to them
        mine = -1
        if seat is not None:
            for i, turn in enumerate(turns[:-1] if turns and turns[-1].seat == seat else turns):
                if turn.seat == seat:
                    mine = i
        out = []
        for i in range(len(turns) - 1, max(-1, len(turns) - 1 - STORY_TURNS), -1):
            turn = turns[i]
            lines = [plain(line) for m in turn.moves for line in m.lines]
            if not lines:
                continue
            title = self._turn_title(lang, table, turn)
            out.append(
                {
                    "title": plain(title),
                    "seat": turn.seat,
                    "lines": lines,
                    "new": seat is not None and mine >= 0 and i > mine and turn.seat != seat,
                }
            )
        last = story.last
        line = " ".join(plain(x) for x in last.lines)
        on_table = {c for p in state.players for h in p.houses for c in h.cards}
        return {
            "turns": out,
            "last": {
                "seat": last.seat,
                "text": plain(t(lang, "app-last", line=line)) if line else "",
                "cards": [c for c in last.cards if c in on_table and c in cards.cards],
            },
        }

    # ------------------------------------------------------------------ a replay
    def replay(
        self,
        lang: str,
        table: Table,
        setup: GameSetup,
        commands: Sequence[Command],
        number: int,
    ) -> dict[str, Any]:
        """A finished game as the group saw it: the public table after the
        deal and after each command (``frames``; a frame's ``last`` is that
        move's lines and the cards it named), and the game's log turn by
        turn, each line with the command it came from (``moves``: ``[index,
        line]``; a frame ``i`` shows the moves up to ``i``)."""
        t = self.tr.t
        cards = Cards(self, lang)

        def frame(story: Story) -> dict[str, Any]:
            state = story.state
            board = self.board(lang, table, state, view_for(state, None), cards)
            last = story.last
            line = " ".join(plain(x) for x in last.lines)
            on_table = {c for p in state.players for h in p.houses for c in h.cards}
            board["last"] = {
                "seat": last.seat,
                "text": plain(t(lang, "app-last", line=line)) if line else "",
                "cards": [cards.add(state, c) for c in last.cards if c in on_table],
            }
            return board

        table.state = None
        story = Story(self.render, lang, table, setup)
        table.state = story.state
        frames = [frame(story)]
        frames += story.extend(table, commands, frame)
        turns = []
        for turn in story.turns:
            moves = [[m.index, plain(line)] for m in turn.moves for line in m.lines]
            if not moves:
                continue
            title = self._turn_title(lang, table, turn)
            turns.append({"title": plain(title), "seat": turn.seat, "moves": moves})
        final = (
            [plain(line) for line in self.render.result(table, story.state, lang).split("\n")]
            if story.state.result is not None
            else []
        )
        return {
            "number": number,
            "title": plain(t(lang, "app-replay-title", number=number)),
            "chat_title": table.title,
            "lang": lang,
            "frames": frames,
            "turns": turns,
            "result": final,
            "move_text": plain(t(lang, "app-replay-move", move="{move}", total="{total}")),
            "cards": cards.cards,
            "types": cards.types,
            "labels": cards.labels,
        }

    # ------------------------------------------------------------------ the decision
    def levels(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        card: Any,
    ) -> dict[str, Any]:
        """The prompt's menu: every level the chat's buttons can reach, each
        with its lines (the question and what it is about: indexes into
        ``texts``, where each line is once) and its options:
        ``[label, next level or -1, the option it answers or -1, part]``."""
        options = decision.options
        known = catalog_for(state.rules).cards
        nodes: list[dict[str, Any]] = []
        index: dict[Option, int] = {}
        texts: dict[str, int] = {}  # each line once: levels repeat the prompt's head

        def numbered(lines: list[str]) -> list[int]:
            return [texts.setdefault(line, len(texts)) for line in lines]

        def level(i: int, depth: int, up: int) -> int:
            shown, firsts = menu_level(options, i, depth)
            path = options[i][:shown]
            if path in index:
                return index[path]
            node = len(nodes)
            index[path] = node
            nodes.append({})
            opts: list[list[Any]] = []
            parts = [options[j][shown] for j in firsts]
            for j, part in zip(firsts, parts, strict=True):
                if part in known:
                    card(part)
                label = self.prompts.label(lang, table, state, decision, options[j], shown)
                _, below = menu_level(options, j, shown + 1)
                if below:
                    opts.append([label, level(j, shown + 1, node), -1, part])
                else:
                    opts.append([label, -1, j, part])
            # the table shows the cards and players a level offers (they are
            # highlighted there): the chat's lines about them are left out
            on_table = any(part in known or part.isdigit() for part in parts)
            lines = numbered(self.lines(lang, table, state, decision, path, not on_table))
            nodes[node] = {"lines": lines, "opts": opts, "up": up}
            return node

        level(0, 0, -1)
        return {"id": decision.id, "kind": decision.kind, "texts": list(texts), "levels": nodes}

    def lines(
        self,
        lang: str,
        table: Table,
        state: GameState,
        decision: Decision,
        path: Option,
        context: bool = True,
    ) -> list[str]:
        """A level's text, as the private prompt shows it above its buttons
        (with `context`: the lines about what the choice is about, too)."""
        t = self.tr.t
        lines = [self.render.prompt(lang, table, state, decision)]
        if decision.kind == "action":
            lines.append(t(lang, "prompt-actions-left", n=state.actions_left))
            if not path:
                lines.extend(self.prompts.why(lang, state, decision.seat))
        if path:
            lines.append("➡️ " + self.prompts.choice(lang, table, state, decision, path))
        question = self.prompts.question(lang, table, state, decision, path)
        if question is not None:
            lines.append(QUESTION + question)
        if context:
            lines.extend(self.prompts.context(lang, table, state, decision, path))
        return [plain(line) for line in lines]
