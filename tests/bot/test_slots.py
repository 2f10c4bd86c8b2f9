"""Which hash slots each atomic step of the Redis store touches (issue 26,
item 1: Redis Cluster refuses a script, a transaction or a multi-key command
whose keys are in more than one slot — CROSSSLOT).

Every call the store makes to Redis is recorded while a game is played to its
end through the dispatcher (a lobby, presses, the finishing save, the
ratings), and every other store call is made once: a script (its declared
keys), a MULTI/EXEC transaction (with the keys it WATCHed and read while
watching) or a single command is one step. A step's keys are asked of Redis
itself (``COMMAND GETKEYS``) and hashed to their slots.

A chat's keys share the tag ``{<chat>}``, a person's ``{<user id>}``. Every
step touches one slot but the two named in `SPANNING` — each key pattern
they may touch, and why it must stay one step — and no other: a new one fails
here, so the list (and deploy/README.md, "Going to Redis Cluster") is kept
true. The steps that were split to one slot each (delete, subscribe,
set-aside, migrate, migrate_home, forget_user) keep what a cut between their
steps may leave harmless: the tests below cut them there.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from redis.asyncio.client import Pipeline, Redis
from redis.crc import key_slot

from bot.store import StoreUnavailable, UserPrefs
from bot.store.delivery import Delivery
from bot.store.models import Seat, Table
from bot.store.redis import RedisStore
from engine import Command
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness
from tests.bot.helpers.finishing import finish_quickly

GROUP, OTHER, MOVED = -100_262_700, -100_262_701, -100_262_702
STORE_FILE = "bot/store/redis.py"

#: the steps that must touch more than one slot: the store's method and its
#: step → the key patterns it touches (`shape`), and why it cannot be split.
#: Each is a reason Redis Cluster is not a configuration step today
#: (deploy/README.md, "Going to Redis Cluster", says what each would need).
SPANNING: dict[str, set[str]] = {
    # a save: the chat's keys and, in the same script, the global timer zset
    # (written apart from the compare-and-set, two savers' timers can land in
    # the opposite order of their records: a waiting game left with a stale
    # timer or none), the running update's claim (made final with the save:
    # apart, a press pays a round trip more), and — the save that finishes a
    # game only — the replay numbers, the rating queue and each seated
    # person's "played" set (so a finished game is numbered, queued and
    # indexed once, with its save)
    "save: script save": {
        "{chat}:table",
        "{chat}:log",
        "{chat}:msgs",
        "{chat}:history",
        "deadlines",
        "replay:seq",
        "replay:index",
        "rating:queue",
        "update:<id>",
        "user:{user}:played",
    },
    # a rating: the queue's head is the compare-and-set of the figures, taken
    # with the chat's, everyone's and each player's figures in one step —
    # apart, two processes' ratings could interleave and one be lost
    "commit_rating: script rate": {"rating:queue", "{chat}:stats", "stats", "user:{user}:stats"},
}


def shape(key: str, prefix: str) -> str:
    """A key as a pattern: its prefix off, a person's tag `{user}`, a chat's `{chat}`."""
    rest = key[len(prefix) + 1 :] if key.startswith(prefix + ":") else key
    rest = re.sub(r"^user:\{\d+\}", "user:{user}", rest)
    rest = re.sub(r"\{-?\d+\}", "{chat}", rest)  # (a private chat's id is its person's)
    return re.sub(r"^update:\d+$", "update:<id>", rest)


class Steps:
    """Every Redis call of the process, as atomic steps: (name, commands)."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, list[tuple[Any, ...]]]] = []
        self.watching: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        self.scripts: dict[str, str] = {}  # sha → name

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        steps = self
        direct = Redis.execute_command
        execute = Pipeline.execute
        immediate = Pipeline.immediate_execute_command

        async def execute_command(client: Any, *args: Any, **options: Any) -> Any:
            steps.add([args])
            return await direct(client, *args, **options)

        async def immediate_execute_command(pipe: Any, *args: Any, **options: Any) -> Any:
            steps.watching[id(pipe)].append(args)  # WATCH, and the reads while watching
            return await immediate(pipe, *args, **options)

        async def pipeline_execute(pipe: Any, raise_on_error: bool = True) -> Any:
            commands = [args for args, _ in pipe.command_stack]
            watched = steps.watching.pop(id(pipe), [])
            if pipe.is_transaction or pipe.explicit_transaction:
                steps.add([*watched, *commands], transaction=True)
            else:
                for command in commands:
                    steps.add([command])
            return await execute(pipe, raise_on_error)

        monkeypatch.setattr(Redis, "execute_command", execute_command)
        monkeypatch.setattr(Pipeline, "immediate_execute_command", immediate_execute_command)
        monkeypatch.setattr(Pipeline, "execute", pipeline_execute)

    def add(self, commands: list[tuple[Any, ...]], transaction: bool = False) -> None:
        commands = [c for c in commands if str(c[0]).upper() not in ("MULTI", "EXEC")]
        if not commands:
            return
        first = str(commands[0][0]).upper()
        if transaction:
            kind = "MULTI"
        elif first == "EVALSHA":
            kind = f"script {self.scripts.get(str(commands[0][1]), commands[0][1])}"
        else:
            kind = first
        self.steps.append((f"{store_method()}: {kind}", commands))


def store_method() -> str:
    """The `RedisStore` method whose call this is (the outermost public one)."""
    frame = sys._getframe(1)
    name = "?"
    while frame is not None:
        code = frame.f_code
        public = not code.co_name.startswith("_") and code.co_name != "claimed"  # (a wrapper)
        if code.co_filename.endswith(STORE_FILE) and public:
            name = code.co_name
        frame = frame.f_back  # type: ignore[assignment]
    return name


async def keys_of(client: Any, command: tuple[Any, ...]) -> list[str]:
    try:
        found = await client.command_getkeys(*command)
    except Exception:  # a command with no keys (PING, INFO, SCRIPT LOAD, PUBLISH…)
        return []
    return [k.decode() if isinstance(k, bytes) else str(k) for k in found]


async def play_everything(h: Harness, store: RedisStore) -> None:
    """A game to its end through the dispatcher, then every other store call."""
    anna, boris, vera = person(701, "Анна"), person(702, "Борис"), person(703, "Вера")
    await finish_quickly(h, GROUP, anna, [boris, vera])
    await h.app.games.ratings.drain()
    await finish_quickly(h, OTHER, boris, [anna, vera])
    await store.set_aside_rating(await store.rating_head() or f"{OTHER}:1")
    await store.set_aside()
    await store.load_with_messages(GROUP)
    await store.last_game_no(GROUP)
    await store.log(GROUP)
    await store.due(0.0)
    await store.set_messages(GROUP, {"table": 5, "prompt:0": None})
    await store.user(anna.id)
    await store.save_user(UserPrefs(user_id=anna.id, lang="en", started=True))
    await store.user_tables(anna.id)
    await store.link_user(anna.id, GROUP)
    profile = await store.profile(GROUP)
    if profile is not None:
        await store.save_profile(profile)
    await store.history(GROUP)
    await store.game_at(GROUP, 1)
    await store.game_by_number(1)
    await store.stats(GROUP)
    await store.stats(None)
    await store.stat_chats(anna.id)
    await store.subscribe(GROUP, anna.id, "on")
    await store.subscribers(GROUP)
    await store.user_chats(anna.id)
    delivery = Delivery(880_000_001)
    await store.first_delivery(delivery)
    await store.renew_delivery(delivery)
    await store.release_delivery(delivery)
    await store.first_delivery(delivery)
    await store.finish_delivery(delivery)
    await store.claim("tick", 0.0, 5)
    await store.ping()
    await store.count_games()
    await h.open_lobby(MOVED - 1, anna, [boris])  # a lobby to move and one to delete
    await store.migrate(MOVED - 1, MOVED)
    await store.migrate_home(MOVED - 1, MOVED)
    await store.delete(MOVED)
    await store.forget_user(vera.id)


async def test_only_the_listed_steps_span_hash_slots(
    redis_factory: Callable[[], Awaitable[RedisStore]], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await redis_factory()
    steps = Steps()
    steps.scripts = {
        script.sha: name.removeprefix("_").removesuffix("_script")
        for name, script in vars(store).items()
        if name.endswith("_script")
    }
    steps.install(monkeypatch)
    h = Harness(store)
    await play_everything(h, store)
    await h.settle()
    monkeypatch.undo()

    client: Any = store._r
    spanning: dict[str, set[str]] = defaultdict(set)
    seen: set[str] = set()
    for name, commands in steps.steps:
        keys = [k for c in commands for k in await keys_of(client, c)]
        mine = [k for k in keys if k.startswith(store.prefix + ":")]
        if not mine:
            continue
        seen.add(name)
        if len({key_slot(k.encode()) for k in mine}) > 1:
            spanning[name] |= {shape(k, store.prefix) for k in mine}
    assert "save: script save" in seen, sorted(seen)
    assert dict(spanning) == SPANNING, dict(spanning)


# ---------------------------------------------------------------- the split steps, cut between


async def test_a_rating_set_aside_is_listed_once_and_never_for_a_head_that_moved(
    redis_store: RedisStore,
) -> None:
    store = redis_store
    client: Any = store._r
    queue, aside = store._queue_key, f"{store.prefix}:rating:aside"
    await client.rpush(queue, f"{GROUP}:1", f"{GROUP}:2")
    # a head that moved: nothing set aside, nothing listed
    assert not await store.set_aside_rating(f"{GROUP}:2")
    assert await store.set_aside() == []
    # cut after its first step: listed, still at the head — set aside again, listed once
    await store._aside_script(keys=[aside], args=[f"{GROUP}:1", "10"])
    assert await store.set_aside() == [f"{GROUP}:1"]
    assert await store.rating_head() == f"{GROUP}:1"
    assert await store.set_aside_rating(f"{GROUP}:1")
    assert await store.set_aside() == [f"{GROUP}:1"]
    assert await store.rating_head() == f"{GROUP}:2"


async def test_forgetme_cut_before_its_own_keys_finds_the_rest_when_asked_again(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    client: Any = store._r
    anna = 880_000_777
    await store.save_user(UserPrefs(user_id=anna, lang="en", started=True))
    await store.subscribe(GROUP, anna, "on")
    await store.subscribe(OTHER, anna, "on")
    real_delete = client.delete

    async def cut(*keys: Any) -> Any:
        if store._user_key(anna) in keys:
            raise ConnectionError("cut")
        return await real_delete(*keys)

    monkeypatch.setattr(client, "delete", cut)
    with pytest.raises(Exception, match="cut"):
        await store.forget_user(anna)
    monkeypatch.undo()
    # the traces in the chats went first; the index of them is still there
    assert await store.subscribers(GROUP) == {} and await store.subscribers(OTHER) == {}
    assert await store.user_chats(anna) == {GROUP, OTHER}
    await store.forget_user(anna)
    assert await store.user_chats(anna) == set()
    assert not await client.exists(store._user_key(anna))


# ---------------------------------------------------------------- migrate, cut between its steps

OLD, NEW = -100_262_710, -100_262_711
ANNA, BORIS = 880_000_801, 880_000_802
LATER = 1e12  # every timer is due by then


def cmd(seat: int, decision: int) -> Command:
    return Command(seat=seat, decision=decision)


async def a_game_to_move(store: RedisStore) -> Table:
    """A game under way at OLD: two saves (a log of two), message ids, a
    timer, both people linked (Борис to another game too); as loaded."""
    table = Table.model_validate(
        {
            "chat_id": OLD,
            "game_no": 1,
            "title": "Смутное время",
            "creator_id": ANNA,
            "status": "playing",
            "seats": [Seat(user_id=ANNA, name="Анна"), Seat(user_id=BORIS, name="Борис")],
            "created_at": 100.0,
            "updated_at": 100.0,
        }
    )
    assert await store.save(table, [cmd(0, 1)])
    table.reminder, table.deadline = 70.0, 90.0
    assert await store.save(table, [cmd(1, 2)])
    await store.set_messages(OLD, {"table": 301, "prompt:1": 302})
    await store.link_user(ANNA, OLD)
    await store.link_user(BORIS, OLD)
    await store.link_user(BORIS, -77)
    loaded = await store.load(OLD)
    assert loaded is not None and loaded.version == 2
    return loaded


async def moved_whole(
    store: RedisStore,
    table: Table,
    log: list[Command] | None = None,
    ids: dict[str, int] | None = None,
    timer: float = 70.0,
) -> None:
    """The game is under NEW as it stood (same version, log, message ids,
    timer, links, time to live), and nothing is left under OLD."""
    client: Any = store._r
    moved = await store.load(NEW)
    assert moved is not None and moved.chat_id == NEW
    assert moved.model_dump(exclude={"chat_id"}) == table.model_dump(exclude={"chat_id"})
    assert await store.log(NEW) == (log or [cmd(0, 1), cmd(1, 2)])
    assert await store.messages(NEW) == (ids or {"table": 301, "prompt:1": 302})
    assert await client.zscore(store._deadlines_key, str(NEW)) == timer
    assert await client.zscore(store._deadlines_key, str(OLD)) is None
    assert await store.due(LATER) == [NEW]
    assert await store.user_tables(ANNA) == {NEW}
    assert await store.user_tables(BORIS) == {NEW, -77}
    for key in (store._table_key(NEW), store._log_key(NEW), store._msgs_key(NEW)):
        assert 0 < await client.ttl(key) <= store.ttl_of(table), key
    for key in (store._table_key(OLD), store._log_key(OLD), store._msgs_key(OLD)):
        assert not await client.exists(key), key
    assert await store.load(OLD) is None


async def test_migrate_cut_after_the_copy_plays_on_and_moving_again_finishes_it(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    table = await a_game_to_move(store)

    async def cut(*args: Any) -> bool:
        raise ConnectionError("cut")

    monkeypatch.setattr(store, "_migrate_drop", cut)
    with pytest.raises(ConnectionError, match="cut"):
        await store.migrate(OLD, NEW)
    monkeypatch.undo()
    # the new id shows the game; the old one is still it, and only its timer
    # fires (the new id has none yet): nothing acts twice
    copy, old = await store.load(NEW), await store.load(OLD)
    assert copy is not None and old is not None
    assert copy.version == old.version == table.version and copy.chat_id == NEW
    assert await store.due(LATER) == [OLD]
    # the update handled again finishes the move, once
    assert await store.migrate(OLD, NEW)
    await moved_whole(store, table)
    assert await store.migrate(OLD, NEW)  # and again: done already, nothing changes
    await moved_whole(store, table)


async def test_migrate_cut_after_the_copy_then_played_on_keeps_the_new_play(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    await a_game_to_move(store)

    async def cut(*args: Any) -> bool:
        raise ConnectionError("cut")

    monkeypatch.setattr(store, "_migrate_drop", cut)
    with pytest.raises(ConnectionError, match="cut"):
        await store.migrate(OLD, NEW)
    monkeypatch.undo()
    copy = await store.load(NEW)
    assert copy is not None
    copy.deadline, copy.reminder = 150.0, None
    assert await store.save(copy, [cmd(0, 3)])  # played on under the new id
    assert await store.migrate(OLD, NEW)
    await moved_whole(store, copy, log=[cmd(0, 1), cmd(1, 2), cmd(0, 3)], timer=150.0)


async def test_migrate_cut_after_the_old_delete_loses_no_timer_once_moved_again(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    table = await a_game_to_move(store)

    async def cut(*args: Any) -> None:
        raise ConnectionError("cut")

    monkeypatch.setattr(store, "_migrate_links_and_timer", cut)
    with pytest.raises(ConnectionError, match="cut"):
        await store.migrate(OLD, NEW)
    monkeypatch.undo()
    assert await store.load(OLD) is None
    moved = await store.load(NEW)
    assert moved is not None and moved.version == table.version
    # the old id's timer is not fired: its record is gone (`due` drops it)
    assert await store.due(LATER) == []
    assert await store.migrate(OLD, NEW)  # not refused: the new id holds our copy
    await moved_whole(store, table)


async def test_migrate_cut_after_the_timer_move_links_the_people_once_moved_again(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    table = await a_game_to_move(store)
    execute = Pipeline.execute

    async def cut_at_the_links(pipe: Any, raise_on_error: bool = True) -> Any:
        relinks = [i for i, (args, _) in enumerate(pipe.command_stack) if args[0] == "EVAL"]
        if not relinks:
            return await execute(pipe, raise_on_error)
        del pipe.command_stack[relinks[0] :]
        await execute(pipe, raise_on_error)
        raise ConnectionError("cut")

    monkeypatch.setattr(Pipeline, "execute", cut_at_the_links)
    with pytest.raises(StoreUnavailable, match="cut"):
        await store.migrate(OLD, NEW)
    monkeypatch.undo()
    assert await store.due(LATER) == [NEW]
    assert await store.user_tables(ANNA) == {OLD}
    assert await store.migrate(OLD, NEW)
    await moved_whole(store, table)


@pytest.mark.parametrize("what", ["a move", "message ids"])
@pytest.mark.parametrize("before", ["_migrate_copy", "_migrate_drop"])
async def test_migrate_carries_what_lands_on_the_old_id_mid_move(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch, before: str, what: str
) -> None:
    """A move, or new message ids (set without a save), land on the old id
    after the move read it (before its copy, or between the copy and
    the old's delete): they end up under the new id — the old record is
    deleted only at the version and the message ids copied."""
    store = redis_store
    table = await a_game_to_move(store)
    log, ids = [cmd(0, 1), cmd(1, 2)], {"table": 301, "prompt:1": 302}
    step = getattr(store, before)
    landed: list[bool] = []

    async def lands_first(*args: Any) -> Any:
        if not landed:
            if what == "a move":
                table.turn_log.append("move")
                landed.append(await store.save(table, [cmd(0, 3)]))
                log.append(cmd(0, 3))
            else:
                landed.append(True)
                await store.set_messages(OLD, {"prompt:1": 303})  # a prompt sent anew
                ids["prompt:1"] = 303
        return await step(*args)

    monkeypatch.setattr(store, before, lands_first)
    assert await store.migrate(OLD, NEW)
    monkeypatch.undo()
    assert landed == [True]
    await moved_whole(store, table, log=log, ids=ids)


async def test_migrate_sets_the_timer_of_a_save_made_under_the_new_id_mid_move(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A press in the new group saves the copy (a later deadline) before the
    move sets the new id's timer from the copy as it was: the move reads the
    record again and sets the timer the save needs — not the copy's."""
    store = redis_store
    await a_game_to_move(store)
    drop = store._migrate_drop
    saved: list[Table] = []

    async def then_a_press(*args: Any) -> bool:
        dropped = await drop(*args)
        copy = await store.load(NEW)
        assert copy is not None
        copy.deadline, copy.reminder = 150.0, None
        assert await store.save(copy, [cmd(0, 3)])
        saved.append(copy)
        return dropped

    monkeypatch.setattr(store, "_migrate_drop", then_a_press)
    assert await store.migrate(OLD, NEW)
    monkeypatch.undo()
    await moved_whole(store, saved[0], log=[cmd(0, 1), cmd(1, 2), cmd(0, 3)], timer=150.0)
