"""Record bookkeeping: what a change leaves in a chat's record — the turn's
log, each person's story, the game's end, the timer. Plain functions on a
`Table`, no I/O: they run inside the compare-and-set change (`Records.change`),
so all of it is saved at once, and telling (`bot.service.telling`) reads it
back once the save succeeded.

A quiet chat: a person gets a new private message (which rings) only when
their turn starts or someone else's move needs their choice. Their next
decisions in a row edit that message in place; once someone else is asked,
it is closed (its story stays: what they chose and what came of it). What
they are told while they wait (what was taken from them, by whom and how; in
a practice game, everything the computers did: a line a turn, the full lines
kept for its «Подробнее») heads their next message."""

from __future__ import annotations

from collections.abc import Callable

from bot.service import lessons
from bot.service.base import Defaults
from bot.service.outcome import Answered
from bot.store.models import Seat, Table
from bot.words import reasons
from bot.words.digest import turn_head
from bot.words.prompts import Prompts
from engine import Decision, Event, GameState, pending

KEPT_LOG_LINES = 60  # log lines of the running turn(s) the record keeps (a group's: then closed)
# how long after a move its process may still be telling it; a prompt still
# missing after that was lost (prompts go out at once, before the group's pace)
ANNOUNCE_GRACE = 5.0
STORY_MAX = 20  # lines a person's story keeps (the oldest give way to «…»)
#: a practice game: the full lines of the computers' turns a prompt sums up
#: (its «Подробнее»), and the events they come from, kept at most
DETAILS_MAX = 80
SEEN_MAX = 200


def clipped(lines: list[str], most: int = STORY_MAX) -> list[str]:
    if len(lines) <= most:
        return lines
    return ["…", *lines[-(most - 1) :]]


def clear_timer(t: Table) -> None:
    t.deadline = t.reminder = t.deadline_decision = None


def settle(
    t: Table,
    events: list[Event],
    prompts: Prompts,
    now: float,
    defaults: Defaults,
    notes: list[str] | None = None,
    handed: int | None = None,
    answered: Answered | None = None,
) -> None:
    """Updates the record after a move ("settles" it before the save): the
    turn's log lines, each person's story, the game's end, the timer (set at
    `now`). `handed`: the seat just handed to the computer or back to its
    player; `answered`: the decision the move answered. `prompts` words the
    lines (its `render` the group's)."""
    state = t.state
    assert state is not None
    render = prompts.render
    notes = notes or []
    starts = [i for i, e in enumerate(events) if e.key == "turn.start" and e.to is None]
    # a new table message when a person's turn begins; computer turns go on
    # in the same message, so a table of computers does not flood the group
    # (a practice game keeps one table above its prompts, in the same chat)
    if starts and not state.players[state.current].computer and not t.practice:
        cut = starts[-1]
        t.closed_log = t.turn_log + notes + render.public_lines(t, state, events[:cut])
        t.turn_log = render.public_lines(t, state, events[cut:])
    elif state.result is not None and not t.practice:
        # the last turn keeps its whole log (the table shows what fits a
        # phone), then the final table and the result follow
        t.closed_log = t.turn_log + notes + render.public_lines(t, state, events)
        t.turn_log = []
    else:
        lines = t.turn_log + notes + render.public_lines(t, state, events)
        if not t.practice and len(lines) > KEPT_LOG_LINES:
            # a long run of computer turns: the table message keeps its lines
            # for good (from the computer turn that began here, the table goes
            # on in a new one), not forgotten from the record — the table shows
            # only the last few, and a group behind its pace may never have been
            # shown the oldest (a timeout's line, say): the closed message is
            # where it reads them
            cut = starts[-1] if starts else len(events)
            t.closed_log = t.turn_log + notes + render.public_lines(t, state, events[:cut])
            t.turn_log = render.public_lines(t, state, events[cut:])
        else:
            t.closed_log = None
            t.turn_log = lines
    # a practice game's table (one message above its prompts, never closed
    # mid-game) keeps the record small all the same
    t.turn_log = t.turn_log[-KEPT_LOG_LINES:]
    if state.result is not None:
        t.status = "finished"
        t.result_untold = True
    tell_seats(t, state, events, answered, prompts)
    lessons.note(t, state, events, prompts)  # a tutor game's sentences
    reasons.note(t)  # which «ℹ️» reasons the next turn prompt tells
    set_deadline(t, now, defaults, handed)


def tell_seats(
    t: Table,
    state: GameState,
    events: list[Event],
    answered: Answered | None,
    prompts: Prompts,
) -> None:
    """Each person's story (`Seat.story`, `news`, `closing`; see the module's notes)."""
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
    most = DETAILS_MAX if t.practice else STORY_MAX
    for i, seat in enumerate(t.seats):
        seat.closing = None
        if seat.user_id is None or seat.left:
            continue
        told = _told(prompts, t, state, seat, i)
        if answered is not None and i == answerer:
            decision, option, by_timer = answered
            lang = seat.lang
            story = seat.story + prompts.answered(lang, t, state, decision, option, by_timer)
            story += told(events[:cut], False)
            if i == prompted and cut == len(events):  # asked again: the same message
                seat.story = clipped(story)
                seat.asked = upcoming.id if upcoming is not None else None
                continue
            seat.closing = clipped(story)
            seat.story, seat.asked = [], None
            news = events[cut:]
        else:
            news = events
        seat.news = clipped(seat.news + told(news, t.practice), most)
        if t.practice:
            _see(seat, i, state, news)
        if i == prompted and upcoming is not None and seat.asked != upcoming.id:
            # a new message: what they were told meanwhile heads it (in a
            # practice game, a line a turn: the full lines a tap away)
            seat.story, seat.news, seat.asked = seat.news, [], upcoming.id
            if t.practice:
                seat.details = seat.story
                seat.story = seat.digest = prompts.digest.lines(seat.lang, t, state, seat.seen, i)
                seat.seen = []


def _see(seat: Seat, i: int, state: GameState, events: list[Event]) -> None:
    """Keep the events of a practice game the person on seat `i` may see, for
    the lines of their next prompt (`bot.words.digest`); what they keep
    starts at a turn's start, so each line knows whose turn it tells."""
    shown = [e for e in events if e.visible_to(i)]
    if not shown:
        return
    if not seat.seen and shown[0].key != "turn.start":
        seat.seen = [turn_head(state, events)]  # the middle of a turn: whose, in what
    seen = seat.seen + shown
    if len(seen) > SEEN_MAX:
        cut = len(seen) - SEEN_MAX
        cut = next((j for j in range(cut, len(seen)) if seen[j].key == "turn.start"), len(seen))
        seen = seen[cut:]
    seat.seen = seen


def _told(
    prompts: Prompts, t: Table, state: GameState, seat: Seat, i: int
) -> Callable[[list[Event], bool], list[str]]:
    def told(events: list[Event], everything: bool) -> list[str]:
        return prompts.render.told_lines(seat.lang, t, state, events, i, everything)

    return told


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
    t.deadline = now + timeout
    t.reminder = t.deadline - _reminder_window(timeout)


def _timeout_of(t: Table, decision: Decision) -> float:
    """A person's time for `decision`: the chat's timeout for its kind."""
    return t.turn_timeout if decision.kind == "action" else t.choice_timeout


def _reminder_window(timeout: float) -> float:
    """How long before the deadline its player is reminded."""
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
