"""The real entry point, `python -m bot`, as a separate process against a fake Bot API.

Proves that the bot
- talks to whatever Bot API server ``BOT_API_URL`` names;
- starts and serves although that server refuses ``setMyCommands`` (optional);
- loses nothing to a restart: killed with SIGKILL mid-game and started again
  (only after the old process is dead), a prompt's button sent before the kill
  still answers it, and a person's deadline set before the kill fires in the
  new process and moves the game on;
- stops cleanly on SIGTERM in polling and in webhook mode: no new updates,
  /readyz 503, the update in hand finishes, exit 0 — bounded by DRAIN_SECONDS;
- refuses settings that cannot work at once (exit 2), printing no secret.

Every wait is for an event — a request reaching the fake Bot API, a log line,
the process's exit; the timeouts only bound a wait that would never end, and
are generous, so the tests hold on a busy machine.

Starting `python -m bot` takes seconds (importing aiogram builds hundreds of
pydantic models), about as long as the shortest deadline Settings allow (10 s).
So the game whose old button is pressed after a restart is opened by a bot
running with 60 s timeouts (a game keeps the timeouts it was opened with), and
the game whose deadline must fire after a restart by one running with 10 s.

Games live in a Redis database of their own (13, or the next free one of a few;
claimed with a lock so two test runs never share one), flushed before and
after. No Redis: skipped — or failed when ``CI`` is set (see conftest.py).
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
import uuid
from collections.abc import AsyncIterator
from functools import partial
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import pytest
from redis.asyncio import Redis

from bot.ops import logs
from bot.store.models import Table
from bot.store.redis import RedisStore
from bot.words.i18n import Translator
from bot.words.keyboards import PromptCb, SettingsCb
from bot.words.names import shown_name
from engine import Decision, pending
from tests.bot.conftest import REDIS_URL, _reachable
from tests.bot.fake_bot_api import FakeBotAPI, user
from tests.bot.helpers.processes import (
    ANNA,
    BORIS,
    LONG,
    SHORT,
    TOKEN,
    BotProcess,
    _clean,
    _free_port,
    bot_env,
    until,
)

GROUP_A = -100777  # opened with 60 s timeouts: its old button is pressed after a restart
GROUP_B = -100888  # opened with 10 s timeouts: its deadline fires after a restart
VERA, GLEB = user(103, "Вера"), user(104, "Глеб")  # play in B
PEOPLE = {u["id"]: u for u in (ANNA, BORIS, VERA, GLEB)}
DATABASES = (13, 14, 15, 12)


# ====================================================================== a Redis database
def _with_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


@pytest.fixture
async def redis_db() -> AsyncIterator[str]:
    """The URL of an empty Redis database this test alone uses; flushed afterwards."""
    base = Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=10)
    await _reachable(base)  # skip, or fail under CI
    token = uuid.uuid4().hex
    lock = ""
    try:
        for _ in range(120):  # another run holds them all: wait for one (≤ 60 s)
            for db in DATABASES:
                key = f"smuta-test:process-db:{db}"
                if await base.set(key, token, nx=True, ex=180):
                    lock = key
                    break
            if lock:
                break
            await asyncio.sleep(0.5)
        assert lock, f"Redis databases {DATABASES} all stayed claimed by other test runs"
        url = _with_db(REDIS_URL, int(lock.rsplit(":", 1)[1]))
        client = Redis.from_url(url)
        await client.flushdb()
        try:
            yield url
        finally:
            await client.flushdb()
            await client.aclose()
    finally:
        if lock and (await base.get(lock)) == token.encode():
            await base.delete(lock)
        await base.aclose()


# ====================================================================== the bot process


# ====================================================================== driving a game


class Game:
    """One group's game, played through the fake Bot API; its state read from Redis."""

    def __init__(self, api: FakeBotAPI, store: RedisStore, chat_id: int) -> None:
        self.api = api
        self.store = store
        self.chat_id = chat_id

    async def table(self) -> Table:
        table = await self.store.load(self.chat_id)
        assert table is not None, f"no game in {self.chat_id}"
        return table

    async def decision(self) -> Decision | None:
        table = await self.table()
        if table.status != "playing" or table.state is None:
            return None
        return pending(table.state)

    async def press(self, who: dict[str, Any], chat_id: int, message_id: int, data: str) -> Any:
        """Press a button and wait until the bot answers the callback query (its handler
        answers last, after every message it sends); returns that answer's parameters."""
        query = self.api.press(who, chat_id, message_id, data)
        call = await self.api.wait_for(
            lambda: self.api.answer_to(query), 60, f"the answer to {data!r}"
        )
        return call.params

    async def say(self, who: dict[str, Any], chat_id: int, text: str) -> None:
        before = len(self.api.sent)
        self.api.say(chat_id, who, text)
        await self.api.wait_for(
            lambda: any(m["chat"]["id"] == chat_id for m in self.api.sent[before:]),
            60,
            f"the bot's reply to {text!r}",
        )

    async def open(self, host: dict[str, Any], guest: dict[str, Any]) -> Table:
        """Both /start the bot; host: /newgame; guest: Join; host: + computer, Start."""
        for who in (host, guest):
            await self.say(who, who["id"], "/start")
        await self.say(host, self.chat_id, "/newgame")
        lobby = max(m for (c, m) in self.api.messages if c == self.chat_id)

        def shown(action: str) -> list[str]:
            found = [b for b in self.api.buttons(self.chat_id, lobby) if b.startswith("lb:")]
            assert found, "the lobby has no buttons"
            return [b for b in found if b.startswith(f"lb:{action}:")]

        # the computers' levels are behind «🤖 Компьютер…» (the lobby's edit
        # goes out at the group's pace: waited for)
        for who, action in ((guest, "join"), (host, "levels"), (host, "bot_easy"), (host, "go")):
            await self.api.wait_for(partial(shown, action), 30, f"the lobby's {action}")
            answer = await self.press(who, self.chat_id, lobby, shown(action)[0])
            assert not answer.get("show_alert"), answer
        table = await self.table()
        assert table.status == "playing"
        assert [s.user_id for s in table.seats] == [host["id"], guest["id"], None]
        return table

    async def human_decision(self, timeout: float = 60) -> tuple[Decision, dict[str, Any], int]:
        """Wait (computer seats play on their own timers) for a person's decision whose
        prompt has been delivered: the decision, the person, the prompt's message id."""

        async def check() -> tuple[Decision, dict[str, Any], int] | None:
            table = await self.table()
            assert table.status == "playing", f"the game is {table.status}"
            assert table.state is not None
            decision = pending(table.state)
            if decision is None:
                return None
            uid = table.seats[decision.seat].user_id
            if uid is None or table.state.players[decision.seat].computer:
                return None
            prompt = self.prompt_of(uid, decision.id)
            return None if prompt is None else (decision, PEOPLE[uid], prompt)

        return await until(check, timeout, f"a person's prompt in {self.chat_id}")

    def answers(self, data: str, decision_id: int) -> bool:
        if not data.startswith("p:"):
            return False
        cb = PromptCb.unpack(data)
        return cb.chat == self.chat_id and cb.decision == decision_id

    def prompt_of(self, uid: int, decision_id: int) -> int | None:
        """The private message whose buttons (as they are now) answer `decision_id`."""
        for message in reversed(self.api.sent):
            if message["chat"]["id"] == uid and any(
                self.answers(d, decision_id) for d in self.api.buttons(uid, message["message_id"])
            ):
                return int(message["message_id"])
        return None

    async def answer(
        self, decision: Decision, who: dict[str, Any], message_id: int, first: str | None = None
    ) -> None:
        """Press through the prompt's menu (the first button of each level; `first`, if
        given, is the first press) until the decision is answered."""
        uid = who["id"]
        data = first
        for _ in range(10):
            if data is None:
                buttons = self.api.buttons(uid, message_id)
                choices = [d for d in buttons if self.answers(d, decision.id)]
                assert choices, f"prompt {message_id} has no buttons for decision {decision.id}"
                data = choices[0]
            answer = await self.press(who, uid, message_id, data)
            assert not answer.get("show_alert"), f"button {data!r} refused: {answer.get('text')}"
            now = await self.decision()
            if now is None or now.id != decision.id:
                return
            data = None
        raise AssertionError(f"ten presses did not answer decision {decision.id}")

    async def play(self, answers: int) -> None:
        """Answer `answers` people's prompts; the computer seat plays in between."""
        for _ in range(answers):
            decision, who, prompt = await self.human_decision()
            await self.answer(decision, who, prompt)


# ====================================================================== the test
async def test_python_m_bot_survives_sigkill_mid_game(redis_db: str) -> None:
    started = time.monotonic()
    tr = Translator()
    store = RedisStore.from_url(redis_db)
    bots: list[BotProcess] = []
    api = FakeBotAPI(TOKEN)
    await api.start()
    a = Game(api, store, GROUP_A)
    b = Game(api, store, GROUP_B)
    timings: dict[str, float] = {}

    async def launch(name: str, timeout: int) -> BotProcess:
        """Start `python -m bot` and wait until it polls for updates (its ticker runs
        by then)."""
        t0 = time.monotonic()
        mark = len(api.arrivals)
        env = bot_env(api.url, redis_db, timeout)
        env["LOG_LEVEL"] = "DEBUG"  # aiogram's "Update id=… is handled" lines: see `kill`
        proc = BotProcess(name, env)
        # the updates this process is handed: those not yet confirmed, and later ones
        proc.first_update = len(api.queued) - api.unconfirmed
        bots.append(proc)
        await proc.start()
        await api.wait_for(
            lambda: api.arrived("getUpdates", mark) or not proc.alive(), 60, f"{name} to poll"
        )
        assert proc.alive(), f"{name} exited with {proc.proc and proc.proc.returncode}"
        timings[f"{name} up"] = time.monotonic() - t0
        return proc

    async def kill(proc: BotProcess) -> None:
        """SIGKILL once every update is confirmed and handled: a handler goes on
        after its update is confirmed (updates are handled in tasks), and one
        killed while telling its move is the catch-up's business, not this test's."""
        await api.wait_for(lambda: api.unconfirmed == 0, 60, "the updates to be confirmed")

        def handled() -> bool:
            done = {ln.split("Update id=")[1].split()[0] for ln in proc.lines if "Update id=" in ln}
            return all(str(u) in done for u in api.queued[proc.first_update :])

        await api.wait_for(handled, 60, f"{proc.name}'s updates to be handled")
        assert await proc.kill() == -signal.SIGKILL

    try:
        async with asyncio.timeout(900):  # bounds a hang; no step is timed
            # ---------------------------------------------------------- (a), (b): it serves
            first = await launch("bot #1", LONG)
            assert api.of("setMyCommands"), "the bot never asked for its commands menu"
            assert all(not c.ok for c in api.of("setMyCommands"))

            table = await a.open(ANNA, BORIS)
            assert (table.turn_timeout, table.choice_timeout) == (LONG, LONG)
            await a.play(3)

            # ---------------------------------------------------------- (c) SIGKILL, buttons
            decision, who, old_prompt = await a.human_decision()
            old_button = next(
                d for d in api.buttons(who["id"], old_prompt) if a.answers(d, decision.id)
            )
            await kill(first)
            second = await launch("bot #2", SHORT)
            assert await a.decision() == decision, "game A moved while no bot ran"
            await a.answer(decision, who, old_prompt, first=old_button)
            # the press is answered first; the answered prompt loses its buttons right after
            # (or asks the same player's next question in their place)
            await api.wait_for(
                lambda: (
                    not any(a.answers(d, decision.id) for d in api.buttons(who["id"], old_prompt))
                ),
                10,
                "the answered prompt to lose its buttons",
            )
            await a.play(2)

            # ---------------------------------------------------------- (c) SIGKILL, timers
            table = await b.open(VERA, GLEB)
            assert (table.turn_timeout, table.choice_timeout) == (SHORT, SHORT)
            await b.play(2)
            decision, who, prompt = await b.human_decision()
            table = await b.table()
            assert table.deadline is not None and table.deadline_decision == decision.id
            deadline = table.deadline
            await kill(second)

            calls, mark = len(api.calls), len(api.arrivals)
            t0 = time.monotonic()
            third = await launch("bot #3", SHORT)

            # nobody answers: bot #3 fires the deadline bot #2 set, the game moves on ...
            async def moved() -> bool:
                now = await b.decision()
                return now is None or now.id != decision.id

            await until(moved, SHORT + 60, f"decision {decision.id} to time out")
            timings["B's deadline fired, after bot #3 started"] = time.monotonic() - t0
            # ... and tells: the group, and the player on the prompt (saved first, then told)
            told = tr.t("ru", "log-timeout", player=shown_name(who["first_name"], ""))
            await api.wait_for(
                lambda: any(told in t for t in api.texts(GROUP_B, calls)), 60, "the group told"
            )
            timed_out = tr.t("ru", "prompt-timed-out", choice="").strip()
            await api.wait_for(
                lambda: any(timed_out in t for t in api.texts(who["id"], calls)),
                60,
                "the prompt marked as timed out",
            )
            # the timed-out question's buttons are gone (the message may ask the
            # same player's next question in their place)
            assert not any(b.answers(d, decision.id) for d in api.buttons(who["id"], prompt))
            # a strike for the timeout (a busy machine may let the next 10 s deadline
            # of the same player pass too before this looks)
            assert (await b.table()).seats[decision.seat].strikes >= 1
            ticking = api.arrived("deleteWebhook", mark)  # bot #3's ticker starts just before
            if ticking is not None and ticking < deadline - 1:
                # bot #3 ran before the deadline: the reminder (also bot #2's timer) came first
                texts = api.texts(who["id"], calls)
                reminders = [tr.t("ru", "remind", seconds=s) for s in range(SHORT + 1)]
                assert any(r in t for t in texts for r in reminders), f"no reminder: {texts}"

            # bot #3 serves both games' buttons
            await b.play(1)
            await a.play(1)

            # (b) every refusal was logged, none was fatal; nothing else went wrong
            assert all(not c.ok for c in api.of("setMyCommands"))
            assert await third.stop() == 0, "bot #3 did not exit cleanly on SIGTERM"
            for proc in bots:
                assert "could not set the commands menu" in proc.output, proc.output
                bad = [ln for ln in proc.lines if " ERROR " in ln or "Traceback" in ln]
                assert not bad, f"{proc.name} logged errors:\n" + "\n".join(bad)
            timings["total"] = time.monotonic() - started
            print("timings:", {k: round(v, 2) for k, v in timings.items()})
    except BaseException:
        for proc in bots:
            print(f"----- {proc.name} output -----\n{proc.output}\n")
        print("----- the last Bot API calls -----")
        for c in api.calls[-60:]:
            print(c.method, c.ok, {k: v for k, v in c.params.items() if k != "text"})
        raise
    finally:
        for proc in bots:
            if proc.alive():
                await proc.stop(5)
        await api.stop()
        await store.close()


# ====================================================================== SIGTERM: the drain


def _start_update(update_id: int) -> dict[str, Any]:
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": {"id": ANNA["id"], "type": "private", "first_name": "Анна"},
            "from": ANNA,
            "text": "/start",
            "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
        },
    }


async def _status(http: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with http.get(url) as response:
        return response.status, await response.json()


async def _ready(http: aiohttp.ClientSession, health: str) -> bool:
    status, _ = await _status(http, f"{health}/readyz")
    return status == 200


async def test_python_m_bot_in_webhook_mode_finishes_what_it_holds_on_sigterm() -> None:
    """`docker stop` sends SIGTERM: the webhook server stops taking updates and
    /readyz says so, the update in hand still finishes (its message goes out)
    and only then is Telegram answered, and the process exits cleanly. Games
    in the process's own store: no Redis needed. Every step waits for an
    event: the drain is held open by the test's held reply, not timed
    (DRAIN_SECONDS is far beyond any wait)."""
    port = _free_port()
    secret = "s3cret-Token_42"
    hook = f"http://127.0.0.1:{port}/tg/hook"
    # a new connection for every post: one kept alive would outlive the listening socket
    fresh = aiohttp.TCPConnector(force_close=True)
    async with FakeBotAPI(TOKEN) as api, aiohttp.ClientSession(connector=fresh) as http:
        env = bot_env(api.url, "", LONG)
        env.update(
            WEBHOOK_URL=hook,
            WEBHOOK_SECRET=secret,
            WEBHOOK_HOST="127.0.0.1",
            WEBHOOK_PORT=str(port),
            DRAIN_SECONDS="600",
        )
        proc = BotProcess("webhook bot", env)
        await proc.start()
        try:

            async def post(update: dict[str, Any]) -> int:
                async with http.post(
                    hook, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}
                ) as response:
                    return response.status

            async def serving() -> bool:
                try:
                    return await post({"update_id": 0}) == 200  # an empty update: ignored
                except aiohttp.ClientConnectionError:
                    return False

            health = await proc.health_url()
            await until(serving, 120, "the webhook server to listen")
            await until(lambda: _ready(http, health), 60, "/readyz to answer 200")
            assert api.of("setWebhook") and api.of("setWebhook")[0].params["url"] == hook
            assert "s3cret" not in proc.output, "the secret was printed"
            api.hold("sendMessage")
            # Telegram is answered once the update is handled: not while its reply is held
            answered = asyncio.create_task(post(_start_update(1)))
            await api.wait_for(lambda: api.arrived("sendMessage"), 60, "the reply on its way")
            assert not answered.done(), "Telegram was answered before the update was handled"

            assert proc.proc is not None
            proc.proc.send_signal(signal.SIGTERM)
            await proc.wait_line("stopping: no new updates")

            async def refused() -> bool:
                return not await serving()

            await until(refused, 60, "the server to stop taking updates")
            status, body = await _status(http, f"{health}/readyz")
            assert (status, body["checks"]["process"]) == (503, "shutting down")
            assert proc.alive(), "it did not wait for the update in hand"
            api.release("sendMessage")
            assert await answered == 200  # handled during the drain, then answered
            assert await proc.wait_exit(120) == 0
            replies = [c for c in api.of("sendMessage") if c.params.get("chat_id") == ANNA["id"]]
            assert replies and all(c.ok for c in replies), "the update in hand was cut off"
            assert "stopped" in proc.output
            _clean(proc)
        except BaseException:
            print(f"----- {proc.name} output -----\n{proc.output}\n")
            raise
        finally:
            if proc.alive():
                await proc.kill()


async def test_python_m_bot_polling_finishes_what_it_holds_on_sigterm() -> None:
    """Long polling drains like webhook mode: on SIGTERM it polls no more (an
    update sent afterwards stays with Telegram, unconfirmed, for the next
    process), the update in hand finishes its reply, and the process exits 0.
    With LOG_FORMAT=json every line it writes is one JSON object, and a line
    written while handling an update names that update."""
    async with FakeBotAPI(TOKEN) as api, aiohttp.ClientSession() as http:
        env = bot_env(api.url, "", LONG)
        env.update(DRAIN_SECONDS="600", LOG_FORMAT="json", LOG_LEVEL="DEBUG")
        proc = BotProcess("polling bot", env)
        await proc.start()
        try:
            health = await proc.health_url()
            await api.wait_for(lambda: api.arrived("getUpdates"), 120, "the bot to poll")
            status, _ = await _status(http, f"{health}/healthz")
            assert status == 200
            await until(lambda: _ready(http, health), 60, "/readyz to answer 200")

            api.hold("sendMessage")
            held = api.say(ANNA["id"], ANNA, "/start")
            await api.wait_for(lambda: api.arrived("sendMessage"), 60, "the reply on its way")
            assert proc.proc is not None
            proc.proc.send_signal(signal.SIGTERM)
            await proc.wait_line("polling stopped: no new updates")
            polls = [a for a in api.arrivals if a[0] == "getUpdates"]
            late = api.say(ANNA["id"], ANNA, "/help")  # after the stop: not this process's
            status, body = await _status(http, f"{health}/readyz")
            assert (status, body["checks"]["process"]) == (503, "shutting down")
            assert proc.alive(), "it did not wait for the update in hand"

            api.release("sendMessage")
            assert await proc.wait_exit(120) == 0
            replies = [c for c in api.of("sendMessage") if c.params.get("chat_id") == ANNA["id"]]
            assert len(replies) == 1 and replies[0].ok, "the update in hand was cut off"
            assert replies[0].params["text"] == Translator().t("ru", "welcome")
            assert api.unconfirmed == 1 and late > held, "the late update was taken"
            assert polls == [a for a in api.arrivals if a[0] == "getUpdates"], "it polled on"

            records = [json.loads(line) for line in proc.lines]  # each line one object
            assert any(r["message"] == "stopped" for r in records)
            assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")], records
            handled = [r for r in records if r.get("update_id") == held]
            # a private chat's id is its person's: the lines write its pseudonym
            anna = logs.person(ANNA["id"], logs.pseudonym_key(TOKEN))
            assert handled and all(r.get("chat_id") == anna for r in handled)
        except BaseException:
            print(f"----- {proc.name} output -----\n{proc.output}\n")
            raise
        finally:
            if proc.alive():
                await proc.kill()


async def test_the_drain_is_bounded_by_drain_seconds() -> None:
    """An update that never finishes (its reply hangs) holds the process no
    longer than DRAIN_SECONDS: it is logged and the process still exits 0."""
    async with FakeBotAPI(TOKEN) as api:
        env = bot_env(api.url, "", LONG)
        env.update(DRAIN_SECONDS="1")
        proc = BotProcess("stuck bot", env)
        await proc.start()
        try:
            await api.wait_for(lambda: api.arrived("getUpdates"), 120, "the bot to poll")
            api.hold("sendMessage")  # never released
            api.say(ANNA["id"], ANNA, "/start")
            await api.wait_for(lambda: api.arrived("sendMessage"), 60, "the reply on its way")
            assert proc.proc is not None
            proc.proc.send_signal(signal.SIGTERM)
            assert await proc.wait_exit(120) == 0
            assert "1 update(s) still running at shutdown" in proc.output
            assert "stopped" in proc.output
        except BaseException:
            print(f"----- {proc.name} output -----\n{proc.output}\n")
            raise
        finally:
            if proc.alive():
                await proc.kill()


async def test_python_m_bot_refuses_webhook_mode_without_a_secret_and_prints_no_secret() -> None:
    env = bot_env("http://127.0.0.1:9", "", LONG)
    env.update(
        BOT_TOKEN="123456:VERY-SECRET-TOKEN",
        WEBHOOK_URL="https://example.org/hook",
        WEBHOOK_SECRET="",  # whatever a local .env says
    )
    proc = BotProcess("misconfigured bot", env)
    await proc.start()
    assert await proc.wait_exit(120) == 2
    assert "WEBHOOK_SECRET" in proc.output
    assert "VERY-SECRET-TOKEN" not in proc.output
    assert "Traceback" not in proc.output


# ====================================================================== a kill mid-update
def _press_update(update_id: int, who: dict[str, Any], message: dict[str, Any], data: str) -> Any:
    return {
        "update_id": update_id,
        "callback_query": {
            "id": f"q{update_id}",
            "from": who,
            "chat_instance": "ci",
            "message": message,
            "data": data,
        },
    }


async def test_an_update_whose_process_is_killed_mid_handling_is_handled_once_by_another(
    redis_db: str,
) -> None:
    """Two webhook processes on one Redis (behind one address, as
    deploy/docker-compose.scale.yml runs them). A press that cycles a setting
    reaches process A, which claims it (its lease is in Redis) and is killed
    with SIGKILL while it asks Telegram whether the presser is an admin:
    Telegram got no answer, and delivers the press again — to process B,
    which waits for the dead lease to run out (DRAIN_SECONDS=1: a few
    seconds), handles it once (the setting moves one step) and only then
    answers Telegram. Delivered once more, it is dropped."""
    secret = "s3cret-Token_42"
    store = RedisStore.from_url(redis_db)
    fresh = aiohttp.TCPConnector(force_close=True)
    async with FakeBotAPI(TOKEN) as api, aiohttp.ClientSession(connector=fresh) as http:
        api.admins.add((GROUP_A, ANNA["id"]))
        procs: dict[str, BotProcess] = {}
        hooks: dict[str, str] = {}
        for name in ("A", "B"):
            port = _free_port()
            hooks[name] = f"http://127.0.0.1:{port}/tg/hook"
            env = bot_env(api.url, redis_db, LONG)
            env.update(
                WEBHOOK_URL=hooks[name],
                WEBHOOK_SECRET=secret,
                WEBHOOK_HOST="127.0.0.1",
                WEBHOOK_PORT=str(port),
                DRAIN_SECONDS="1",  # the lease: 2 × 1 + 2 = 4 s
            )
            procs[name] = BotProcess(f"webhook bot {name}", env)
        a, b = procs["A"], procs["B"]
        try:
            await asyncio.gather(a.start(), b.start())

            async def post(name: str, update: dict[str, Any]) -> int:
                async with http.post(
                    hooks[name], json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}
                ) as response:
                    return response.status

            async def serving(name: str) -> bool:
                try:
                    return await post(name, {"update_id": 0}) == 200  # an empty update
                except aiohttp.ClientConnectionError:
                    return False

            for name in procs:
                await until(partial(serving, name), 120, f"{name}'s webhook server to listen")

            # Анна, an admin, opens /settings (through B); the hand limit's button
            command = _start_update(11)
            command["message"].update(chat={"id": GROUP_A, "type": "group", "title": "Г"})
            command["message"]["text"] = "/settings"
            command["message"]["entities"][0]["length"] = len("/settings")
            assert await post("B", command) == 200
            await api.wait_for(
                lambda: any(m["chat"]["id"] == GROUP_A for m in api.sent), 60, "the settings"
            )
            settings = next(m for m in api.sent if m["chat"]["id"] == GROUP_A)
            data = SettingsCb(what="hand_limit").pack()
            assert data in api.buttons(GROUP_A, settings["message_id"])
            press = _press_update(12, ANNA, settings, data)

            # A takes the press, claims it, and is killed while it asks whether
            # Анна is an admin: Telegram is answered nothing
            api.hold("getChatMember")
            mark = len(api.arrivals)
            to_a = asyncio.create_task(post("A", press))
            await api.wait_for(lambda: api.arrived("getChatMember", mark), 60, "A's question")
            lease = await store._r.get(f"smuta:update:{press['update_id']}")
            assert lease not in (None, b"done"), f"A holds no lease: {lease!r}"
            assert await a.kill() == -signal.SIGKILL
            with pytest.raises(aiohttp.ClientError):
                await to_a  # Telegram got no answer from A ...
            api.release("getChatMember")
            assert await store.profile(GROUP_A) is None, "A saved before it was killed"

            # ... and delivers the press again, to B: handled once, then answered
            assert await post("B", press) == 200
            profile = await store.profile(GROUP_A)
            assert profile is not None and profile.variants == {"hand_limit": 6}  # 7 → 6
            answers = [
                c for c in api.of("answerCallbackQuery") if c.params["callback_query_id"] == "q12"
            ]
            assert len(answers) == 1 and not answers[0].params.get("show_alert"), answers
            await b.wait_line("its lease ran out unfinished, handled here")
            assert await store._r.get(f"smuta:update:{press['update_id']}") == b"done"

            # delivered once more (Telegram's retry of a lost answer): dropped
            assert await post("B", press) == 200
            await b.wait_line(f"update {press['update_id']} delivered again: ignored")
            profile = await store.profile(GROUP_A)
            assert profile is not None and profile.variants == {"hand_limit": 6}
            assert (
                len(
                    [
                        c
                        for c in api.of("answerCallbackQuery")
                        if c.params["callback_query_id"] == "q12"
                    ]
                )
                == 1
            )
            assert await b.stop() == 0
            _clean(b)
        except BaseException:
            for proc in procs.values():
                print(f"----- {proc.name} output -----\n{proc.output}\n")
            raise
        finally:
            for proc in procs.values():
                if proc.alive():
                    await proc.kill()
            await store.close()
