"""The service's one compare-and-set loop (`bot.service.base.until_saved`):
every change — a move, a setting, a rematch, the result marked told — reads,
changes and saves with compare-and-set, and is tried again on what another
saver saved when it loses the race."""

from __future__ import annotations

import pytest

from bot.service.base import CAS_TRIES, Conflict, Refusal, until_saved


class Counter:
    """A record holding a number; each saver adds one to what it read."""

    def __init__(self) -> None:
        self.version = 0
        self.value = 0

    def save(self, expected: int, value: int) -> bool:
        if expected != self.version:
            return False
        self.version += 1
        self.value = value
        return True


async def test_a_change_that_loses_the_race_is_made_again_on_what_the_winner_saved() -> None:
    record = Counter()
    tries: list[int] = []

    async def add_one() -> int | None:
        version, value = record.version, record.value
        tries.append(version)
        if len(tries) == 1:  # another update saves between this read and this save
            assert record.save(version, value + 10)
        return value + 1 if record.save(version, value + 1) else None

    assert await until_saved(add_one, chat_id=1) == 11
    assert record.value == 11  # neither change is lost
    assert tries == [0, 1]


async def test_a_change_that_always_loses_gives_up_after_the_bound() -> None:
    tries: list[int] = []

    async def always_late() -> int | None:
        tries.append(1)
        return None

    with pytest.raises(Conflict):
        await until_saved(always_late, chat_id=1)
    assert len(tries) == CAS_TRIES


async def test_a_refused_change_stops_at_once_and_saves_nothing() -> None:
    record = Counter()
    tries: list[int] = []

    async def refused() -> int | None:
        tries.append(1)
        raise Refusal("err-not-creator")

    with pytest.raises(Refusal) as refusal:
        await until_saved(refused, chat_id=1)
    assert refusal.value.key == "err-not-creator"
    assert tries == [1] and record.version == 0
