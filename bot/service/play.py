"""Play: prompt buttons, answers, and the timers (reminders, timeouts, computer
seats). Each returns what is to be told as effects (`bot.service.outcome`):
a press's through the courier, a timer's through the ticker."""

from __future__ import annotations

import logging

from bot.ops import logs, metrics
from bot.service import journal
from bot.service.base import Actor, Changed, Defaults, Moved, Records, Refusal, Reply, noted
from bot.service.bookkeeping import (
    ANNOUNCE_GRACE,
    book_move,
    clear_timer,
    next_reminder,
    set_deadline,
    time_given_back,
)
from bot.service.outcome import CatchUp, Edit, Effect, Note, Private, StaleButtons, Tell
from bot.service.telling import Teller
from bot.service.thinking import Thinker
from bot.store.models import Table
from bot.words.i18n import Translator
from bot.words.keyboards import DetailsCb, HintCb, PromptCb, menu_level
from bot.words.render import Renderer
from engine import Command, Decision, Event, GameState, Refused, apply, pending, set_computer

log = logging.getLogger(__name__)

STRIKES_TO_AWAY = 3
#: a hint's text by whose move it gives: strong's, or normal's when strong ran out of time
HINT_TEXT = {"strong": "hint-strong", "normal": "hint-normal"}
#: characters Telegram shows of a press's alert
ALERT_MAX = 200


class Play:
    """Answering decisions: by button, by timer, for computer seats."""

    def __init__(
        self,
        records: Records,
        teller: Teller,
        render: Renderer,
        tr: Translator,
        thinker: Thinker,
        defaults: Defaults,
    ) -> None:
        self.records = records
        self.thinker = thinker
        self.store = records.store
        self.clock = records.clock
        self.teller = teller
        self.prompts = teller.prompts
        self.defaults = defaults
        self.render = render
        self.tr = tr

    async def _seated(
        self, actor: Actor, chat: int, game: int
    ) -> tuple[Table, dict[str, int], GameState, int] | Reply:
        """The running game a prompt's button belongs to, and the presser's seat in it
        — or why the press is refused."""
        table, ids = await self.store.load_with_messages(chat)
        if table is None or table.game_no != game or table.status != "playing":
            return Reply("err-old-game", alert=True)
        state = table.state
        assert state is not None
        seat = table.seat_of(actor.user_id)
        if seat is None:
            return Reply("err-not-seated", alert=True)
        return table, ids, state, seat

    async def press(self, actor: Actor, cb: PromptCb, message_id: int) -> Reply:
        """A prompt button in a private chat: open a menu level, or answer."""
        found = await self._decision_of(actor, cb.chat, cb.game, cb.decision, cb.option, message_id)
        if isinstance(found, Reply):
            return found
        table, ids, seat, decision = found
        if cb.depth < 0:
            return Reply("err-bad-button", alert=True)
        state = table.state
        assert state is not None
        depth, firsts = menu_level(decision.options, cb.option, cb.depth)
        lang = table.seats[seat].lang
        if firsts:
            path = decision.options[cb.option][:depth]
            text = self.prompts.text(lang, table, state, decision, path)
            markup = self.prompts.markup(lang, table, state, decision, cb.option, depth)
            # the press is answered first
            return Reply("ok", effects=(Edit(actor.user_id, message_id, text, markup),))
        option = decision.options[cb.option]
        # the pressed message is the prompt answered, also when its id was never
        # kept (the process that sent it died before it could keep it)
        ids = {**ids, f"prompt:{seat}": message_id}
        return await self.answer(
            table.chat_id, seat, decision.id, option, human=True, loaded=(table, ids)
        )

    async def details(self, actor: Actor, cb: DetailsCb, message_id: int) -> Reply:
        """«Подробнее» under a practice game's prompt: the same prompt, at the
        same menu level, with the computers' turns it sums up in full lines
        (`cb.full`), or a line each again. Only on the live prompt."""
        found = await self._decision_of(actor, cb.chat, cb.game, cb.decision, cb.option, message_id)
        if isinstance(found, Reply):
            return found
        table, ids, seat, decision = found
        state = table.state
        assert state is not None
        lang = table.seats[seat].lang
        summed = self.prompts.recaps.details(lang, table, state, seat)
        if not table.practice or summed is None or cb.depth < 0:
            return Reply("err-bad-button", alert=True)
        if ids.get(f"prompt:{seat}") != message_id:
            return Reply("err-old-button", alert=True)  # a message the prompt has left
        depth, _ = menu_level(decision.options, cb.option, cb.depth)
        path = decision.options[cb.option][:depth]
        text = self.prompts.text(lang, table, state, decision, path, full=cb.full)
        markup = self.prompts.markup(lang, table, state, decision, cb.option, cb.depth, cb.full)
        # the press is answered first
        return Reply("ok", effects=(Edit(actor.user_id, message_id, text, markup),))

    async def choose(
        self, actor: Actor, chat_id: int, game_no: int, decision_id: int, option: int
    ) -> Reply:
        """An answer from the Mini App: what pressing the prompt's button that
        names the whole option does — the same checks and refusals, the same
        save, and the prompt kept in the chat shows the choice."""
        found = await self._decision_of(actor, chat_id, game_no, decision_id, option)
        if isinstance(found, Reply):
            return found
        table, ids, seat, decision = found
        return await self.answer(
            table.chat_id,
            seat,
            decision.id,
            decision.options[option],
            human=True,
            loaded=(table, ids),
        )

    async def _decision_of(
        self,
        actor: Actor,
        chat_id: int,
        game_no: int,
        decision_id: int,
        option: int,
        message_id: int | None = None,
    ) -> Reply | tuple[Table, dict[str, int], int, Decision]:
        """The chat's record, its message ids, the actor's seat and the pending
        decision that `option` answers — or the Reply that refuses it (an old
        game or decision, someone else's turn, an option not offered).
        `message_id`: the prompt pressed (none from the Mini App)."""
        found = await self._seated(actor, chat_id, game_no)
        if isinstance(found, Reply):
            return found
        table, ids, state, seat = found
        decision = pending(state)
        if decision is None or decision.id != decision_id:
            if table.adrift:
                # saved last under another Redis primary: the button may be
                # of a move told and then taken back — never told from a
                # forged one by the button itself, so the record's primary says
                rejoined = await self._rejoined(table, ids)
                if rejoined is not None:
                    resent: tuple[Effect, ...] = ()
                    if message_id is not None and message_id not in rejoined.ids.values():
                        # a prompt the rolled-back ids never knew: its buttons go too
                        resent += (StaleButtons(actor.user_id, message_id),)
                    resent += self._caught_up(rejoined.table, rejoined.ids, lost=True)
                    # the alert says the prompt came again: it comes first
                    return Reply("prompt-resent", alert=True, before=resent)
            caught_up = self._caught_up(table, ids)
            if caught_up:
                return Reply("prompt-resent", alert=True, before=caught_up)
            return Reply("err-old-button", alert=True)
        if decision.seat != seat:
            return Reply("err-not-your-turn", alert=True)
        if not 0 <= option < len(decision.options):
            return Reply("err-bad-button", alert=True)
        return table, ids, seat, decision

    async def answer(
        self,
        chat_id: int,
        seat: int,
        decision_id: int,
        option: tuple[str, ...],
        human: bool,
        loaded: tuple[Table, dict[str, int]] | None = None,
    ) -> Reply:
        """Answer the pending decision; the Reply's effect tells everyone."""

        def act(t: Table) -> Moved:
            state = t.state
            if t.status != "playing" or state is None:
                raise Refusal("err-old-game")
            decision = pending(state)
            if decision is None:
                raise Refusal("err-old-button")
            try:
                got = apply(state, seat, decision_id, option)
            except Refused as r:
                raise Refusal(f"err-{r.reason.replace('_', '-')}") from None
            if human:
                t.seats[seat].strikes = 0
            answered = (decision, option, False)
            book_move(t, got, self.clock.now(), self.defaults, answered=answered)
            return Moved([Command(seat=seat, decision=decision_id, option=option)], got, answered)

        done = await self.records.attempt(chat_id, act, loaded)
        if isinstance(done, Reply):
            return done
        return Reply("ok", effects=(self.teller.lay_out(done.table, done.ids, done.answered),))

    async def hint(self, actor: Actor, cb: HintCb) -> Reply:
        """«💡 Подсказка»: what the strong level would choose (the normal level's
        choice when strong runs out of time), and the concrete gain behind it, in
        an alert — only for the asker's own pending decision, from what their seat
        sees. In a rated game the seat's hints are counted (once a decision) and
        shown in the result."""
        found = await self._seated(actor, cb.chat, cb.game)
        if isinstance(found, Reply):
            return found
        table, _, state, seat = found
        decision = pending(state)
        if not table.hints:
            return Reply("err-bad-button", alert=True)
        if decision is None or decision.id != cb.decision:
            return Reply("err-old-button", alert=True)
        if decision.seat != seat:
            return Reply("err-not-your-turn", alert=True)
        advice = await self.thinker.hint(state, decision)
        lang = table.seats[seat].lang
        choice = self.prompts.asked(lang, table, state, decision, advice.option)
        reason = self.tr.t(lang, f"hint-reason-{advice.reason.replace('_', '-')}", **advice.params)
        text = self.tr.t(lang, HINT_TEXT[advice.level], choice=choice, reason=reason)
        if len(text) > ALERT_MAX:  # long names: the move is cut short, never its reason
            cut = max(1, len(choice) - (len(text) - ALERT_MAX) - 1)
            text = self.tr.t(
                lang, HINT_TEXT[advice.level], choice=choice[:cut] + "…", reason=reason
            )
        if not table.practice and table.seats[seat].hinted != decision.id:

            def count(t: Table) -> list[Command]:
                if t.status != "playing":
                    raise Refusal("err-old-game")
                if t.seats[seat].hinted != decision.id:
                    t.seats[seat].hints += 1
                    t.seats[seat].hinted = decision.id
                return []

            done = await self.records.attempt(table.chat_id, count, game=cb.game)
            if isinstance(done, Reply):
                return done
        return Reply("ok", alert=True, text=text)

    # ------------------------------------------------------------------ timers
    async def on_timer(self, chat_id: int) -> tuple[Effect, ...]:
        """The chat's timer is due: remind, or answer for a computer seat or an
        absent player. Returns what is told (the ticker carries it out)."""
        table, ids = await self.store.load_with_messages(chat_id)
        if table is None:
            return ()
        now = self.clock.now()
        due = table.next_timer()
        if due is not None and now >= due:
            metrics.timer_fired(now - due)
        state = table.state
        decision = pending(state) if state is not None and table.status == "playing" else None
        if decision is None:
            if table.status == "finished" and table.result_untold:
                # the game ended, and the process that ended it died before
                # its result was posted: this one posts it (once: whoever
                # marks it told first, `Sender.finish`)
                log.warning("chat %s: the result was never posted; offering it", chat_id)
                return (Tell(table, finish=True),)
            if table.deadline is not None or table.reminder is not None:
                await self.records.change(chat_id, self._cleared)
            return ()
        assert state is not None
        if table.adrift and not state.players[decision.seat].computer:
            # saved last under another Redis primary: its player may have
            # been told of an answer since taken back, their prompt without
            # buttons — it is sent again, with time to answer it (the reminder
            # and the timeout alike: neither plays for a person left so). First:
            # a save of anything else (the timer set anew) would end the drift
            # with the prompt still without buttons
            rejoined = await self._rejoined(table, ids)
            if rejoined is None:
                return ()
            told = self._caught_up(rejoined.table, rejoined.ids, lost=True)
            if rejoined.table.deadline is not None:  # (no clock: no time to tell)
                told += self._remind(rejoined.table, decision)
            return told
        if table.deadline_decision != decision.id:
            await self.records.change(chat_id, self._retimed)
            return ()
        if (
            table.reminder is not None
            and now >= table.reminder
            and (table.deadline is None or now < table.deadline)
        ):
            due_at = table.reminder
            try:
                await self.records.change(chat_id, lambda t: self._reminded(t, decision.id, due_at))
            except Refusal:
                return ()  # another process reminded first, or the decision was answered
            # a prompt that never arrived comes first
            return self._caught_up(table, ids) + self._remind(table, decision)
        if table.deadline is None or now < table.deadline:
            return ()
        return await self._time_out(table, decision)

    async def on_check(self, chat_id: int) -> tuple[Effect, ...]:
        """A save is looked at some seconds after it (`Table.telling_checked_at`):
        a prompt its process never sent — killed between the save and the
        telling, or told «не сохранено» by a store that could not vouch for a
        save that stood after all — is sent now, by whoever looks first."""
        table, ids = await self.store.load_with_messages(chat_id)
        if table is None or table.adrift:  # (adrift: its timer catches it up, `on_timer`)
            return ()
        return self._caught_up(table, ids)

    def owed(self, table: Table, ids: dict[str, int], lost: bool = False) -> Decision | None:
        """The pending decision whose prompt its player never got — the move
        before it was saved but not told (the process died, Redis's answer
        to the save was lost, Telegram kept failing); None when none is owed.
        Not while the move is fresh: the process that made it may still be
        telling it. `lost`: moves already told may have been taken back
        (Redis rolled the record back, with the chat's message ids, which
        then say this prompt is shown though the answer's edit took its
        buttons): it is owed whatever they say."""
        state = table.state
        decision = pending(state) if state is not None and table.status == "playing" else None
        if decision is None or state is None or state.players[decision.seat].computer:
            return None
        if not lost and ids.get(f"shown:{decision.seat}") == decision.id:
            return None
        if not lost and self.clock.now() - table.updated_at < ANNOUNCE_GRACE:
            return None
        log.info(
            "chat %s: the prompt of decision %s was never shown",
            logs.chat(table.chat_id),
            decision.id,
        )
        return decision

    def _caught_up(
        self, table: Table, ids: dict[str, int], lost: bool = False
    ) -> tuple[Effect, ...]:
        """The prompt owed (see `owed`) sent anew, as an effect (none: none owed)."""
        decision = self.owed(table, ids, lost)
        return () if decision is None else (CatchUp(table, ids, decision),)

    async def _rejoined(self, table: Table, ids: dict[str, int]) -> Changed | None:
        """An adrift record (`Table.adrift`) saved under this primary: its next
        version passes any the lost saves gave out (the store's save jumps
        it), so no version number stands for two states, and it is adrift no
        more — caught up once, by whoever saves it first (None: another
        update or process did, or the game moved on). Its pending decision
        gets its time back (`time_given_back`)."""

        def rejoin(t: Table) -> list[Command]:
            if not t.adrift:
                raise Refusal("err-old-button")
            time_given_back(t, self.clock.now())
            return []

        try:
            return await self.records.change(table.chat_id, rejoin, (table, ids))
        except Refusal:
            return None

    def _cleared(self, t: Table) -> list[Command]:
        clear_timer(t)
        return []

    def _retimed(self, t: Table) -> list[Command]:
        set_deadline(t, self.clock.now(), self.defaults)
        return []

    def _reminded(self, t: Table, decision_id: int, due_at: float) -> list[Command]:
        if t.reminder != due_at or t.deadline_decision != decision_id:
            raise Refusal("err-old-button")
        next_reminder(t)
        return []

    async def _time_out(self, table: Table, decision: Decision) -> tuple[Effect, ...]:
        state = table.state
        assert state is not None
        seat = decision.seat
        computer = state.players[seat].computer
        # a computer seat plays at its level; a person whose time ran out gets
        # a sensible move (normal), not a random one
        level = table.seats[seat].computer_level() if computer else "normal"
        # a person's deadline never waits for the computers' searches
        option = await self.thinker.decide(state, decision, level, urgent=not computer)

        def act(t: Table) -> Moved:
            st = t.state
            if st is None or t.status != "playing":
                raise Refusal("err-old-game")
            now_pending = pending(st)
            if now_pending is None or now_pending.id != decision.id:
                raise Refusal("err-old-button")  # someone answered meanwhile
            if t.deadline is None or self.clock.now() < t.deadline:
                raise Refusal("err-old-button")
            commands = []
            notes: list[Event] = []
            got: list[Event] = []
            if not computer:
                s = t.seats[seat]
                s.strikes += 1
                notes.append(journal.note("log-timeout", seat))
                if s.strikes >= STRIKES_TO_AWAY:
                    s.away = True
                    got += set_computer(st, seat, True)
                    commands.append(Command(seat=seat, computer=True))
                    notes.append(journal.note("log-away", seat))
            got += apply(st, seat, decision.id, option)
            commands.append(Command(seat=seat, decision=decision.id, option=option))
            # a person's prompt shows what the timer chose (a computer seat has
            # none); an away seat: its note says it
            answered = None if computer else (decision, option, True)
            book_move(
                t,
                noted(got),
                self.clock.now(),
                self.defaults,
                notes,
                answered=answered,
            )
            return Moved(commands, got)

        try:
            done = await self.records.change(table.chat_id, act)
        except Refusal:
            return ()
        metrics.computer_moved("computer" if computer else "timeout")
        return (self.teller.lay_out(done.table, done.ids, answered=(decision, option, True)),)

    def _remind(self, table: Table, decision: Decision) -> tuple[Effect, ...]:
        """The reminder to `decision`'s player: how long they have left."""
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return ()
        lang = seat.lang
        left = max(0, round((table.deadline or 0) - self.clock.now()))
        if table.own_pace:  # rings: a game of days is not watched (never in quiet hours)
            hours, minutes = divmod(round(left / 60), 60)
            text = self.tr.t(lang, "remind-own", hours=hours, minutes=minutes)
            head = self.render.header(lang, table)
            return (Tell(table, (Note(decision.seat, head + "\n" + text, ring=True),)),)
        text = self.render.header(lang, table) + "\n" + self.tr.t(lang, "remind", seconds=left)
        return (Tell(table, (Note(decision.seat, text),)),)

    # ------------------------------------------------------------------ /hand
    async def resend(self, actor: Actor, chat: int | None = None) -> Reply:
        """/hand in the private chat: the hand and any pending prompt of every game
        (the prompt anew: the one sent before loses its buttons) — of chat
        `chat`'s game only, when given (/games, /hand's question)."""
        chats = await self.store.user_tables(actor.user_id)
        told: list[Tell] = []
        for chat_id in sorted(chats if chat is None else chats & {chat}):
            table, ids = await self.store.load_with_messages(chat_id)
            if table is None or table.status != "playing" or table.state is None:
                continue
            seat = table.seat_of(actor.user_id)
            if seat is None:
                continue
            # reachable again: a later block is told to the group again
            unreachable = f"unreachable:{actor.user_id}"
            forget = (unreachable,) if unreachable in ids else ()
            decision = pending(table.state)
            screen: Private | None
            if decision is not None and decision.seat == seat:
                screen = self.teller.prompt(table, decision, ids)
            else:
                lang = table.seats[seat].lang
                app = self.teller.app
                screen = Note(
                    seat,
                    self.render.header(lang, table) + "\n" + self.teller.hand_text(table, seat),
                    None if app is None else app.markup(self.tr, lang, chat_id),
                )
            if screen is not None:
                told.append(Tell(table, (screen,), forget))
        return Reply("ok" if told else "err-no-games", effects=tuple(told))
