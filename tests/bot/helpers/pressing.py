"""Two bot processes taking turns pressing through a group's game while Redis
fails under them, and what each press was answered (`Play`): the failover
tests' players."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from aiogram.types import User

from bot.store import StoreUnavailable
from engine import Command, pending
from engine.ai.easy import choose
from tests.bot.harness import Harness, answer_data


@dataclass
class Play:
    """What the presses met: the moves answered as made, in order, and the
    presses answered otherwise (not saved, Redis away)."""

    told: list[Command] = field(default_factory=list)
    told_at: list[float] = field(default_factory=list)
    refused: int = 0
    unreadable: int = 0


async def press_once(h: Harness, users: Sequence[User], play: Play, chat: int) -> bool:
    """The pending decision's person presses its button through `h`; noted in
    `play`. False once the game is over."""
    try:
        table = await h.table(chat)
        if table.state is None or table.status != "playing":
            return False
        decision = pending(table.state)
        if decision is None:
            return False
        message = (await h.store.messages(chat)).get(f"prompt:{decision.seat}")
    except StoreUnavailable:
        message = None
    if message is None:  # Redis away, or the prompt not yet sent again
        play.unreadable += 1
        return True
    user = next(u for u in users if u.id == table.seats[decision.seat].user_id)
    option = choose(table.state.seed + table.version, decision)
    since = len(h.tg.answers())
    await h.press(user, user.id, message, answer_data(table, decision, option))
    answered = h.tg.answers()[since:]
    refusals = {
        h.tr.t(h.defaults.lang, key)
        for key in (
            "err-unavailable",
            "err-store-full",
            "err-store-readonly",
            "err-store-noreplicas",
        )
    }
    if not answered or any(a.show_alert or a.text in refusals for a in answered):
        play.refused += 1
    else:
        play.told.append(Command(seat=decision.seat, decision=decision.id, option=option))
        play.told_at.append(time.monotonic())
    return True


async def players_pressing(
    procs: Sequence[Harness],
    users: Sequence[User],
    play: Play,
    stop: asyncio.Event,
    chat: int,
) -> None:
    """Presses, the two processes taking turns, until `stop` or the game's end;
    between them the clock moves on and a process's timers tick (a save whose
    telling was cut is looked at after `TELLING_CHECK`)."""
    i = 0
    while not stop.is_set():
        if not await press_once(procs[i % 2], users, play, chat):
            return
        with contextlib.suppress(StoreUnavailable):  # the timers wait while Redis is away
            await procs[(i + 1) % 2].tick(0.5)
        i += 1
        await asyncio.sleep(0.1)


async def played_on(
    play: Play, told_before: int, players: asyncio.Task[None], stop: asyncio.Event
) -> None:
    """Until four moves more than `told_before` are told (bounded), then the
    players stop: play went on after what failed under them."""
    async with asyncio.timeout(60):
        while len(play.told) < told_before + 4 and not players.done():
            await asyncio.sleep(0.05)
    stop.set()
    await players
    assert len(play.told) >= told_before + 4, "play went on after the failover"
