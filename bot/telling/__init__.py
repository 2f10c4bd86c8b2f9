"""The sending side: where what the game service decided is sent, and only here.

A service command (`bot.service`) sends nothing: it returns its answer and
its effects as plain data (`bot.service.outcome`). This package carries them
out — the `Carrier` (carrying), for the courier (`bot.handlers.courier`:
presses, commands, the Mini App) after a person's answer and for the ticker
(timers) after a timer fired; the `Sender` (sender) a told change goes
through; each chat's outbox (outbox), at the chat's pace, with the presses
in hand whose answers go first (answering).

`Telling` is one process's sending side, made over its service (`bot.app`).
"""

from __future__ import annotations

from bot.service.games import Games
from bot.store.feed import Feed
from bot.telegram.messenger import Messenger
from bot.telegram.pace import Pace
from bot.telling.carrying import Carrier
from bot.telling.outbox import Outboxes
from bot.telling.sender import Sender


class Telling:
    """A process's sending side over its service `games`: the outboxes, the
    sender, the carrier."""

    def __init__(
        self, games: Games, messenger: Messenger, pace: Pace | None = None, feed: Feed | None = None
    ) -> None:
        self.games = games
        self.messenger = messenger
        self.outboxes = Outboxes(games.store, messenger, pace or Pace(), games.views, feed)
        # the outboxes keep what they last read of each record: every save
        # here keeps that true
        games.records.saved = self.outboxes.know
        games.records.replacing = self.outboxes.replacing
        self.sender = Sender(
            games.teller,
            games.store,
            messenger,
            self.outboxes,
            games.links.deep_link,
            on_finish=games.game_finished,
        )
        self.carrier = Carrier(
            self.sender, self.outboxes, messenger, games.notify, games.reviews, games.rematch
        )
        # the reviews come after a result is posted
        self.sender.on_result = self.carrier.after_result

    async def idle(self) -> None:
        """Until nothing is under way off a handler's path (`Carrier.idle`)."""
        await self.carrier.idle()

    async def drain(self, timeout: float) -> None:
        """At shutdown, within `timeout` seconds in all (`Carrier.drain`)."""
        await self.carrier.drain(timeout)
