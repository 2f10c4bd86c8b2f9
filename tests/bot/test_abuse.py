"""Abuse costs the abuser, not the bot, through the real dispatcher on both
stores: /notify calls a chat's subscribers at most once a while, and never
those already seated; a deep link seats only the group's members (Telegram
asked, the answer kept a while, no when it cannot say); a post "as a channel"
manages nobody's lobby; /leave ↔ /back toggling is bounded."""

from __future__ import annotations

from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import GetChatMember, SendMessage
from aiogram.types import Chat, User

from bot.service.notify import CALL_INTERVAL
from bot.store import Store
from bot.store.models import MAX_RETURNS
from bot.words.keyboards import LobbyCb
from tests.bot.fake_telegram import person
from tests.bot.harness import Harness, people

GROUP = -100515151
#: the one account Telegram shows as the sender of every post "as a channel"
CHANNEL_BOT = User(id=136817688, is_bot=True, first_name="Channel")


def calls(h: Harness, user_id: int) -> int:
    """/notify's calls a person got in private."""
    return sum(1 for r in h.tg.sent(user_id) if "🔔" in r.text)


async def cancel_lobby(h: Harness, by: User) -> None:
    table = await h.table(GROUP)
    lobby = (await h.store.messages(GROUP))["lobby"]
    await h.press(by, GROUP, lobby, LobbyCb(action="cancel", game=table.game_no).pack())
    assert (await h.table(GROUP)).status != "lobby"


# ====================================================================== /notify
async def test_opening_and_cancelling_lobbies_in_a_loop_calls_each_subscriber_once_a_while(
    store: Store,
) -> None:
    h = Harness(store)
    anna = person(90, "Анна")
    subscribers = [person(1000 + i, f"Игрок{i}") for i in range(20)]
    for user in (anna, *subscribers):
        await h.say(user.id, user, "/start")
    for user in subscribers:
        await h.say(GROUP, user, "/notify")
    # ten lobbies opened and cancelled in a row: one round of calls
    for _ in range(10):
        await h.say(GROUP, anna, "/newgame")
        await cancel_lobby(h, anna)
    assert [calls(h, u.id) for u in subscribers] == [1] * 20
    # the interval passes: the next lobby calls them again, once
    h.clock.advance(CALL_INTERVAL)
    for _ in range(3):
        await h.say(GROUP, anna, "/newgame")
        await cancel_lobby(h, anna)
    assert [calls(h, u.id) for u in subscribers] == [2] * 20


async def test_notify_never_calls_someone_already_seated_in_the_new_lobby(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    for user in (anna, boris):
        await h.say(user.id, user, "/start")
        await h.say(GROUP, user, "/notify")
    await h.say(GROUP, anna, "/newgame")
    assert (calls(h, anna.id), calls(h, boris.id)) == (0, 1)  # Анна opened it: she sits there
    assert (await h.table(GROUP)).called == 1
    await cancel_lobby(h, anna)
    h.clock.advance(CALL_INTERVAL)
    await h.say(GROUP, boris, "/newgame")
    assert (calls(h, anna.id), calls(h, boris.id)) == (1, 1)


# ====================================================================== the deep link
async def test_a_join_link_seats_only_the_groups_members_and_fails_closed(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    carl = person(300, "Карл")  # got the link somewhere else: not in the group
    h.tg.outsiders.add((GROUP, carl.id))
    await h.say(anna.id, anna, "/start")
    await h.say(GROUP, anna, "/newgame")
    link = f"/start join_{GROUP}_{(await h.table(GROUP)).game_no}"
    refusal = h.tr.t("ru", "err-not-member")

    def asked(user: User) -> int:
        return sum(
            1 for r in h.tg.requests if isinstance(r, GetChatMember) and r.user_id == user.id
        )

    for _ in range(3):  # again and again: Telegram is asked once
        await h.say(carl.id, carl, link)
        assert h.tg.sent(carl.id)[-1].text == refusal
    assert asked(carl) == 1
    assert (await h.table(GROUP)).seat_of(carl.id) is None

    # Telegram cannot say: no seat, and the answer is not kept
    h.tg.member_lookup_fails = TelegramNetworkError(
        method=GetChatMember(chat_id=GROUP, user_id=vera.id), message="timeout"
    )
    await h.say(vera.id, vera, link)
    assert h.tg.sent(vera.id)[-1].text == refusal
    failed = asked(vera)  # (the call policy retried it)
    h.tg.member_lookup_fails = None
    for member in (boris, vera):
        await h.say(member.id, member, link)
        assert (await h.table(GROUP)).seat_of(member.id) is not None
    assert asked(vera) == failed + 1  # asked anew once Telegram answers


# ====================================================================== channels
async def test_a_post_as_a_channel_manages_nobodys_lobby(store: Store) -> None:
    h = Harness(store)
    anna, boris = people("Анна", "Борис")
    channel = Chat(id=-1001234500001, type="channel", title="Канал")
    refusal = h.tr.t("ru", "err-channel-sender")

    async def post(text: str) -> str:
        update = h.updates.message(GROUP, CHANNEL_BOT, text, sender_chat=channel)
        await h.feed(update)
        answer = h.tg.sent(GROUP)[-1]
        assert isinstance(answer, SendMessage)
        return answer.text

    assert await post("/newgame") == refusal  # a channel opens no lobby
    assert await h.store.load(GROUP) is None
    await h.open_lobby(GROUP, anna, [boris])
    before = await h.table(GROUP)
    for command in ("/go", "/stop", "/leave", "/join", "/newgame", "/back", "/notify"):
        assert await post(command) == refusal, command
    after = await h.table(GROUP)
    assert after.version == before.version and after.status == "lobby"
    assert after.seat_of(CHANNEL_BOT.id) is None
    assert CHANNEL_BOT.id not in await h.store.subscribers(GROUP)
    # what only shows something still answers
    await post("/table")
    assert h.tg.sent(GROUP)[-1].text != refusal


# ====================================================================== /leave ↔ /back
async def test_leave_and_back_toggling_is_bounded(store: Store) -> None:
    h = Harness(store)
    anna, boris, vera = people("Анна", "Борис", "Вера")
    await h.open_game(GROUP, anna, [boris, vera])
    start = len(await h.store.log(GROUP))
    for _ in range(MAX_RETURNS):
        await h.leave_game(boris, GROUP)
        await h.say(boris.id, boris, "/back")
        assert h.tg.sent(boris.id)[-1].text == h.tr.t("ru", "back-done")
    await h.leave_game(boris, GROUP)
    for _ in range(5):  # and on: the computer keeps the seat, the log stops growing
        await h.say(boris.id, boris, "/back")
        assert h.tg.sent(boris.id)[-1].text == h.tr.t("ru", "back-too-often")
        await h.say(GROUP, boris, "/leave")
    table = await h.table(GROUP)
    seat = table.seat_of_person(boris.id)
    assert seat is not None and table.seats[seat].left
    assert len(await h.store.log(GROUP)) - start == 2 * MAX_RETURNS + 1
