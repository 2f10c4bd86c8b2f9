"""Who may change a chat's /settings, through the real dispatcher on both stores:
group admins always; the settings' author while they still play in the chat;
any player of the chat while there is no such author — never a passer-by who
never played there. When Telegram cannot say who is an admin, the answer is no."""

from __future__ import annotations

import pytest
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import AnswerCallbackQuery, GetChatMember

from bot.service.profile import PLAYER_GAMES
from bot.store import Store
from bot.store.models import ChatProfile
from bot.words.keyboards import LobbyCb, SettingsCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness
from tests.bot.helpers.finishing import finish_quickly

GROUP = -100424242


class Chat:
    """A group whose /settings message the test presses."""

    def __init__(self, store: Store) -> None:
        self.h = Harness(store)
        self.message: int | None = None

    async def open_settings(self, by: object) -> None:
        await self.h.say(GROUP, by, "/settings")  # type: ignore[arg-type]
        self.message = self.h.last_with_button(GROUP, "cf:")

    async def press(self, user: object, what: str = "hand_limit") -> AnswerCallbackQuery:
        """`user` presses a settings button: the answer they got."""
        assert self.message is not None
        before = len(self.h.tg.requests)
        await self.h.press(user, GROUP, self.message, SettingsCb(what=what).pack())  # type: ignore[arg-type]
        answers = [r for r in self.h.tg.requests[before:] if isinstance(r, AnswerCallbackQuery)]
        assert len(answers) == 1
        return answers[0]

    async def profile(self) -> ChatProfile | None:
        return await self.h.store.profile(GROUP)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_a_passer_by_cannot_claim_the_settings_a_player_can_and_an_admin_always_can(
    store: Store, lang: str
) -> None:
    chat = Chat(store)
    h = chat.h
    anna, boris, vera = (person(100 + i, n, lang) for i, n in enumerate(("Анна", "Борис", "Вера")))
    carl = person(300, "Карл", lang)  # never played here
    dana = person(400, "Дана", lang)  # an admin of the group, never played here
    h.tg.admins.add((GROUP, dana.id))
    refusal = h.tr.t(lang, "err-settings-not-yours")
    await chat.open_settings(carl)

    # nobody has played yet: a passer-by's first press claims nothing
    answer = await chat.press(carl)
    assert (answer.text, answer.show_alert) == (refusal, True)
    assert await chat.profile() is None
    # the admin sets the chat's language (and, playing nowhere here, holds no claim)
    await chat.press(dana, "lang" if lang == "en" else "level")
    made = await chat.profile()
    assert made is not None and made.lang in (None, lang)

    # Анна, Борис and Вера play a game here: Борис's first change makes him the author
    await finish_quickly(h, GROUP, anna, [boris, vera])
    answer = await chat.press(boris)
    assert answer.text == h.tr.t(lang, "settings-saved") and not answer.show_alert
    profile = await chat.profile()
    assert profile is not None and profile.owner_id == boris.id
    assert profile.variants == {"hand_limit": 6}

    # another player may not change what its author, still playing here, set
    answer = await chat.press(anna)
    assert (answer.text, answer.show_alert) == (refusal, True)
    assert await chat.profile() == profile
    # nor may the passer-by
    assert (await chat.press(carl)).text == refusal

    # an admin who did not make the settings and never played may; Борис stays the author
    answer = await chat.press(dana)
    assert not answer.show_alert
    profile = await chat.profile()
    assert profile is not None and profile.variants == {"hand_limit": 8}
    assert profile.owner_id == boris.id

    # the text says who may change them, in the chat's language
    await chat.open_settings(anna)
    shown = h.tg.texts[(GROUP, chat.message)]  # type: ignore[index]
    assert h.tr.t(lang, "settings-hint", games=PLAYER_GAMES) in shown


async def test_an_author_who_no_longer_plays_here_gives_way_to_those_who_do(store: Store) -> None:
    chat = Chat(store)
    h = chat.h
    carl, anna = person(300, "Карл"), person(100, "Анна")
    for user in (carl, anna):
        await h.say(user.id, user, "/start")
    # Карл sits at a lobby here: a player of the chat, he makes the settings
    await h.say(GROUP, carl, "/newgame")
    await chat.open_settings(carl)
    await chat.press(carl)
    profile = await chat.profile()
    assert profile is not None and profile.owner_id == carl.id
    # the lobby is cancelled and Анна opens another: Карл sits nowhere here and
    # played none of the chat's games — his claim lapses
    game = (await h.table(GROUP)).game_no
    lobby = (await store.messages(GROUP))["lobby"]
    await h.press(carl, GROUP, lobby, LobbyCb(action="cancel", game=game).pack())
    await h.say(GROUP, anna, "/newgame")
    refusal = h.tr.t("ru", "err-settings-not-yours")
    assert (await chat.press(carl)).text == refusal
    # Анна, at the table, may change them and becomes their author
    answer = await chat.press(anna)
    assert not answer.show_alert
    profile = await chat.profile()
    assert profile is not None and profile.owner_id == anna.id
    assert profile.variants == {"hand_limit": 8}


async def test_when_telegram_cannot_say_who_is_an_admin_only_the_author_may(store: Store) -> None:
    chat = Chat(store)
    h = chat.h
    anna, boris = person(100, "Анна"), person(101, "Борис")
    await finish_quickly(h, GROUP, anna, [boris, person(102, "Вера")])
    await chat.open_settings(anna)
    await chat.press(anna)
    h.tg.admins.add((GROUP, boris.id))  # Борис is an admin, but Telegram cannot say so
    h.tg.member_lookup_fails = TelegramNetworkError(
        method=GetChatMember(chat_id=GROUP, user_id=boris.id), message="Request timeout error"
    )
    before = await chat.profile()
    answer = await chat.press(boris)
    assert (answer.text, answer.show_alert) == (h.tr.t("ru", "err-settings-not-yours"), True)
    assert await chat.profile() == before
    # the author needs no answer from Telegram
    assert not (await chat.press(anna)).show_alert
    assert await chat.profile() != before
