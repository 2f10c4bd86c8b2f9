"""The end of a game, as the group reads it: the exact winners line, every
winner on it and no loser.

The position is built so the answer is known without asking the engine:
Анна (🔴 Лорд + Паж: 4 points) plays the last action of the last turn (the
deck is empty, nobody has a turn left), Борис has 🔵 Лорд + Паж (4), Вера a
lone 🟢 Паж (1). Анна discards, so Анна and Борис tie at 4 with no castles and
both win; Вера loses. Two winners, so a winner dropped from the line — the
first one, say — shows, and Вера's name is in the score lines but must not be
on the winners line.
"""

from __future__ import annotations

from aiogram.methods import SendMessage, SendPhoto

from bot.service import journal
from bot.store import Store
from engine import pending
from engine.scenario import build
from tests.bot.fake_telegram import text_of
from tests.bot.harness import Harness, answer_data, people

GROUP = -100919
LAST_ACTION = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}]},
        {"houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue"]}]},
        {"houses": [{"colour": "green", "cards": ["page.green"]}]},
    ],
    "current": 0,
    "actions_left": 1,
    "final_turns": 0,
}


async def test_the_winners_line_names_exactly_the_winners(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera])
    table = await h.table(GROUP)
    assert [s.user_id for s in table.seats] == [anna.id, boris.id, vera.id]
    table.state = build(LAST_ACTION)
    journal.told_all(table)
    assert await store.save(table)
    decision = pending(table.state)
    assert decision is not None and decision.seat == 0
    discard = next(o for o in decision.options if o[0] == "discard")

    since = len(h.tg.requests)
    await h.press(anna, anna.id, 1, answer_data(table, decision, discard))
    finished = await h.table(GROUP)
    assert finished.status == "finished"

    title = h.tr.t("ru", "result-title")
    results = [
        text_of(r)
        for r in h.tg.requests[since:]
        if isinstance(r, SendMessage | SendPhoto) and r.chat_id == GROUP and title in text_of(r)
    ]
    assert len(results) == 1, "the group gets one result message"
    lines = results[0].splitlines()
    named = [h.app.games.render.name("ru", finished, seat) for seat in (0, 1)]
    winners_line = h.tr.t("ru", "result-winners", players=", ".join(named), n=2)
    assert lines[-1] == winners_line, f"{lines[-1]!r} != {winners_line!r}"
    assert "Вера" not in lines[-1], "a loser on the winners line"
    # the score lines: best first, everyone on them, the tie in seat order
    each = finished.state.rules.castle_points if finished.state else 0
    scores = [
        h.tr.t(
            "ru",
            "result-line",
            player=h.app.games.render.name("ru", finished, seat),
            points=n,
            cards=n,
            castles=0,
            each=each,
        )
        for seat, n in ((0, 4), (1, 4), (2, 1))
    ]
    assert lines[1:4] == scores
