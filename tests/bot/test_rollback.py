"""A press rolled back by Redis (issue 26, item 2: "a live decision is never
left on a prompt without buttons" and "version numbers are never reused
after a rollback or failover").

With AOF `everysec` a power loss can take back the last second of saves, and
a failover a save whose WAIT timed out: a press was answered and its prompt
edited (the next decision's buttons, or the choice told), but the game is
back at the decision it answered. Emulated on a real Redis: the chat's keys
and its timer are put back as they were before the press (DUMP/RESTORE) and
the record names another primary, as a Redis restarted from such a file, or
a replica promoted, would (a primary's replication id changes with either).

The record's primary (its ``r``) is the sign of a rollback, never the button
pressed: a button of a decision the game has not reached can be forged by
the decider, and changes nothing while the record is this primary's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aiogram.types import User

from bot.store import Store
from bot.store.models import Table
from bot.store.redis import RedisStore
from engine import Decision, pending
from tests.bot.harness import Harness, answer_data, decisions_of, people

GROUP = -100_262_800


@dataclass
class Rolled:
    h: Harness
    who: User
    prompt: int  # the decider's prompt message, as the pressed answer left it
    before: Table  # the record the press answered (the one Redis comes back with)
    after: Table  # the record the press saved (taken back)
    decision: Decision  # the decision answered, pending again
    upcoming: Decision  # the decision the press led to, shown on the prompt

    def live_buttons(self) -> list[tuple[int, int]]:
        """The messages whose buttons answer the pending decision."""
        d = self.decision.id
        return [m for m, markup in self.h.tg.markups.items() if d in decisions_of(markup)]


async def a_game_at_its_first_decision(store: Store) -> tuple[Harness, Table, Decision, User]:
    """A seeded 3-person game just started: its record, the pending decision
    and the person who decides it."""
    h = Harness(store)
    users = people("Анна", "Борис", "Вера")
    by_id = {u.id: u for u in users}
    await h.open_game(GROUP, users[0], users[1:], seed=5)
    before = await h.table(GROUP)
    assert before.state is not None
    decision = pending(before.state)
    assert decision is not None
    user_id = before.seats[decision.seat].user_id
    assert user_id is not None
    return h, before, decision, by_id[user_id]


async def a_press_rolled_back(store: RedisStore, primary: str = "another-primary") -> Rolled:
    """A game whose decider answered a prompt, then Redis came back without
    the answer, the record saved last under `primary`."""
    h, before, decision, who = await a_game_at_its_first_decision(store)
    client: Any = store._r
    keys = [store._table_key(GROUP), store._log_key(GROUP), store._msgs_key(GROUP)]
    kept = [(k, await client.dump(k), await client.pttl(k)) for k in keys]
    timer = await client.zscore(store._deadlines_key, str(GROUP))
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    await h.press(who, who.id, prompt, answer_data(before, decision, decision.options[0]))
    after = await h.table(GROUP)
    assert after.version > before.version, "the press was saved and answered"
    assert after.state is not None
    upcoming = pending(after.state)
    assert upcoming is not None and upcoming.seat == decision.seat

    # Redis comes back without the press, under another primary
    for key, value, ttl in kept:
        if value is None:
            await client.delete(key)
        else:
            await client.restore(key, max(0, ttl), value, replace=True)
    await client.zadd(store._deadlines_key, {str(GROUP): timer})
    await client.hset(store._table_key(GROUP), "r", primary)
    assert (await h.table(GROUP)).version == before.version
    rolled = Rolled(h, who, prompt, before, after, decision, upcoming)
    assert not rolled.live_buttons(), "the press's edit took the decision's buttons"
    return rolled


async def test_a_press_redis_rolled_back_leaves_its_decision_with_buttons(
    redis_store: RedisStore,
) -> None:
    r = await a_press_rolled_back(redis_store)
    # the person presses what their prompt shows now (the next decision's button)
    await r.h.press(
        r.who, r.who.id, r.prompt, answer_data(r.after, r.upcoming, r.upcoming.options[0])
    )
    assert r.live_buttons(), "the live decision has a prompt with buttons again"
    assert r.h.tg.answers()[-1].text == r.h.tr.t("ru", "prompt-resent")
    assert not decisions_of(r.h.tg.markups[(r.who.id, r.prompt)]), "the old prompt's buttons go"
    # caught up once: the record is this primary's now, and an old button is just old
    sent = len(r.h.tg.sent(r.who.id))
    await r.h.press(
        r.who, r.who.id, r.prompt, answer_data(r.after, r.upcoming, r.upcoming.options[0])
    )
    assert len(r.h.tg.sent(r.who.id)) == sent
    assert r.h.tg.answers()[-1].text == r.h.tr.t("ru", "err-old-button")


async def test_no_version_number_stands_for_two_states_after_a_rollback(
    redis_store: RedisStore,
) -> None:
    r = await a_press_rolled_back(redis_store)
    seen: dict[int, str] = {}  # version → the state it stood for

    def saw(table: Table) -> None:
        assert table.state is not None
        state = table.state.model_dump_json()
        assert seen.setdefault(table.version, state) == state, f"version {table.version} reused"

    saw(r.before)
    saw(r.after)  # told to the players (and the Mini App), then taken back
    await r.h.press(
        r.who, r.who.id, r.prompt, answer_data(r.after, r.upcoming, r.upcoming.options[0])
    )
    caught = await r.h.table(GROUP)
    saw(caught)
    assert caught.version > r.after.version, "the version the lost save gave is passed at once"
    assert caught.state is not None and pending(caught.state) == r.decision
    # the decision answered again, otherwise this time: a state of its own, a version of its own
    other = next(o for o in r.decision.options if o != r.decision.options[0])
    live = r.live_buttons()[-1][1]
    await r.h.press(r.who, r.who.id, live, answer_data(caught, r.decision, other))
    again = await r.h.table(GROUP)
    saw(again)
    assert again.version == caught.version + 1


async def test_the_timer_catches_a_rolled_back_decision_up_and_gives_its_time_back(
    redis_store: RedisStore,
) -> None:
    r = await a_press_rolled_back(redis_store)
    assert r.before.reminder is not None and r.before.deadline is not None
    # nobody presses: the next timer (the reminder) finds the record adrift
    await r.h.tick(r.before.reminder - r.h.clock.now())
    assert r.live_buttons(), "the reminder sends the prompt again, with its buttons"
    caught = await r.h.table(GROUP)
    assert caught.version > r.after.version
    assert caught.state is not None and pending(caught.state) == r.decision, "nothing was played"
    assert caught.deadline is not None and caught.deadline >= r.before.deadline
    # the deadline comes, after the time given back: then the timer plays
    await r.h.tick(caught.deadline - r.h.clock.now())
    timed_out = await r.h.table(GROUP)
    assert timed_out.state is not None and pending(timed_out.state) != r.decision


async def test_a_rolled_back_decision_near_its_deadline_is_not_played_for_its_player(
    redis_store: RedisStore,
) -> None:
    r = await a_press_rolled_back(redis_store)
    assert r.before.deadline is not None
    # the failover took long: the decision's deadline has passed when Redis is back
    await r.h.tick(r.before.deadline + 1 - r.h.clock.now())
    caught = await r.h.table(GROUP)
    assert caught.state is not None and pending(caught.state) == r.decision, "not timed out"
    assert r.live_buttons()
    assert caught.deadline is not None and caught.deadline >= r.h.clock.now() + 20 - 1e-6


async def test_a_button_forged_ahead_changes_nothing_without_a_rollback(store: Store) -> None:
    """The same press on a record this primary saved (and on the embedded
    store, which has no primaries: never adrift) is an old button: no prompt
    is sent again, nothing is saved."""
    h, before, decision, who = await a_game_at_its_first_decision(store)
    loaded, _ = await store.load_with_messages(GROUP)
    assert loaded is not None and not loaded.adrift
    prompt = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    ahead = decision.model_copy(update={"id": decision.id + 1})
    sent = len(h.tg.sent())
    await h.press(who, who.id, prompt, answer_data(before, ahead, decision.options[0]))
    assert h.tg.answers()[-1].text == h.tr.t("ru", "err-old-button")
    assert len(h.tg.sent()) == sent
    assert (await h.table(GROUP)).version == before.version
    assert decision.id in decisions_of(h.tg.markups[(who.id, prompt)]), "its buttons stay"


async def test_the_mini_apps_live_view_follows_a_rollback_back() -> None:
    """A process's viewers were sent a version Redis then lost; the feed's
    reconnect reads the chat again (`Hub.gap`): the record read — an older
    version — is what its viewers are sent, not the lost one kept because
    its number is higher."""
    from bot.webapp.live import Hub

    records: list[Table] = []

    class Feed:
        def listen(self, hub: object) -> None: ...

        async def follow(self, chat_id: int) -> None: ...

        async def unfollow(self, chat_id: int) -> None: ...

    async def load(chat_id: int) -> Table | None:
        return records[-1]

    base = Table(chat_id=GROUP, game_no=1, creator_id=1, version=7)
    records.append(base.model_copy(update={"version": 8}))
    hub = Hub(load, Feed())  # type: ignore[arg-type]
    viewer = await hub.join(GROUP)
    await hub.idle()
    assert hub.table(GROUP) is not None and hub.table(GROUP).version == 8  # type: ignore[union-attr]
    viewer.sent = 8  # the stream sent it and waits again
    viewer.wake.clear()
    records.append(base)  # Redis came back without version 8
    hub.gap()
    await hub.idle()
    assert hub.table(GROUP) is not None and hub.table(GROUP).version == 7  # type: ignore[union-attr]
    assert viewer.wake.is_set()


async def test_an_untimed_practice_game_rolled_back_gets_its_buttons_back_unpressed(
    redis_store: RedisStore,
) -> None:
    """A practice game without a clock has no timer to find a rollback: the
    ticker's sweep looks at such games and catches an adrift one up — its
    prompt sent again with buttons, nothing played, no time told — though
    its player presses nothing."""
    store = redis_store
    h = Harness(store)
    [anna] = people("Анна")
    table = await h.start_practice(anna, computers=2, seed=3)
    assert not table.timed
    for _ in range(20):  # the computers play up to Анна's decision
        before = await h.table(anna.id)
        assert before.state is not None
        decision = pending(before.state)
        assert decision is not None
        if decision.seat == 0:
            break
        await h.tick(5)
    assert decision.seat == 0
    client: Any = store._r
    keys = [store._table_key(anna.id), store._log_key(anna.id), store._msgs_key(anna.id)]
    kept = [(k, await client.dump(k), await client.pttl(k)) for k in keys]
    prompt = (await store.messages(anna.id))[f"prompt:{decision.seat}"]
    await h.press(anna, anna.id, prompt, answer_data(before, decision, decision.options[0]))
    assert (await h.table(anna.id)).version > before.version, "answered"
    # Redis comes back without the press, under another primary
    for key, value, ttl in kept:
        await client.restore(key, max(0, ttl), value, replace=True)
    await client.hset(store._table_key(anna.id), "r", "another-primary")

    def live() -> list[tuple[int, int]]:
        return [m for m, k in h.tg.markups.items() if decision.id in decisions_of(k)]

    assert not live(), "the press's edit took the decision's buttons"
    h.clock.advance(31)
    await h.app.ticker.sweep(h.clock.now())
    await h.settle()
    assert live(), "the prompt is sent again, with its buttons"
    caught = await h.table(anna.id)
    assert not caught.adrift and caught.version > before.version + 1
    assert caught.state is not None and pending(caught.state) == decision, "nothing was played"
    assert caught.deadline is None, "still without a clock"
    assert not [m for m in h.tg.sent(anna.id) if "⏰" in m.text], "no time to tell"
    # looked at again: nothing more is sent
    sent = len(h.tg.sent(anna.id))
    h.clock.advance(31)
    await h.app.ticker.sweep(h.clock.now())
    await h.settle()
    assert len(h.tg.sent(anna.id)) == sent
