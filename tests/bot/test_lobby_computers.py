"""Computers at a group's table, through the real dispatcher: the lobby removes
one with a button of its own («Выйти» is a person's own seat), and a
computer's name reads in each reader's language."""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LobbyCb
from engine import pending
from engine.cards import catalog_for
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, answer_data

GROUP = -100661


def computer_name(h: Harness, lang: str, n: int, level: str) -> str:
    return h.tr.t(lang, "bot-name", n=n, level=h.tr.t(lang, f"level-{level}"))


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_group_lobby_removes_a_computer_and_leave_takes_only_the_persons_seat(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    lobby, game = await h.open_lobby_in(GROUP, lang, anna, [])
    drop = LobbyCb(action="drop", game=game).pack()
    assert drop not in [d for _, d in h.buttons(GROUP, lobby)], "nothing to remove yet"
    for _ in range(3):
        await h.press(anna, GROUP, lobby, LobbyCb(action="bot_easy", game=game).pack())
    assert (h.tr.t(lang, "btn-drop-computer"), drop) in h.buttons(GROUP, lobby)

    await h.press(anna, GROUP, lobby, drop)
    assert h.tg.answers()[-1].text == h.tr.t(lang, "lobby-computer-dropped")
    table = await h.table(GROUP)
    assert [s.user_id for s in table.seats] == [anna.id, None, None]
    shown = h.tg.texts[(GROUP, lobby)]
    assert computer_name(h, lang, 2, "easy") in shown
    assert computer_name(h, lang, 3, "easy") not in shown

    # «Выйти» takes Анна's own seat; computers alone cannot play: they go too
    await h.press(anna, GROUP, lobby, LobbyCb(action="leave", game=game).pack())
    assert (await h.table(GROUP)).seats == []
    shown = h.tg.texts[(GROUP, lobby)]
    assert h.tr.t(lang, "lobby-empty") in shown
    assert drop not in [d for _, d in h.buttons(GROUP, lobby)]


async def test_a_computer_added_before_the_lobby_changed_language_is_named_in_the_new_one(
    store: Store,
) -> None:
    h = Harness(store)
    anna = person(100, "Анна")
    lobby, game = await h.open_lobby(GROUP, anna, [])
    await h.press(anna, GROUP, lobby, LobbyCb(action="bot_strong", game=game).pack())
    assert computer_name(h, "ru", 1, "strong") in h.tg.texts[(GROUP, lobby)]
    await h.press(anna, GROUP, lobby, LobbyCb(action="lang", game=game).pack())
    shown = h.tg.texts[(GROUP, lobby)]
    assert computer_name(h, "en", 1, "strong") in shown and "Компьютер" not in shown
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    table_text = h.tg.texts[(GROUP, (await h.store.messages(GROUP))["table"])]
    assert computer_name(h, "en", 1, "strong") in table_text and "Компьютер" not in table_text


# Борис (seat 0, reads English) lays a Наёмник: whose hand to draw from —
# Анна's or the computer's — and the prompt names both candidates
MERCENARY = {
    "players": [
        {"hand": ["mercenary.red", "page.blue"]},
        {"hand": ["page.green", "page.orange"]},
        {"hand": ["lord.green"], "computer": True},
    ],
    "deck": ["page.red", "page.red"],
    "current": 0,
    "actions_left": 3,
}


async def test_a_private_prompt_names_a_computer_in_its_readers_language(store: Store) -> None:
    h = Harness(store)
    boris: User = person(101, "Борис", "en")
    anna = person(100, "Анна", "ru")
    await h.open_game(GROUP, boris, [anna], computers=1)  # a Russian group
    table = await h.set_position(GROUP, MERCENARY, boris)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None and decision.seat == 0
    cards = catalog_for(table.state.rules)
    mercenary = next(
        o for o in decision.options if o[0] == "lay" and cards[o[1]].type == "mercenary"
    )
    message = (await h.store.messages(GROUP))["prompt:0"]
    await h.press(boris, boris.id, message, answer_data(table, decision, mercenary))
    asked = await h.decision(GROUP)
    assert asked is not None and asked.kind == "mercenary.target"
    prompt = h.tg.texts[(boris.id, (await h.store.messages(GROUP))["prompt:0"])]
    assert computer_name(h, "en", 1, "normal") in prompt, prompt
    assert all("Компьютер" not in r.text for r in h.tg.sent(boris.id))
    # the Russian group reads the Russian name
    table_text = h.tg.texts[(GROUP, (await h.store.messages(GROUP))["table"])]
    assert computer_name(h, "ru", 1, "normal") in table_text
