"""A review of one's own game (`engine.ai.review`, issue 27 item 6's analysis):
the moments named are choices the seat really made, strong's answer differs
and is one of that decision's options, the review is the same each time, and
it is made from what the seat could see (two games it cannot tell apart are
weighed the same)."""

from __future__ import annotations

from functools import cache

from engine import Command, GameSetup, apply, new_game, pending
from engine.ai import decide
from engine.ai.hint import GENERIC, REASONS
from engine.ai.review import own_choices, review, weigh
from tests.engine.pairs import pairs


@cache
def played(seed: int = 21) -> tuple[GameSetup, tuple[Command, ...]]:
    """Three seats: the first plays at random (the easy level), the others as
    the normal level; every answer logged as the bot logs it."""
    setup = GameSetup(players=3, seed=seed)
    state, _ = new_game(setup)
    log: list[Command] = []
    while (d := pending(state)) is not None:
        option = decide(state, d, "easy" if d.seat == 0 else "normal")
        apply(state, d.seat, d.id, option)
        log.append(Command(seat=d.seat, decision=d.id, option=option))
    return setup, tuple(log)


def test_a_review_names_choices_the_seat_made_and_what_strong_would_have_done() -> None:
    setup, log = played()
    moments = review(setup, log, 0, top=3, searches=4)
    assert 1 <= len(moments) <= 3, "a random player's game has a costly choice"
    asked = {index: decision for index, _, decision, _ in own_choices(setup, log, 0)}
    for m in moments:
        command = log[m.index - 1]
        assert command.seat == 0 and tuple(command.option or ()) == m.chosen
        decision = asked[m.index]
        assert m.better in decision.options and m.better != m.chosen
        assert m.kind == decision.kind and m.cost >= 0
        assert m.reason in REASONS or m.reason in GENERIC
    assert [m.cost for m in moments] == sorted((m.cost for m in moments), reverse=True)
    assert review(setup, log, 0, top=3, searches=4) == moments, "the same game, the same review"


def test_only_the_seats_own_answers_are_reviewed() -> None:
    setup, log = played()
    mine = own_choices(setup, log, 1)
    assert mine and all(log[i - 1].seat == 1 for i, _, _, _ in mine)
    assert all(len(d.options) > 1 for _, _, d, _ in mine)


def test_a_choice_is_weighed_from_what_the_seat_sees() -> None:
    for p in pairs()[::9]:
        assert weigh(p.a, p.decision) == weigh(p.b, p.decision), p.how


def test_a_review_in_budget_is_shorter_never_wrong() -> None:
    """`stop` ends the strong searches: a search it cuts short is left out
    (never normal's answer offered as strong's), and none starts after it."""
    setup, log = played()
    whole = review(setup, log, 0, top=3, searches=4)
    assert review(setup, log, 0, top=3, searches=4, stop=lambda: True) == []
    calls = 0

    def after_one_search() -> bool:
        nonlocal calls
        calls += 1
        return calls > 1  # the first check passes; the first search is cut at once

    assert review(setup, log, 0, top=3, searches=4, stop=after_one_search) == []
    assert calls == 2, "once `stop` said the time is up, no other search asked it again"
    assert whole, "without a stop the same game has its moments"
