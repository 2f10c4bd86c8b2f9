"""Seats: leaving (the lobby, or a game: the computer takes the seat, after a
confirmation), stopping a game, coming back, a group that becomes a
supergroup, a player's language."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

from bot.ops import logs
from bot.service import journal
from bot.service.base import (
    Actor,
    Changed,
    Conflict,
    Defaults,
    Moved,
    Records,
    Refusal,
    Reply,
    noted,
)
from bot.service.bookkeeping import book_move, clear_timer
from bot.service.lobby import CANCELLED, Lobby, lobby_shown
from bot.service.outcome import (
    ChatSteps,
    ClearButtons,
    Closing,
    Discard,
    Effect,
    Note,
    Notice,
    PostText,
    Private,
    Tell,
    ToPerson,
)
from bot.service.telling import Teller
from bot.store.models import MAX_RETURNS, Lang, Table
from bot.words.i18n import Translator
from bot.words.keyboards import BackCb, LeaveCb, StopCb, yes_no_keyboard
from bot.words.render import Renderer
from bot.words.screen import Button, Keyboard, keyboard
from engine import Command, Event, pending, set_computer, stop

log = logging.getLogger(__name__)

#: what a stopped game's players read, in a reader's language


def _close(t: Table) -> list[Command]:
    """The game ends where it stands (a lobby closes), its timer gone."""
    t.status = "finished"
    if t.state is not None:
        stop(t.state)
    clear_timer(t)
    return []


class Seats:
    """Leaving (the lobby or a game), stopping, /back, chat migration, /lang."""

    def __init__(
        self,
        records: Records,
        teller: Teller,
        render: Renderer,
        tr: Translator,
        lobby: Lobby,
        defaults: Defaults,
    ) -> None:
        self.records = records
        self.lobby = lobby
        self.store = records.store
        self.teller = teller
        self.clock = records.clock
        self.defaults = defaults
        self.render = render
        self.tr = tr

    async def sits_at(self, chat_id: int, user_id: int) -> bool:
        """Whether the person has a seat (not left to the computer) in the
        chat's game: the Mini App shows them their own hand and choices."""
        table = await self.store.load(chat_id)
        return table is not None and table.seat_of(user_id) is not None

    def _book_move(self, t: Table, events: list[Event], note: str, handed: int) -> None:
        """A seat handed to the computer or back: the record's bookkeeping,
        with the group's line `note` (a locale key naming the seat's player)."""
        notes = [journal.note(note, handed)]
        book_move(t, events, self.clock.now(), self.defaults, notes, handed=handed)

    # ------------------------------------------------------------------ leaving
    async def leave(self, chat_id: int, actor: Actor, game: int | None = None) -> Reply | Keyboard:
        """/leave: out of the lobby at once; out of a running game only once
        the leaver confirms (the buttons returned), since it cannot be undone
        but by /back. `game`: the lobby a «Выйти» button was on — out of that
        lobby only (an older one's button is refused as old)."""
        table = await self.store.load(chat_id)
        if game is not None and (table is None or table.game_no != game or table.status != "lobby"):
            return Reply("err-old-button", alert=True)
        if table is None or table.status == "finished":
            return Reply("err-no-game")
        if table.seat_of(actor.user_id) is None:
            return Reply("err-not-seated", alert=True)
        if table.status == "playing":
            return self._confirm_leaving(table, actor)

        def remove(t: Table) -> list[Command]:
            seat = t.seat_of(actor.user_id)
            if seat is None or t.status != "lobby":
                raise Refusal("err-not-seated")
            del t.seats[seat]
            if not t.humans:  # computers alone cannot play: the table empties
                t.seats.clear()
            return []

        done = await self.records.attempt(chat_id, remove, game=table.game_no)
        if isinstance(done, Reply):
            return done
        await self.store.link_user(actor.user_id, chat_id, linked=False)
        return Reply("lobby-left", effects=(lobby_shown(chat_id),))

    def _confirm_leaving(self, table: Table, actor: Actor) -> Keyboard:
        def button(key: str, confirm: bool) -> tuple[str, str]:
            data = LeaveCb(game=table.game_no, user=actor.user_id, confirm=confirm)
            return self.tr.t(table.lang, key), data.pack()

        return yes_no_keyboard(button("btn-leave-yes", True), button("btn-leave-no", False))

    async def confirm_leave(
        self, chat_id: int, actor: Actor, cb: LeaveCb, message_id: int
    ) -> Reply:
        """A press on /leave's confirmation (message `message_id`): only the
        one who asked may answer; once answered, its buttons go."""
        if cb.user != actor.user_id:
            return Reply("err-not-your-button", alert=True)
        answered = ClearButtons(chat_id, message_id)
        table = await self.store.load(chat_id)
        if table is None or table.status != "playing" or table.game_no != cb.game:
            return Reply("err-old-game", alert=True).and_then(answered)
        if not cb.confirm:
            return Reply("leave-kept").and_then(answered)
        return (await self._leave_game(chat_id, actor)).and_then(answered)

    async def _leave_game(self, chat_id: int, actor: Actor) -> Reply:
        def leave(t: Table) -> Moved:
            seat = t.seat_of(actor.user_id)
            if seat is None or t.state is None or t.status != "playing":
                raise Refusal("err-not-seated")
            t.seats[seat].left = True
            events = set_computer(t.state, seat, True)
            if t.humans:
                self._book_move(t, noted(events), "log-left", seat)
            return Moved([Command(seat=seat, computer=True)], events)

        done = await self.records.attempt(chat_id, leave)
        if isinstance(done, Reply):
            return done
        if not done.table.humans:
            ended = await self._end(chat_id)
            everyone_left = self.lay_out_end(ended.table, ended.ids, Notice("stop-everyone-left"))
            return Reply("game-left-last", effects=(everyone_left,))
        return Reply("game-left", effects=(self.teller.lay_out(done.table, done.ids),))

    # ------------------------------------------------------------------ stopping
    async def ask_stop(self, chat_id: int, actor: Actor) -> Reply | tuple[Keyboard, Reply]:
        """/stop: a running game, once its creator or an admin confirms (the
        buttons returned, with the question fit for the game: a group's is
        not rated once stopped, practice is never rated, the tutor can be
        taken again); a lobby — a group's or a practice table's — closes at
        once, as its «❌» button would."""
        table = await self.store.load(chat_id)
        if table is not None and table.status == "lobby":
            cancelled = await self.lobby.cancel(chat_id, actor)
            return (
                Reply("ok", effects=cancelled.effects) if cancelled.key == CANCELLED else cancelled
            )
        if table is None or table.status != "playing":
            return Reply("err-no-game")
        if not await self.records.may_manage(table, actor.user_id):
            return Reply("err-not-creator")
        t = self.tr.t
        buttons = yes_no_keyboard(
            (t(table.lang, "btn-stop-yes"), StopCb(game=table.game_no, confirm=True).pack()),
            (t(table.lang, "btn-stop-no"), StopCb(game=table.game_no, confirm=False).pack()),
        )
        if table.tutor is not None:
            return buttons, Reply("stop-confirm-tutor")
        return buttons, Reply("stop-confirm-practice" if table.practice else "stop-confirm")

    async def answer_stop(self, chat_id: int, actor: Actor, cb: StopCb, message_id: int) -> Reply:
        """A press on /stop's question (message `message_id`): «no» keeps the
        game, «yes» stops it (`stop`); the question loses its buttons unless
        the press was refused."""
        answered = ClearButtons(chat_id, message_id)
        if not cb.confirm:
            return Reply("stop-kept").and_then(answered)
        reply = await self.stop(chat_id, actor, cb.game)
        return reply.and_then(answered) if reply.key == "stop-done-short" else reply

    async def stop(self, chat_id: int, actor: Actor, game_no: int) -> Reply:
        """/stop's «yes»: game `game_no` ends, if it still runs and `actor`
        may manage it (checked on the record the change saves)."""
        done = await self.records.attempt(
            chat_id, _close, status="playing", game=game_no, manager=actor.user_id
        )
        if isinstance(done, Reply):
            return done
        ended = await self._ended(done)
        notice = Notice("stop-done", ended.table.seat_of(actor.user_id), actor.name)
        told = self.lay_out_end(ended.table, ended.ids, notice)
        return Reply("stop-done-short", effects=(told,))

    async def removed_from_group(self, chat_id: int) -> tuple[Effect, ...]:
        """The bot was removed from the group: what waits for it is dropped;
        its lobby or game ends where it stands (no scores, not rated, the
        timer gone), and everyone seated is told in private, every prompt
        saying the game is over (`lay_out_end`) — the group itself can no
        longer be written to."""
        table = await self.store.load(chat_id)
        dropped = ChatSteps(chat_id, (Discard(),))
        if table is None or table.status == "finished":
            return (dropped,)
        log.info("removed from %s: its game ends", chat_id)
        ended = await self._end(chat_id)
        notice = Notice("stop-removed")
        return (dropped, self.lay_out_end(ended.table, ended.ids, notice, group=False))

    async def _end(self, chat_id: int) -> Changed:
        """A game's end saved: the table finished, its people unlinked; the
        chat's message ids."""
        return await self._ended(await self.records.change(chat_id, _close))

    async def _ended(self, done: Changed) -> Changed:
        """A game just ended: its people are free for another."""
        for user_id in done.table.people:
            await self.store.link_user(user_id, done.table.chat_id, linked=False)
        return done

    def notice_text(self, lang: str, table: Table, notice: Notice) -> str:
        if notice.seat is not None:
            who = self.render.name(lang, table, notice.seat)
        elif notice.name is not None:
            who = self.render.person(lang, notice.name)
        else:
            return self.tr.t(lang, notice.key)
        return self.tr.t(lang, notice.key, player=who)

    def lay_out_end(
        self, table: Table, ids: dict[str, int], notice: Notice, group: bool = True
    ) -> Tell:
        """What a stopped game's people are told, as screens: every prompt
        says the game is over, in place of its question and buttons (the chat
        forgets them); everyone seated, in private, and the group read
        `notice` with the score it stood at — the group unless it cannot be
        written to (`group` False); a practice table's player reads it once,
        in its chat."""

        def told(lang: str) -> str:
            said = self.notice_text(lang, table, notice)
            state = table.state
            if state is None or state.result is None:
                return said
            return said + "\n\n" + self.render.result(table, state, lang, stopped=True)

        private: list[Private] = []
        for key, message_id in ids.items():
            if not key.startswith("prompt:"):
                continue
            seat = table.seats[int(key.split(":")[1])]
            if seat.user_id is not None:
                header = self.render.header(seat.lang, table)
                text = header + "\n" + self.tr.t(seat.lang, "stop-prompt")
                private.append(Closing(seat.user_id, message_id, text))
        if not table.practice:
            private += [
                Note(i, self.render.header(seat.lang, table) + "\n" + told(seat.lang))
                for i, seat in enumerate(table.seats)
                if seat.user_id is not None and not seat.left
            ]
        forget = tuple(key for key in ids if key.startswith(("prompt:", "shown:")))
        steps = (PostText(told(table.lang)),) if group else ()
        return Tell(table, tuple(private), forget, steps)

    # ------------------------------------------------------------------ coming back
    async def _running_seats(self, actor: Actor) -> AsyncIterator[tuple[int, Table, int]]:
        """The running games the person has a seat at (left to the computer
        too), by chat: each chat, its record as read, their seat."""
        for chat_id in sorted(await self.store.user_tables(actor.user_id)):
            table = await self.store.load(chat_id)
            if table is None or table.status != "playing":
                continue
            seat = table.seat_of_person(actor.user_id)
            if seat is not None:
                yield chat_id, table, seat

    async def back(self, actor: Actor) -> Reply:
        """/back: take your seat back from the computer in every running game
        you left or were away from."""
        told: list[Effect] = []
        too_often = False
        too_many: Reply | None = None
        async for chat_id, table, seat in self._running_seats(actor):
            if not (table.seats[seat].away or table.seats[seat].left):
                continue
            if table.seats[seat].left:  # a seat left is a table taken again: within the bound
                refused = await self.lobby.table_limit(actor, chat_id)
                if refused is not None:
                    too_many = refused
                    continue

            def come_back(t: Table, seat: int = seat) -> Moved:
                if t.state is None or t.status != "playing":
                    raise Refusal("err-no-game")
                s = t.seats[seat]
                if not (s.away or s.left):
                    raise Refusal("back-nothing")
                if s.returns >= MAX_RETURNS:  # the log and the group's lines stay bounded
                    raise Refusal("back-too-often")
                s.away = s.left = False
                s.strikes = 0
                s.returns += 1
                events = set_computer(t.state, seat, False)
                self._book_move(t, noted(events), "log-back", seat)
                return Moved([Command(seat=seat, computer=False)], events)

            try:
                done = await self.records.change(chat_id, come_back)
            except Refusal as r:
                too_often = too_often or r.key == "back-too-often"
                continue
            told.append(self.teller.lay_out(done.table, done.ids))
        if told:
            # «you are back» follows what it brought back (the prompt, the table)
            return Reply("back-done", before=tuple(told))
        if too_many is not None:
            return too_many
        return Reply("back-too-often" if too_often else "back-nothing")

    # ------------------------------------------------------------------ going away
    async def away(self, actor: Actor) -> Reply:
        """/away: someone who will be away hands their seat to the computer in
        every running game they play, until they come back (/back, or the
        button under this answer) — at own pace their turns then go on
        instead of waiting out a day each."""
        told: list[Effect] = []
        async for chat_id, table, seat in self._running_seats(actor):
            if table.seats[seat].away or table.seats[seat].left:
                continue

            def go_away(t: Table, seat: int = seat) -> Moved:
                if t.state is None or t.status != "playing":
                    raise Refusal("err-no-game")
                s = t.seats[seat]
                if s.away or s.left:
                    raise Refusal("away-nothing")
                s.away = True
                events = set_computer(t.state, seat, True)
                self._book_move(t, noted(events), "log-away", seat)
                return Moved([Command(seat=seat, computer=True)], events)

            try:
                done = await self.records.change(chat_id, go_away)
            except Refusal:
                continue
            told.append(self.teller.lay_out(done.table, done.ids))
        if not told:
            return Reply("away-nothing")
        # in private, whichever chat it was said in: a press of its button brings them back
        prefs = await self.store.user(actor.user_id)
        lang = self.defaults.person_lang(prefs, actor.lang_code)
        back = Button(self.tr.t(lang, "btn-im-back"), data=BackCb(user=actor.user_id).pack())
        note = ToPerson(actor.user_id, self.tr.t(lang, "away-done"), keyboard([back]), quiet=True)
        return Reply("ok", effects=(*told, note))

    async def back_button(self, actor: Actor, pressed: BackCb) -> Reply:
        """«🙋 Я вернулся»: /back, for the person whose button it is only."""
        if pressed.user != actor.user_id:
            return Reply("err-bad-button", alert=True)
        return await self.back(actor)

    # ------------------------------------------------------------------ the chat and the person
    async def migrate(self, old_chat_id: int, new_chat_id: int) -> tuple[Effect, ...]:
        """The group became a supergroup: its game and its home (settings,
        ratings, history) follow it."""
        moved = await self._migrate_game(old_chat_id, new_chat_id)
        await self.store.migrate_home(old_chat_id, new_chat_id)
        return moved

    async def _migrate_game(self, old_chat_id: int, new_chat_id: int) -> tuple[Effect, ...]:
        """What waited for the old chat is dropped; the pending prompt is sent
        again with buttons that name the new chat (the old prompt's buttons
        name the old one: it points to the new one), and kept as the seat's."""
        if not await self.store.migrate(old_chat_id, new_chat_id):
            return ()
        dropped = ChatSteps(old_chat_id, (Discard(),))
        log.info("game moved from %s to %s", old_chat_id, new_chat_id)
        table, ids = await self.store.load_with_messages(new_chat_id)
        if table is None or table.status != "playing" or table.state is None:
            return (dropped,)
        decision = pending(table.state)
        if decision is None or table.state.players[decision.seat].computer:
            return (dropped,)
        prompt = self.teller.prompt(table, decision, ids)
        return (dropped,) if prompt is None else (dropped, Tell(table, (prompt,)))

    async def set_lang(self, actor: Actor, lang: Lang) -> Reply:
        """/lang: the user's private language, now and in the games they sit in."""
        prefs = await self.store.user(actor.user_id)
        prefs.lang = lang
        await self.store.save_user(prefs)

        def relang(t: Table) -> list[Command]:
            seat = t.seat_of_person(actor.user_id)
            if seat is not None:
                t.seats[seat].lang = lang
            return []

        for chat_id in await self.store.user_tables(actor.user_id):
            try:
                await self.records.change(chat_id, relang)
            except (Refusal, Conflict):
                log.info(
                    "could not set the language of %s in %s", logs.person(actor.user_id), chat_id
                )
        return Reply("lang-set", lang=lang)
