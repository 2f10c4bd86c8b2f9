"""The game service: lobby, play, seats — everything between a chat and the engine.

Every change is load → change → compare-and-set save, retried when another
update (or another bot process) saved first; messages go out only after a save
succeeded, so a lost race never sends anything. The service never decides a
rule: it asks the engine for the pending decision, applies answers and renders
what the engine reports.

It is made of parts, each an object with one job, that call each other
(`bot.service`):

- `Records` (base): the compare-and-set change (which also checks the game
  number and who may manage the game), and who may manage a game;
- `Outboxes` (outbox): each group's queue of what it is told, at its pace;
- bookkeeping: what a change leaves in the record (the turn's log, each
  person's story, the timer) — plain functions, run inside the change;
- `Teller` (telling): once a change is saved, what everyone is told —
  prompts at once, the group through its outbox — and catching up on a move
  never told;
- `Lobby` (lobby): /newgame to the start;
- `Tutor` (tutor): /learn and a first /practice, the guided game (its script: lessons);
- `Play` (play): buttons, answers, timers, /hand;
- `Seats` (seats): leaving, stopping, /back, chat migration, /lang;
- `Rematch` (rematch): «Ещё партию» under a result, a new lobby for the same people.
- `Profiles` (profile): a chat's settings for good, /settings;
- `Ratings` (ratings): figures and skill ratings, /top, /stats;
- `History` (history): finished games, /history, /replay;
- `Notify` (notify): /notify's calls to a new lobby;
- `Forgetting` (forgetting): /forgetme;
- `Reviews` (reviews): each person's review of their game, after its result.
"""

from __future__ import annotations

import asyncio
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
from bot.service.notify import Notify
from bot.service.outbox import Outboxes
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
from bot.telegram.messenger import Messenger
from bot.telegram.pace import Pace
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
    """The whole service, as the routers and the ticker use it: its parts."""

    def __init__(
        self,
        store: Store,
        messenger: Messenger,
        tr: Translator,
        clock: Clock,
        bot_username: Callable[[], Awaitable[str]],
        is_admin: IsAdmin,
        defaults: Defaults | None = None,
        is_member: IsMember | None = None,
        seeds: random.Random | None = None,
        pace: Pace | None = None,
        thinker: Thinker | None = None,
        app: AppLinks | None = None,
        feed: Feed | None = None,
        review_cpu: float = GAME_CPU,
    ) -> None:
        """`review_cpu`: the CPU seconds a game's reviews may take (0: none)."""
        self.store = store
        self.messenger = messenger
        self.tr = tr
        self.clock = clock
        self.defaults = defaults or Defaults()
        self.render = Renderer(tr)
        self.links = Links(bot_username)
        self.app = app  # the Mini App's links (None: no app)
        self.views = GroupViews(self.render, tr, app)
        self.outboxes = Outboxes(store, messenger, pace or Pace(), self.views, feed)
        self.records = Records(store, clock, is_admin, is_member or nobody, self.outboxes.know)
        self.prompts = Prompts(self.render, tr, app)
        # in place, strong in its budget mode: the same answer every time (tests);
        # the bot's own (bot.run) searches with a deadline, in a pool
        self.thinker = thinker or Thinker(workers=0, strong_seconds=None)
        # pictures are drawn in a process of their own where computers think in
        # processes (the bot), else in a thread (tests, the smallest machines)
        self.pictures = Pictures(store, tr, processes=self.thinker.workers > 0)
        # each person's review of their game, made in the pictures' worker
        # after the result went out
        self.reviews = Reviews(store, messenger, tr, self.pictures, app, cpu=review_cpu)
        self.teller = Teller(
            store,
            messenger,
            self.outboxes,
            self.prompts,
            clock,
            self.links.deep_link,
            on_finish=self.game_finished,
            pictures=self.pictures,
            on_result=self.reviews.after_result,
        )
        # a chat's home: its settings, ratings, history, the call to the next game
        self.profiles = Profiles(self.records, messenger, tr, self.defaults)
        self.ratings = Ratings(store, tr)
        self.history = History(store, self.render, tr, messenger)
        self.notify = Notify(self.records, messenger, self.outboxes, self.render, tr, self.links)
        self.lobby = Lobby(
            self.records,
            self.teller,
            self.outboxes,
            tr,
            self.defaults,
            self.links,
            seeds,
            profiles=self.profiles,
            on_open=self.notify.lobby_opened,
        )
        self.tutor = Tutor(self.records, self.teller, self.outboxes, self.lobby, tr, self.defaults)
        self.play = Play(
            self.records, self.teller, messenger, self.render, tr, self.thinker, self.defaults
        )
        self.seats = Seats(
            self.records, self.teller, self.outboxes, self.render, tr, self.lobby, self.defaults
        )
        self.rematch = Rematch(store, self.lobby, messenger, self.render, tr, self.links)
        self.forgetting = Forgetting(self.records, self.teller, self.outboxes, tr, self.defaults)
        self.viewing = Viewing(store, feed)  # what the Mini App reads

    def parts(self) -> dict[str, object]:
        """The service's parts by the names handlers take them under (the
        dispatcher's workflow data: a handler declares ``play: Play`` and gets
        it, as it gets ``games`` and ``tr``)."""
        return {
            "play": self.play,
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

    async def idle(self) -> None:
        """Until nothing is under way off a handler's path: the calls to new
        lobbies, then every group's outbox (which those calls feed), then the
        reviews after a result (which wait for it to go out)."""
        await self.notify.idle()
        await self.outboxes.idle()
        await self.reviews.idle()

    async def drain(self, timeout: float) -> None:
        """At shutdown, within `timeout` seconds in all: the calls to new
        lobbies still going (they feed the outboxes), then what the groups are
        still to be told, at their pace; what is cut off is logged."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        cut = await self.notify.drain(max(0.5, until - loop.time()))
        if cut:
            log.warning("%d lobby call(s) cut off at shutdown", cut)
        cut = await self.outboxes.drain(max(0.5, until - loop.time()))
        if cut:
            log.warning("%d group(s) not told everything at shutdown", cut)
        cut = await self.reviews.drain()  # a review is no game's business: not waited for
        if cut:
            log.info("%d game(s)' reviews given up at shutdown", cut)

    async def on_timer(self, chat_id: int) -> None:
        await self.play.on_timer(chat_id)

    async def game_finished(self) -> None:
        """A game just ended (its save queued it for rating): rate what waits.
        A failure loses nothing: the game stays queued for the next drain."""
        try:
            await self.ratings.drain()
        except Exception:  # the store, say: the result is told; rating waits
            log.warning("rating deferred", exc_info=True)
