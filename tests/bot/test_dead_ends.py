"""Every dead end points somewhere, through the dispatcher in both languages:

- /newgame (or /join, /go) in a private chat says how a group game is opened
  and offers /practice here;
- the group table's «🃏 Стол» link promises one's cards and choices only to a
  player of that game: anyone else is told they will see the public table;
- /practice while one sits at a group's table (its lobby or its game) opens
  beside it: each game's prompts name it and carry its chat (issue 40, item 3),
  so the two share the private chat without mixing.
"""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.words.app import AppLinks
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100555
TITLE = "Тестовая группа"  # the fake Telegram's group title


def last(h: Harness, chat_id: int) -> str:
    return h.tg.sent(chat_id)[-1].text


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("command", ["/newgame", "/join", "/go"])
async def test_a_group_command_in_private_points_to_a_group_and_to_practice(
    store: Store, lang: str, command: str
) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    await h.say(anna.id, anna, "/start")
    await h.say(anna.id, anna, command)
    text = last(h, anna.id)
    assert text == h.tr.t(lang, "err-group-game-only")
    assert "/practice" in text and "/newgame" in text
    assert await store.load(anna.id) is None, "nothing was opened"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_tables_link_promises_cards_only_to_a_player(store: Store, lang: str) -> None:
    h = Harness(store, app=AppLinks("https://example.com/app"))
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    await h.open_game(GROUP, anna, [boris], lang=lang)
    vera = person(102, "Вера", lang)  # a member of the group, not at the table
    for who, key in ((anna, "app-open"), (vera, "app-open-watch")):
        await h.say(who.id, who, f"/start app_{GROUP}")
        assert last(h, who.id) == h.tr.t(lang, key), who.first_name
    public = h.tr.t(lang, "app-open-watch")
    yours = {"ru": "ваши карты", "en": "your cards"}[lang]
    assert yours in h.tr.t(lang, "app-open") and yours not in public


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("started", [False, True])
async def test_practice_opens_beside_a_groups_table(store: Store, lang: str, started: bool) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    if started:
        await h.open_game(GROUP, anna, [boris], lang=lang)
    else:
        await h.open_lobby_in(GROUP, lang, anna, [boris])
    group = await h.table(GROUP)
    before = await store.user(boris.id)
    await h.say(boris.id, boris, "/practice")
    practice = await store.load(boris.id)
    # his first practice game: the tutor, started at once (issue 24, item 2)
    assert practice is not None and practice.practice and practice.tutor is not None
    assert practice.status == "playing"
    assert (await store.user(boris.id)).practices == before.practices + 1
    assert await store.user_tables(boris.id) >= {GROUP, boris.id}
    # the group's table is as it was: he still sits there
    after = await h.table(GROUP)
    assert after.version == group.version and after.seat_of(boris.id) is not None
