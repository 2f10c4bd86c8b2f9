"""The rules as the bot tells them, through the real dispatcher in both
languages, checked against RULES.md: /rules short in the group and in full in
private; /rules and /card with the chat's own numbers everywhere; the words
of /settings, Брачный союз, Замок Торговли and the last card of a Великий Пир."""

from __future__ import annotations

import re

import pytest
from aiogram.types import InlineKeyboardMarkup, User

from bot.store import Store
from bot.words.keyboards import SettingsCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, group_texts

GROUP = -100838
MESSAGE_MAX = 4096


async def chat_with_settings(h: Harness, lang: str, *changes: str) -> User:
    """A group in `lang` whose admin Анна changed its settings (`changes`: the
    /settings buttons pressed); Анна, who started the bot."""
    anna = person(100, "Анна", lang)
    h.tg.admins.add((GROUP, anna.id))
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/settings")
    message = h.last_with_button(GROUP, "cf:")
    for what in ("lang",) * (lang == "en") + changes:
        await h.press(anna, GROUP, message, SettingsCb(what=what).pack())
    return anna


def last_text(h: Harness, chat_id: int) -> str:
    return h.tg.sent(chat_id)[-1].text


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_rules_are_short_in_the_group_and_whole_in_private_with_the_chats_numbers(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = await chat_with_settings(h, lang, "hand_limit")  # a hand of 6, not 7
    six, seven = {"ru": ("6 карт", "7 карт"), "en": ("6 cards", "7 cards")}[lang]

    await h.say(GROUP, anna, "/rules")
    short = h.tg.sent(GROUP)[-1]
    assert len(short.text) < 1000, f"/rules in the group has {len(short.text)} characters"
    assert six in short.text and seven not in short.text
    markup = short.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    [[button]] = markup.inline_keyboard
    assert button.text == h.tr.t(lang, "btn-rules-full")
    assert button.url == f"https://t.me/smuta_test_bot?start=rules_{GROUP}"

    # the button: the whole rules of this group's game, in private, a message a part
    before = len(h.tg.sent(anna.id))
    await h.say(anna.id, anna, f"/start rules_{GROUP}")
    parts = [r.text for r in h.tg.sent(anna.id)[before:]]
    assert len(parts) == 2 and all(len(p) < MESSAGE_MAX for p in parts)
    whole = "\n".join(parts)
    assert six in whole and seven not in whole
    # «Персонажи» a line a character, «Замки» what each of the four does
    characters = whole.split(h.tr.t(lang, "card-lady").split()[-1])[0]
    assert characters.count("\n•") == 0, "characters start after their heading"
    bullets = [line for line in whole.split("\n") if line.startswith("• ")]
    assert len(bullets) >= 10 + 4 + 4, bullets
    for colour in ("red", "blue", "green", "orange"):
        castle = h.tr.t(lang, f"castle-{colour}")
        line = next((x for x in bullets if x.startswith(f"• {castle}:")), None)
        assert line is not None and "♾️" in line and "⚡" in line, (castle, bullets)
    assert max(len(x.split()) for x in bullets) < 40, "no 90-word sentence"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_lobby_and_a_players_private_chat_tell_the_chats_numbers(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = await chat_with_settings(h, lang, "hand_limit", "hand_limit")  # 8
    eight, seven = {"ru": ("8 карт", "7 карт"), "en": ("8 cards", "7 cards")}[lang]
    await h.say(GROUP, anna, "/newgame")  # a lobby, no game yet
    for command in ("/rules", "/card пир" if lang == "ru" else "/card feast"):
        await h.say(GROUP, anna, command)
        text = last_text(h, GROUP)
        assert eight in text and seven not in text, (command, text)
    # Анна sits in that lobby: her private chat tells its numbers too
    await h.say(anna.id, anna, "/rules")
    text = "\n".join(r.text for r in h.tg.sent(anna.id)[-2:])
    assert eight in text and seven not in text
    await h.say(anna.id, anna, "/card пир" if lang == "ru" else "/card feast")
    assert eight in last_text(h, anna.id)
    # someone in no game here reads the defaults
    boris = person(101, "Борис", lang)
    await h.say(boris.id, boris, "/card пир" if lang == "ru" else "/card feast")
    assert seven in last_text(h, boris.id)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_four_action_turn_gives_the_castle_of_trade_one_more(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = await chat_with_settings(h, lang, "actions_per_turn", "actions_per_turn")  # 3→2→4
    await h.say(GROUP, anna, "/newgame")
    await h.say(GROUP, anna, "/card замок торговли" if lang == "ru" else "/card castle of trade")
    text = last_text(h, GROUP)
    five = {"ru": "5 действий вместо 4", "en": "5 actions instead of 4"}[lang]
    assert five in text, text
    assert not re.search(r"(\d+) \w+ (?:вместо|instead of) \1\b", text)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_settings_marriage_and_the_rules_say_where_cards_and_castles_go(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna = await chat_with_settings(h, lang)
    settings = h.tg.texts[(GROUP, h.last_with_button(GROUP, "cf:"))]
    fire = h.tr.t(lang, "variant-fire-about")
    assert fire in settings
    assert {"ru": "колоду сгинувших", "en": "graveyard"}[lang] in fire
    assert {"ru": "сбрасывает", "en": "discards"}[lang] not in fire
    await h.say(anna.id, anna, "/card брачный союз" if lang == "ru" else "/card marriage")
    supply = {"ru": "замок возвращается в запас", "en": "castle returns to the supply"}[lang]
    assert supply in last_text(h, anna.id)
    await h.say(anna.id, anna, "/rules")
    assert supply in h.tg.sent(anna.id)[-2].text  # «Дома»


# Анна (seat 0) draws a Великий Пир from a deck of two more cards: she takes
# one, Борис the last
FEAST = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red"]}]},
        {"hand": ["page.blue"], "houses": [{"colour": "blue", "cards": ["lord.blue"]}]},
    ],
    "deck": ["feast", "page.red", "page.green"],
    "current": 0,
    "actions_left": 3,
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_last_card_of_a_feast_names_whose_turn_is_played_out(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    await h.open_game(GROUP, anna, [boris], lang=lang)
    table = await h.set_position(GROUP, FEAST, anna)
    since = len(h.tg.requests)
    await h.answer(anna, GROUP, ("draw",))
    name = h.app.games.render.name
    told = h.tr.t(
        lang,
        "event-deck-empty",
        player=name(lang, table, 1),
        current=name(lang, table, 0),
        own="no",
        me="none",
    )
    assert any(told in text for text in group_texts(h.tg, GROUP, since)), told
    assert name(lang, table, 0) in told.split("!")[1], "the turn played out is Анна's"
