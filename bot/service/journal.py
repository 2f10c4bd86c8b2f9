"""The record's journal: what a chat's game still has to tell, as data.

A record keeps no screens (issue 39). What the group's table message and each
person's prompt message are still to tell is kept in `Table.log` as entries —
the engine's events as they came (public, or for the seats in their `to`),
the bot's notes for the group's log (`NOTE`: a timeout, someone left…), each
answer a person gave (`ANSWER`, for their eyes only) — and the places where
each reader's text begins are positions in it (`Table.turn_at`, `Seat.opened_at`,
`Seat.fresh_to`, `Seat.news_at`). Positions are absolute: the journal's first
entry is at `Table.log_at`, and cutting what nobody needs moves `log_at` on,
never a reader's place. The words are drawn from these entries when told
(`bot.words.recaps`), in each reader's language, with the names their seats
have then — so forgetting a person is blanking their seat.

Plain functions on a `Table`, no I/O: they run inside the compare-and-set change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store.models import ANSWER, NOTE, Table
from bot.words.render import Renderer, kill_causes
from engine import Decision, Event, GameState

__all__ = ["ANSWER", "NOTE", "answer", "note", "told_all", "trim", "with_causes"]

#: entries the journal keeps at most: a seat that is never asked again (a long
#: run of computer turns in a practice game) loses its oldest news, as a
#: recap kept at most its last lines before
LOG_MAX = 400


def note(text: str, seat: int) -> Event:
    """The bot's line `text` (a locale key whose ``player`` is `seat`) in the group's log."""
    return Event(key=NOTE, params={"text": text, "seat": seat})


def answer(decision: Decision, option: Sequence[str], by_timer: bool, depths: list[int]) -> Event:
    """The answer `option` to `decision`, for its player's recap: the
    question's kind and params, the option, the parts of it its menu offered
    as a choice (`depths`: `bot.words.prompts.choice_depths`), and whether
    the timer chose it."""
    params: dict[str, Any] = {"kind": decision.kind, "option": list(option), "depths": depths}
    if decision.kind != "action" and decision.params:  # a turn's action is not named by them
        params["params"] = dict(decision.params)
    if by_timer:
        params["timer"] = True
    return Event(key=ANSWER, params=params, to=(decision.seat,))


def with_causes(state: GameState, events: list[Event]) -> list[Event]:
    """`events` with what sent each ``card.killed`` to the graveyard written
    into it (`kill_causes`): it follows from the смуты running now, which a
    later reading of the journal no longer knows."""
    causes = kill_causes(state, events)
    if not causes:
        return events
    return [
        Event(key=e.key, params={**e.params, "cause": causes[i]}, to=e.to) if i in causes else e
        for i, e in enumerate(events)
    ]


def trim(t: Table) -> None:
    """Let go of the entries no reader will be told: each is blanked (None)
    unless the group's running turn, the turn just closed or a person's
    recap, news or just-closed message still tells it (`_tells`); the
    blanks at the journal's start are cut — never back past the start of a
    turn a practice recap still reads (it says whose turn it goes on), and
    never more than `LOG_MAX` kept."""
    spans: list[tuple[int, int, int | None]] = []  # (from, to, seat; None: the group)
    spans.append((t.turn_at, t.log_end(), None))
    if t.turn_closed is not None:
        spans.append((*t.turn_closed, None))
    for i, seat in enumerate(t.seats):
        start = seat.news_at if seat.opened_at is None else min(seat.opened_at, seat.news_at)
        spans.append((start, t.log_end(), i))
        if seat.closed is not None:
            spans.append((seat.closed[0], seat.closed[2], i))
    for pos, entry in t.positioned(t.log_at):
        if t.practice and _turn_starts(entry):
            continue  # a digest's head reads it
        readers = [seat for start, stop, seat in spans if start <= pos < stop]
        if not any(_tells(t, entry, seat) for seat in readers):
            t.log[pos - t.log_at] = None
    cut = next((k for k, e in enumerate(t.log) if e is not None), len(t.log))
    cut = max(cut, len(t.log) - LOG_MAX)
    if cut > 0:
        del t.log[:cut]
        t.log_at += cut


def _tells(t: Table, entry: Event, seat: int | None) -> bool:
    """Whether `entry` has a line for its reader: the group (None), or a
    person (`Renderer.told_lines`: what only they see, what landed on them,
    what is about them; in a practice game all they may see)."""
    if seat is None:
        return entry.to is None
    if entry.to is not None:
        return seat in entry.to
    if t.practice:
        return True
    return Renderer.lands_on(entry) == seat or (
        Renderer.about(entry) == seat and Renderer.logged(entry)
    )


def _turn_starts(entry: Event) -> bool:
    return entry.key == "turn.start" and entry.to is None


def told_all(t: Table) -> None:
    """Nothing is left to tell: every place moves to the journal's end, and
    no «ℹ️» reason counts as told (a new game; a position set up by hand, in
    a test or a bug report's replay)."""
    at = t.log_end()
    t.log, t.log_at, t.turn_at, t.turn_closed = [], at, at, None
    t.reasons = {}
    for seat in t.seats:
        seat.closed = None
        seat.fresh_to = seat.news_at = at
        if seat.opened_at is not None:
            seat.opened_at = at
