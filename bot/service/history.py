"""A chat's history: /history (the last games) and /replay N (a game's
turn-by-turn summary as a text file).

Each finished game is kept for good with its setup and command log (the save
that finishes it writes it: `Store.save`). A replay rebuilds the game from
them and renders only what the group saw — the public lines of each move and
the result — never a card from anyone's hand.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Sequence

from bot.service.base import Actor, Reply
from bot.service.outcome import FileTo, ToPerson
from bot.store import Store
from bot.store.models import GameRecord, Seat, Table
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.render import Renderer
from engine import Command, Event, Refused, execute, new_game
from engine.state import Result

HISTORY_LINES = 10
TAGS = re.compile(r"<[^>]+>")
#: the isolates a name is shown in (`bot.words.names`): invisible, and of no use in a file
ISOLATES = str.maketrans("", "", "\u2068\u2069")


def _plain(text: str) -> str:
    return html.unescape(TAGS.sub("", text)).translate(ISOLATES)


def turn_parts(events: Sequence[Event]) -> list[list[Event]]:
    """A move's events cut where a new turn starts: the last action of one
    turn, then each turn that begins (the replay file and the Mini App's story)."""
    parts: list[list[Event]] = [[]]
    for e in events:
        if e.key == "turn.start" and e.to is None and parts[-1]:
            parts.append([])
        parts[-1].append(e)
    return parts


class History:
    def __init__(
        self, store: Store, render: Renderer, tr: Translator, app: AppLinks | None = None
    ) -> None:
        self.store = store
        self.render = render
        self.tr = tr
        self.app = app  # the Mini App's links (None: no app)

    def table_of(self, record: GameRecord) -> Table:
        """A record as a table, for the renderer (forgotten seats: «игрок»)."""
        forgotten = self.tr.t(record.lang, "history-forgotten")
        return Table(
            chat_id=record.chat_id,
            game_no=record.game_no,
            title=record.title,
            status="finished",
            creator_id=0,
            lang=record.lang,
            seats=[
                Seat(
                    user_id=s.user_id,
                    name=s.name or forgotten,
                    level=s.level,
                )
                for s in record.seats
            ],
            setup=record.setup,
        )

    def names(self, record: GameRecord) -> list[str]:
        table = self.table_of(record)
        return [self.render.name(record.lang, table, i) for i in range(len(record.seats))]

    async def numbers(self, chat_id: int) -> list[int]:
        """The numbers of the games /history lists, newest first (its replay
        buttons)."""
        return [g.number for g in await self.store.history(chat_id, HISTORY_LINES)]

    async def history(self, chat_id: int, lang: str) -> str:
        games = await self.store.history(chat_id, HISTORY_LINES)
        if not games:
            return self.tr.t(lang, "history-empty")
        lines = [self.tr.t(lang, "history-title")]
        for g in games:
            names = self.names(g)
            order = sorted(range(len(g.seats)), key=lambda s: (-g.scores[s], s))
            players = ", ".join(
                f"{'🏆 ' if s in g.winners else ''}{names[s]} {g.scores[s]}" for s in order
            )
            minutes = max(1, round((g.finished_at - g.started_at) / 60))
            day = time.strftime("%d.%m.%Y", time.gmtime(g.finished_at))
            lines.append(
                self.tr.t(
                    lang,
                    "history-line",
                    number=g.number,
                    date=day,
                    minutes=minutes,
                    players=players,
                )
            )
        lines.append(self.tr.t(lang, "history-hint"))
        return "\n".join(lines)

    def summary(self, record: GameRecord, commands: list[Command]) -> str:
        """What the group saw, move by move, as plain text."""
        table = self.table_of(record)
        state, events = new_game(record.setup)
        table.state = state
        names = self.names(record)
        lines = [
            _plain(
                self.tr.t(
                    record.lang,
                    "replay-title",
                    number=record.number,
                    chat=record.title or str(record.chat_id),
                    players=", ".join(names),
                )
            ),
            "",
        ]
        for c in [None, *commands]:
            if c is not None:
                try:
                    events = execute(state, c)
                except Refused:
                    break
            for part in turn_parts(events):
                if part and part[0].key == "turn.start" and lines[-1] != "":
                    lines.append("")  # a turn begins: a blank line before its header
                lines += [_plain(x) for x in self.render.public_lines(table, state, part)]
        # the scores as kept (also when the log no longer replays to the end)
        state.result = Result(scores=record.scores, castles=record.castles, winners=record.winners)
        lines += ["", _plain(self.render.result(table, state))]
        return "\n".join(lines) + "\n"

    async def replay(self, actor: Actor, lang: str, number: int) -> Reply:
        """/replay N: game N's summary as a file, for one who played it; once
        it went, with the Mini App, a button that opens the game there; if it
        could not go, a line that says so."""
        got = await self.store.game_by_number(number)
        if got is None:
            return Reply("replay-unknown")
        record, commands = got
        user_id = actor.user_id
        if all(s.user_id != user_id for s in record.seats):
            return Reply("replay-not-yours")
        text = self.summary(record, commands)
        caption = self.tr.t(lang, "replay-caption", number=number)
        # (in the person's own chat: they have just written, no sound)
        failed = ToPerson(user_id, self.tr.t(lang, "replay-failed"), quiet=True)
        sent = None
        if self.app is not None:  # the file went: the game in the app too
            button = self.app.replay_button(self.tr, lang, number)
            text_open = self.tr.t(lang, "replay-open", number=number)
            sent = ToPerson(user_id, text_open, ((button,),), quiet=True)
        data = text.encode("utf-8")
        file = FileTo(user_id, f"smuta_{number}.txt", data, caption, sent, failed)
        return Reply("ok", effects=(file,))
