"""The group's views of a chat's record: what its table message and its lobby
message show, drawn from the newest record when the group's outbox gets to
them (`bot.telling.outbox`: a `show` waiting takes later ones in, so a view
is drawn once however many moves wait).

A view is a screen — a text and its buttons — or None when the record has
nothing to show in it (a lobby's view of a running game). The outbox is given
the views when it is made and asks them by name; nothing registers a view
later.
"""

from __future__ import annotations

from bot.service.clocks import pace_lines
from bot.service.profile import lobby_home_lines
from bot.service.seating import MAX_SEATS, MIN_SEATS
from bot.store.models import Table
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.keyboards import LobbyCb
from bot.words.render import Renderer
from bot.words.screen import Button, Keyboard, Shown, keyboard
from engine.ai import LEVELS

TABLE = "table"  # the group's view of a running game
LOBBY = "lobby"  # the group's view of an open lobby


class GroupViews:
    """The views a group's outbox draws, by name (`TABLE`, `LOBBY`)."""

    #: views whose new messages make no sound (the table: a turn is not news
    #: to ring for; a game's start rings all the same, see `Outboxes.repost`)
    QUIET = frozenset({TABLE})

    def __init__(self, render: Renderer, tr: Translator, app: AppLinks | None) -> None:
        self.render = render
        self.tr = tr
        self.app = app  # the Mini App's links (None: no app button under the table)

    def draw(self, name: str, table: Table) -> Shown | None:
        """View `name` of `table`, or None when the record has none to show."""
        if name == TABLE:
            return self.table(table)
        if name == LOBBY:
            return self.lobby(table)
        raise KeyError(name)

    def quiet(self, name: str) -> bool:
        return name in self.QUIET

    def __contains__(self, name: object) -> bool:
        return name in (TABLE, LOBBY)

    # ------------------------------------------------------------------ the table
    def table(self, table: Table) -> Shown | None:
        if table.state is None or table.status == "lobby":
            return None
        return self.table_text(table), self.app_markup(table)

    def table_text(self, table: Table) -> str:
        assert table.state is not None
        return self.render.table(table, table.state, self.render.turn_lines(table, table.state))

    def app_markup(self, table: Table) -> Keyboard | None:
        """The table's way into the Mini App: a link in a group, the `web_app`
        button in a practice game's private chat; None without the app."""
        if self.app is None or table.status != "playing":
            return None
        if table.practice:
            return self.app.markup(self.tr, table.lang, table.chat_id)
        return self.app.group_markup(self.tr, table.lang, table.chat_id)

    # ------------------------------------------------------------------ the lobby
    def lobby(self, table: Table) -> Shown | None:
        if table.status != "lobby":
            return None
        return self.lobby_text(table), self.lobby_keyboard(table)

    def lobby_text(self, table: Table) -> str:
        t = self.tr.t
        lang = table.lang
        lines = [t(lang, "practice-lobby-title" if table.practice else "lobby-title")]
        for i, seat in enumerate(table.seats, 1):
            mark = " 🤖" if seat.user_id is None else ""
            lines.append(f"{i}. {self.render.name(lang, table, i - 1)}{mark}")
        if not table.seats:
            lines.append(t(lang, "lobby-empty"))
        lines.append("")
        hints = t(lang, "lobby-hints-on" if table.hints else "lobby-hints-off")
        if table.practice:
            clock = t(lang, "lobby-settings", turn=table.turn_timeout, choice=table.choice_timeout)
            lines.append(clock if table.timed else t(lang, "practice-untimed"))
            lines.append(hints)
            lines.append(t(lang, "practice-hint", max=MAX_SEATS - 1))
        else:
            players = min(max(len(table.seats), MIN_SEATS), MAX_SEATS)
            lines += pace_lines(self.tr, lang, table.turn_timeout, table.choice_timeout, players)
            lines.append(hints)
            lines.append(t(lang, "lobby-hint", min=MIN_SEATS, max=MAX_SEATS))
            lines += lobby_home_lines(self.tr, table)
        if table.lobby_menu == "levels":  # what the levels mean, where they are chosen
            lines.append(t(lang, "lobby-levels-short"))
        return "\n".join(lines)

    def lobby_keyboard(self, table: Table) -> Keyboard:
        t = self.tr.t
        lang = table.lang

        def button(key: str, action: str) -> Button:
            return Button(t(lang, key), data=LobbyCb(action=action, game=table.game_no).pack())

        # a group's people join from every screen; the first screen is short,
        # the levels and the settings are a tap away (and back)
        people = (
            [] if table.practice else [[button("btn-join", "join"), button("btn-leave", "leave")]]
        )
        back = [button("btn-back", "main")]
        hints = button("btn-hints-on" if table.hints else "btn-hints-off", "hints")
        if table.lobby_menu == "levels":
            levels = [button(f"btn-add-{level}", f"bot_{level}") for level in LEVELS]
            return keyboard(*people, levels, back)
        if table.lobby_menu == "settings":
            if table.practice:
                clock = "btn-clock-off" if table.timed else "btn-clock-on"
                options = [button(clock, "clock")]
            else:
                pace = "btn-pace-live" if table.own_pace else "btn-pace-own"
                options = [
                    button("btn-lang", "lang"),
                    button(pace, "pace"),
                    button("btn-time", "time"),
                ]
            return keyboard(*people, options, [hints], back)
        computers = [button("btn-computers", "levels")]
        if any(s.user_id is None for s in table.seats):  # «Выйти» is for a person's own seat
            computers.append(button("btn-drop-computer", "drop"))
        return keyboard(
            *people,
            computers,
            [button("btn-go", "go"), button("btn-settings", "settings")],
            [button("btn-cancel", "cancel")],
        )
