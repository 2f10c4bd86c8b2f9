"""The Mini App's server: the page, its API and its live stream (aiohttp).

Routes, under the path of ``WEBAPP_URL`` (the page uses relative URLs):

- ``GET /`` — the page (``static/``, its style and script inlined: `page`);
- ``GET api/games`` — the caller's games (what the menu button opens on);
- ``GET api/state?chat=`` — the caller's view of the chat's game, with the
  page's words;
- ``GET api/events?chat=`` — the same view, live: server-sent events, one
  ``state`` event per saved move (``id``: the record's version; a reconnect's
  ``Last-Event-ID`` gets the newest at once when it is newer);
- ``GET api/card?chat=&topic=`` — /card's text for a card type or a castle;
- ``POST api/answer`` — ``{chat, game, decision, option}``: the pending
  decision answered, through the service's button path (`Play.choose`);
- ``GET api/replay?game=N`` — finished game ``N`` (/history's number) move
  by move: the public table after each command and the game's public log
  (`bot.webapp.story`), for those who played it.

A game's log in the app is its story rebuilt from the command log
(`bot.webapp.story.Story`, one per chat and language, extended by each new
move's commands), never a line the group did not read.

Who may see what: a seated player their own seat's view (`view_for`); anyone
else who is a member of the group (Telegram's getChatMember, cached a few
minutes) the public table; nobody else anything (403). Every API call carries
the Web App's ``initData`` (`bot.webapp.auth`); answers are rate-limited per
user, open streams capped per user; every response carries a strict
Content-Security-Policy (the page: its own style and script by hash and
Telegram's ``telegram-web-app.js``, nothing else; no other origin to connect to).

Every door is bounded: reads (games, state, card, events) and answers are
rate-limited per user (429 with ``Retry-After``); a user's fifth stream takes
the place of their oldest (a page closed without a word keeps its slot until
its next write fails: the new page must not wait for that); a process serves
at most `STREAMS_PER_PROCESS` streams (503 with ``Retry-After``); an answer's
body is read only after the rate limit, and bounded before it is parsed (its
size, its nesting, integers only: 400, never a traceback). Every response but
the page says ``Cache-Control: no-store``.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

from bot.handlers.courier import Courier
from bot.ops.http import BadBody, bounded_json, harden
from bot.service.base import Actor, Reply
from bot.service.games import Games
from bot.service.viewing import Feed, GameRecord, StoreUnavailable, Table
from bot.webapp.auth import Caller, Denied, caller_of
from bot.webapp.limits import RateLimit
from bot.webapp.live import Hub, Viewer
from bot.webapp.page import API_CSP, build_page
from bot.webapp.payload import Payloads
from bot.webapp.story import Story
from bot.words.i18n import Translator, pick_lang
from engine import Command
from engine.cards import DEFAULT_RULES

log = logging.getLogger(__name__)

IsMember = Callable[[int, int], Awaitable[bool]]

SECURITY_HEADERS = {
    "Content-Security-Policy": API_CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: a stream with nothing to say sends a comment this often (proxies close idle ones)
KEEPALIVE_SECONDS = 20.0
#: open streams one user may have (a phone and a desktop, a few tabs); one
#: more takes the place of the oldest
STREAMS_PER_USER = 4
#: open streams one process serves (~60 KB each, a Redis read per move for
#: each chat followed); one more is refused 503
STREAMS_PER_PROCESS = 500
#: a stream refused for the process's cap is asked to come back after this
#: (by then a page closed meanwhile has had its keep-alive fail)
STREAMS_RETRY_SECONDS = 20
CALLER = web.RequestKey("caller", Caller)
#: how long a group membership found is trusted
MEMBER_SECONDS = 300.0
MEMBERS_KEPT = 10_000
PAYLOADS_KEPT = 2_000
#: the running games' stories a process keeps (each ~50 KB at most)
STORIES_KEPT = 300
#: the finished games' replays a process keeps (each a compressed response)
REPLAYS_KEPT = 32
#: answers: a few at once, then about two a second
ANSWER_BURST = 6
ANSWERS_PER_SECOND = 2.0
#: reads (games, state, card, events): a page's opening and a few card looks
#: at once, then about two a second
READ_BURST = 20
READS_PER_SECOND = 2.0
BODY_MAX = 4096
#: an answer is one flat object
ANSWER_DEPTH = 2
#: the integers an answer's fields may hold (a chat id, a number, an id, an index)
INT_LIMIT = 2**63
ANSWER_FIELDS = ("chat", "game", "decision", "option")


PayloadKey = tuple[int, int | None, str]  # chat, seat, language
StoryKey = tuple[int, int, float, str]  # chat, game, when its record was made, language
Made = tuple[int, float, int]  # the game, when its record was made, the record's version


@dataclass(frozen=True)
class Access:
    """What a caller may see of a chat: their seat's view, or the public table."""

    seat: int | None
    lang: str


class Refused(Exception):
    def __init__(self, status: int, key: str, retry_after: float | None = None) -> None:
        super().__init__(key)
        self.status = status
        self.key = key
        self.retry_after = retry_after


def secure(response: web.StreamResponse) -> web.StreamResponse:
    """The security headers; ``no-store`` unless the response says otherwise
    (only the page, which is the same for everyone, may be kept)."""
    response.headers.update(SECURITY_HEADERS)
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def answer_of(raw: bytes) -> tuple[int, int, int, int]:
    """An answer's chat, game, decision and option; `BadBody` unless `raw` is a
    flat JSON object holding the four as integers of 64 bits."""
    body = bounded_json(raw, ANSWER_DEPTH, integers_only=True)
    if not isinstance(body, dict):
        raise BadBody("not an object")
    values = [body.get(k) for k in ANSWER_FIELDS]
    if not all(type(v) is int and -INT_LIMIT < v < INT_LIMIT for v in values):
        raise BadBody("a field that is no integer")
    chat_id, game, decision, option = values
    return chat_id, game, decision, option  # type: ignore[return-value]


Handler = Callable[["WebApp", web.Request], Awaitable[web.StreamResponse]]


def api(handler: Handler) -> Handler:
    """An API route: a `Refused` call, or a store that cannot be reached,
    is answered with JSON (``ok: false``, the reason's key and its text in
    the caller's language), never with a traceback."""

    @functools.wraps(handler)
    async def wrapped(self: WebApp, request: web.Request) -> web.StreamResponse:
        try:
            return await handler(self, request)
        except Refused as r:
            return self.refusal(request, r.status, r.key, r.retry_after)
        except StoreUnavailable as e:
            log.warning("webapp: store unavailable: %s", e)
            return self.refusal(request, 503, "err-unavailable")

    return wrapped


class WebApp:
    """The app's handlers over the game service (one per process)."""

    def __init__(
        self,
        games: Games,
        tr: Translator,
        token: str,
        is_member: IsMember,
        max_age: float = 24 * 3600,
        feed: Feed | None = None,
        clock: Callable[[], float] = time.time,
        max_streams: int = STREAMS_PER_PROCESS,
        *,
        courier: Courier,
    ) -> None:
        self.games = games
        # a move made here is told as a button's is: by the same courier
        self.courier = courier
        self.tr = tr
        self.token = token
        self.is_member = is_member
        self.max_age = max_age
        self.clock = clock
        self.payloads = Payloads(tr, games.render, games.prompts)
        # the process's feed when it has one; else one of its own
        self.hub = Hub(games.viewing.table, feed if feed is not None else games.viewing.feed())
        self.answers = RateLimit(ANSWER_BURST, ANSWERS_PER_SECOND)
        self.reads = RateLimit(READ_BURST, READS_PER_SECOND)
        self.max_streams = max_streams
        self.max_user_streams = STREAMS_PER_USER
        #: each user's open streams, the oldest first
        self.streams: dict[int, list[Viewer]] = {}
        self.open_streams = 0
        self._members: OrderedDict[tuple[int, int], tuple[bool, float]] = OrderedDict()
        self._payloads: OrderedDict[PayloadKey, tuple[Made, bytes]] = OrderedDict()
        self._stories: OrderedDict[StoryKey, Story] = OrderedDict()
        self._story_locks: dict[StoryKey, asyncio.Lock] = {}
        self._replays: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        self.page = build_page()

    # ------------------------------------------------------------------ serving
    def add_routes(self, web_app: web.Application, prefix: str = "") -> None:
        """The page and its API under `prefix` (``/app``; "" for the root)."""
        p = prefix.rstrip("/")
        if p:
            web_app.router.add_get(p, self._to_page)
        web_app.router.add_get(f"{p}/", self.index)
        web_app.router.add_get(f"{p}/api/games", self.my_games)
        web_app.router.add_get(f"{p}/api/state", self.state)
        web_app.router.add_get(f"{p}/api/events", self.events)
        web_app.router.add_get(f"{p}/api/card", self.card)
        web_app.router.add_post(f"{p}/api/answer", self.answer)
        web_app.router.add_get(f"{p}/api/replay", self.replay)

    def application(self, prefix: str = "") -> web.Application:
        """An aiohttp application serving only the app (its own port)."""
        harden()
        web_app = web.Application(client_max_size=BODY_MAX)
        self.add_routes(web_app, prefix)
        web_app.on_shutdown.append(lambda _: self.close())
        return web_app

    async def close(self) -> None:
        """Shutting down: every stream ends; the answers being told finish."""
        self._closing = True
        await self.hub.close()
        # the process's feed goes with its Mini App, as it stops (the outboxes
        # drain without it: nothing more is shown once the process stops)
        await self.hub.feed.close()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def idle(self) -> None:
        """Until the answers given are told (what a test waits for)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # ------------------------------------------------------------------ the page
    async def _to_page(self, request: web.Request) -> web.StreamResponse:
        query = f"?{request.query_string}" if request.query_string else ""
        raise web.HTTPFound(request.path + "/" + query)

    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page (gzipped when the browser takes it), with its own CSP."""
        page = self.page
        headers = {"Cache-Control": "no-cache", "ETag": page.etag, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == page.etag:
            response = web.Response(status=304, headers=headers)
        elif "gzip" in request.headers.get("Accept-Encoding", ""):
            response = web.Response(
                body=page.gzipped,
                content_type="text/html",
                charset="utf-8",
                headers={**headers, "Content-Encoding": "gzip"},
            )
        else:
            response = web.Response(
                body=page.html, content_type="text/html", charset="utf-8", headers=headers
            )
        secure(response)
        response.headers["Content-Security-Policy"] = page.csp
        return response

    # ------------------------------------------------------------------ who asks
    def _caller(self, request: web.Request) -> Caller:
        try:
            caller = caller_of(
                self.token, request.headers.get("Authorization"), self.clock(), self.max_age
            )
        except Denied as e:
            log.info("webapp: refused a call: %s", e)
            raise Refused(401, "app-denied") from None
        request[CALLER] = caller
        return caller

    async def _member(self, chat_id: int, user_id: int) -> bool:
        key = (chat_id, user_id)
        now = self.clock()
        found = self._members.get(key)
        if found is not None and now - found[1] < MEMBER_SECONDS:
            return found[0]
        member = await self.is_member(chat_id, user_id)
        self._members[key] = (member, now)
        self._members.move_to_end(key)
        while len(self._members) > MEMBERS_KEPT:
            self._members.popitem(last=False)
        return member

    async def _access(self, caller: Caller, table: Table | None, chat_id: int) -> Access:
        """The caller's seat in the chat's game, or the public table for a
        member of the group; `Refused` for anyone else."""
        if table is not None:
            seat = table.seat_of(caller.user_id)
            if seat is not None:
                return Access(seat, table.seats[seat].lang)
        if chat_id > 0 or (table is not None and table.practice):
            raise Refused(403, "app-denied")  # someone's private chat
        if not await self._member(chat_id, caller.user_id):
            raise Refused(403, "app-denied")
        if table is None:
            raise Refused(404, "app-no-game")
        return Access(None, table.lang)

    def _lang(self, caller: Caller) -> str:
        return pick_lang(caller.lang_code, self.games.defaults.lang)

    def refusal(
        self, request: web.Request, status: int, key: str, retry_after: float | None = None
    ) -> web.StreamResponse:
        caller = request.get(CALLER)
        lang = self._lang(caller) if caller is not None else self.games.defaults.lang
        response = web.json_response(
            {"ok": False, "error": key, "text": self.tr.t(lang, key)}, status=status
        )
        if retry_after is not None:
            response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
        return secure(response)

    def _reader(self, request: web.Request) -> Caller:
        """The caller of a read, within their rate of reads."""
        caller = self._caller(request)
        if not self.reads.allow(caller.user_id):
            raise Refused(429, "app-too-fast", self.reads.wait(caller.user_id))
        return caller

    @staticmethod
    def _chat(request: web.Request) -> int:
        try:
            return int(request.query["chat"])
        except (KeyError, ValueError):
            raise Refused(400, "app-no-game") from None

    # ------------------------------------------------------------------ the API
    @api
    async def my_games(self, request: web.Request) -> web.StreamResponse:
        caller = self._reader(request)
        lang = self._lang(caller)
        games = []
        for table in await self.games.viewing.seated_tables(caller.user_id):
            title = table.title or self.tr.t(lang, "practice-title")
            games.append({"chat": table.chat_id, "title": title, "status": table.status})
        words = self.payloads.words(lang)
        return secure(web.json_response({"ok": True, "games": games, "words": words}))

    async def _story(self, table: Table, lang: str) -> Story | None:
        """The game's public story up to the record's state, rebuilt from its
        command log and kept (None when the log does not rebuild the record's
        state: then the record's own last lines stand in). The streams of a
        chat that ask for the same move at once read its log once."""
        state = table.state
        if state is None or table.setup is None:
            return None
        key = (table.chat_id, table.game_no, table.created_at, lang)
        lock = self._story_locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:
                return await self._story_now(key, table, state.version)
        finally:
            if not lock.locked() and key not in self._stories:
                self._story_locks.pop(key, None)

    async def _story_now(self, key: StoryKey, table: Table, version: int) -> Story | None:
        assert table.setup is not None
        story = self._stories.get(key)
        if story is None or story.broken or story.version > version:
            story = None
        if story is None or story.version < version:
            commands = await self.games.viewing.log(table.chat_id)
            if story is None or story.applied > len(commands):
                story = Story(self.games.render, key[3], table, table.setup)
            story.extend(table, commands, until=version)
        if story.version != version:
            self._stories.pop(key, None)
            return None
        self._stories[key] = story
        self._stories.move_to_end(key)
        while len(self._stories) > STORIES_KEPT:
            gone, _ = self._stories.popitem(last=False)
            self._story_locks.pop(gone, None)
        return story

    async def _payload(self, table: Table, access: Access) -> bytes:
        """The view as JSON without ``now`` (added when sent), kept for the
        record's newest version (the game and its start told apart too: a
        chat's record that expired starts its versions again)."""
        key = (table.chat_id, access.seat, access.lang)
        made = (table.game_no, table.created_at, table.version)
        kept = self._payloads.get(key)
        if kept is not None and kept[0] == made:
            self._payloads.move_to_end(key)
            return kept[1]
        story = await self._story(table, access.lang)
        body = json.dumps(
            self.payloads.table(table, access.seat, access.lang, 0.0, story),
            ensure_ascii=False,
            separators=(",", ":"),
        ).encode()
        self._payloads[key] = (made, body)
        self._payloads.move_to_end(key)
        while len(self._payloads) > PAYLOADS_KEPT:
            self._payloads.popitem(last=False)
        return body

    def _with_now(self, body: bytes) -> bytes:
        return body.replace(b'"now":0.0', b'"now":%.3f' % self.clock(), 1)

    @api
    async def state(self, request: web.Request) -> web.StreamResponse:
        caller = self._reader(request)
        chat_id = self._chat(request)
        table = await self.games.viewing.table(chat_id)
        access = await self._access(caller, table, chat_id)
        assert table is not None
        body = self._with_now(await self._payload(table, access))
        words = json.dumps(self.payloads.words(access.lang), ensure_ascii=False)
        response = web.Response(
            body=b'{"words":' + words.encode() + b',"state":' + body + b"}",
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )
        response.enable_compression()
        return secure(response)

    @api
    async def card(self, request: web.Request) -> web.StreamResponse:
        caller = self._reader(request)
        topic = request.query.get("topic", "")
        if "replay" in request.query:  # a card in a finished game's replay
            record, _ = await self._replay_of(caller, request.query["replay"])
            found = self.payloads.card(record.lang, record.setup.rules, topic)
            if found is None:
                raise Refused(404, "app-no-card")
            return secure(web.json_response({"ok": True, **found}))
        chat_id = self._chat(request)
        table = await self.games.viewing.table(chat_id)
        access = await self._access(caller, table, chat_id)
        assert table is not None
        rules = table.state.rules if table.state is not None else DEFAULT_RULES
        found = self.payloads.card(access.lang, rules, topic)
        if found is None:
            raise Refused(404, "app-no-card")
        return secure(web.json_response({"ok": True, **found}))

    @api
    async def answer(self, request: web.Request) -> web.StreamResponse:
        caller = self._caller(request)
        if not self.answers.allow(caller.user_id):
            raise Refused(429, "err-too-fast", self.answers.wait(caller.user_id))
        if (request.content_length or 0) > BODY_MAX:
            raise Refused(413, "err-bad-button")
        try:
            raw = await request.read()  # (bounded by the server's client_max_size)
            if len(raw) > BODY_MAX:
                raise Refused(413, "err-bad-button")
            chat_id, game, decision, option = answer_of(raw)
        except BadBody:
            raise Refused(400, "err-bad-button") from None
        except web.HTTPRequestEntityTooLarge:  # a chunked body past client_max_size
            raise Refused(413, "err-bad-button") from None
        actor = Actor(caller.user_id, caller.name, caller.lang_code)
        reply = await self.games.play.choose(actor, chat_id, game, decision, option)
        await self.courier.carry_out(reply.before)  # what the answer reports on comes first
        self._tell(reply)
        ok = reply.key == "ok"
        text = "" if ok else self.tr.t(await self._seat_lang(caller, chat_id), reply.key)
        return secure(
            web.json_response({"ok": ok, "error": None if ok else reply.key, "text": text})
        )

    @api
    async def replay(self, request: web.Request) -> web.StreamResponse:
        """A finished game, move by move, for those who played it."""
        caller = self._reader(request)
        number = self._number(request.query.get("game", ""))
        record, commands = await self._replay_of(caller, str(number))
        key = (number, record.lang)
        body = self._replays.get(key)
        if body is None:
            table = self.games.history.table_of(record)
            # a whole game rebuilt and drawn move by move: off the event loop
            made = await asyncio.to_thread(
                self.payloads.replay, record.lang, table, record.setup, commands, number
            )
            words = self.payloads.words(record.lang)
            text = json.dumps({"ok": True, "words": words, "replay": made}, ensure_ascii=False)
            body = gzip.compress(text.encode(), compresslevel=6)
            self._replays[key] = body
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        self._replays.move_to_end(key)
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            response = web.Response(
                body=body,
                content_type="application/json",
                headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
            )
        else:
            response = web.Response(body=gzip.decompress(body), content_type="application/json")
        return secure(response)

    @staticmethod
    def _number(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise Refused(400, "app-replay-unknown") from None
        if not 0 < number < INT_LIMIT:
            raise Refused(404, "app-replay-unknown")
        return number

    async def _replay_of(self, caller: Caller, text: str) -> tuple[GameRecord, list[Command]]:
        """Finished game number `text` and its log, for one who played it."""
        got = await self.games.viewing.finished(self._number(text))
        if got is None:
            raise Refused(404, "app-replay-unknown")
        record, commands = got
        if all(s.user_id != caller.user_id for s in record.seats):
            raise Refused(403, "app-replay-denied")
        return record, commands

    async def _seat_lang(self, caller: Caller, chat_id: int) -> str:
        """The language the prompt in the chat speaks to the caller (their
        seat's), else theirs."""
        table = await self.games.viewing.table(chat_id)
        seat = table.seat_of(caller.user_id) if table is not None else None
        if table is None or seat is None:
            return self._lang(caller)
        return table.seats[seat].lang

    def _tell(self, reply: Reply) -> None:
        """Tell everyone of the move after the caller has their answer (as a
        press's callback is answered before the move is told): the reply's
        effects, carried out by the same courier as a button's."""
        if not reply.effects:
            return
        task = asyncio.create_task(self.courier.carry_out(reply.effects), name="webapp answer told")
        self._tasks.add(task)
        task.add_done_callback(self._told)

    def _told(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("telling an answer from the app failed", exc_info=task.exception())

    # ------------------------------------------------------------------ live
    @api
    async def events(self, request: web.Request) -> web.StreamResponse:
        caller = self._reader(request)
        chat_id = self._chat(request)
        table = await self.games.viewing.table(chat_id)
        access = await self._access(caller, table, chat_id)
        user = caller.user_id
        # a user's new stream takes the place of their oldest: only a new user's
        # adds to the process's count
        taking_over = len(self.streams.get(user, ())) >= self.max_user_streams
        if not taking_over and self.open_streams >= self.max_streams:
            raise Refused(503, "app-busy", STREAMS_RETRY_SECONDS)
        try:
            last = int(request.headers.get("Last-Event-ID", "0"))
        except ValueError:
            last = 0
        self.open_streams += 1  # held while it joins: streams joining at once count too
        try:
            viewer = await self.hub.join(chat_id)  # before the stream opens: a refusal is JSON
        except BaseException:
            self.open_streams -= 1
            raise
        viewer.sent = last
        mine = self.streams.setdefault(user, [])
        while len(mine) >= self.max_user_streams:
            self._replace(mine.pop(0))
        mine.append(viewer)
        response = secure(
            web.StreamResponse(
                headers={
                    "Content-Type": "text/event-stream; charset=utf-8",
                    "Cache-Control": "no-store",
                    "X-Accel-Buffering": "no",  # nginx: pass each event on at once
                }
            )
        )
        try:
            await response.prepare(request)
            await self._stream(response, viewer, caller)
            if viewer.replaced:
                text = json.dumps({"text": self.tr.t(access.lang, "app-elsewhere")})
                await response.write(b"event: replaced\ndata: " + text.encode() + b"\n\n")
        except ConnectionError:
            pass  # the page went away
        finally:
            await self.hub.leave(viewer)
            self.open_streams -= 1
            mine = self.streams.get(user, [])
            if viewer in mine:
                mine.remove(viewer)
            if not mine:
                self.streams.pop(user, None)
        return response

    @staticmethod
    def _replace(viewer: Viewer) -> None:
        """End a stream for a newer one of the same user (its handler leaves
        the hub as it ends)."""
        viewer.replaced = True
        viewer.closed = True
        viewer.wake.set()

    async def _stream(self, response: web.StreamResponse, viewer: Viewer, caller: Caller) -> None:
        """Send the chat's newest record to the viewer whenever the hub has a
        newer one; a comment when nothing happened for a while."""
        while not viewer.closed and not self._closing:
            chat_id = viewer.chat_id
            if chat_id in self.hub.tables:
                table = self.hub.table(chat_id)
                version = table.version if table is not None else 0
                if version != viewer.sent:
                    if table is None:
                        await response.write(b"id: 0\nevent: gone\ndata: {}\n\n")
                    else:
                        try:
                            access = await self._access(caller, table, chat_id)
                        except Refused:
                            return  # no longer theirs to see (they left the group)
                        body = self._with_now(await self._payload(table, access))
                        head = b"id: %d\nevent: state\ndata: " % version
                        await response.write(head + body + b"\n\n")
                    viewer.sent = version
            try:
                await asyncio.wait_for(viewer.wake.wait(), KEEPALIVE_SECONDS)
            except TimeoutError:
                await response.write(b": keep-alive\n\n")
            viewer.wake.clear()


__all__ = ["WebApp"]
