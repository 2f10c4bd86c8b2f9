"""What the group reads, through the real dispatcher in both languages: the
start of the game whoever moves first, one line (not two) for a player who
leaves or comes back, and /table that leaves no stale table or lobby above
the new one."""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LobbyCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, group_texts

GROUP = -100616


async def two_people(h: Harness, lang: str) -> tuple[User, User, int, int]:
    """Анна's lobby, Борис seated, in `lang`: (Анна, Борис, lobby message, game)."""
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    lobby, game = await h.open_lobby_in(GROUP, lang, anna, [boris])
    return anna, boris, lobby, game


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_group_reads_that_the_game_began_when_a_person_moves_first(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, _boris, lobby, game = await two_people(h, lang)
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(GROUP)
    assert table.state is not None and not table.state.players[table.state.current].computer
    first = h.app.games.render.name(lang, table, table.state.current)
    began = h.tr.t(lang, "event-game-start", players=2, first=first)
    assert any(began in text for text in group_texts(h.tg, GROUP)), "«Игра началась…» is lost"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_leaving_and_coming_back_each_read_one_line(store: Store, lang: str) -> None:
    h = Harness(store)
    anna, boris, lobby, game = await two_people(h, lang)
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(GROUP)
    name = h.app.games.render.name(lang, table, 1)
    t = h.tr.t

    def table_text() -> str:
        return h.tg.texts[(GROUP, ids["table"])]

    since = len(h.tg.requests)
    await h.leave_game(boris, GROUP)
    ids = await store.messages(GROUP)
    assert t(lang, "log-left", player=name) in table_text()
    said = group_texts(h.tg, GROUP, since)
    assert not [x for x in said if t(lang, "event-seat-computer", player=name) in x], said

    since = len(h.tg.requests)
    await h.say(boris.id, boris, "/back")
    ids = await store.messages(GROUP)
    back = t(lang, "log-back", player=name)
    lines = table_text().split("\n")
    assert back in lines
    # the line that says he is back, and no other about it (the two may read alike)
    told = [x for x in lines if x in (back, t(lang, "event-seat-human", player=name))]
    assert told == [back], lines


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_table_points_the_old_message_down_and_keeps_one_live_lobby(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, _boris, lobby, game = await two_people(h, lang)
    await h.say(GROUP, anna, "/table")
    new_lobby = (await store.messages(GROUP))["lobby"]
    assert new_lobby != lobby
    assert h.tg.texts[(GROUP, lobby)] == h.tr.t(lang, "lobby-moved")
    assert not h.buttons(GROUP, lobby), "the old lobby's buttons still work"
    assert h.buttons(GROUP, new_lobby)

    await h.press(anna, GROUP, new_lobby, LobbyCb(action="go", game=game).pack())
    old_table = (await store.messages(GROUP))["table"]
    full = h.tg.texts[(GROUP, old_table)]
    await h.say(GROUP, anna, "/table")
    new_table = (await store.messages(GROUP))["table"]
    assert new_table != old_table
    assert h.tg.texts[(GROUP, old_table)] == h.tr.t(lang, "table-moved")
    assert h.tg.texts[(GROUP, new_table)] == full
