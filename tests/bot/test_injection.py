"""Handlers take what they use by name from the dispatcher's data — a
service part (``play``, ``lobby``…), the ``courier`` that answers and carries
out, the ``tr`` — the way aiogram injects it; none takes the whole service
(`Games`) to fish its parts out of it."""

from __future__ import annotations

from aiogram import Dispatcher, Router

from bot.service.games import Games
from bot.store.memory import MemoryStore
from tests.bot.harness import Harness

#: what aiogram itself gives a handler beside the dispatcher's data
FROM_AIOGRAM = {"bot", "event_router", "event_update", "event_chat", "event_from_user",
                "event_context", "handler", "raw_state", "command", "callback_data",
                "event_thread_id", "event_business_connection_id", "update"}  # fmt: skip


def handlers(dispatcher: Dispatcher) -> list[tuple[str, str, set[str]]]:
    """Every handler of the dispatcher: its router, its name and its parameters."""
    found = []
    routers: list[Router] = [dispatcher]
    while routers:
        router = routers.pop()
        routers.extend(router.sub_routers)
        for observer in router.observers.values():
            for handler in observer.handlers:
                found.append((router.name, handler.callback.__name__, set(handler.params)))
    return found


def test_no_handler_takes_the_whole_service() -> None:
    dispatcher = Harness(MemoryStore()).app.dispatcher
    every = handlers(dispatcher)
    assert len(every) > 40
    takers = [f"{router}: {name}" for router, name, params in every if "games" in params]
    assert takers == []


def test_every_name_a_handler_takes_is_in_the_dispatcher_s_data() -> None:
    """A part a handler names that the dispatcher does not give would fail
    only when a person presses its button: checked here for all at once."""
    dispatcher = Harness(MemoryStore()).app.dispatcher
    given = set(dispatcher.workflow_data) | FROM_AIOGRAM
    for router, name, params in handlers(dispatcher):
        event = params - given
        # the event itself comes first, under the name the handler gives it
        assert len(event) <= 1, f"{router}: {name} takes {sorted(event)}, not given"


def test_the_parts_are_the_service_s_own() -> None:
    harness = Harness(MemoryStore())
    games: Games = harness.app.games
    data = harness.app.dispatcher.workflow_data
    assert data["play"] is games.play and data["lobby"] is games.lobby
    assert data["courier"].carrier is harness.app.telling.carrier
