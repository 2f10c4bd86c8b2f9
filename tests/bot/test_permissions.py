"""Who may start, cancel or stop a game fails closed: when Telegram cannot say
whether someone is a chat admin (getChatMember errors), only the game's
creator may — a non-creator's /go, the lobby's buttons and /stop are refused
and the lobby or game stays as it was, even for someone who is in fact an admin."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
)
from aiogram.methods import AnswerCallbackQuery, GetChatMember, SendMessage

from bot.store import Store
from bot.store.models import Table
from bot.words.keyboards import LobbyCb, StopCb
from engine import Command
from tests.bot.harness import Harness, people

GROUP = -100818
LOOKUP = GetChatMember(chat_id=GROUP, user_id=1)
FAILURES: dict[str, Callable[[], Exception]] = {
    "400": lambda: TelegramBadRequest(method=LOOKUP, message="Bad Request: CHAT_ADMIN_REQUIRED"),
    "403": lambda: TelegramForbiddenError(method=LOOKUP, message="Forbidden: bot is not a member"),
    "network": lambda: TelegramNetworkError(method=LOOKUP, message="Request timeout error"),
    # a reply aiogram cannot read (not JSON, or not a ChatMember)
    "unreadable": lambda: ClientDecodeError(
        "Failed to deserialize object", ValueError("no status"), {"ok": True, "result": {}}
    ),
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
async def test_when_telegram_cannot_say_who_is_an_admin_only_the_creator_manages_the_game(
    store: Store, failure: str
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    h.tg.admins.add((GROUP, boris.id))  # Борис is an admin, but Telegram cannot say so
    h.tg.member_lookup_fails = FAILURES[failure]()
    refusal = h.tr.t("ru", "err-not-creator")

    async def refused_command(text: str) -> None:
        table = await h.table(GROUP)
        before = len(h.tg.requests)
        await h.say(GROUP, boris, text)
        asked = h.tg.requests[before:]
        assert any(isinstance(r, GetChatMember) for r in asked), "the admin check was skipped"
        replies = [r for r in asked if isinstance(r, SendMessage)]
        assert [r.text for r in replies] == [refusal], f"{text} by Борис was not refused"
        after = await h.table(GROUP)
        assert (after.version, after.status) == (table.version, table.status), f"{text} acted"

    async def refused_press(message_id: int, data: str) -> None:
        table = await h.table(GROUP)
        before = len(h.tg.requests)
        await h.press(boris, GROUP, message_id, data)
        asked = h.tg.requests[before:]
        assert any(isinstance(r, GetChatMember) for r in asked), "the admin check was skipped"
        answers = [r for r in asked if isinstance(r, AnswerCallbackQuery)]
        assert [(a.text, a.show_alert) for a in answers] == [(refusal, True)], data
        after = await h.table(GROUP)
        assert (after.version, after.status) == (table.version, table.status), f"{data} acted"

    # the lobby: /go, the start button, and the other creator's buttons
    await refused_command("/go")
    for action in ("go", "bot", "cancel", "time"):
        await refused_press(lobby, LobbyCb(action=action, game=game).pack())
    table = await h.table(GROUP)
    assert table.status == "lobby" and [s.user_id for s in table.seats] == [anna.id, boris.id]

    # the creator needs no lookup: she starts the game
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    assert (await h.table(GROUP)).status == "playing"

    # the game: /stop, and the confirmation button of the creator's /stop
    await refused_command("/stop")
    await h.say(GROUP, anna, "/stop")
    confirm = h.last_with_button(GROUP, "st:")
    await refused_press(confirm, StopCb(game=game, confirm=True).pack())
    assert (await h.table(GROUP)).status == "playing"

    # once Telegram answers again, the admin may
    h.tg.member_lookup_fails = None
    await h.press(boris, GROUP, confirm, StopCb(game=game, confirm=True).pack())
    assert (await h.table(GROUP)).status == "finished"


async def test_a_retry_after_a_lost_race_checks_again_who_may_manage(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Анна, the lobby's creator, presses «start»; between her read and her
    save another update saves first a change that takes her creatorship away
    (as her own /forgetme in another process does: creator nobody). The
    compare-and-set loses, the retry reads the record again — and on that
    record she may no longer manage the lobby: refused, nothing started."""
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    save = store.save
    raced: list[int] = []

    async def save_after_another(table: Table, commands: Sequence[Command] = ()) -> bool:
        if table.chat_id == GROUP and not raced:
            raced.append(table.version)
            other = await store.load(GROUP)
            assert other is not None
            other.creator_id = 0
            assert await save(other)
        return await save(table, commands)

    monkeypatch.setattr(store, "save", save_after_another)
    before = len(h.tg.requests)
    await h.press(anna, GROUP, lobby, LobbyCb(action="go", game=game).pack())
    assert raced, "the press saved nothing: no race was run"
    answers = [r for r in h.tg.requests[before:] if isinstance(r, AnswerCallbackQuery)]
    refusal = h.tr.t("ru", "err-not-creator")
    assert [(a.text, a.show_alert) for a in answers] == [(refusal, True)]
    table = await h.table(GROUP)
    assert table.status == "lobby" and table.creator_id == 0
    assert table.version == raced[0] + 1  # the other update's save only
