"""Exactly once, under redelivery and kills, through the real dispatcher on
both stores: a repeated update is ignored (by every process: the claim is in
the store); a game finished by a process killed before it told the result is
told by the next one; a rating that fails is set aside, not blocking the
others; /settings saves with compare-and-set; a garbled webhook secret is a 401."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence

import pytest
from aiogram.methods import AnswerCallbackQuery
from aiogram.types import InlineKeyboardMarkup, Update, User
from aiohttp.test_utils import TestClient, TestServer

import bot.service.ratings
import bot.webhook
from bot.handlers.admission import ADMIT_LIMIT
from bot.ops import metrics
from bot.service import journal
from bot.service.bookkeeping import ANNOUNCE_GRACE
from bot.service.ratings import Analysis
from bot.store import Store
from bot.store.delivery import Delivery
from bot.store.memory import MemoryStore
from bot.store.models import TELLING_CHECK, GameRecord
from bot.webhook import make_web_app
from bot.words.keyboards import SettingsCb
from engine import Command, pending
from engine.scenario import build
from tests.bot.fake_telegram import Hold, person
from tests.bot.harness import Harness, answer_data, people, until
from tests.bot.helpers.finishing import LAST_ACTION, finish_quickly
from tests.bot.helpers.webhooks import (
    HOOK_PATH,
    SECRET,
    SECRET_HEADER,
    as_json,
    webhook_settings,
)

GROUP = -100171717


async def test_a_press_delivered_twice_cycles_a_setting_once_even_in_another_process(
    store: Store,
) -> None:
    h = Harness(store)
    dana = person(400, "Дана")
    h.tg.admins.add((GROUP, dana.id))
    await h.say(GROUP, dana, "/settings")
    message = h.last_with_button(GROUP, "cf:")
    press = h.updates.press(dana, GROUP, message, SettingsCb(what="hand_limit").pack())
    redelivered = metrics.sample("smuta_updates_redelivered_total")

    await h.feed(press)
    await h.feed(press)  # Telegram got no answer in time: the same update again
    h.restart()  # and once more, to another process
    await h.feed(press)

    profile = await store.profile(GROUP)
    assert profile is not None and profile.variants == {"hand_limit": 6}  # 7 → 6, not → 8 → 7
    answers = [r for r in h.tg.requests if isinstance(r, AnswerCallbackQuery)]
    assert len(answers) == 1
    assert metrics.sample("smuta_updates_redelivered_total") == redelivered + 2
    # a new press (a new update) still counts
    await h.press(dana, GROUP, message, SettingsCb(what="hand_limit").pack())
    profile = await store.profile(GROUP)
    assert profile is not None and profile.variants == {"hand_limit": 8}


async def test_a_webhook_secret_header_that_is_not_ascii_is_refused_401_not_a_500() -> None:
    h = Harness(MemoryStore())
    async with TestClient(TestServer(make_web_app(h.app, webhook_settings()))) as client:
        update = as_json(h.updates.message(GROUP, person(1, "Анна"), "/newgame"))
        for garbled in ("секрет", "s3cret_Token-01234567€9", "\u00e9t\u00e9"):
            response = await client.post(HOOK_PATH, json=update, headers={SECRET_HEADER: garbled})
            assert response.status == 401, garbled
        raw = b"s3cret_Token-\xff\xfe"  # bytes that are no UTF-8 at all
        response = await client.post(
            HOOK_PATH, data=json.dumps(update), headers={SECRET_HEADER: raw.decode("latin-1")}
        )
        assert response.status == 401
    assert await h.store.load(GROUP) is None  # nothing reached the dispatcher


async def test_a_webhook_handling_past_its_bound_is_answered_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Telegram is answered once the update is handled, but no later than
    `ANSWER_WITHIN` after it came (Telegram waits 60 s, then delivers it
    again): a handling held past the bound — its reply hangs at Telegram's
    door — is answered 200 while it still runs, and finishes afterwards."""
    monkeypatch.setattr(bot.webhook, "ANSWER_WITHIN", 0.05)
    h = Harness(MemoryStore())
    anna = person(1, "Анна")
    door = h.tg.holds[anna.id] = Hold()
    async with TestClient(TestServer(make_web_app(h.app, webhook_settings()))) as client:
        update = as_json(h.updates.message(anna.id, anna, "/start"))
        posted = client.post(HOOK_PATH, json=update, headers={SECRET_HEADER: SECRET})
        response = await asyncio.wait_for(posted, 10)
        assert response.status == 200
        assert door.reached.is_set() and h.app.observer.in_hand == 1, (
            "answered while the handling still waits for Telegram"
        )
        assert not h.tg.sent(anna.id)
        # (aiogram warns of the slow handling when it ends in the background)
        with pytest.warns(RuntimeWarning, match="slow response"):
            door.release.set()
            await until(lambda: h.app.observer.in_hand == 0)
    assert h.tg.sent(anna.id), "the handling went on after the answer"


async def test_two_admins_pressing_a_setting_at_once_in_two_processes_cycle_it_twice(
    store: Store,
) -> None:
    """/settings saves with compare-and-set: two presses at once, each in a
    process of its own, both count (7 → 6 → 8), neither undoes the other."""
    one = Harness(store)
    two = Harness(store, tg=one.tg, clock=one.clock)
    dana, erik = person(400, "Дана"), person(401, "Эрик")
    one.tg.admins |= {(GROUP, dana.id), (GROUP, erik.id)}
    await one.say(GROUP, dana, "/settings")
    message = one.last_with_button(GROUP, "cf:")
    data = SettingsCb(what="hand_limit").pack()
    conflicts = metrics.sample("smuta_cas_conflicts_total")
    # both have read the settings when they ask Telegram whether the presser
    # is an admin: the door holds them there until both have come
    door = one.tg.holds[GROUP] = Hold()
    presses = asyncio.gather(
        one.press(dana, GROUP, message, data), two.press(erik, GROUP, message, data)
    )
    while len(door.tasks) < 2:
        await asyncio.sleep(0)  # a turn of the event loop, not a wait on time
    door.release.set()
    await presses
    profile = await store.profile(GROUP)
    assert profile is not None and profile.variants == {"hand_limit": 8}
    assert profile.version == 2
    assert metrics.sample("smuta_cas_conflicts_total") > conflicts  # they did race
    answers = [r.text for r in one.tg.requests if isinstance(r, AnswerCallbackQuery)]
    assert answers == [one.tr.t("ru", "settings-saved")] * 2


async def test_a_game_whose_rating_fails_is_set_aside_and_the_next_chats_are_rated(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = Harness(store)
    broken, fine = -100171801, -100171802
    real = bot.service.ratings.analyse

    def analyse(record: GameRecord, commands: Sequence[Command]) -> Analysis:
        if record.chat_id == broken:
            raise ValueError("a record this version cannot rate")
        return real(record, commands)

    monkeypatch.setattr(bot.service.ratings, "analyse", analyse)
    aside = metrics.sample("smuta_ratings_set_aside_total")
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await finish_quickly(h, broken, anna, [boris, vera])
    await finish_quickly(h, fine, boris, [anna, vera])

    assert await store.rating_head() is None  # nothing blocks the queue
    assert await store.set_aside() == [f"{broken}:1"]
    assert metrics.sample("smuta_ratings_set_aside_total") == aside + 1
    rated = await store.stats(fine)
    assert {k for k in rated if k.startswith("u")} == {f"u{u.id}" for u in (anna, boris, vera)}
    assert await store.stats(broken) == {}


async def results_posted(h: Harness) -> list[int]:
    """The group's messages that carry «Ещё партию»."""
    return [
        h.message_id_of(r)
        for r in h.tg.posted(GROUP)
        if isinstance(r.reply_markup, InlineKeyboardMarkup)
        and any(
            (b.callback_data or "").startswith("rm:")
            for row in r.reply_markup.inline_keyboard
            for b in row
        )
    ]


async def last_move(h: Harness) -> tuple[User, str]:
    """A game of three at its last action: who makes it, and the button that does."""
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera])
    table = await h.table(GROUP)
    table.state = build(LAST_ACTION)
    journal.told_all(table)
    assert await h.store.save(table)
    decision = pending(table.state)
    assert decision is not None and table.seats[decision.seat].user_id == anna.id
    discard = next(o for o in decision.options if o[0] == "discard")
    return anna, answer_data(table, decision, discard)


async def test_a_game_that_ends_posts_its_result_once_and_leaves_no_timer(store: Store) -> None:
    h = Harness(store)
    anna, data = await last_move(h)
    await h.press(anna, anna.id, 1, data)
    assert len(await results_posted(h)) == 1
    table = await h.table(GROUP)
    assert table.status == "finished" and not table.result_untold
    assert await store.due(h.clock.now() + 10**6) == []
    h.restart()
    assert await h.tick(ANNOUNCE_GRACE + 1) == 0
    assert len(await results_posted(h)) == 1


async def test_a_kill_right_after_the_finishing_save_leaves_the_result_to_the_next_process(
    store: Store,
) -> None:
    h = Harness(store)
    anna, data = await last_move(h)

    async def killed(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError("the process died right after the save")

    h.app.telling.sender.deliver = killed  # type: ignore[method-assign]
    with pytest.raises(asyncio.CancelledError):
        await h.press(anna, anna.id, 1, data)
    table = await h.table(GROUP)
    assert table.status == "finished" and table.result_untold  # saved, never told
    assert await results_posted(h) == []

    h.restart()  # the next process: its timers notice the result never posted
    assert await h.tick(ANNOUNCE_GRACE) == 1
    posted = await results_posted(h)
    assert len(posted) == 1
    assert h.tr.t("ru", "btn-rematch") in [t for t, _ in h.buttons(GROUP, posted[0])]
    assert await store.rating_head() is None  # and the game is rated
    assert {k for k in await store.stats(GROUP) if k.startswith("u")}
    # once: no timer is left, a later tick (another process) posts nothing more
    assert await store.due(h.clock.now() + 10**6) == []
    h.restart()
    await h.tick(ANNOUNCE_GRACE)
    assert len(await results_posted(h)) == 1


# ====================================================================== leases
async def settings_press(h: Harness, dana: User) -> Update:
    """Дана, an admin, opens /settings; her press of the hand limit's button
    (not yet delivered)."""
    h.tg.admins.add((GROUP, dana.id))
    await h.say(GROUP, dana, "/settings")
    message = h.last_with_button(GROUP, "cf:")
    return h.updates.press(dana, GROUP, message, SettingsCb(what="hand_limit").pack())


async def hand_limit(store: Store) -> int | None:
    profile = await store.profile(GROUP)
    return None if profile is None else profile.variants.get("hand_limit")


async def test_an_update_whose_handling_fails_is_handled_when_delivered_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its claim is given back: Telegram's redelivery (or the person's retry
    of the same press) is handled, not dropped as a repeat."""
    h = Harness(store)
    dana = person(400, "Дана")
    press = await settings_press(h, dana)
    real = store.save_profile
    failed: list[int] = []

    async def broken(*args: object, **kwargs: object) -> bool:
        failed.append(1)
        raise RuntimeError("the save broke this once")

    monkeypatch.setattr(store, "save_profile", broken)
    await h.feed(press)
    assert failed and await hand_limit(store) is None
    assert [a.text for a in h.tg.answers()] == [h.tr.t("ru", "err-internal")]
    monkeypatch.setattr(store, "save_profile", real)
    h.restart()  # delivered again, to another process
    await h.feed(press)
    assert await hand_limit(store) == 6  # handled: 7 → 6
    assert [a.text for a in h.tg.answers()][1:] == [h.tr.t("ru", "settings-saved")]


async def test_a_redelivery_while_the_first_handling_runs_waits_for_it_and_is_dropped(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """A webhook retried while the first process is still handling the press
    (it waits for Telegram): the second process waits for the first's lease,
    and drops the press once the first has handled it."""
    caplog.set_level(logging.INFO, logger="bot.handlers.once")
    one = Harness(store)
    two = Harness(store, tg=one.tg, clock=one.clock)
    dana = person(400, "Дана")
    press = await settings_press(one, dana)
    door = one.tg.holds[GROUP] = Hold()  # the first asks whether Дана is an admin: held
    first = asyncio.create_task(one.feed(press))
    await door.reached.wait()
    redelivered = metrics.sample("smuta_updates_redelivered_total")
    second = asyncio.create_task(two.feed(press))
    while not any("waiting for its lease" in r.getMessage() for r in caplog.records):
        assert not second.done(), "the second delivery did not wait for the first"
        await asyncio.sleep(0)  # a turn of the event loop, not a wait on time
    assert not first.done()
    door.release.set()
    await asyncio.gather(first, second)
    assert await hand_limit(store) == 6  # once: 7 → 6, not → 8
    assert [a.text for a in one.tg.answers()] == [one.tr.t("ru", "settings-saved")]
    assert metrics.sample("smuta_updates_redelivered_total") == redelivered + 1


async def test_a_redelivery_after_the_handling_process_was_killed_is_handled_once(
    store: Store,
) -> None:
    """A process claimed the press and was killed (nothing gave the lease
    back): Telegram's redelivery waits for the lease to run out, then is
    handled — once; delivered again after that, it is dropped."""
    h = Harness(store)
    dana = person(400, "Дана")
    press = await settings_press(h, dana)
    # the killed process's lease: long enough that the redelivery surely finds it
    # held (a shorter one may run out in Redis before the press comes)
    dead = Delivery(press.update_id, lease=1.0)
    assert await store.first_delivery(dead) == "won"
    taken_over = metrics.sample("smuta_updates_taken_over_total")
    h.restart()
    await h.feed(press)
    assert await hand_limit(store) == 6
    assert metrics.sample("smuta_updates_taken_over_total") == taken_over + 1
    await h.feed(press)
    assert await hand_limit(store) == 6  # not → 8
    assert [a.text for a in h.tg.answers()] == [h.tr.t("ru", "settings-saved")]
    # and the dead process's lease can no longer undo it
    await store.release_delivery(dead)
    assert await store.first_delivery(Delivery(press.update_id)) == "done"


async def test_a_press_that_saves_its_game_is_claimed_final_by_the_save_itself(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The claim's final write rides with the game's save (no round trip of
    its own after the handling): the handling never calls `finish_delivery`,
    and the claim is final — a redelivery is dropped."""
    h = Harness(store)
    anna, data = await last_move(h)
    finished: list[int] = []
    real = store.finish_delivery

    async def counted(delivery: Delivery) -> None:
        finished.append(delivery.update_id)
        await real(delivery)

    monkeypatch.setattr(store, "finish_delivery", counted)
    press = h.updates.press(anna, anna.id, 1, data)
    await h.feed(press)
    assert (await h.table(GROUP)).status == "finished"
    assert finished == []
    assert await store.first_delivery(Delivery(press.update_id)) == "done"


async def test_a_kill_after_the_save_leaves_the_press_made_and_its_redelivery_dropped(
    store: Store,
) -> None:
    """Killed after the save that carried the press, before it told anyone:
    the press is in the store, and Telegram's redelivery (to the next
    process) is dropped as handled, not answered as a stale button; the
    result is still told by the next process's timers."""
    h = Harness(store)
    anna, data = await last_move(h)

    async def killed(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError("the process died right after the save")

    h.app.telling.sender.deliver = killed  # type: ignore[method-assign]
    press = h.updates.press(anna, anna.id, 1, data)
    with pytest.raises(asyncio.CancelledError):
        await h.feed(press)
    version = (await h.table(GROUP)).version
    redelivered = metrics.sample("smuta_updates_redelivered_total")
    h.restart()
    answered = len(h.tg.answers())
    await h.feed(press)
    assert metrics.sample("smuta_updates_redelivered_total") == redelivered + 1
    assert len(h.tg.answers()) == answered  # no «old button» alert
    assert (await h.table(GROUP)).version == version
    assert await h.tick(ANNOUNCE_GRACE) == 1
    assert len(await results_posted(h)) == 1


async def test_a_kill_after_a_mid_game_save_is_told_by_the_next_process_within_seconds(
    store: Store,
) -> None:
    """Issue 41 item 3: killed after the save of a move mid-game, before it
    told anyone. The next process's ticker looks at that save `TELLING_CHECK`
    seconds after it and sends the prompt its player is owed — not minutes
    later at the reminder; a save told in time is looked at and left alone."""
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera])
    table = await h.table(GROUP)
    assert table.state is not None
    decision = pending(table.state)
    assert decision is not None
    mover = next(u for u in (anna, boris, vera) if u.id == table.seats[decision.seat].user_id)
    message = (await store.messages(GROUP))[f"prompt:{decision.seat}"]
    data = answer_data(table, decision, decision.options[0])

    async def killed(*args: object, **kwargs: object) -> None:
        raise asyncio.CancelledError("the process died right after the save")

    h.app.telling.sender.deliver = killed  # type: ignore[method-assign]
    with pytest.raises(asyncio.CancelledError):
        await h.press(mover, mover.id, message, data)
    saved = await h.table(GROUP)
    assert saved.version > table.version and saved.state is not None
    owed = pending(saved.state)
    assert owed is not None and saved.reminder is not None
    h.restart()
    await h.tick(TELLING_CHECK - 1)
    assert (await store.messages(GROUP)).get(f"shown:{owed.seat}") != owed.id
    await h.tick(1)
    assert (await store.messages(GROUP)).get(f"shown:{owed.seat}") == owed.id, (
        "the owed prompt was sent by the next process"
    )
    assert h.clock.now() < saved.reminder, "long before the reminder"
    sent = len(h.tg.requests)
    await h.tick(TELLING_CHECK + 1)  # told now: looked at again, nothing more is sent
    assert len(h.tg.requests) == sent


async def test_a_redelivery_waiting_on_a_dead_lease_holds_back_nothing_of_its_chat(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 41 item 2, the adversarial case: a process was killed while it
    held a press's lease, for long. Telegram's redelivery of the press waits
    for that lease without holding its chat's turn (nor a place among the
    updates handled at once): another command in the same chat is answered
    meanwhile; once the lease is free, the press is handled — once."""
    h = Harness(store)
    dana = person(400, "Дана")
    press = await settings_press(h, dana)
    dead = Delivery(press.update_id, lease=60.0)  # killed: nobody gives it back
    assert await store.first_delivery(dead) == "won"
    h.restart()
    caplog.set_level(logging.INFO, logger="bot.handlers.once")
    redelivered = asyncio.create_task(h.feed(press, settle=False))
    await until(lambda: any("waiting for its lease" in r.getMessage() for r in caplog.records))
    since = len(h.tg.requests)
    await h.say(GROUP, dana, "/rules")  # the same chat, while the press waits
    assert h.tg.sent(GROUP)[since:], "the chat's command waited behind the dead lease"
    assert not redelivered.done()
    assert await hand_limit(store) is None  # the press: not yet
    await store.release_delivery(dead)  # its lease is free (it would run out)
    await redelivered
    await h.settle()
    assert await hand_limit(store) == 6
    await h.feed(press)
    assert await hand_limit(store) == 6  # handled once
    assert [a.text for a in h.tg.answers()] == [h.tr.t("ru", "settings-saved")]


async def test_a_process_killed_at_its_admission_limit_holds_back_no_other_chat(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 41 item 2, a process killed with `ADMIT_LIMIT` + 1 presses under
    way, each in a chat of its own, their leases held for long: their
    redeliveries all wait for those leases at once, and a fresh press in yet
    another chat is answered — not shed as «бот перегружен» — as is a command
    in a chat of its own; once the leases are free each press is handled once."""
    h = Harness(store)
    dana = person(400, "Дана")
    presses: list[Update] = []
    dead: list[Delivery] = []
    for i in range(ADMIT_LIMIT + 1):
        chat = GROUP - 1 - i
        h.tg.admins.add((chat, dana.id))
        await h.say(chat, dana, "/settings")
        message = h.last_with_button(chat, "cf:")
        press = h.updates.press(dana, chat, message, SettingsCb(what="hand_limit").pack())
        presses.append(press)
        dead.append(Delivery(press.update_id, lease=60.0))  # killed: nobody gives it back
        assert await store.first_delivery(dead[-1]) == "won"
    fresh = await settings_press(h, dana)  # in GROUP, not among them
    h.restart()
    caplog.set_level(logging.INFO, logger="bot.handlers.once")
    redelivered = [asyncio.create_task(h.feed(p, settle=False)) for p in presses]

    def waiting() -> int:
        return sum("waiting for its lease" in r.getMessage() for r in caplog.records)

    await until(lambda: waiting() >= len(presses))
    since = len(h.tg.requests)
    await h.feed(fresh)
    answered = [r.text for r in h.tg.requests[since:] if isinstance(r, AnswerCallbackQuery)]
    assert answered == [h.tr.t("ru", "settings-saved")], "the fresh press was held back or shed"
    assert await hand_limit(store) == 6
    before = len(h.tg.sent(GROUP))
    await h.say(GROUP, dana, "/rules")
    assert h.tg.sent(GROUP)[before:], "a command elsewhere waited behind the dead leases"
    assert not any(task.done() for task in redelivered)
    for delivery in dead:
        await store.release_delivery(delivery)  # the leases run out
    await asyncio.gather(*redelivered)
    await h.settle()
    saved = sum(1 for r in h.tg.answers() if r.text == h.tr.t("ru", "settings-saved"))
    assert saved == 1 + len(presses), "each redelivered press handled once"
