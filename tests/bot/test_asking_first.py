"""/forgetme asks before it deletes, through the real dispatcher in both
languages: the command alone deletes nothing; «Нет» keeps everything; only
«Да» forgets — and only in the person's own private chat."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.words.keyboards import ForgetCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness

GROUP = -100515


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_forgetme_deletes_nothing_until_its_question_is_answered_yes(
    store: Store, lang: str
) -> None:
    h = Harness(store)
    vera = person(100, "Вера", lang)
    await h.say(vera.id, vera, "/start")
    await h.say(GROUP, vera, "/notify")
    assert vera.id in await store.subscribers(GROUP)
    t = h.tr.t

    await h.say(vera.id, vera, "/forgetme")
    question = h.last_with_button(vera.id, "fg:")
    assert h.tg.texts[(vera.id, question)] == t(lang, "forgetme-confirm")
    assert [label for label, _ in h.buttons(vera.id, question)] == [
        t(lang, "btn-forget-yes"),
        t(lang, "btn-forget-no"),
    ]
    assert vera.id in await store.subscribers(GROUP), "/forgetme alone deleted"

    # «Нет»: nothing goes, and the question is answered
    await h.press(vera, vera.id, question, ForgetCb(confirm=False).pack())
    assert vera.id in await store.subscribers(GROUP)
    assert h.tg.texts[(vera.id, question)] == t(lang, "forgetme-kept")
    assert not h.buttons(vera.id, question)

    # someone else's chat cannot answer it
    await h.say(vera.id, vera, "/forgetme")
    question = h.last_with_button(vera.id, "fg:")
    boris = person(101, "Борис", lang)
    await h.press(boris, vera.id, question, ForgetCb(confirm=True).pack())
    assert h.tg.answers()[-1].show_alert
    assert vera.id in await store.subscribers(GROUP)

    # «Да»: she is forgotten, told in her language
    await h.press(vera, vera.id, question, ForgetCb(confirm=True).pack())
    assert vera.id not in await store.subscribers(GROUP)
    assert h.tg.texts[(vera.id, question)] == t(lang, "forgetme-done")
    assert not h.buttons(vera.id, question)
