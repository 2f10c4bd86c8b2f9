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
step touches one slot but those named in `SPANNING` (none now: a step that
must span slots would be listed there with the key patterns it touches and
why) — a new one fails here, so the list (and deploy/README.md, "Going to
Redis Cluster") is kept true. The steps that were split to one slot each
(the save's timer and claim, delete, subscribe, set-aside, migrate,
migrate_home, forget_user, the rating commit) keep what a cut between their
steps may leave harmless: the tests below cut them there.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
import redis.exceptions
from redis.asyncio.client import Pipeline, Redis
from redis.crc import key_slot

from bot.service.ratings import Ratings
from bot.store import PUBLISH_BATCH, Store, StoreUnavailable, UserPrefs
from bot.store import delivery as delivery_module
from bot.store.delivery import Delivery
from bot.store.memory import MemoryStore
from bot.store.models import TELLING_CHECK, ChatProfile, PlayerStats, Seat, Table
from bot.store.redis import RedisStore
from bot.store.redis.guard import as_str
from engine import Command, Event
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, shared_translator
from tests.bot.helpers.finishing import _finish, _finish_game, _finished_table, finish_quickly

GROUP, OTHER, MOVED = -100_262_700, -100_262_701, -100_262_702
STORE_DIR = "/bot/store/redis/"  # the package's modules, one a concern

#: the steps that must touch more than one slot: the store's method and its
#: step → the key patterns it touches (`shape`), and why it cannot be split.
#: Each is a reason Redis Cluster is not a configuration step today
#: (deploy/README.md, "Going to Redis Cluster", says what each would need).
SPANNING: dict[str, set[str]] = {
    # none: a save is the chat's keys alone; the timers' index and the update's
    # claim follow it, a step each (`RedisStore.save`, `RedisStore.due`)
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
        if STORE_DIR in code.co_filename and public:
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
    client: Any = store._r
    await client.zadd(store._deadlines_key, {str(MOVED - 9): 1.0})  # its record is gone
    await store.due(2.0)
    await store.publish_finished(older_than=0)
    await store.set_messages(GROUP, {"table": 5, "prompt:0": None})
    await store.user(anna.id)
    await store.save_user(UserPrefs(user_id=anna.id, lang="en", started=True))
    await store.user_tables(anna.id)
    await store.link_user(anna.id, GROUP)
    profile = await store.profile(GROUP)
    if profile is not None:
        await store.save_profile(profile)
    await store.save_profile(ChatProfile(chat_id=OTHER, owner_id=anna.id))  # with its author
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
    await store.once_within("tick", 0.0, 5)
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


async def lost(*args: Any, **kwargs: Any) -> Any:
    """A store step cut by a lost connection (monkeypatched in)."""
    raise ConnectionError("cut")


async def migrate_cut_at(store: RedisStore, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """`migrate(OLD, NEW)` cut by a lost connection at its step `step`."""
    monkeypatch.setattr(store, step, lost)
    with pytest.raises(ConnectionError, match="cut"):
        await store.migrate(OLD, NEW)
    monkeypatch.undo()


async def played_in(store: RedisStore, user_id: int) -> set[int]:
    client: Any = store._r
    return {int(c) for c in await client.smembers(store._user_set_key(user_id, "played"))}


async def numbers_of(store: RedisStore, ref: str) -> list[int]:
    client: Any = store._r
    index = await client.hgetall(f"{store.prefix}:replay:index")
    return sorted(int(n) for n, r in index.items() if r.decode() == ref)


async def a_finishing_save_cut_before_its_publishing(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of two people and a computer saved as finished, the connection
    lost right after the save: the publishing (`_publish`) never runs — a save
    all the same (told as made: True), its mark left for the sweep."""
    table = _finished_table(GROUP, (701, 702))
    assert await store.save(table)

    monkeypatch.setattr(store, "_publish", lost)
    assert await _finish(store, table)
    monkeypatch.undo()
    client: Any = store._r
    assert await client.zcard(store._unpublished_key) == 1


async def test_a_finished_game_cut_after_its_save_is_published_once_by_the_sweep(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    client: Any = store._r
    ref = f"{GROUP}:1"
    await a_finishing_save_cut_before_its_publishing(store, monkeypatch)
    # the save stands — the game is in its chat's history — but has no /replay
    # number, no place in the rating queue, no player's index yet
    got = await store.game_at(GROUP, 1)
    assert got is not None
    record = got[0]
    assert record.counted and record.number == 0
    assert await store.rating_head() is None
    assert GROUP not in await played_in(store, 701)
    # too soon for the sweep (the save's own publishing may be under way)
    assert await store.publish_finished() == 0
    assert await store.publish_finished(older_than=0) == 1
    got = await store.game_at(GROUP, 1)
    assert got is not None and got[0].number > 0
    number = got[0].number
    assert await numbers_of(store, ref) == [number]
    by_number = await store.game_by_number(number)
    assert by_number is not None and by_number[0].game_no == 1
    assert [x.decode() for x in await client.lrange(store._queue_key, 0, -1)] == [ref]
    assert GROUP in await played_in(store, 701) and GROUP in await played_in(store, 702)
    # published again (a process cut after publishing, before its mark went):
    # the same number, queued once; the mark is gone
    await store._publish(record, GROUP, fresh=False)
    assert await store.publish_finished(older_than=0) == 0
    again = await store.game_at(GROUP, 1)
    assert again is not None and again[0].number == number
    assert await numbers_of(store, ref) == [number]
    assert [x.decode() for x in await client.lrange(store._queue_key, 0, -1)] == [ref]


async def test_publishers_racing_give_a_game_one_number_and_one_place_in_the_queue(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = redis_store
    client: Any = store._r
    ref = f"{GROUP}:1"
    await a_finishing_save_cut_before_its_publishing(store, monkeypatch)
    got = await store.game_at(GROUP, 1)
    assert got is not None
    record = got[0]
    await asyncio.gather(
        store._publish(record, GROUP, fresh=False),
        store._publish(record, GROUP, fresh=False),
        store.publish_finished(older_than=0),
    )
    got = await store.game_at(GROUP, 1)
    assert got is not None and got[0].number > 0
    # each publisher was given a number; the one written first stays, the
    # others went back out of the index
    assert await numbers_of(store, ref) == [got[0].number]
    assert [x.decode() for x in await client.lrange(store._queue_key, 0, -1)] == [ref]


async def test_a_finishing_save_that_lost_its_race_leaves_nothing_to_publish(
    redis_store: RedisStore,
) -> None:
    store = redis_store
    table = _finished_table(GROUP, (701, 702))
    assert await store.save(table)
    stale = table.model_copy(deep=True)
    assert await _finish(store, table)  # the winner publishes its game
    assert await store.publish_finished(older_than=0) == 0
    stale.status = "finished"
    assert not await store.save(stale)  # marked, then lost the compare-and-set
    assert await store.publish_finished(older_than=0) == 0
    client: Any = store._r
    assert await client.zcard(store._unpublished_key) == 0
    assert await store.rating_head() == f"{GROUP}:1"
    assert len(await numbers_of(store, f"{GROUP}:1")) == 1


async def test_due_drops_a_timer_whose_record_is_gone_unless_a_save_gave_it_a_new_time(
    redis_store: RedisStore,
) -> None:
    store = redis_store
    client: Any = store._r
    deadlines = store._deadlines_key
    await client.zadd(deadlines, {str(GROUP): 10.0})
    assert await store.due(20.0) == []
    assert await client.zscore(deadlines, str(GROUP)) is None
    # `due` read the entry at 10, then a save lowered it to 5: kept
    await client.zadd(deadlines, {str(GROUP): 5.0})
    assert await store._retime_script(keys=[deadlines], args=[str(GROUP), "10.0", ""]) == 0
    assert await client.zscore(deadlines, str(GROUP)) == 5.0
    assert await store._retime_script(keys=[deadlines], args=[str(GROUP), "5.0", "40.0"]) == 1
    assert await client.zscore(deadlines, str(GROUP)) == 40.0


def timed(chat: int, reminder: float | None, deadline: float | None, version: int = 0) -> Table:
    table = Table(chat_id=chat, game_no=1, creator_id=ANNA, status="playing", version=version)
    table.reminder, table.deadline = reminder, deadline
    return table


async def test_a_save_lowers_the_timers_index_and_due_raises_it_to_the_record(
    redis_store: RedisStore,
) -> None:
    """The save writes the timer in its record; the index after it only goes
    down, so a later timer is found by `due` at the old time, not fired, and
    the entry raised to the record's; a timer taken away takes the entry out."""
    store = redis_store
    client: Any = store._r
    deadlines = store._deadlines_key
    table = timed(GROUP, 20.0, 30.0)
    table.updated_at = 100.0  # (its telling check, `TELLING_CHECK` on, falls after these)
    assert await store.save(table)
    assert await client.zscore(deadlines, str(GROUP)) == 20.0
    table.reminder, table.deadline = 60.0, 90.0  # the next turn
    assert await store.save(table)
    assert await client.zscore(deadlines, str(GROUP)) == 20.0  # a lower bound
    assert await store.due(25.0) == []  # not fired: the record's timer is 60
    assert await client.zscore(deadlines, str(GROUP)) == 60.0
    assert await store.due(61.0) == [GROUP]
    table.reminder = table.deadline = None  # the game waits for nobody
    assert await store.save(table)
    assert await store.due(61.0) == []
    assert await client.zscore(deadlines, str(GROUP)) is None


async def test_a_save_between_dues_two_reads_keeps_its_timer(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`due` read the record (timer 60) and is about to raise the entry from
    20; a save meanwhile gives the record 30 — its lowering came before the
    raise (and changed nothing: 30 > 20). The second read finds it: 30 is kept,
    and fires at 30, not at 60."""
    store = redis_store
    client: Any = store._r
    table = timed(GROUP, 20.0, 30.0)
    assert await store.save(table)
    table.reminder, table.deadline = 60.0, 90.0
    assert await store.save(table)
    reads = store._timers_of

    async def a_save_after_the_first_read(chats: Sequence[int]) -> list[str]:
        got = await reads(chats)
        monkeypatch.setattr(store, "_timers_of", reads)
        table.reminder, table.deadline = 30.0, 90.0
        assert await store.save(table)
        return got

    monkeypatch.setattr(store, "_timers_of", a_save_after_the_first_read)
    assert await store.due(25.0) == []
    assert await client.zscore(store._deadlines_key, str(GROUP)) == 30.0
    assert await store.due(31.0) == [GROUP]


async def test_a_saves_follow_up_cut_on_a_cluster_is_sent_again_next_tick(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a cluster a save's follow-ups go after its answer, a round trip of
    their own: one cut there (a lost connection) leaves the save made and
    told, and the next tick's `due` sends them again — the timer is not left
    to wait for the next save."""
    store = redis_store
    store.one_node = False  # the cluster's order of steps, on one node
    client: Any = store._r
    pipelined = store._pipelined
    cut: list[bool] = []

    async def cut_once(commands: Sequence[tuple[str, ...]]) -> None:
        if not cut:
            cut.append(True)
            raise redis.exceptions.ConnectionError("cut")
        await pipelined(commands)

    monkeypatch.setattr(store, "_pipelined", cut_once)
    assert await store.save(timed(GROUP, 20.0, 30.0))
    assert cut and await client.zscore(store._deadlines_key, str(GROUP)) is None
    assert await store.due(10.0) == []
    assert await client.zscore(store._deadlines_key, str(GROUP)) == 20.0
    assert await store.due(21.0) == [GROUP]


async def test_a_saves_claim_is_final_only_when_the_save_is_made(
    redis_store: RedisStore,
) -> None:
    """The update's claim follows its first save: made final with it (a
    redelivery finds it handled), and given back to the handling as its lease
    when the save lost its compare-and-set (the retry that follows still holds it)."""
    store = redis_store
    client: Any = store._r
    assert await store.save(timed(GROUP, None, None))
    delivery = delivery_module.begin(880_000_002)
    try:
        assert await store.load(GROUP) is not None  # the claim, with the first read
        assert delivery.won
        assert not await store.save(timed(GROUP, None, 50.0, version=7))  # lost
        assert as_str(await client.get(store._update_key(880_000_002))) == delivery.token
        assert delivery.finishable
        assert await store.save(timed(GROUP, None, 50.0, version=1))
        assert not delivery.finishable
    finally:
        delivery_module.end(delivery)
    again = Delivery(880_000_002)
    assert await store.first_delivery(again) == "done"


# ------------------------------------------------------------ the rating commit, cut between

RATED = (881, 882, 883)
Stats = dict[str, PlayerStats]
#: the overall figures, the two chats', and where each person has figures
Figures = tuple[Stats, Stats, Stats, list[set[int]]]


class Killed(BaseException):
    """The process dies here: nothing of it catches this (a kill, not an error)."""


async def queue_games(store: Store) -> None:
    """Three finished games waiting to be rated, in two chats, each person in
    two of them and a computer level in all: every game moves figures the
    next one reads."""
    a, b, c = RATED
    await _finish_game(store, GROUP, 1, (a, b))
    await _finish_game(store, OTHER, 1, (b, c))
    await _finish_game(store, GROUP, 2, (c, a))


async def figures(store: Store) -> Figures:
    return (
        await store.stats(None),
        await store.stats(GROUP),
        await store.stats(OTHER),
        [await store.stat_chats(u) for u in RATED],
    )


async def rated_without_cuts() -> Figures:
    """The figures of the same games rated by one process, never cut."""
    store = MemoryStore()
    await queue_games(store)
    assert await Ratings(store, shared_translator()).drain() == 3
    return await figures(store)


async def all_rated_once(store: RedisStore) -> None:
    """Every figure as one uncut process leaves it: each game counted once."""
    assert await store.rating_head() is None
    got = await figures(store)
    assert got == await rated_without_cuts()
    overall = got[0]
    assert overall["cstrong"].games == 3
    assert [overall[f"u{u}"].games for u in RATED] == [2, 2, 2]
    # the stored figures went with their heads (only the counter stays)
    client: Any = store._r
    assert await client.hkeys(store._results_key) == [b"~last"]


@pytest.mark.parametrize("cut", ["stored", "half written", "written"])
async def test_a_rating_commit_cut_between_its_steps_is_finished_once_by_the_next_worker(
    redis_factory: Callable[[], Awaitable[RedisStore]],
    monkeypatch: pytest.MonkeyPatch,
    cut: str,
) -> None:
    """The process dies after storing the second game's figures (before any is
    written), after writing them to the overall figures only (the chat's not
    yet), or after writing them all (the game not popped): another process's
    worker finishes it with the stored figures — never computed again from
    figures holding half of it — and rates the rest, as if nothing was cut."""
    first = await redis_factory()
    await queue_games(first)
    assert await Ratings(first, shared_translator()).drain(limit=1) == 1
    write = first._write_figures

    async def cut_write(number: str, figures: dict[str, Any]) -> None:
        if cut == "half written":  # the overall figures only, then the kill
            await write(number, {**figures, "local": [], "users": []})
        elif cut == "written":
            await write(number, figures)
        raise Killed

    monkeypatch.setattr(first, "_write_figures", cut_write)
    with pytest.raises(Killed):
        await Ratings(first, shared_translator()).drain()
    monkeypatch.undo()
    head = await first.rating_head()
    assert head == f"{OTHER}:1"  # still waiting, its figures stored
    client: Any = first._r
    assert await client.hexists(first._results_key, head)
    if cut == "half written":  # the overall figures hold it, the chat's not yet
        assert (await first.stats(None))[f"u{RATED[2]}"].games == 1
        assert f"u{RATED[2]}" not in await first.stats(OTHER)

    second = await redis_factory()  # the next process
    assert await Ratings(second, shared_translator()).drain() == 2
    await all_rated_once(second)


async def test_two_workers_rating_the_same_games_at_once_give_the_figures_of_one(
    redis_factory: Callable[[], Awaitable[RedisStore]],
) -> None:
    one, two = await redis_factory(), await redis_factory()
    await queue_games(one)
    workers = Ratings(one, shared_translator()), Ratings(two, shared_translator())
    head = await one.rating_head()
    assert head is not None
    # both read the head and its figures, both compute, both commit
    done = await asyncio.gather(workers[0].rate_one(head), workers[1].rate_one(head))
    assert True in done
    rated = await asyncio.gather(workers[0].drain(), workers[1].drain())
    assert sum(rated) >= 2
    await all_rated_once(one)


async def test_a_slow_workers_late_write_never_undoes_a_later_game(
    redis_factory: Callable[[], Awaitable[RedisStore]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker stalls between storing the first game's figures and writing
    them; another finishes that game and rates the next two (which write the
    same figures over). When the slow one goes on, its writes are refused:
    the figures of the later games stay."""
    slow, fast = await redis_factory(), await redis_factory()
    await queue_games(slow)
    stalled, go = asyncio.Event(), asyncio.Event()
    write = slow._write_figures

    async def stall(number: str, figures: dict[str, Any]) -> None:
        stalled.set()
        await go.wait()
        await write(number, figures)

    monkeypatch.setattr(slow, "_write_figures", stall)
    head = await slow.rating_head()
    assert head is not None
    late = asyncio.create_task(Ratings(slow, shared_translator()).rate_one(head))
    await stalled.wait()
    assert await Ratings(fast, shared_translator()).drain() == 3
    go.set()
    assert await late  # it did rate the game: with the figures stored, already written
    await all_rated_once(fast)


async def test_the_figures_are_written_by_a_redis_that_lost_its_scripts(
    redis_store: RedisStore,
) -> None:
    """The second step sends EVALSHA bare (one round trip): a Redis without
    the script (restarted) answers NOSCRIPT, and it is loaded and sent again."""
    store = redis_store
    await queue_games(store)
    store._rating_apply_script.sha = "0" * 40  # a script Redis does not know
    assert await Ratings(store, shared_translator()).drain() == 3
    await all_rated_once(store)


async def test_a_rating_set_aside_drops_its_stored_figures(redis_store: RedisStore) -> None:
    store = redis_store
    client: Any = store._r
    await client.rpush(store._queue_key, f"{GROUP}:1", f"{GROUP}:2")
    await store._rating_take_script(
        keys=[store._queue_key, store._results_key], args=[f"{GROUP}:1", "{}"]
    )
    assert await client.hexists(store._results_key, f"{GROUP}:1")
    assert await store.set_aside_rating(f"{GROUP}:1")
    assert not await client.hexists(store._results_key, f"{GROUP}:1")
    assert not await store.finish_rating(f"{GROUP}:2")  # nothing stored: rate it anew
    assert await store.rating_head() == f"{GROUP}:2"


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
    # the index holds at most the timer (a lower bound), and fires it then
    assert (await client.zscore(store._deadlines_key, str(NEW))) <= timer
    assert await store.due(timer - 0.5) == []
    assert await store.due(timer) == [NEW]
    assert await client.zscore(store._deadlines_key, str(OLD)) is None  # taken out by `due`
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

    await migrate_cut_at(store, monkeypatch, "_migrate_drop")
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

    await migrate_cut_at(store, monkeypatch, "_migrate_drop")
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

    await migrate_cut_at(store, monkeypatch, "_migrate_links_and_timer")
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
                table.add([Event(key="move")])
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
    move sets the new id's timer from the copy as it was: the copy's earlier
    time in the index is a lower bound — the timer fires when the save needs
    it, not at the copy's time."""
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


async def test_a_game_whose_publishing_is_cut_ends_told_and_is_published_by_the_ticker(
    redis_store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the dispatcher: the finishing move's save is made, its
    publishing cut — the group is told the result all the same (the save is
    not taken for failed), and the sweep then numbers and queues the game."""
    store = redis_store
    h = Harness(store)

    monkeypatch.setattr(store, "_publish", lost)
    anna, boris, vera = person(701, "Анна"), person(702, "Борис"), person(703, "Вера")
    await finish_quickly(h, GROUP, anna, [boris, vera])
    await h.settle()
    monkeypatch.undo()
    posted = [getattr(r, "caption", None) or getattr(r, "text", "") for r in h.tg.posted(GROUP)]
    assert any("🏁" in (t or "") for t in posted), posted[-3:]
    assert await store.rating_head() is None
    assert await store.publish_finished(older_than=0) == 1
    assert await store.rating_head() == f"{GROUP}:1"


async def test_a_backlog_of_unpublished_games_goes_a_batch_a_look(redis_store: RedisStore) -> None:
    """After an outage many marks may wait: one look takes the oldest
    PUBLISH_BATCH (here marks of games no history has: dropped), the rest wait
    for the next look, so the ticker is never held up by the whole backlog."""
    store = redis_store
    client: Any = store._r
    await client.zadd(store._unpublished_key, {f"{GROUP}:{g}": float(g) for g in range(1, 26)})
    assert await store.publish_finished(older_than=0) == 0
    left = [m.decode() for m in await client.zrange(store._unpublished_key, 0, -1)]
    assert left == [f"{GROUP}:{g}" for g in range(PUBLISH_BATCH + 1, 26)]
    await store.publish_finished(older_than=0)
    assert await client.zcard(store._unpublished_key) == 0


async def test_a_save_lowers_the_timers_index_to_its_telling_check_and_keeps_its_timer(
    redis_store: RedisStore,
) -> None:
    """Issue 41 item 3: a save of a running game puts its chat in the timers'
    index no later than `TELLING_CHECK` after it, while its record keeps its
    own timer: `due` fires nothing then, and hands the chat to `checks`, once."""
    store = redis_store
    client: Any = store._r
    table = timed(GROUP, 200.0, 300.0)
    table.updated_at = 10.0
    assert await store.save(table)
    assert await client.zscore(store._deadlines_key, str(GROUP)) == 10.0 + TELLING_CHECK
    assert await store.due(10.0 + TELLING_CHECK) == []  # not a timer: nothing fires
    assert await store.checks(10.0 + TELLING_CHECK) == [GROUP]
    assert await store.checks(10.0 + TELLING_CHECK) == []  # looked at once
    assert await client.zscore(store._deadlines_key, str(GROUP)) == 200.0
