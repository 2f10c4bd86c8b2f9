"""A Bot API server on 127.0.0.1 for tests that run the real `python -m bot`.

It speaks just enough of https://core.telegram.org/bots/api at
``/bot<token>/<method>`` (what `TelegramAPIServer.from_base(url)` produces):
aiogram posts form data (nested objects as JSON strings); JSON bodies are
understood too. Updates the test queues are served by long-polling
``getUpdates`` with Telegram's semantics — an update stays until a later call
confirms it with ``offset`` > its id — so a bot killed mid-poll loses none.
Every call is recorded, and the messages the bot sent are kept (text and
buttons, as edited since) so the test can press their buttons.

``setMyCommands`` is refused (400), as a server may refuse an optional call.
`hold` keeps a method's calls waiting, as a server that hangs would.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

# form fields aiogram sends as JSON text, and fields that are numbers or flags
_JSON_FIELDS = {
    "reply_markup",
    "entities",
    "caption_entities",
    "commands",
    "scope",
    "allowed_updates",
    "link_preview_options",
    "reply_parameters",
}
_INT_FIELDS = {"chat_id", "message_id", "user_id", "offset", "limit", "timeout"}
_BOOL_FIELDS = {"show_alert", "drop_pending_updates", "disable_notification"}

REFUSED = "Bad Request: refused by test"


@dataclass
class Call:
    """One request the bot made, and what it was answered."""

    method: str  # as sent (camelCase)
    params: dict[str, Any]
    ok: bool
    result: Any
    at: float


def user(user_id: int, name: str, lang: str = "ru") -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": name, "language_code": lang}


def chat(chat_id: int, title: str = "Тестовая группа") -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
    kind = "supergroup" if chat_id < -(10**12) else "group"
    return {"id": chat_id, "type": kind, "title": title}


class FakeBotAPI:
    def __init__(self, token: str, username: str = "smuta_test_bot") -> None:
        self.token = token
        self.me = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Смута",
            "username": username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.calls: list[Call] = []  # answered calls, in the order they were answered
        self.arrivals: list[tuple[str, float]] = []  # (method, time.time()) as calls arrive
        self._held: dict[str, asyncio.Event] = {}
        self.admins: set[tuple[int, int]] = set()  # (chat, user): getChatMember says admin
        self.messages: dict[tuple[int, int], dict[str, Any]] = {}  # as sent, then edited
        self.sent: list[dict[str, Any]] = []  # every message the bot sent, in order, as sent
        self._updates: list[dict[str, Any]] = []  # not yet confirmed by an offset
        self.queued: list[int] = []  # every update's id, in the order people sent them
        self._update_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._message_ids = itertools.count(1000)
        self._their_message_ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ server
    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the free port the OS gave

    async def stop(self) -> None:
        self._closing = True
        for method in list(self._held):
            self.release(method)
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    def hold(self, method: str) -> None:
        """Keep every call of `method` waiting, unanswered, until `release`."""
        self._held.setdefault(method.lower(), asyncio.Event())

    def release(self, method: str) -> None:
        held = self._held.pop(method.lower(), None)
        if held is not None:
            held.set()

    def arrived(self, method: str, since: int = 0) -> float | None:
        """When the first call of `method` at or after arrival number `since` arrived."""
        for name, at in self.arrivals[since:]:
            if name.lower() == method.lower():
                return at
        return None

    async def __aenter__(self) -> FakeBotAPI:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        self.arrivals.append((method, time.time()))
        if method.lower() in self._held:
            await self._held[method.lower()].wait()
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        params = await _params(request)
        handler = getattr(self, f"_m_{method.lower()}", None)
        status, body = (200, {"ok": True, "result": True})
        if handler is not None:
            status, body = await handler(params)
        self.calls.append(
            Call(method, params, bool(body["ok"]), body.get("result", body), time.monotonic())
        )
        await self._notify()
        return web.json_response(body, status=status)

    # ------------------------------------------------------------------ methods
    async def _m_getme(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return _ok(self.me)

    async def _m_deletewebhook(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if p.get("drop_pending_updates"):
            self._updates.clear()
        return _ok(True)

    async def _m_setmycommands(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return 400, {"ok": False, "error_code": 400, "description": REFUSED}

    async def _m_getupdates(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = int(p.get("offset") or 0)
        if offset:  # Telegram: every update below `offset` is confirmed and forgotten
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        limit = int(p.get("limit") or 100)
        wait = float(p.get("timeout") or 0)

        def ready() -> bool:
            return self._closing or bool(self._updates)

        if not ready() and wait > 0:
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait_for(ready), wait)
        return _ok(list(self._updates[:limit]))

    async def _m_sendmessage(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        chat_id = int(p["chat_id"])
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": chat(chat_id),
            "from": {k: self.me[k] for k in ("id", "is_bot", "first_name", "username")},
            "text": p.get("text", ""),
        }
        if isinstance(p.get("reply_markup"), dict) and "inline_keyboard" in p["reply_markup"]:
            message["reply_markup"] = p["reply_markup"]
        self.messages[(chat_id, message["message_id"])] = dict(message)
        self.sent.append(message)
        return _ok(message)

    async def _m_editmessagetext(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        found = self._find(p)
        if found is None:
            return _bad("Bad Request: message to edit not found")
        markup = p.get("reply_markup") or None
        if found["text"] == p.get("text") and found.get("reply_markup") == markup:
            return _bad(
                "Bad Request: message is not modified: specified new message content and "
                "reply markup are exactly the same as a current content and reply markup "
                "of the message"
            )
        found["text"] = p.get("text", "")
        _set_markup(found, markup)
        return _ok(found)

    async def _m_editmessagereplymarkup(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        found = self._find(p)
        if found is None:
            return _bad("Bad Request: message to edit not found")
        _set_markup(found, p.get("reply_markup") or None)
        return _ok(found)

    async def _m_answercallbackquery(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return _ok(True)

    async def _m_getchatmember(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        uid = int(p["user_id"])
        status = "administrator" if (int(p["chat_id"]), uid) in self.admins else "member"
        member: dict[str, Any] = {"status": status, "user": user(uid, "x")}
        if status == "administrator":  # the rights Telegram lists for an admin
            member.update(
                {
                    right: False
                    for right in (
                        "can_be_edited",
                        "is_anonymous",
                        "can_manage_chat",
                        "can_delete_messages",
                        "can_manage_video_chats",
                        "can_restrict_members",
                        "can_promote_members",
                        "can_change_info",
                        "can_invite_users",
                        "can_post_stories",
                        "can_edit_stories",
                        "can_delete_stories",
                        "can_send_welcome_messages",
                    )
                }
            )
        return _ok(member)

    def _find(self, p: dict[str, Any]) -> dict[str, Any] | None:
        if "chat_id" not in p or "message_id" not in p:
            return None
        return self.messages.get((int(p["chat_id"]), int(p["message_id"])))

    # ------------------------------------------------------------------ what people do
    def _queue(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        self.queued.append(update_id)
        self._updates.append({"update_id": update_id, **update})
        task = asyncio.get_running_loop().create_task(self._notify())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return update_id

    def say(self, chat_id: int, sender: dict[str, Any], text: str) -> int:
        """Queue a message (a command gets its bot_command entity); returns the update id."""
        message: dict[str, Any] = {
            "message_id": next(self._their_message_ids),
            "date": int(time.time()),
            "chat": chat(chat_id),
            "from": sender,
            "text": text,
        }
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        return self._queue({"message": message})

    def press(self, sender: dict[str, Any], chat_id: int, message_id: int, data: str) -> str:
        """Queue a press of a button on a message the bot sent; returns the callback query id."""
        message = self.messages.get((chat_id, message_id)) or {
            "message_id": message_id,
            "date": int(time.time()),
            "chat": chat(chat_id),
        }
        query_id = str(next(self._callback_ids))
        self._queue(
            {
                "callback_query": {
                    "id": query_id,
                    "from": sender,
                    "chat_instance": f"ci{chat_id}",
                    "message": message,
                    "data": data,
                }
            }
        )
        return query_id

    # ------------------------------------------------------------------ reading
    @property
    def unconfirmed(self) -> int:
        """Queued updates no getUpdates call has confirmed yet (by a later offset)."""
        return len(self._updates)

    def of(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method.lower() == method.lower()]

    def answer_to(self, query_id: str) -> Call | None:
        for c in self.of("answerCallbackQuery"):
            if str(c.params.get("callback_query_id")) == query_id:
                return c
        return None

    def buttons(self, chat_id: int, message_id: int) -> list[str]:
        """The callback data of a message's buttons as it is now."""
        markup = self.messages.get((chat_id, message_id), {}).get("reply_markup") or {}
        return [
            b["callback_data"]
            for row in markup.get("inline_keyboard", [])
            for b in row
            if "callback_data" in b
        ]

    def texts(self, chat_id: int, since: int = 0) -> list[str]:
        """Texts the bot sent to or edited in a chat, from call number `since` on."""
        return [
            str(c.params.get("text", ""))
            for c in self.calls[since:]
            if c.method.lower() in ("sendmessage", "editmessagetext")
            and c.ok
            and int(c.params.get("chat_id", 0)) == chat_id
        ]

    async def wait_for(
        self, check: Callable[[], Any], timeout: float = 10.0, what: str = "condition"
    ) -> Any:
        """Wait until `check()` is truthy (re-checked after every call the bot makes and
        at least every 0.1 s); returns its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = check()
            if value:
                return value
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}")
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(left, 0.1))


def _ok(result: Any) -> tuple[int, dict[str, Any]]:
    return 200, {"ok": True, "result": result}


def _bad(description: str) -> tuple[int, dict[str, Any]]:
    return 400, {"ok": False, "error_code": 400, "description": description}


def _set_markup(message: dict[str, Any], markup: Any) -> None:
    if isinstance(markup, dict) and markup.get("inline_keyboard"):
        message["reply_markup"] = markup
    else:
        message.pop("reply_markup", None)


async def _params(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        body = await request.json() if request.can_read_body else {}
        return dict(body or {})
    form = await request.post()
    params: dict[str, Any] = {}
    for key, value in form.items():
        text = value if isinstance(value, str) else str(value)
        if key in _JSON_FIELDS:
            params[key] = json.loads(text)
        elif key in _INT_FIELDS:
            params[key] = int(text)
        elif key in _BOOL_FIELDS:
            params[key] = text.lower() == "true"
        else:
            params[key] = text
    for key in request.query:
        params.setdefault(key, request.query[key])
    return params
