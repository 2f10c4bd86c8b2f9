"""The one change helper (`Records.change`, `Records.attempt`): the record's
status, its game number and who may manage it are checked on every record the
compare-and-set loop loads — so on the record it saves — and a refusal comes
back typed: a `Refusal`, or from `attempt` the alert that answers the person."""

from __future__ import annotations

import pytest

from bot.service.base import Changed, Records, Refusal, Reply
from bot.store.memory import MemoryStore
from bot.store.models import Table
from engine import Command

CHAT, CREATOR, ADMIN, MEMBER = -100, 1, 2, 3


class Clock:
    def now(self) -> float:
        return 1000.0


async def is_admin(chat_id: int, user_id: int) -> bool:
    return user_id == ADMIN


def lobby(game_no: int, version: int = 0) -> Table:
    return Table(chat_id=CHAT, game_no=game_no, title="t", creator_id=CREATOR, version=version)


def retitled(t: Table) -> list[Command]:
    t.title = "changed"
    return []


async def records_with_lobby() -> tuple[Records, MemoryStore]:
    store = MemoryStore(clock=Clock().now)
    assert await store.save(lobby(1))
    return Records(store, Clock(), is_admin), store


async def test_a_change_comes_back_typed() -> None:
    records, store = await records_with_lobby()
    done = await records.change(CHAT, retitled, status="lobby", game=1, manager=CREATOR)
    assert isinstance(done, Changed)
    assert done.table.title == "changed" and done.ids == {}
    saved = await store.load(CHAT)
    assert saved is not None and saved.title == "changed"


@pytest.mark.parametrize(
    ("checks", "key"),
    [
        ({"game": 2}, "err-old-game"),
        ({"game": 2, "stale": "err-no-lobby"}, "err-no-lobby"),
        ({"status": "playing"}, "err-old-game"),
        ({"manager": MEMBER}, "err-not-creator"),
        # the record's own state first, then who asks
        ({"status": "playing", "manager": MEMBER}, "err-old-game"),
    ],
)
async def test_a_check_that_fails_saves_nothing(checks: dict[str, object], key: str) -> None:
    records, store = await records_with_lobby()
    with pytest.raises(Refusal) as refused:
        await records.change(CHAT, retitled, **checks)  # type: ignore[arg-type]
    assert refused.value.key == key
    got = await records.attempt(CHAT, retitled, **checks)  # type: ignore[arg-type]
    assert got == Reply(key, alert=True)
    saved = await store.load(CHAT)
    assert saved is not None and saved.title == "t"


async def test_the_creator_and_an_admin_may_manage() -> None:
    records, _ = await records_with_lobby()
    for user_id in (CREATOR, ADMIN):
        assert isinstance(await records.attempt(CHAT, retitled, manager=user_id), Changed)


async def test_a_missing_record() -> None:
    records = Records(MemoryStore(clock=Clock().now), Clock(), is_admin)
    assert await records.attempt(CHAT, retitled) == Reply("err-no-game", alert=True)
    expected = Reply("err-no-lobby", alert=True)
    assert await records.attempt(CHAT, retitled, status="lobby", stale="err-no-lobby") == expected


async def test_the_checks_hold_for_the_record_saved() -> None:
    """The caller's record (game 1) passes the checks, but another update saved
    game 2 first: the retry loads game 2, and the check refuses it."""
    records, store = await records_with_lobby()
    old = await store.load(CHAT)
    assert old is not None
    assert await store.save(lobby(2, version=old.version))
    got = await records.attempt(CHAT, retitled, (old, {}), game=1, stale="err-no-lobby")
    assert got == Reply("err-no-lobby", alert=True)
    saved = await store.load(CHAT)
    assert saved is not None and (saved.game_no, saved.title) == (2, "t")
