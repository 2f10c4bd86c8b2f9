"""Record bookkeeping: what a change leaves in a chat's record — what is
still to be told (the journal, `bot.service.journal`, and each reader's place
in it), the game's end, the timer. Plain functions on a `Table`, no I/O and
no words: they run inside the compare-and-set change (`Records.change`), so
all of it is saved at once, and telling (`bot.service.telling`) draws the
screens from it once the save succeeded.

A quiet chat: a person gets a new private message (which rings) only when
their turn starts or someone else's move needs their choice. Their next
decisions in a row edit that message in place; once someone else is asked,
it is closed (its recap stays: what they chose and what came of it). What
they are told while they wait (what was taken from them, by whom and how; in
a practice game, everything the computers did: a line a turn, the full lines
behind its «Подробнее») heads their next message."""

from __future__ import annotations

from bot.service import clocks, journal, lessons
from bot.service.base import Defaults
from bot.service.outcome import Answered
from bot.store.models import Table
from bot.words import reasons
from bot.words.prompts import choice_depths
from bot.words.render import Renderer
from engine import Decision, Event, GameState, pending

#: logged entries of the running turn(s) a group's table message tells before
#: it is closed and the table goes on in a new one (a practice game's table,
#: never closed mid-game, tells only the latest)
KEPT_LOG_LINES = 60
# how long after a move its process may still be telling it; a prompt still
# missing after that was lost (prompts go out at once, before the group's pace)
ANNOUNCE_GRACE = 5.0


def clear_timer(t: Table) -> None:
    t.deadline = t.reminder = t.deadline_decision = None
    t.later_reminders = []


def book_move(
    t: Table,
    events: list[Event],
    now: float,
    defaults: Defaults,
    notes: list[Event] | None = None,
    handed: int | None = None,
    answered: Answered | None = None,
) -> None:
    """Books a move in the record, before the save: the
    journal and each reader's place in it, the game's end, the timer (set at
    `now`). `notes`: the bot's lines for the group's log (`journal.note`),
    before the move's; `handed`: the seat just handed to the computer or back
    to its player; `answered`: the decision the move answered."""
    state = t.state
    assert state is not None
    notes = notes or []
    events = journal.with_causes(state, events)
    answer_at = t.log_end()
    if answered is not None:
        decision, option, by_timer = answered
        depths = choice_depths(decision, option)
        t.add([journal.answer(decision, option, by_timer, depths)])
    t.add(notes)
    first = t.log_end()  # where the move's own events begin
    t.add(events)
    _close_turn(t, state, events, first, now)
    if state.result is not None:
        t.status = "finished"
        t.result_untold = True
    tell_seats(t, state, events, first, answered, answer_at)
    lessons.note(t, state, events)  # a tutor game's sentences
    reasons.note(t)  # which «ℹ️» reasons the next turn prompt tells
    journal.trim(t)
    set_deadline(t, now, defaults, handed)


def _close_turn(t: Table, state: GameState, events: list[Event], first: int, now: float) -> None:
    """Where the group's table message stands: a person's turn beginning
    closes it (its lines go for good, a new table message follows); computer
    turns go on in the same message, so a table of computers does not flood
    the group (a practice game keeps one table above its prompts, in the
    same chat; a game at own pace, one a day: `_own_pace_day`)."""
    starts = [i for i, e in enumerate(events) if e.key == "turn.start" and e.to is None]
    t.turn_closed = None
    t.day_new = False
    if t.practice:
        _keep_latest(t)
        return
    if t.own_pace and state.result is None:
        _own_pace_day(t, state, first + starts[-1] if starts else None, now)
        return
    if starts and not state.players[state.current].computer:
        cut = first + starts[-1]
        t.turn_closed, t.turn_at = (t.turn_at, cut), cut
    elif state.result is not None:
        # the last turn keeps its whole log (the table shows what fits a
        # phone), then the final table and the result follow
        t.turn_closed, t.turn_at = (t.turn_at, t.log_end()), t.log_end()
    elif _logged(t.entries(t.turn_at)) > KEPT_LOG_LINES:
        # a long run of computer turns: the table message keeps its lines
        # for good (from the computer turn that began here, the table goes
        # on in a new one) — the table shows only the last few, and a group
        # behind its pace may never have been shown the oldest (a timeout's
        # line, say): the closed message is where it reads them
        cut = first + starts[-1] if starts else t.log_end()
        t.turn_closed, t.turn_at = (t.turn_at, cut), cut


def _own_pace_day(t: Table, state: GameState, started: int | None, now: float) -> None:
    """A game at own pace tells the group in one table message a day, edited
    in place as the game goes (its latest lines: `_keep_latest`). A person's
    turn beginning a day or more after that message was posted sends the
    table anew, silently (`Table.day_new`): it begins with what happened
    since the last one was posted, and says whose turn it is. The day's
    first message is the game's start (`posted_at` set by its first move)."""
    if t.posted_at == 0.0:
        t.posted_at, t.day_at = now, t.turn_at
    if (
        started is not None
        and not state.players[state.current].computer
        and now - t.posted_at >= clocks.DAY
    ):
        t.day_new, t.posted_at = True, now
        t.turn_at, t.day_at = max(t.turn_at, t.day_at), started
    _keep_latest(t)


def _keep_latest(t: Table) -> None:
    """A practice game's table (or an own-pace game's) tells at most the
    latest `KEPT_LOG_LINES` lines."""
    lines = [pos for pos, entry in t.positioned(t.turn_at) if _line(entry)]
    if len(lines) > KEPT_LOG_LINES:
        t.turn_at = lines[-KEPT_LOG_LINES]


def _line(entry: Event) -> bool:
    return entry.key == journal.NOTE or Renderer.logged(entry)


def _logged(entries: list[Event]) -> int:
    """How many lines the group's log has for `entries`."""
    return sum(1 for e in entries if _line(e))


def tell_seats(
    t: Table,
    state: GameState,
    events: list[Event],
    first: int,
    answered: Answered | None,
    answer_at: int,
) -> None:
    """Each person's place in the journal (see the module's notes and
    `bot.store.models.Seat`): the prompt message the move closed, the one it
    goes on in, the one it opens."""
    upcoming = pending(state) if t.status == "playing" else None
    prompted = (
        upcoming.seat
        if upcoming is not None and not state.players[upcoming.seat].computer
        else None
    )
    answerer = answered[0].seat if answered is not None else None
    # the answer's message tells the move up to the turn's end; what comes
    # after (the next turns, forced moves and all; why a turn starts again)
    # is news, heading its reader's next message
    cut = next((i for i, e in enumerate(events) if e.key == "turn.start"), len(events))
    if 0 < cut < len(events) and events[cut - 1].key == "turn.restart":
        cut -= 1
    now = t.log_end()
    for i, seat in enumerate(t.seats):
        seat.closed = None
        if seat.user_id is None or seat.left:
            # nobody to tell (a computer plays it): a person back tells from here
            seat.asked, seat.opened_at = None, None
            seat.fresh_to = seat.news_at = now
            continue
        if answered is not None and i == answerer:
            if seat.opened_at is None:  # answered with no message open: it begins here
                seat.opened_at = seat.fresh_to = answer_at
            if i == prompted and cut == len(events):  # asked again: the same message
                seat.news_at = now
                seat.asked = upcoming.id if upcoming is not None else None
                continue
            seat.closed = (seat.opened_at, seat.fresh_to, first + cut)
            seat.opened_at, seat.asked = None, None
            seat.news_at = first + cut
        if i == prompted and upcoming is not None and seat.asked != upcoming.id:
            # a new message: what they were told meanwhile heads it (in a
            # practice game, a line a turn: the full lines a tap away)
            seat.opened_at, seat.fresh_to, seat.news_at = seat.news_at, now, now
            seat.asked = upcoming.id


def set_deadline(t: Table, now: float, defaults: Defaults, handed: int | None = None) -> None:
    """The timer of the pending decision (set at `now`): the chat's timeout
    for a person, a short pause for a computer seat. A decision still waiting
    for the same player keeps its timer (someone else's /back or leaving
    moves nobody's deadline and reminds nobody twice)."""
    state = t.state
    decision = pending(state) if state is not None and t.status == "playing" else None
    if decision is None or state is None:
        clear_timer(t)
        if t.result_untold:  # the timer posts the result if nobody else does
            t.deadline = now + ANNOUNCE_GRACE
        return
    if t.deadline_decision == decision.id and t.deadline is not None and decision.seat != handed:
        return
    t.deadline_decision = decision.id
    if state.players[decision.seat].computer:
        t.deadline = now + defaults.computer_pause
        t.reminder = None
        return
    if not t.timed:  # a practice game without a clock: the person takes their time
        clear_timer(t)
        return
    timeout = _timeout_of(t, decision)
    if t.own_pace:
        _own_clock(t, state, decision, now, timeout)
        return
    t.deadline = now + timeout
    t.reminder = t.deadline - _reminder_window(timeout)
    t.later_reminders = []


def _own_clock(t: Table, state: GameState, decision: Decision, now: float, timeout: float) -> None:
    """A game at own pace (`bot.service.clocks`): a turn's actions share the
    clock the turn began with — and when its player is asked again after
    someone else's answer, they have at least the last reminder's window
    left; someone else's choice has a clock of its own. The deadline never
    falls in its person's quiet hours, and they are reminded at most twice."""
    quiet = t.seats[decision.seat].quiet
    if decision.seat == state.current:
        kept = t.turn_clock
        if kept is not None and kept[0] == state.turn:
            deadline = max(kept[1], clocks.deadline_of(now, _reminder_window(timeout), quiet))
            t.deadline = deadline
            # asked again, they are rung (a new prompt): reminded at most once more
            later = clocks.reminders(now, deadline, timeout, quiet)
            t.reminder, t.later_reminders = (later[-1] if later else None), []
            t.turn_clock = (state.turn, deadline)
            return
        deadline = clocks.deadline_of(now, timeout, quiet)
        t.turn_clock = (state.turn, deadline)
    else:
        deadline = clocks.deadline_of(now, timeout, quiet)
    t.deadline = deadline
    times = clocks.reminders(now, deadline, timeout, quiet)
    t.reminder = times[0] if times else None
    t.later_reminders = times[1:]


def next_reminder(t: Table) -> None:
    """The reminder is sent: the next one (at own pace there may be a second)."""
    t.reminder = t.later_reminders.pop(0) if t.later_reminders else None


def _timeout_of(t: Table, decision: Decision) -> float:
    """A person's time for `decision`: the chat's timeout for its kind."""
    return t.turn_timeout if decision.kind == "action" else t.choice_timeout


def _reminder_window(timeout: float) -> float:
    """How long before the deadline its player is reminded (at own pace: the last reminder)."""
    if clocks.is_own_pace(int(timeout)):
        return clocks.last_window(timeout)
    return min(20.0, timeout / 3)


def time_given_back(t: Table, now: float) -> None:
    """A pending decision whose prompt is sent again after Redis rolled back
    its answer (`Table.adrift`): its player has at least the reminder's
    window (`set_deadline`) to answer it with the buttons they get back — the
    time they spent on the answer that was lost is not held against them.
    A later deadline stays; an untimed game has none."""
    state = t.state
    decision = pending(state) if state is not None and t.status == "playing" else None
    if decision is None or state is None or t.deadline is None:
        return
    if state.players[decision.seat].computer:
        return
    least = now + _reminder_window(_timeout_of(t, decision))
    if t.deadline < least:
        t.deadline = least
        t.reminder = None  # the prompt sent again rings: it is the reminder


def result_marked_told(t: Table) -> None:
    """The game's result is handed to the group: the record stops waiting for
    it, and its timer goes."""
    t.result_untold = False
    clear_timer(t)
