"""A person's games, all at once, in their private chat: /games lists them
(those waiting on the person first), /hand asks which one when there is
more than one, and a button of either brings that game's hand and prompt
back (`Play.resend` for that chat alone).

A button names its chat, its game and its person (`GameCb`): pressed by
anyone else, forged, or once that game ended or the person left it, it is
refused with a short answer and changes nothing — and it never moves a game:
bringing a prompt back only sends it anew."""

from __future__ import annotations

import html
import math

from bot.service.base import Actor, Clock, Defaults, Reply
from bot.service.outcome import ToPerson
from bot.service.play import Play
from bot.service.seated import seated_at
from bot.store import Store
from bot.store.models import Lang, Table
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.keyboards import GameCb
from bot.words.render import Renderer
from bot.words.screen import Button, Keyboard
from engine import pending

#: characters of a game's title a button shows
BUTTON_TITLE = 24


class MyGames:
    """/games, /hand's question, and their buttons."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        render: Renderer,
        tr: Translator,
        play: Play,
        defaults: Defaults,
        app: AppLinks | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.render = render
        self.tr = tr
        self.play = play
        self.defaults = defaults
        self.app = app  # the Mini App (None: no app buttons)

    async def listing(self, actor: Actor) -> Reply:
        """/games: every lobby and game the person sits at — those waiting on
        them first — with whose turn it is and the time left; under it, for
        each game under way, a button that brings its prompt back and one
        that opens its table in the Mini App."""
        seated = [table for table, _ in await seated_at(self.store, actor.user_id)]
        if not seated:
            return Reply("games-none")
        lang = await self._lang(actor)
        t = self.tr.t
        seated.sort(key=lambda table: self._order(table, actor.user_id))
        lines = [t(lang, "games-title", n=len(seated))]
        rows: list[tuple[Button, ...]] = []
        for i, table in enumerate(seated, 1):
            state = self._state(lang, table, actor.user_id)
            title = html.escape(self._title(table), quote=False)
            lines.append(t(lang, "games-line", i=i, title=title, state=state))
            if table.status == "playing":
                rows.append(self._buttons(lang, table, actor.user_id, app=True))
        if rows:
            lines += ["", t(lang, "games-buttons")]
        return self._to(actor, "\n".join(lines), tuple(rows))

    async def hand(self, actor: Actor) -> Reply:
        """/hand: with one game under way, its hand and prompt (as ever); with
        more, which one — a button a game."""
        playing = [
            table
            for table, _ in await seated_at(self.store, actor.user_id)
            if table.status == "playing"
        ]
        if len(playing) <= 1:
            return await self.play.resend(actor)
        lang = await self._lang(actor)
        playing.sort(key=lambda table: self._order(table, actor.user_id))
        rows = tuple(self._buttons(lang, table, actor.user_id, app=False) for table in playing)
        return self._to(actor, self.tr.t(lang, "games-which"), rows)

    async def bring(self, actor: Actor, cb: GameCb) -> Reply:
        """A game's button (/games, /hand's question): that game's hand and
        prompt brought back — only its own person's press, while they still
        sit at that game."""
        if cb.user != actor.user_id:
            return Reply("err-bad-button", alert=True)
        table = await self.store.load(cb.chat)
        if (
            table is None
            or table.game_no != cb.game
            or table.status != "playing"
            or table.seat_of(actor.user_id) is None
        ):
            return Reply("games-gone", alert=True)
        reply = await self.play.resend(actor, chat=cb.chat)
        return reply if reply.effects else Reply("games-gone", alert=True)

    # ------------------------------------------------------------------ parts
    async def _lang(self, actor: Actor) -> Lang:
        prefs = await self.store.user(actor.user_id)
        return self.defaults.person_lang(prefs, actor.lang_code)

    def _to(self, actor: Actor, text: str, rows: Keyboard) -> Reply:
        """A message with buttons to the person, without a sound (they just asked)."""
        return Reply("ok", effects=(ToPerson(actor.user_id, text, rows or None, quiet=True),))

    @staticmethod
    def _waits_on(table: Table, user_id: int) -> bool:
        """Whether the game's pending decision is the person's."""
        if table.status != "playing" or table.state is None:
            return False
        decision = pending(table.state)
        return decision is not None and decision.seat == table.seat_of(user_id)

    def _order(self, table: Table, user_id: int) -> tuple[int, float, int]:
        """Those waiting on the person first (the soonest deadline first), then
        the other games under way, then the lobbies."""
        rank = 0 if self._waits_on(table, user_id) else 1 if table.status == "playing" else 2
        deadline = table.deadline if table.deadline is not None else math.inf
        return rank, deadline, table.chat_id

    @staticmethod
    def _title(table: Table) -> str:
        return table.title or str(table.chat_id)

    def _state(self, lang: Lang, table: Table, user_id: int) -> str:
        """Where the game stands for the person: gathering players, waiting
        for them, or for whom — and the time left, when there is a clock."""
        t = self.tr.t
        state = table.state
        decision = pending(state) if state is not None and table.status == "playing" else None
        if state is None or decision is None:
            return t(lang, "games-lobby")
        if decision.seat == table.seat_of(user_id):
            said = t(lang, "games-yours")
        else:
            said = t(lang, "games-waiting", player=self.render.name(lang, table, decision.seat))
        if table.deadline is None or state.players[decision.seat].computer:
            return said  # no clock (an untimed practice game), or a computer thinking
        left = self._left(lang, table.deadline - self.clock.now())
        return t(lang, "games-timed", state=said, left=left)

    def _left(self, lang: Lang, seconds: float) -> str:
        t = self.tr.t
        s = max(0, math.ceil(seconds))
        if s < 60:
            return t(lang, "games-seconds", n=s)
        if s < 3600:
            return t(lang, "games-minutes", n=s // 60)
        if s < 86400:
            return t(lang, "games-hours", h=s // 3600, m=s % 3600 // 60)
        return t(lang, "games-days", d=s // 86400, h=s % 86400 // 3600)

    def _buttons(self, lang: Lang, table: Table, user_id: int, app: bool) -> tuple[Button, ...]:
        """A game's buttons: its prompt brought back, and (`app`) its table in the Mini App."""
        title = self._title(table)
        if len(title) > BUTTON_TITLE:
            title = title[: BUTTON_TITLE - 1] + "…"
        data = GameCb(chat=table.chat_id, game=table.game_no, user=user_id).pack()
        row = [Button(self.tr.t(lang, "btn-games-bring", title=title), data=data)]
        if app and self.app is not None:
            url = self.app.url(table.chat_id)
            row.append(Button(self.tr.t(lang, "btn-games-app", title=title), app=url))
        return tuple(row)
