"""A group's table message carries its computer turns on, but never forgets a
line: once the running turns' log outgrows what the record keeps
(`KEPT_LOG_LINES`), its lines close in the table message for good and the
table goes on in a new one. The table itself shows only the last lines that
fit a phone, and a group behind its pace may never have been shown the oldest
(a timeout's line, say): dropped from the record, the group would never read
them (test_scale_out counted a timeout line missing)."""

from __future__ import annotations

from bot.service import journal
from bot.service.bookkeeping import KEPT_LOG_LINES, book_move
from bot.store.memory import MemoryStore
from bot.words.keyboards import LobbyCb
from tests.bot.harness import Harness, people

GROUP = -100778


async def test_a_log_too_long_to_keep_is_closed_in_its_message_not_forgotten() -> None:
    h = Harness(MemoryStore())
    anna, boris = people("Анна", "Борис")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(GROUP)
    assert table.status == "playing" and not table.practice
    play = h.app.games.play
    render = h.app.games.teller.render
    state = table.state
    assert state is not None
    journal.told_all(table)
    # the running turns' lines so far: someone came back, time and again
    earlier = [journal.note("log-back", 1) for _ in range(KEPT_LOG_LINES - 1)]
    back = h.tr.t("ru", "log-back", player=render.name("ru", table, 1))
    timeout = h.tr.t("ru", "log-timeout", player=render.name("ru", table, 0))
    away = h.tr.t("ru", "log-away", player=render.name("ru", table, 0))
    table.add(earlier)
    notes = [journal.note("log-timeout", 0), journal.note("log-away", 0)]
    book_move(table, [], h.clock.now(), play.defaults, notes)
    closed = render.closed_lines(table, state)
    assert closed == [back] * len(earlier) + [timeout, away], "a line was forgotten"
    assert render.turn_lines(table, state) == []

    # a log that still fits goes on in the same message
    journal.told_all(table)
    table.add(earlier[:10])
    book_move(table, [], h.clock.now(), play.defaults, [journal.note("log-timeout", 0)])
    assert render.closed_lines(table, state) is None
    assert render.turn_lines(table, state) == [back] * 10 + [timeout]
