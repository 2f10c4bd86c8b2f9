"""A press's callback data is unpacked once for the whole update
(`bot.handlers.presses`): the update's first middleware reads it, every
router's filter only looks at its kind and fields."""

from __future__ import annotations

import pytest
from aiogram import F
from aiogram.filters.callback_data import CallbackData

from bot.handlers.presses import KINDS, PRESS, Pressed, unpack
from bot.store import Store
from bot.words.keyboards import LobbyCb, PromptCb, SettingsCb
from tests.bot.harness import Harness, people

GROUP = -100424242


def test_every_kind_reads_its_own_data_back() -> None:
    lobby = LobbyCb(action="join", game=3)
    prompt = PromptCb(chat=GROUP, game=1, decision=7, option=2, depth=0)
    settings = SettingsCb(what="hints")
    for cb in (lobby, prompt, settings):
        assert unpack(cb.pack()) == cb
    assert len(KINDS) == len({kind.__prefix__ for kind in KINDS.values()})


@pytest.mark.parametrize("data", [None, "", "zz:1", "lb:join", "lb:join:x", "p:1:2", "lb"])
def test_data_no_kind_reads_is_none(data: str | None) -> None:
    assert unpack(data) is None


async def test_a_filter_takes_its_kind_and_rule_from_the_press_already_unpacked() -> None:
    join = LobbyCb(action="join", game=3)
    go = Pressed(LobbyCb, F.action == "go")
    joining = Pressed(LobbyCb, F.action == "join")
    prompt = Pressed(PromptCb)

    class Query:  # what a filter reads of the press: its data
        data = "lb:this text is not read: the press is unpacked already"

    assert await joining(Query(), **{PRESS: join}) == {"callback_data": join}  # type: ignore[arg-type]
    assert await go(Query(), **{PRESS: join}) is False  # type: ignore[arg-type]
    assert await prompt(Query(), **{PRESS: join}) is False  # type: ignore[arg-type]
    assert await joining(Query(), **{PRESS: None}) is False  # type: ignore[arg-type]


async def test_a_lobby_press_is_unpacked_once_whichever_handler_takes_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    message, game = await h.open_lobby(GROUP, anna, [boris])
    unpacked: list[str] = []
    real = CallbackData.unpack.__func__  # type: ignore[attr-defined]

    def counted(cls: type[CallbackData], value: str) -> CallbackData:
        unpacked.append(value)
        return real(cls, value)  # type: ignore[no-any-return]

    monkeypatch.setattr(CallbackData, "unpack", classmethod(counted))
    data = LobbyCb(action="hints", game=game).pack()  # the last of the lobby's handlers
    await h.press(anna, GROUP, message, data)
    assert unpacked == [data]
    assert (await h.table(GROUP)).hints


def test_no_handler_filter_hops_to_a_thread() -> None:
    """aiogram runs a filter that is not a coroutine (a bare ``F…``) in a
    worker thread, for every handler it is tried on: each of the bot's is
    checked on the event loop (`Pressed`, `Inline`, aiogram's own filters)."""
    from bot.store.memory import MemoryStore

    dispatcher = Harness(MemoryStore()).app.dispatcher
    checked = 0
    routers = [dispatcher]
    while routers:
        router = routers.pop()
        routers.extend(router.sub_routers)
        for observer in router.observers.values():
            for handler in observer.handlers:
                for f in handler.filters or ():
                    assert f.awaitable, f"{router.name}: {handler.callback.__name__} {f.callback!r}"
                    checked += 1
            for f in observer._handler.filters or ():
                assert f.awaitable, f"{router.name}: {f.callback!r}"
                checked += 1
    assert checked > 30
