"""A group's updates are handled in the order they arrived, whoever sent them.

aiogram runs every update in a task of its own; `bot.handlers.ordering` keeps
one chat's updates in line. Keyed by the person instead of the chat, two
people's updates to one group would race — the test below holds the first
update inside the store until the second has had every chance to run, so it
fails on that mistake instead of passing by luck. The read held is the
join's own (made from its task): holding whichever read came first could hold
/go's instead, and then the join wins even without the chat's line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bot.handlers.ordering import ChatOrder
from bot.store.memory import MemoryStore
from bot.words.keyboards import LobbyCb
from tests.bot.harness import Harness, people, until

GROUP = -100777


def gate_first_read(
    store: MemoryStore, task: asyncio.Task[Any]
) -> tuple[asyncio.Event, asyncio.Event]:
    """The first record read `task` makes waits for `release`; `reached` is
    set when it begins. Every other read goes through at once."""
    reached, release = asyncio.Event(), asyncio.Event()
    gated = [False]

    def wrap(read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not gated[0] and asyncio.current_task() is task:
                gated[0] = True
                reached.set()
                await release.wait()
            return await read(*args, **kwargs)

        return wrapper

    for name in ("load", "load_with_messages"):
        setattr(store, name, wrap(getattr(store, name)))
    return reached, release


async def test_a_join_press_and_another_persons_go_are_handled_in_arrival_order() -> None:
    store = MemoryStore()
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    lobby, game = await h.open_lobby(GROUP, anna, [boris])
    await h.say(vera.id, vera, "/start")

    join = h.updates.press(vera, GROUP, lobby, LobbyCb(action="join", game=game).pack())
    go = h.updates.message(GROUP, anna, "/go")
    feed = h.app.dispatcher.feed_update
    first = asyncio.create_task(feed(h.app.bot, join))
    second = asyncio.create_task(feed(h.app.bot, go))
    reached, release = gate_first_read(store, first)
    await reached.wait()  # Вера's join is inside the store, reading the lobby
    # /go either waits in the group's line behind the join, or (keyed by
    # anything but the chat) overtakes it and is handled to the end
    [order] = [m for m in h.app.dispatcher.update.outer_middleware if isinstance(m, ChatOrder)]
    await until(lambda: second.done() or order._chats.users(GROUP) == 2)
    assert not second.done(), "/go was handled while the join that came first was still under way"
    release.set()
    await asyncio.gather(first, second)
    await h.settle()

    table = await h.table(GROUP)
    assert table.status == "playing"
    assert [s.name for s in table.seats] == ["Анна", "Борис", "Вера"], (
        "the join that arrived first was handled first: Вера plays"
    )
    await store.close()
