"""The game service: lobby, play, seats — everything between a chat and the engine.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything. The service never decides a
rule: it asks the engine for the pending decision, applies answers and renders
what the engine reports. It sends nothing either: a command returns its
answer and its effects as plain data (outcome), which the sending side
(`bot.telling`: the courier's and the ticker's carrier, the outboxes)
carries out.

It is made of parts, each an object with one job, that call each other
(`bot.service`):

- `Records` (base): the compare-and-set change (which also checks the game
  number and who may manage the game), and who may manage a game;
- bookkeeping: what a change leaves in the record (the turn's log, each
  person's story, the timer) — plain functions, run inside the change;
- outcome: what a command returns — its answer and its effects, as plain data;
- `Teller` (telling): what a saved change is told as, laid out as screens;
- views: the group's views (the table, the lobby), drawn by name;
- `Lobby` (lobby): /newgame to the start;
- `Tutor` (tutor): /learn and a first /practice, the guided game (its script: lessons);
- `Play` (play): buttons, answers, timers, /hand;
- `MyGames` (my_games): /games, and /hand's question when there are several;
- `Seats` (seats): leaving, stopping, /back, chat migration, /lang;
- `Rematch` (rematch): «Ещё партию» under a result, a new lobby for the same people.
- `Profiles` (profile): a chat's settings for good, /settings;
- `Ratings` (ratings): figures and skill ratings, /top, /stats;
- `History` (history): finished games, /history, /replay;
- `Notify` (notify): /notify's calls to a new lobby (whom, and what came of them);
- `Forgetting` (forgetting): /forgetme;
- `Reviews` (reviews): each person's review of their game, made after its result.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable

from bot.service.base import (
    Actor,
    Clock,
    Conflict,
    Defaults,
    IsAdmin,
    IsMember,
    Links,
    Records,
    Refusal,
    Reply,
    nobody,
)
from bot.service.bookkeeping import ANNOUNCE_GRACE
from bot.service.forgetting import Forgetting
from bot.service.history import History
from bot.service.lobby import Lobby
from bot.service.my_games import MyGames
from bot.service.notify import Notify
from bot.service.outcome import Effect
from bot.service.pictures import Pictures
from bot.service.play import STRIKES_TO_AWAY, Play
from bot.service.profile import Profiles
from bot.service.ratings import Ratings
from bot.service.rematch import Rematch
from bot.service.reviews import GAME_CPU, Reviews
from bot.service.seating import MAX_SEATS, MIN_SEATS
from bot.service.seats import Seats
from bot.service.telling import Teller
from bot.service.thinking import Thinker
from bot.service.tutor import Tutor
from bot.service.viewing import Viewing
from bot.service.views import GroupViews
from bot.store import Store
from bot.store.feed import Feed
from bot.words.app import AppLinks
from bot.words.i18n import Translator
from bot.words.prompts import Prompts
from bot.words.render import Renderer

log = logging.getLogger(__name__)

__all__ = [
    "ANNOUNCE_GRACE",
    "MAX_SEATS",
    "MIN_SEATS",
    "STRIKES_TO_AWAY",
    "Actor",
    "Clock",
    "Conflict",
    "Defaults",
    "Games",
    "Refusal",
    "Reply",
]


class Games:
    """The whole service, as the routers, the Mini App and the ticker use it: its parts."""

    def __init__(
        self,
        store: Store,
        tr: Translator,
        clock: Clock,
        bot_username: Callable[[], Awaitable[str]],
        is_admin: IsAdmin,
        defaults: Defaults | None = None,
        is_member: IsMember | None = None,
        seeds: random.Random | None = None,
        thinker: Thinker | None = None,
        app: AppLinks | None = None,
        feed: Feed | None = None,
        review_cpu: float = GAME_CPU,
    ) -> None:
        """`review_cpu`: the CPU seconds a game's reviews may take (0: none)."""
        self.store = store
        self.tr = tr
        self.clock = clock
        self.defaults = defaults or Defaults()
        self.render = Renderer(tr)
        self.links = Links(bot_username)
        self.app = app  # the Mini App's links (None: no app)
        # the group's views, drawn by name (for the outboxes: `bot.telling`)
        self.views = GroupViews(self.render, tr, app)
        # (the outboxes' hooks, `saved` and `replacing`, are set by `bot.telling`)
        self.records = Records(store, clock, is_admin, is_member or nobody)
        self.prompts = Prompts(self.render, tr, app)
        # in place, strong in its budget mode: the same answer every time (tests);
        # the bot's own (bot.run) searches with a deadline, in a pool
        self.thinker = thinker or Thinker(workers=0, strong_seconds=None)
        # pictures are drawn in a process of their own where computers think in
        # processes (the bot), else in a thread (tests, the smallest machines)
        self.pictures = Pictures(store, tr, processes=self.thinker.workers > 0)
        # each person's review of their game, made in the pictures' worker
        # after the result went out
        self.reviews = Reviews(store, tr, self.pictures, app, cpu=review_cpu)
        # what a saved change is told as, laid out as screens
        self.teller = Teller(self.prompts, self.pictures)
        # a chat's home: its settings, ratings, history, the call to the next game
        self.profiles = Profiles(self.records, tr, self.defaults)
        self.ratings = Ratings(store, tr)
        self.history = History(store, self.render, tr, app)
        self.notify = Notify(self.records, self.render, tr, self.links)
        self.lobby = Lobby(
            self.records, self.teller, tr, self.defaults, self.links, seeds, profiles=self.profiles
        )
        self.tutor = Tutor(self.records, self.teller, self.lobby, tr, self.defaults)
        self.play = Play(self.records, self.teller, self.render, tr, self.thinker, self.defaults)
        # /games and /hand's question: a person's games, all at once
        self.my_games = MyGames(store, clock, self.render, tr, self.play, self.defaults, app)
        self.seats = Seats(self.records, self.teller, self.render, tr, self.lobby, self.defaults)
        self.rematch = Rematch(store, self.lobby, self.render, tr, self.links)
        self.forgetting = Forgetting(self.records, self.teller, self.defaults)
        self.viewing = Viewing(store, feed)  # what the Mini App reads

    def parts(self) -> dict[str, object]:
        """The service's parts by the names handlers take them under (the
        dispatcher's workflow data: a handler declares ``play: Play`` and gets
        it, as it gets ``games`` and ``tr``)."""
        return {
            "play": self.play,
            "my_games": self.my_games,
            "lobby": self.lobby,
            "seats": self.seats,
            "tutor": self.tutor,
            "profiles": self.profiles,
            "ratings": self.ratings,
            "history": self.history,
            "notify": self.notify,
            "rematch": self.rematch,
            "forgetting": self.forgetting,
            "links": self.links,
            "app": self.app,  # the Mini App's links (None: no app)
        }

    @property
    def seeds(self) -> random.Random:
        """Where new games' seeds come from (a test fixes it for a known game)."""
        return self.lobby.seeds

    @seeds.setter
    def seeds(self, seeds: random.Random) -> None:
        self.lobby.seeds = seeds

    async def on_timer(self, chat_id: int) -> tuple[Effect, ...]:
        """The chat's timer is due: what it does, to be told (by the ticker)."""
        return await self.play.on_timer(chat_id)

    async def on_check(self, chat_id: int) -> tuple[Effect, ...]:
        """The chat's last save is looked at (`Store.checks`): what it owes, to
        be told (by the ticker)."""
        return await self.play.on_check(chat_id)

    async def game_finished(self) -> None:
        """A game just ended (its save queued it for rating): rate what waits.
        A failure loses nothing: the game stays queued for the next drain."""
        try:
            await self.ratings.drain()
        except Exception:  # the store, say: the result is told; rating waits
            log.warning("rating deferred", exc_info=True)
