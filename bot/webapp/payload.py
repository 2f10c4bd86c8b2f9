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
from typing import Any

from bot.service.viewing import Table
from bot.words.help import TOPICS, card_text
from bot.words.i18n import COLOUR_EMOJI, Translator
from bot.words.keyboards import Option, menu_level
from bot.words.prompts import QUESTION, Prompts
from bot.words.render import Renderer
from engine import Decision, GameState, pending, view_for
from engine.cards import DEFAULT_RULES, catalog_for

#: the log lines the app shows (the newest)
LOG_LINES = 12
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
)
TAG = re.compile(r"<[^>]+>")


def plain(text: str) -> str:
    """A text made for Telegram's HTML as plain text."""
    return html.unescape(TAG.sub("", text))


class Payloads:
    """The JSON the app's API answers with."""

    def __init__(self, tr: Translator, render: Renderer, prompts: Prompts) -> None:
        self.tr = tr
        self.render = render
        self.prompts = prompts

    def words(self, lang: str) -> dict[str, str]:
        return {key: plain(self.tr.t(lang, key)) for key in WORDS}

    def card(self, lang: str, table: Table, topic: str) -> dict[str, str] | None:
        """/card's text for a card type or castle (``castle-red``) in the
        game's rules; None when `topic` names nothing."""
        if topic not in TOPICS:
            return None
        rules = table.state.rules if table.state is not None else DEFAULT_RULES
        title, _, about = card_text(self.tr, lang, topic, rules).partition("\n")
        return {"title": plain(title), "text": plain(about)}

    # ------------------------------------------------------------------ the table
    def table(self, table: Table, seat: int | None, lang: str, now: float) -> dict[str, Any]:
        """`seat`'s view of the chat's game (None: the public table)."""
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
        # each card shown: its name, type and colours (a Слуга's side first);
        # each type once: its kind (house, order, smuta) and points
        cards: dict[str, list[Any]] = {}
        types: dict[str, list[Any]] = {}
        cat = catalog_for(state.rules)

        def card(card_id: str) -> str:
            if card_id not in cards:
                c = cat[card_id]
                side = state.servant_up.get(card_id)
                colours = [side] + [x for x in c.colours if x != side] if side else list(c.colours)
                cards[card_id] = [plain(self.render.card(lang, state, card_id)), c.type, colours]
                types.setdefault(c.type, [c.kind, c.points])
            return card_id

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
        out.update(
            head=plain(head),
            deck=plain(deck),
            orders=plain(t(lang, "table-orders", n=view.orders_size)),
            graveyard=pile("table-graveyard", view.graveyard),
            orders_discard=pile("table-orders-discard", view.orders_discard),
            smuta_discard=pile("table-smuta-discard", view.smuta_discard),
            prophet=[card(c) for c in view.prophet_stack],
            castles=plain(t(lang, "table-castles", castles=supply)),
            current=view.current if view.result is None else None,
            deciding=decision.seat if decision is not None else None,
            now=now,
            deadline=table.deadline if decision is not None else None,
        )
        players = []
        for p in view.players:
            s = table.seats[p.seat]
            status = ""
            if decision is not None and decision.seat == p.seat:
                if decision.kind == "action":
                    status = t(lang, "table-actions", n=view.actions_left)
                else:
                    status = t(lang, "table-choosing")
            players.append(
                {
                    "seat": p.seat,
                    "name": plain(self.render.name(lang, table, p.seat)),
                    "bot": p.computer or s.user_id is None,
                    "hand": p.hand_size,
                    "points": p.points,
                    "status": plain(status),
                    "houses": [
                        {"colour": h.colour, "castle": h.castle, "cards": list(map(card, h.cards))}
                        for h in p.houses
                    ],
                }
            )
        out["players"] = players
        if view.hand is not None and seat is not None:
            out["hand"] = [card(c) for c in view.hand]
            out["hand_title"] = plain(self.render.hand(lang, table, state, seat).split("\n")[0])
        log = [*(table.closed_log or []), *table.turn_log] if view.result is None else []
        out["log"] = [plain(line) for line in log[-LOG_LINES:]]
        if view.result is not None:
            out["result"] = [plain(line) for line in self.render.result(table, state).split("\n")]
        if view.decision is not None:
            out["decision"] = self.levels(lang, table, state, view.decision, card)
        out["cards"] = cards
        out["types"] = types
        return out

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
