"""The first-game tutor: someone's first /practice, and /learn at any time.

A tutor game is a practice game (in the person's own chat, against
computers, without a clock, not rated: `record_of` keeps no practice game)
that starts at once on the tutor's fixed deal (`lessons.DEAL`), with hints
on; its prompts carry the tutor's sentences (`lessons`), and its end points
to a game in a group (`Sender.finish`). /stop leaves it like any practice
game; /learn takes it again. A person's first /practice is the tutor: the
store's count of their practice games (`UserPrefs.practices`, which
/forgetme deletes with the rest of their preferences) says whether it is.
"""

from __future__ import annotations

from bot.service.base import Actor, Defaults, Records, Reply
from bot.service.bookkeeping import book_move
from bot.service.lessons import COMPUTER_LEVEL, COMPUTERS, DEAL
from bot.service.lobby import Lobby
from bot.service.outcome import ChatStep, ChatSteps, FixView, Reread
from bot.service.telling import Teller
from bot.service.views import LOBBY, TABLE
from bot.store.models import Tutoring
from bot.words.i18n import Translator
from engine.scenario import build


class Tutor:
    """/learn, and /practice for someone who never practised."""

    def __init__(
        self,
        records: Records,
        teller: Teller,
        lobby: Lobby,
        tr: Translator,
        defaults: Defaults,
    ) -> None:
        self.records = records
        self.store = records.store
        self.teller = teller
        self.lobby = lobby
        self.tr = tr
        self.defaults = defaults

    async def practice(self, actor: Actor) -> Reply:
        """/practice: the tutor the first time, else the practice lobby."""
        prefs = await self.store.user(actor.user_id)
        existing = await self.store.load(actor.user_id)
        idle = existing is None or existing.status == "finished"
        if prefs.practices == 0 and idle:
            return await self.learn(actor)
        return await self.lobby.practice(actor)

    async def learn(self, actor: Actor) -> Reply:
        """The tutor game, started at once in the person's chat (an open
        practice lobby there gives way; a running game is kept)."""
        chat_id = actor.user_id
        existing = await self.store.load(chat_id)
        if existing is not None and existing.status == "playing":
            return Reply("practice-running")
        refused = await self.lobby.table_limit(actor, chat_id)
        if refused is not None:
            return refused
        prefs = await self.lobby.mark_started(actor)
        prefs.practices += 1
        await self.store.save_user(prefs)
        now = self.records.clock.now()
        # nothing keeps a practice game once it expires: its number follows its record's
        game_no = existing.game_no + 1 if existing else 1
        seat = self.lobby.person_seat(actor, prefs)
        table = self.lobby.new_table(
            chat_id, self.tr.t(seat.lang, "tutor-title"), actor, existing, game_no
        )
        table.practice, table.timed, table.hints, table.lang = True, False, True, seat.lang
        table.tutor = Tutoring()
        table.seats.append(seat)
        for _ in range(COMPUTERS):
            table.seats.append(self.lobby.computer_seat(table, COMPUTER_LEVEL))
        state = build(DEAL)  # the fixed deal, run to the person's first decision
        table.state = state
        table.status = "playing"
        book_move(table, [], now, self.defaults)
        # (what this chat's outbox knew of the last game goes: its table is not
        # shown again as the new one's)
        if not await self.records.replace(table):
            return Reply("err-busy")
        await self.store.link_user(chat_id, chat_id)
        await self.store.set_messages(chat_id, {TABLE: None})
        steps: list[ChatStep] = [Reread()]
        if existing is not None and existing.status == "lobby":  # its message says it closed
            steps.append(FixView(LOBBY, self.tr.t(existing.lang, "practice-cancelled")))
        told = self.teller.lay_out(table, {}, new_game_started=True)
        return Reply("tutor-welcome", effects=(ChatSteps(chat_id, tuple(steps)), told))
