"""Games brought to their end (or to the finished state) quickly, for the tests that need one."""

from __future__ import annotations

from bot.service import journal
from bot.store import Store
from bot.store.models import Table
from engine import GameSetup, apply, pending
from engine.ai.easy import choose
from engine.scenario import build
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, Witness, answer_data

# the last action of a game (see test_end_of_game): Анна (seat 0) discards and
# the game ends; seat 0 and seat 1 tie at 4, seat 2 has 1
LAST_ACTION = {
    "players": [
        {"hand": ["page.orange"], "houses": [{"colour": "red", "cards": ["lord.red", "page.red"]}]},
        {"houses": [{"colour": "blue", "cards": ["lord.blue", "page.blue"]}]},
        {"houses": [{"colour": "green", "cards": ["page.green"]}]},
    ],
    "current": 0,
    "actions_left": 1,
    "final_turns": 0,
}


async def finish_quickly(h: Harness, chat_id: int, host, guests, computers: int = 0) -> Table:  # type: ignore[no-untyped-def]
    """Open and start a game of three seats, put it at its last action, and let
    the first seat play it: the game ends through the dispatcher."""
    await h.open_game(chat_id, host, guests, computers=computers)
    table = await h.table(chat_id)
    table.state = build(LAST_ACTION)
    journal.told_all(table)
    assert await h.store.save(table)
    decision = pending(table.state)
    assert decision is not None and decision.seat == 0
    discard = next(o for o in decision.options if o[0] == "discard")
    user = host if table.seats[0].user_id == host.id else None
    assert user is not None
    await h.press(user, user.id, 1, answer_data(table, decision, discard))
    done = await h.table(chat_id)
    assert done.status == "finished"
    return done


def _finished_table(chat_id: int, users: tuple[int, int]) -> Table:
    """A game at its last action, then played: a finished table ready to save."""
    state = build(LAST_ACTION)
    decision = pending(state)
    assert decision is not None
    return Table(
        chat_id=chat_id,
        game_no=1,
        creator_id=users[0],
        status="playing",
        seats=[
            {"user_id": users[0], "name": "A"},  # type: ignore[list-item]
            {"user_id": users[1], "name": "B"},  # type: ignore[list-item]
            {"user_id": None, "name": "C", "level": "strong"},  # type: ignore[list-item]
        ],
        setup=GameSetup(players=3, seed=1, computer=(2,)),
        state=state,
    )


async def _finish(store: Store, table: Table) -> bool:
    """What the finishing move does: load, play the last action, save (CAS)."""
    loaded = await store.load(table.chat_id)
    if loaded is None or loaded.status != "playing" or loaded.state is None:
        return False
    decision = pending(loaded.state)
    assert decision is not None
    discard = next(o for o in decision.options if o[0] == "discard")
    apply(loaded.state, 0, decision.id, discard)
    loaded.status = "finished"
    return await store.save(loaded)


async def play_to_the_end(h: Harness, chat_id: int, seen: Witness) -> None:
    users = {s.user_id: s for s in (await h.table(chat_id)).seats if s.user_id}
    for step in range(5000):
        table = await h.table(chat_id)
        if table.status == "finished":
            return
        assert table.state is not None
        decision = pending(table.state)
        assert decision is not None
        if table.state.players[decision.seat].computer:
            await h.tick(1.5)
            continue
        uid = table.seats[decision.seat].user_id
        assert uid in users
        option = choose(table.state.seed + step, decision)
        ids = await h.store.messages(chat_id)
        await h.press(
            person(uid), uid, ids[f"prompt:{decision.seat}"], answer_data(table, decision, option)
        )
    raise AssertionError("the game did not end")


async def _finish_game(store: Store, chat_id: int, game_no: int, users: tuple[int, int]) -> None:
    """Game number `game_no` of the chat, played to its end and saved."""
    table = _finished_table(chat_id, users)
    table.game_no = game_no
    current = await store.load(chat_id)
    table.version = current.version if current is not None else 0
    assert await store.save(table)
    assert await _finish(store, table)
