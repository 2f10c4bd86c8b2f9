"""A private command typed in the group is refused with a button into the
private chat, through the real dispatcher in both languages; /hand's button
brings the hand and the question there at once."""

from __future__ import annotations

import pytest
from aiogram.types import InlineKeyboardMarkup

from bot.store import Store
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, is_prompt

GROUP = -100525
BOT_CHAT = "https://t.me/smuta_test_bot"


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_hand_in_the_group_points_to_the_private_chat_where_the_hand_comes(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    anna, boris = person(100, "Анна", lang), person(101, "Борис", lang)
    table = await h.open_game(GROUP, anna, [boris], lang=lang)
    assert table.state is not None
    user = anna if table.seats[table.state.current].user_id == anna.id else boris

    await h.say(GROUP, user, "/hand")
    refusal = h.tg.sent(GROUP)[-1]
    assert refusal.text == h.tr.t(lang, "err-private-only")
    markup = refusal.reply_markup
    assert isinstance(markup, InlineKeyboardMarkup)
    [[button]] = markup.inline_keyboard
    assert button.text == h.tr.t(lang, "btn-open-bot")
    assert button.url == f"{BOT_CHAT}?start=hand"

    # the button opens the private chat with /start hand: the question, no welcome
    before = len(h.tg.sent(user.id))
    await h.say(user.id, user, "/start hand")
    came = h.tg.sent(user.id)[before:]
    assert len(came) == 1 and is_prompt(came[0].reply_markup)
    assert h.tr.t(lang, "welcome") not in came[0].text

    # the other private commands point to the private chat as well
    for command in ("/stats", "/forgetme", "/lang"):
        await h.say(GROUP, user, command)
        markup = h.tg.sent(GROUP)[-1].reply_markup
        assert isinstance(markup, InlineKeyboardMarkup), command
        assert markup.inline_keyboard[0][0].url == BOT_CHAT
