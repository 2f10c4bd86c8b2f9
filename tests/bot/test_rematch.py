"""The end of a game and «Ещё партию».

The position: Анна plays the last action of the last turn; Анна (🔴 Лорд +
Паж + Рыцарь with a castle: 6 + 3) and Борис (🔵 Лорд, Паж, Рыцарь, Паж: 7 +
… no castle, 7) — see `LAST_ACTION`; a computer sits at the table too. The
result shows each score broken down and a «Ещё партию» button; pressing it
opens one new lobby in the group with the presser and the computer seated and
the other people invited in private (their button seats them).
"""

from __future__ import annotations

from aiogram.methods import AnswerCallbackQuery, SendMessage
from aiogram.types import InlineKeyboardMarkup

from bot.store import Store
from bot.store.memory import MemoryStore
from bot.words.keyboards import LobbyCb, RematchCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness
from tests.bot.helpers.rematches import GROUP, finished_game


def alerts(h: Harness, since: int) -> list[str]:
    return [r.text or "" for r in h.tg.requests[since:] if isinstance(r, AnswerCallbackQuery)]


async def test_the_result_breaks_every_score_down(store: Store) -> None:
    h = Harness(store)
    _, result = await finished_game(h)
    text = h.tg.texts[(GROUP, result)]
    lines = text.split("\n")
    tr = h.tr
    finished = await h.table(GROUP)
    name = h.app.games.render.name
    # Анна: 🔴 Лорд 3 + Паж 1 + Рыцарь 2 = 6, and a castle: 3
    anna = tr.t(
        "ru", "result-line", player=name("ru", finished, 0), points=9, cards=6, castles=1, each=3
    )
    # Борис: 3 + 1 + 1 + 2 = 7, no castle — said so
    boris = tr.t(
        "ru", "result-line", player=name("ru", finished, 1), points=7, cards=7, castles=0, each=3
    )
    assert lines[1] == anna and lines[2] == boris
    assert "замков нет" in boris
    labels = [t for t, _ in h.buttons(GROUP, result)]
    assert labels == [tr.t("ru", "btn-rematch")]


async def test_play_again_opens_one_lobby_with_the_same_people_invited(store: Store) -> None:
    h = Harness(store)
    (anna, boris, vera), result = await finished_game(h)
    data = h.buttons(GROUP, result)[0][1]
    old_no = (await h.table(GROUP)).game_no

    since = len(h.tg.requests)
    await h.press(boris, GROUP, result, data)
    lobby = await h.table(GROUP)
    assert lobby.status == "lobby" and lobby.game_no == old_no + 1
    # the presser sits, the computer sits at its level, the others are invited
    assert [s.user_id for s in lobby.seats] == [boris.id, None]
    assert lobby.seats[1].level == "normal"
    invites = [
        r
        for r in h.tg.requests[since:]
        if isinstance(r, SendMessage) and r.chat_id in (anna.id, vera.id)
    ]
    assert sorted(r.chat_id for r in invites) == sorted([anna.id, vera.id])
    assert not any(
        isinstance(r, SendMessage) and r.chat_id == boris.id for r in h.tg.requests[since:]
    )
    for invite in invites:
        assert "Борис" in invite.text
        markup = invite.reply_markup
        assert isinstance(markup, InlineKeyboardMarkup)
        url = markup.inline_keyboard[0][0].url or ""
        assert url.endswith(f"start=join_{GROUP}_{lobby.game_no}")
    # the invitation's button: /start with its payload seats Анна
    await h.say(anna.id, anna, f"/start join_{GROUP}_{lobby.game_no}")
    assert (await h.table(GROUP)).seat_of(anna.id) is not None

    # pressed again (by Вера): the same lobby, now with her in it — never a second one
    await h.press(vera, GROUP, result, data)
    again = await h.table(GROUP)
    assert again.game_no == lobby.game_no and again.status == "lobby"
    assert {boris.id, anna.id, vera.id} <= {s.user_id for s in again.seats}
    # and once more by Борис: still one lobby, he is told he sits already
    since = len(h.tg.requests)
    await h.press(boris, GROUP, result, data)
    assert (await h.table(GROUP)).game_no == lobby.game_no
    assert alerts(h, since) == [h.tr.t("ru", "err-already-joined")]
    # nothing private reached the group
    group = [r.text for r in h.tg.sent(GROUP)]
    assert not any("join_" in (t or "") for t in group)


async def test_a_stranger_cannot_start_a_rematch(store: Store) -> None:
    h = Harness(store)
    _, result = await finished_game(h)
    stranger = person(999, "Чужой")
    await h.say(stranger.id, stranger, "/start")
    before = await h.table(GROUP)
    since = len(h.tg.requests)
    await h.press(stranger, GROUP, result, h.buttons(GROUP, result)[0][1])
    assert alerts(h, since) == [h.tr.t("ru", "rematch-not-yours")]
    after = await h.table(GROUP)
    assert after.status == "finished" and after.version == before.version


async def test_a_rematch_of_a_game_that_is_gone_says_so() -> None:
    # the finished record expired (the store forgot the chat's game)
    h = Harness(MemoryStore())
    (anna, _, _), result = await finished_game(h)
    data = h.buttons(GROUP, result)[0][1]
    await h.store.delete(GROUP)
    since = len(h.tg.requests)
    await h.press(anna, GROUP, result, data)
    assert alerts(h, since) == [h.tr.t("ru", "rematch-gone")]
    assert await h.store.load(GROUP) is None

    # a newer game came and went since: an old result's button says the same
    h = Harness(MemoryStore())
    (anna, _, _), result = await finished_game(h)
    data = h.buttons(GROUP, result)[0][1]
    old = RematchCb.unpack(data).game
    await h.say(GROUP, anna, "/newgame")
    lobby = (await h.store.messages(GROUP))["lobby"]
    await h.press(anna, GROUP, lobby, LobbyCb(action="cancel", game=old + 1).pack())
    await h.say(GROUP, anna, "/newgame")
    since = len(h.tg.requests)
    await h.press(anna, GROUP, result, data)
    assert alerts(h, since) == [h.tr.t("ru", "rematch-gone")]
    assert (await h.table(GROUP)).game_no == old + 2


async def test_a_forged_rematch_button_in_a_private_chat_changes_nothing(store: Store) -> None:
    h = Harness(store)
    (anna, _, _), _ = await finished_game(h)
    before = await h.table(GROUP)
    since = len(h.tg.requests)
    await h.press(anna, anna.id, 1, RematchCb(game=before.game_no).pack())
    assert alerts(h, since) == [h.tr.t("ru", "err-bad-button")]
    assert (await h.table(GROUP)).version == before.version


async def test_play_again_seats_only_the_people_of_that_game(store: Store) -> None:
    """Once the rematch is open, its button seats those who played — someone
    who did not is told it is not theirs, in their language, and sits nowhere."""
    h = Harness(store)
    (anna, boris, _vera), result = await finished_game(h)
    data = h.buttons(GROUP, result)[0][1]
    await h.press(anna, GROUP, result, data)  # Анна opens the rematch
    for lang in ("ru", "en"):
        stranger = person(900 + len(lang), "Чужой", lang)
        await h.say(stranger.id, stranger, "/start")
        before = await h.table(GROUP)
        since = len(h.tg.requests)
        await h.press(stranger, GROUP, result, data)
        assert alerts(h, since) == [h.tr.t(lang, "rematch-not-yours")]
        after = await h.table(GROUP)
        assert after.seat_of(stranger.id) is None and after.version == before.version
    await h.press(boris, GROUP, result, data)
    assert (await h.table(GROUP)).seat_of(boris.id) is not None
