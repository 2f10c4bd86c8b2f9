"""A calm lobby (issue 24, "Noise"), through the dispatcher in both languages:

- the first screen is short — people join, a computer, start, settings,
  call off: at most 7 buttons (a group's), 5 (a practice table's), and no line
  about the computers' levels; the levels (and a short line on what they
  mean) are behind «🤖 Компьютер…», the language, the clock and the hints
  behind «⚙️ Настройки», each with «🔙 Назад»; people can join from any screen;
- the lobby's creator turns this game's hints on or off (the record's
  `hints`, which the chat's /settings only give a default); anyone else —
  an admin too — gets a short alert, and nothing changes.
"""

from __future__ import annotations

import pytest
from aiogram.types import User

from bot.store import Store
from bot.words.keyboards import LobbyCb, SettingsCb
from bot.words.shape import visible_len
from engine import pending
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100_666


def actions(h: Harness, chat_id: int, lobby: int) -> list[str]:
    return [LobbyCb.unpack(d).action for _, d in h.buttons(chat_id, lobby) if d.startswith("lb:")]


async def press(h: Harness, user: User, chat_id: int, lobby: int, action: str) -> str | None:
    """`user` presses the lobby's `action`; what the press was answered."""
    game = (await h.table(chat_id)).game_no
    await h.press(user, chat_id, lobby, LobbyCb(action=action, game=game).pack())
    return h.tg.answers()[-1].text


def offers_hints(h: Harness, user: User, message: int) -> bool:
    return any(d.startswith("hn:") for _, d in h.buttons(user.id, message))


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_groups_lobby_shows_a_short_first_screen_and_the_rest_a_tap_away(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    lobby, _ = await h.open_lobby_in(GROUP, lang, anna, [boris])
    first = actions(h, GROUP, lobby)
    assert first == ["join", "leave", "levels", "go", "settings", "cancel"]
    text = h.tg.texts[(GROUP, lobby)]
    assert h.tr.t(lang, "lobby-levels-short") not in text
    assert max(visible_len(line) for line in text.split("\n")) <= 100, text
    assert h.tr.t(lang, "lobby-hints-off") in text  # the game's hints, said

    # the levels: a short line, three buttons and back; one level seats a computer
    # at it, and the lobby is back at its first screen (now with «➖»)
    assert await press(h, anna, GROUP, lobby, "levels") is None
    assert actions(h, GROUP, lobby) == [
        "join",
        "leave",
        "bot_easy",
        "bot_normal",
        "bot_strong",
        "main",
    ]
    line = h.tr.t(lang, "lobby-levels-short")
    assert line in h.tg.texts[(GROUP, lobby)] and visible_len(line) <= 90
    await press(h, anna, GROUP, lobby, "bot_strong")
    table = await h.table(GROUP)
    assert [s.level for s in table.seats if s.user_id is None] == ["strong"]
    assert actions(h, GROUP, lobby) == [
        "join",
        "leave",
        "levels",
        "drop",
        "go",
        "settings",
        "cancel",
    ]

    # the settings: language, time, hints, back
    await press(h, anna, GROUP, lobby, "settings")
    assert actions(h, GROUP, lobby) == ["join", "leave", "lang", "pace", "time", "hints", "main"]
    await press(h, anna, GROUP, lobby, "main")
    assert actions(h, GROUP, lobby)[:3] == ["join", "leave", "levels"]

    # someone who may not manage the table opens nothing
    before = await h.table(GROUP)
    refused = await press(h, boris, GROUP, lobby, "levels")
    assert refused == h.tr.t(lang, "err-not-creator")
    assert (await h.table(GROUP)).version == before.version


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_creator_chooses_this_games_hints_and_nobody_else_may(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    h.tg.admins.add((GROUP, boris.id))  # an admin of the group, not the lobby's creator
    lobby, _ = await h.open_lobby_in(GROUP, lang, anna, [boris])
    assert not (await h.table(GROUP)).hints  # the chat's default: off
    await press(h, anna, GROUP, lobby, "settings")

    before = await h.table(GROUP)
    refused = await press(h, boris, GROUP, lobby, "hints")
    assert refused == h.tr.t(lang, "err-hints-creator") and h.tg.answers()[-1].show_alert
    assert (await h.table(GROUP)).version == before.version

    told = await press(h, anna, GROUP, lobby, "hints")
    assert told == h.tr.t(lang, "lobby-hints-now-on")
    assert (await h.table(GROUP)).hints
    assert h.tr.t(lang, "lobby-hints-on") in h.tg.texts[(GROUP, lobby)]
    assert (
        h.tr.t(lang, "btn-hints-on"),
        LobbyCb(action="hints", game=before.game_no).pack(),
    ) in h.buttons(GROUP, lobby)

    await press(h, anna, GROUP, lobby, "go")
    table = await h.table(GROUP)
    assert table.hints and table.state is not None
    decision = pending(table.state)
    assert decision is not None
    decider = (anna, boris)[decision.seat]
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    assert offers_hints(h, decider, prompt), "this game's prompts offer «💡»"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_chats_hints_default_reaches_a_lobby_whose_creator_may_turn_it_off(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    h.tg.admins.add((GROUP, anna.id))
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="hints").pack())  # on by default
    lobby, _ = await h.open_lobby_in(GROUP, lang, anna, [boris])
    assert (await h.table(GROUP)).hints
    await press(h, anna, GROUP, lobby, "settings")
    assert await press(h, anna, GROUP, lobby, "hints") == h.tr.t(lang, "lobby-hints-now-off")
    await press(h, anna, GROUP, lobby, "go")
    table = await h.table(GROUP)
    assert not table.hints and table.state is not None
    decision = pending(table.state)
    assert decision is not None
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    assert not offers_hints(h, (anna, boris)[decision.seat], prompt)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_practice_lobby_is_short_and_its_person_chooses_the_hints(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = person(100, "Анна", lang)
    lobby, _ = await h.open_practice(anna)
    assert actions(h, anna.id, lobby) == ["levels", "drop", "go", "settings", "cancel"]
    hints = (await h.table(anna.id)).hints
    await press(h, anna, anna.id, lobby, "settings")
    assert actions(h, anna.id, lobby) == ["clock", "hints", "main"]
    await press(h, anna, anna.id, lobby, "hints")
    assert (await h.table(anna.id)).hints is not hints
    await press(h, anna, anna.id, lobby, "levels")
    await press(h, anna, anna.id, lobby, "bot_easy")
    table = await h.table(anna.id)
    assert len(table.seats) == 3 and table.lobby_menu is None
