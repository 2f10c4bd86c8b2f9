"""A memory budget (issue 17, item 2): every key the store writes has a time
to live or a stated bound (`bot.store.KEYS`), a finished game keeps at most
`GAME_BUDGET` bytes for good, practice and abandoned games expire, and the
/replay index forgets what the history forgets. On both stores."""

from __future__ import annotations

from bot.store import GAME_BUDGET, HISTORY_KEEP, Store
from bot.store.memory import MemoryStore
from bot.store.models import Seat, Table
from bot.store.packing import command_of, log_line, pack_log, unpack_log
from bot.store.redis import RedisStore
from bot.words.keyboards import LobbyCb, SettingsCb
from engine import Command, GameSetup, apply, new_game, pending
from engine.ai.easy import choose
from tests.bot.harness import FakeClock, Harness, people
from tests.bot.helpers.expiry import let_expire, on_clock
from tests.bot.helpers.finishing import _finish_game, finish_quickly
from tests.bot.store_keys import entries, keys_of, kind_of

GROUP = -100515151
LOBBY_ONLY = -100515152
RUNNING = -100515153
OLD_GROUP = -100515154
NEW_GROUP = -1009515154


async def a_varied_session(h: Harness) -> None:
    """What a year of play writes, in small: settings, /notify, finished games
    (rated, in the history), /replay, a lobby nobody starts, a running game, a
    practice game left alone, a group that became a supergroup."""
    anna, boris, vera = people("Анна", "Борис", "Вера")
    h.tg.admins.add((GROUP, anna.id))
    for user in (anna, boris, vera):
        await h.say(user.id, user, "/start")
    await h.say(GROUP, anna, "/settings")
    settings = h.last_with_button(GROUP, "cf:")
    await h.press(anna, GROUP, settings, SettingsCb(what="level").pack())
    await h.say(GROUP, boris, "/notify")
    await finish_quickly(h, GROUP, anna, [boris, vera])
    await finish_quickly(h, GROUP, vera, [anna, boris])
    number = (await h.store.history(GROUP))[0].number
    await h.say(anna.id, anna, f"/replay {number}")
    await h.say(anna.id, anna, "/stats")
    await h.say(LOBBY_ONLY, vera, "/newgame")
    await h.open_game(RUNNING, boris, [vera], computers=1)
    await h.tutor_taken(anna)
    await h.say(anna.id, anna, "/practice")
    table = await h.table(anna.id)
    lobby = (await h.store.messages(anna.id))["lobby"]
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=table.game_no).pack())
    assert (await h.table(anna.id)).status == "playing"
    await finish_quickly(h, OLD_GROUP, boris, [anna, vera])
    await h.feed(h.updates.message(OLD_GROUP, anna, "", migrate_to_chat_id=NEW_GROUP))
    assert await h.store.history(NEW_GROUP)


async def test_every_key_a_session_writes_has_a_time_to_live_or_a_stated_bound(
    store: Store,
) -> None:
    h = Harness(store)
    await a_varied_session(h)
    keys = await keys_of(store)
    kinds = {kind_of(store, key) for key in keys}
    undeclared = sorted(key for key in keys if kind_of(store, key) is None)
    assert not undeclared, f"keys with neither a time to live nor a stated bound: {undeclared}"
    for key, (left, _) in keys.items():
        kind = kind_of(store, key)
        assert kind is not None
        if kind.ttl is not None:
            assert left is not None, f"{key} should expire ({kind.ttl}) and does not"
            limit = getattr(store, kind.ttl) if isinstance(kind.ttl, str) else kind.ttl
            assert 0 < left <= limit, (key, left)
        else:
            assert kind.bound, f"{key}: kept for good with no bound stated"
    # the session wrote the kinds that matter (the test sees what it claims to)
    patterns = {k.pattern for k in kinds if k is not None}
    assert {"{<chat>}:table", "{<chat>}:log", "{<chat>}:history", "replay:index"} <= patterns
    assert {"user:{<uid>}:tables", "moved", "{<chat>}:subs", "{<chat>}:profile"} <= patterns


def a_whole_game(players: int, seed: int) -> tuple[Table, list[Command]]:
    """A game of people played to its end by the engine's policy, as the bot
    saves it: the finished table and its whole command log."""
    setup = GameSetup(players=players, seed=seed)
    state, _ = new_game(setup)
    commands = []
    while (decision := pending(state)) is not None:
        option = choose(seed + len(commands), decision)
        apply(state, decision.seat, decision.id, option)
        commands.append(Command(seat=decision.seat, decision=decision.id, option=option))
    seats = [Seat(user_id=7_000_000_000 + i, name=f"Игрок с длинным именем {i}") for i in range(6)]
    table = Table(
        chat_id=GROUP,
        game_no=1,
        title="Смута по пятницам — клуб любителей карточных игр",
        creator_id=seats[0].user_id or 0,
        status="finished",
        seats=seats[:players],
        setup=setup,
        state=state,
    )
    return table, commands


async def kept_for(store: Store, chat_id: int, game_no: int) -> int:
    """Bytes the chat's history keeps for good for one game: its record, its
    command log, its /replay number, and its entry in the /replay index."""
    names = [f"r:{game_no}", f"l:{game_no}", f"n:{game_no}"]
    if isinstance(store, MemoryStore):
        history = store._history[chat_id]
        values = [history[n] for n in names]
    else:
        assert isinstance(store, RedisStore)
        raw = await store._r.hmget(store._history_key(chat_id), names)
        values = [v.decode() for v in raw]
    ref = f"{chat_id}:{game_no}"
    return sum(len(n) + len(v.encode()) for n, v in zip(names, values, strict=True)) + len(
        values[2] + ref
    )


async def test_a_finished_game_keeps_at_most_its_budget_for_good(store: Store) -> None:
    """The longest of 12 whole 6-player games (and 3-player ones), long names
    and all, keeps ≤ GAME_BUDGET bytes; its /replay log reads back whole."""
    largest = 0
    for game_no, (players, seed) in enumerate(
        [(p, s) for p in (3, 6) for s in range(1, 7)], start=1
    ):
        table, commands = a_whole_game(players, seed)
        table.game_no = game_no
        playing = table.model_copy(update={"status": "playing"})
        current = await store.load(GROUP)
        playing.version = current.version if current is not None else 0
        assert await store.save(playing, commands[:-1])
        table.version = playing.version
        assert await store.save(table, commands[-1:])
        largest = max(largest, await kept_for(store, GROUP, game_no))
        found = await store.game_at(GROUP, game_no)
        assert found is not None and found[1] == commands
    assert largest <= GAME_BUDGET, largest


def test_a_log_kept_before_packing_still_reads() -> None:
    _, commands = a_whole_game(3, 1)
    lines = [c.model_dump_json() for c in commands]
    assert unpack_log("\n".join(lines)) == commands  # plain JSON lines, as kept before
    assert unpack_log(pack_log(lines)) == commands
    assert len(pack_log(lines)) < len("\n".join(lines)) / 5


def test_a_running_games_log_keeps_a_tight_line_a_command() -> None:
    _, commands = a_whole_game(3, 1)
    commands += [Command(seat=1, computer=True), Command(seat=1, computer=False)]
    for command in commands:
        line = log_line(command)
        assert command_of(line) == command and command_of(line.encode()) == command
        assert command_of(command.model_dump_json()) == command  # a line saved before
    tight = sum(len(log_line(c)) for c in commands)
    assert tight < sum(len(c.model_dump_json()) for c in commands) / 2


async def test_a_log_begun_before_its_lines_were_tight_plays_on_and_is_kept_whole(
    redis_store: RedisStore,
) -> None:
    """A game running when the bot is upgraded: its log's first lines are the
    commands' JSON objects, the next ones tight; it reads, and its history
    keeps the whole log."""
    table, commands = a_whole_game(3, 2)
    playing = table.model_copy(update={"status": "playing"})
    assert await redis_store.save(playing)
    old = [c.model_dump_json() for c in commands[:40]]
    await redis_store._r.rpush(redis_store._log_key(GROUP), *old)
    assert await redis_store.save(playing, commands[40:-1])
    assert await redis_store.log(GROUP) == commands[:-1]
    table.version = playing.version
    assert await redis_store.save(table, commands[-1:])
    found = await redis_store.game_at(GROUP, table.game_no)
    assert found is not None and found[1] == commands


async def test_the_replay_index_forgets_the_games_the_history_pushes_out(store: Store) -> None:
    """After HISTORY_KEEP + 5 games the chat's history and the /replay index
    both hold HISTORY_KEEP games: nothing is kept for a game nobody can see."""
    anna, boris = people("Анна", "Борис")
    for game_no in range(1, HISTORY_KEEP + 6):
        await _finish_game(store, GROUP, game_no, (anna.id, boris.id))
    keys = await keys_of(store)
    assert entries(keys, store, "replay:index") == HISTORY_KEEP
    history = entries(keys, store, f"{{{GROUP}}}:history")
    assert history == 3 * HISTORY_KEEP + 1  # r:, l:, n: of each game kept, and the counter


async def test_a_practice_game_left_alone_goes_with_its_timer_and_links(store: Store) -> None:
    """/practice, started, then nobody touches it: it expires after the
    running game's time (record, log, message ids), its person's link to it
    goes, and a timer it left is dropped the first time it is due."""
    clock = FakeClock()
    h = Harness(on_clock(store, clock), clock=clock)
    (anna,) = people("Анна")
    lobby, game = await h.open_practice(anna)
    await h.press(anna, anna.id, lobby, LobbyCb(action="go", game=game).pack())
    table = await h.table(anna.id)
    assert table.status == "playing" and await h.store.user_tables(anna.id) == {anna.id}
    keys = await keys_of(h.store)
    game_keys = [k for k in keys if k.endswith((f"{{{anna.id}}}:table", f"{{{anna.id}}}:msgs"))]
    assert len(game_keys) == 2
    for key in game_keys:
        left = keys[key][0]
        assert left is not None and h.store.playing_ttl - 60 < left <= h.store.playing_ttl
    # a timer left behind (as a computer's move would leave one)
    table.deadline = clock.now() + 5
    assert await h.store.save(table)
    await let_expire_running(h, anna.id)
    assert await h.store.due(clock.now() + 10**9) == []
    assert entries(await keys_of(h.store), h.store, "deadlines") == 0
    if isinstance(h.store, MemoryStore):  # the links' own time (Redis: see the key test)
        h.clock.advance(h.store.record_ttl)
        assert await h.store.user_tables(anna.id) == set()


async def let_expire_running(h: Harness, chat_id: int) -> None:
    """A running game's time passes (see `let_expire`)."""
    await let_expire(h, chat_id, h.store.playing_ttl)


async def test_an_abandoned_group_game_expires_and_the_chat_plays_on(store: Store) -> None:
    """A group game whose timers stopped (every seat's person gone quiet, the
    bot down for a week): it expires like a practice game; the next /newgame
    takes a new number."""
    clock = FakeClock()
    h = Harness(on_clock(store, clock), clock=clock)
    anna, boris = people("Анна", "Борис")
    first = await h.open_game(RUNNING, anna, [boris])
    await let_expire_running(h, RUNNING)
    await h.open_lobby(RUNNING, anna, [boris])
    assert (await h.table(RUNNING)).game_no == first.game_no + 1


async def test_a_migrated_game_keeps_its_time_to_live(store: Store) -> None:
    """A group becoming a supergroup moves its game to the new id with the time
    the record had left (record, log and message ids alike): a finished game
    there still goes after its week, not never."""
    table, commands = a_whole_game(3, 2)
    table.chat_id = OLD_GROUP
    playing = table.model_copy(update={"status": "playing"})
    assert await store.save(playing, commands[:-1])
    table.version = playing.version
    assert await store.save(table, commands[-1:])
    await store.set_messages(OLD_GROUP, {"table": 7})
    before = await keys_of(store)
    assert await store.migrate(OLD_GROUP, NEW_GROUP)
    after = await keys_of(store)
    for part in ("table", "log", "msgs"):
        assert f"{{{OLD_GROUP}}}:{part}" not in " ".join(after)
        old = next(v for k, v in before.items() if k.endswith(f"{{{OLD_GROUP}}}:{part}"))
        new = next(v for k, v in after.items() if k.endswith(f"{{{NEW_GROUP}}}:{part}"))
        assert old[0] is not None and new[0] is not None, part
        assert store.finished_ttl - 60 < new[0] <= old[0] <= store.finished_ttl, (part, new)
    moved = await store.load(NEW_GROUP)
    assert moved is not None and moved.status == "finished"
    assert len(await store.log(NEW_GROUP)) == len(commands)
