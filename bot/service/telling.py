"""Telling: what a saved change is told as — each person's private screens
(the prompts closed, the next prompt, hands and notices) and the group's
steps (the table shown or sent anew, the turn's lines closed) — laid out as
plain data (`bot.service.outcome`): a `Tell`. What a change leaves in the
record (the turn's log, each person's story, the timer) is bookkeeping
(`bot.service.bookkeeping`), done before the save.

A command lays out what it tells here (`Teller.lay_out`, `Teller.prompt`)
and returns it as an effect; the sending side (`bot.telling`: the carrier
hands a `Tell` to `Sender.deliver`) sends it, whoever made it — a press, the
Mini App, a timer. Nothing here sends.

The group's table and turn lines go without a sound: only the lobby, the
start and the result ring. In private only a prompt rings, and only when its
person is newly asked — their turn starts, or someone else's move (a
computer's, a timer's) asks them to choose; the hand at the start, /hand's
answer, a reminder, a prompt sent anew while they go on choosing, a stopped
game's notice go without a sound. A game at own pace (`bot.service.clocks`)
rings its reminders too, and nothing in its person's quiet hours; its group
gets its table anew at most once a day (`Table.day_new`), edited between."""

from __future__ import annotations

from bot.service.clocks import in_quiet
from bot.service.outcome import (
    Answered,
    CloseTurn,
    Closing,
    GroupStep,
    LogText,
    Note,
    Private,
    Prompt,
    RepostView,
    ShowView,
    Tell,
)
from bot.service.pictures import Pictures
from bot.service.views import TABLE
from bot.store.models import Lang, Table
from bot.words.prompts import Prompts, shown_path
from bot.words.screen import MAX_TEXT
from engine import Decision, pending


class Teller:
    """What a saved change is told as, laid out as screens (nothing sent here:
    see the module's notes)."""

    def __init__(self, prompts: Prompts, pictures: Pictures | None = None) -> None:
        self.prompts = prompts
        self.render = prompts.render
        self.tr = prompts.tr
        self.app = prompts.app  # the Mini App (None: no app buttons or links)
        # the result's picture for a group, `/table фото` (None: text only)
        self.pictures = pictures

    # ================================================================== telling a move
    def lay_out(
        self,
        table: Table,
        ids: dict[str, int],
        answered: Answered | None = None,
        new_game_started: bool = False,
    ) -> Tell:
        """What everyone is told of a saved change, as screens. In private: a
        prompt message the move closed gets its last lines and loses its
        buttons; the next decider's prompt edits their message in place when
        they answered the last decision too, else goes out as a new message;
        a new game's people get their hands. The group: the turn's lines go
        into the table message, edited in place; a turn that ends gets its
        last lines, and the new turn a new message (see the module's notes)."""
        state = table.state
        assert state is not None
        private: list[Private] = []
        forget: list[str] = []

        # ---- prompt messages the move closed: their story, no buttons
        for i, seat in enumerate(table.seats):
            key = f"prompt:{i}"
            if seat.closed is not None and seat.user_id is not None and key in ids:
                lines = self.prompts.recaps.closing(seat.lang, table, state, i) or []
                text = self.prompts.closed(seat.lang, table, lines)
                private.append(Closing(seat.user_id, ids[key], text))
                forget += [key, f"shown:{i}"]

        # ---- the next prompt: the same message when its player goes on choosing
        upcoming = pending(state)
        prompted = (
            upcoming.seat
            if upcoming is not None
            and state.result is None
            and not state.players[upcoming.seat].computer
            and table.seats[upcoming.seat].user_id is not None
            else None
        )
        if upcoming is not None and prompted is not None:
            key = f"prompt:{prompted}"
            seat = table.seats[prompted]
            prompt: Prompt | None = None
            if ids.get(f"shown:{prompted}") == upcoming.id and key in ids:
                pass  # someone else's /back or leaving changes nobody's decision
            elif (
                answered is not None
                and answered[0].seat == prompted
                and seat.closed is None
                and key in ids
            ):
                prompt = self.prompt(table, upcoming, ids, edit=ids[key])
            else:
                # a turn starts, or someone else's move asks them (a new
                # message after their own /back: they are here already)
                ring = new_game_started or answered is not None
                if table.own_pace and in_quiet(seat.quiet, table.updated_at):
                    ring = False  # their quiet hours: a reminder rings at their end
                prompt = self.prompt(table, upcoming, ids, ring=ring, closed=forget)
            if prompt is not None:
                private.append(prompt)

        # ---- a new game: everyone gets their hand (the first decider's prompt
        # shows it), and who moves first: the bot writes again on their turn
        if new_game_started:
            for i, seat in enumerate(table.seats):
                if seat.user_id is not None and not seat.left and i != prompted:
                    header = self.render.header(seat.lang, table)
                    first = self.tr.t(
                        seat.lang,
                        "game-first-turn",
                        player=self.render.name(seat.lang, table, state.current),
                    )
                    text = "\n".join([header, first, "", self.hand_text(table, i)])
                    private.append(Note(i, text))

        # ---- the group
        group: list[GroupStep] = []
        if new_game_started:
            if not table.practice:
                group.append(RepostView(TABLE, ring=True))
        elif (closed := self.render.closed_lines(table, state)) is not None:
            group += [CloseTurn(TABLE, tuple(closed)), RepostView(TABLE)]
        elif table.day_new:  # at own pace, a day on: the table anew, silently
            group.append(RepostView(TABLE))
        else:
            group.append(ShowView(TABLE))
        return Tell(
            table,
            tuple(private),
            tuple(forget),
            tuple(group),
            view_first=TABLE if table.practice and new_game_started else None,
            finish=state.result is not None,
        )

    def prompt(
        self,
        table: Table,
        decision: Decision,
        ids: dict[str, int],
        ring: bool = False,
        edit: int | None = None,
        closed: list[str] | tuple[str, ...] = (),
    ) -> Prompt | None:
        """The screen of `decision`'s prompt, under its player's story (None:
        the seat has no person). Sent as a new message (not `edit`), it
        replaces the seat's older prompt in `ids` — unless this change closed
        that one already (`closed`): its question and buttons go and it
        points to the new one below, never a question left standing with
        nothing to answer it."""
        assert table.state is not None
        seat = table.seats[decision.seat]
        if seat.user_id is None:
            return None
        lang = seat.lang
        path = shown_path(decision, 0, 0)
        text = self.prompts.text(lang, table, table.state, decision, path)
        markup = self.prompts.markup(lang, table, table.state, decision, 0, 0)
        key = f"prompt:{decision.seat}"
        old = ids.get(key)
        replaces = None
        if edit is None and old is not None and key not in closed:
            recap = self.prompts.recaps.open_lines(lang, table, table.state, decision.seat)
            moved = [*recap, self.tr.t(lang, "prompt-moved")]
            replaces = Closing(seat.user_id, old, self.prompts.closed(lang, table, moved))
        return Prompt(decision.seat, decision.id, text, markup, ring, edit, replaces)

    # ================================================================== the group's log
    def closed_turn_text(self, table: Table, lines: list[str]) -> str:
        return self.log_text(table.lang)(lines)[0]

    def log_text(self, lang: Lang) -> LogText:
        """Closed turns' lines as one message's text: all of them when they fit
        Telegram's 4096 characters; else the latest that fit, under a line
        that says how many earlier ones were left out (never cut mid-line)."""

        def text(lines: list[str]) -> tuple[str, bool]:
            if not lines:
                return self.tr.t(lang, "log-empty-turn"), True
            whole = "\n".join(lines)
            if len(whole) <= MAX_TEXT:
                return whole, True
            room = MAX_TEXT - len(self.tr.t(lang, "log-skipped", count=len(lines))) - 1
            kept: list[str] = []
            for line in reversed(lines):
                room -= len(line) + 1
                if room < 0:
                    break
                kept.append(line)
            summary = self.tr.t(lang, "log-skipped", count=len(lines) - len(kept))
            return "\n".join([summary, *reversed(kept)]), False

        return text

    # ================================================================== private chats
    def hand_text(self, table: Table, seat: int) -> str:
        assert table.state is not None
        return self.render.hand(table.seats[seat].lang, table, table.state, seat)
