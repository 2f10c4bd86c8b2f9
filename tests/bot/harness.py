"""A whole bot in a test: the real dispatcher, routers and services over a
store, a fake Telegram that records every request, and a clock the test moves.

Card names in every text carry their instance id (``🔴 Лорд‹h3›``), so a test
can tell exactly which cards a message shows.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import EditMessageText, SendMessage, SendPhoto
from aiogram.types import InlineKeyboardMarkup, User

import bot.service.lobby
import bot.service.play
from bot.app import App, build_app
from bot.service import journal
from bot.service.games import Defaults
from bot.store import Store
from bot.store.models import Table
from bot.telegram.pace import Pace
from bot.words.app import AppLinks
from bot.words.i18n import Case, Translator
from bot.words.keyboards import LeaveCb, LobbyCb, PromptCb
from engine import Decision, Event, GameState, pending
from engine.cards import Card, catalog_for
from engine.scenario import build
from tests.bot.fake_telegram import Connection, FakeTelegram, Updates, person

MARK = re.compile(r"‹([hos]\d+)›")


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class InstantPace(Pace):
    """The real pace on a make-believe clock: waits are counted, not slept."""

    def __init__(self) -> None:
        self.t = 0.0
        self.waited = 0.0

        async def sleep(seconds: float) -> None:
            self.t += seconds
            self.waited += seconds

        super().__init__(clock=lambda: self.t, sleep=sleep)
        self.booked: list[tuple[int, float, bool]] = []  # (chat, moment, new message)

    def reserve(self, chat_id: int, new_message: bool) -> float:
        slot = super().reserve(chat_id, new_message)
        self.booked.append((chat_id, slot, new_message))
        return slot


class MarkedTranslator(Translator):
    def card(self, lang: str, card: Card, case: Case = "nom", side: str | None = None) -> str:
        return super().card(lang, card, case, side) + f"‹{card.id}›"


@cache
def shared_translator() -> MarkedTranslator:
    return MarkedTranslator()


class Harness:
    def __init__(
        self,
        store: Store,
        tg: FakeTelegram | None = None,
        clock: FakeClock | None = None,
        tr: MarkedTranslator | None = None,
        app: AppLinks | None = None,
        pace: Callable[[], Pace] | None = None,
        review_cpu: float = 0.0,
    ):
        """`pace`: builds each process's outbound pace (by default the real
        pace on a make-believe clock, `InstantPace`). `tr`: the translator; by
        default one all harnesses share (parsing the locales is most of what
        building one costs, and it keeps no state but caches of what it
        formatted). `app`: the Mini App's links (the bot
        then serves it too: `self.app.webapp`). `review_cpu`: the CPU seconds
        a game's reviews may take (`bot.service.reviews`); 0, the default:
        no reviews — a review is seconds of CPU a game, which only the tests
        of reviews spend."""
        self.review_cpu = review_cpu
        self.app_links = app
        self.make_pace = pace
        self.store = store
        self.tg = tg or FakeTelegram()
        self.clock = clock or FakeClock()
        self.updates = Updates()
        self.tr = tr or shared_translator()
        self.defaults = Defaults(turn_timeout=90, choice_timeout=60, computer_pause=1.0)
        self.app = self._build()

    def _build(self) -> App:
        bot = Bot(
            token="42:TEST",
            session=Connection(self.tg),
            default=DefaultBotProperties(parse_mode="HTML"),
        )
        self.pace = self.make_pace() if self.make_pace is not None else InstantPace()
        links = None
        if self.app_links is not None:  # each process learns the username itself
            links = AppLinks(self.app_links.base_url, self.app_links.short_name)
        app = build_app(
            bot,
            self.store,
            self.defaults,
            clock=self.clock,
            tr=self.tr,
            pace=self.pace,
            app_links=links,
            review_cpu=self.review_cpu,
        )
        app.policy.sleep = self.pace.sleep  # a retry's pause is counted, not slept
        return app

    def restart(self) -> None:
        """A new process: fresh bot, services and dispatcher over the same store."""
        self.app = self._build()

    # ------------------------------------------------------------------ acting
    async def feed(self, update: Any, settle: bool = True) -> None:
        """Hand an update to the dispatcher; with `settle`, also wait until
        every group's outbox has told what it holds."""
        await self.app.dispatcher.feed_update(self.app.bot, update)
        if settle:
            await self.settle()

    async def settle(self) -> None:
        """Until the groups' outboxes are empty, no call to a new lobby is
        still going, no timer is still firing and no answer from the Mini App
        is still being told."""
        await self.app.ticker.settled()
        if self.app.webapp is not None:
            await self.app.webapp.idle()
        await self.app.telling.idle()

    async def say(self, chat_id: int, user: User, text: str, settle: bool = True) -> None:
        await self.feed(self.updates.message(chat_id, user, text), settle)

    async def press(
        self, user: User, chat_id: int, message_id: int, data: str, settle: bool = True
    ) -> None:
        await self.feed(self.updates.press(user, chat_id, message_id, data), settle)

    async def tick(self, seconds: float = 0.0) -> int:
        """Move the clock on, fire what is due and wait until it is told."""
        self.clock.advance(seconds)
        due = await self.app.ticker.tick()
        await self.settle()
        return due

    async def open_lobby(self, chat_id: int, host: User, guests: Sequence[User]) -> tuple[int, int]:
        """Everyone starts the bot, `host` opens a lobby, `guests` join.
        Returns the lobby message's id and the game number."""
        for user in (host, *guests):
            await self.say(user.id, user, "/start")
        await self.say(chat_id, host, "/newgame")
        game = (await self.table(chat_id)).game_no
        lobby = (await self.store.messages(chat_id))["lobby"]
        for guest in guests:
            await self.press(guest, chat_id, lobby, LobbyCb(action="join", game=game).pack())
        return lobby, game

    async def open_practice(self, user: User) -> tuple[int, int]:
        """`user` starts the bot and opens a practice lobby in their private
        chat. Returns the lobby message's id and the game number."""
        await self.say(user.id, user, "/start")
        await self.tutor_taken(user)
        await self.say(user.id, user, "/practice")
        lobby = (await self.store.messages(user.id))["lobby"]
        return lobby, (await self.table(user.id)).game_no

    async def start_practice(self, user: User, computers: int = 1, seed: int = 1) -> Table:
        """`user` opens a practice lobby (`open_practice`), sits `computers`
        normal computers at it and starts it — with a fixed `seed`, the same
        game each run. (The one place a test's practice game begins: where a
        first /practice would be something else, this is what changes.)"""
        lobby, game = await self.open_practice(user)
        seated = len((await self.table(user.id)).seats) - 1
        more = "bot" if computers > seated else "drop"
        for _ in range(abs(computers - seated)):
            await self.press(user, user.id, lobby, LobbyCb(action=more, game=game).pack())
        self.app.games.seeds = random.Random(seed)
        await self.press(user, user.id, lobby, LobbyCb(action="go", game=game).pack())
        table = await self.table(user.id)
        assert table.status == "playing" and table.practice
        assert [s.user_id is None for s in table.seats] == [False] + [True] * computers
        return table

    async def tutor_taken(self, user: User) -> None:
        """`user` has had their first practice game — the tutor (/learn): their
        /practice opens a practice lobby."""
        prefs = await self.store.user(user.id)
        prefs.practices = max(prefs.practices, 1)
        await self.store.save_user(prefs)

    async def open_lobby_in(
        self, chat_id: int, lang: str, host: User, guests: Sequence[User]
    ) -> tuple[int, int]:
        """`open_lobby`, then `host` sets the lobby's language to `lang`."""
        lobby, game = await self.open_lobby(chat_id, host, guests)
        if (await self.table(chat_id)).lang != lang:
            await self.press(host, chat_id, lobby, LobbyCb(action="lang", game=game).pack())
        return lobby, game

    async def set_position(
        self, chat_id: int, position: Mapping[str, Any], asker: User | None = None
    ) -> Table:
        """The chat's running game put at `position` (see `engine.scenario`),
        its turn's log cleared (and what each seat saw of the game before, for
        a practice prompt's lines); `asker` then sends /hand (their prompt for it)."""
        table = await self.table(chat_id)
        table.state = build(dict(position))
        journal.told_all(table)
        assert await self.store.save(table)
        if asker is not None:
            await self.say(asker.id, asker, "/hand")
        return table

    async def open_game(
        self,
        chat_id: int,
        host: User,
        guests: Sequence[User],
        computers: int = 0,
        seed: int | None = None,
        lang: str | None = None,
    ) -> Table:
        """`host` opens a lobby (in `lang`, when given), `guests` join,
        `computers` computer seats are added and the game starts — with a
        fixed `seed`, the same game each run. Everyone has started the bot first."""
        if lang is None:
            lobby, game = await self.open_lobby(chat_id, host, guests)
        else:
            lobby, game = await self.open_lobby_in(chat_id, lang, host, guests)
        for _ in range(computers):
            await self.press(host, chat_id, lobby, LobbyCb(action="bot", game=game).pack())
        if seed is not None:
            self.app.games.seeds = random.Random(seed)
        await self.press(host, chat_id, lobby, LobbyCb(action="go", game=game).pack())
        table = await self.table(chat_id)
        assert table.status == "playing"
        return table

    async def leave_game(self, user: User, chat_id: int) -> None:
        """/leave in a running game, and yes on its confirmation."""
        since = len(self.tg.requests)
        await self.say(chat_id, user, "/leave")
        confirm = [r for r in self.tg.sent(chat_id)[-3:] if self.tg.requests.index(r) >= since]
        assert confirm, "/leave asked nothing"
        message = self.message_id_of(confirm[-1])
        data = [d for _, d in self.buttons(chat_id, message) if d.startswith("lv:")]
        assert data, "/leave's question has no buttons"
        yes = LeaveCb.unpack(data[0])
        assert yes.confirm and yes.user == user.id
        await self.press(user, chat_id, message, data[0])

    # ------------------------------------------------------------------ reading
    async def table(self, chat_id: int) -> Table:
        table = await self.store.load(chat_id)
        assert table is not None
        return table

    async def decision(self, chat_id: int) -> Decision | None:
        table = await self.table(chat_id)
        return pending(table.state) if table.state is not None else None

    def buttons(self, chat_id: int, message_id: int) -> list[tuple[str, str]]:
        markup = self.tg.markups.get((chat_id, message_id))
        if not isinstance(markup, InlineKeyboardMarkup):
            return []
        return [
            (b.text, b.callback_data or b.url or "") for row in markup.inline_keyboard for b in row
        ]

    def last_with_button(self, chat_id: int, prefix: str) -> int:
        """The newest message (a text or a picture) with a button whose data
        starts with `prefix`."""
        sent = [
            r
            for r in self.tg.requests
            if isinstance(r, SendMessage | SendPhoto) and r.chat_id == chat_id
        ]
        for request in reversed(sent):
            markup = request.reply_markup
            if isinstance(markup, InlineKeyboardMarkup) and any(
                (b.callback_data or "").startswith(prefix)
                for row in markup.inline_keyboard
                for b in row
            ):
                return self.message_id_of(request)
        raise AssertionError(f"no message with a {prefix!r} button in {chat_id}")

    def message_id_of(self, request: SendMessage | SendPhoto) -> int:
        return self.tg.message_id_of[id(request)]

    async def answer(self, user: User, chat_id: int, option: Sequence[str]) -> None:
        """Press through the prompt's menu to the given option, as a person would."""
        table = await self.table(chat_id)
        decision = pending(table.state)  # type: ignore[arg-type]
        assert decision is not None
        seat = table.seat_of(user.id)
        ids = await self.store.messages(chat_id)
        message_id = ids[f"prompt:{seat}"]
        target = decision.options.index(tuple(option))
        for _ in range(8):
            buttons = [
                (text, PromptCb.unpack(data))
                for text, data in self.buttons(user.id, message_id)
                if data.startswith("p:")
            ]
            assert buttons, "the prompt has no buttons left"
            chosen = [
                cb
                for _, cb in buttons
                if decision.options[cb.option][: cb.depth] == decision.options[target][: cb.depth]
            ]
            assert chosen, f"no button leads to {option}"
            before = len(self.tg.requests)
            await self.press(user, user.id, message_id, chosen[0].pack())
            now = await self.decision(chat_id)
            if now is None or now.id != decision.id:
                return
            assert len(self.tg.requests) > before
        raise AssertionError("the menu never reached the option")


# ====================================================================== who may see which card
def public_zones(state: GameState) -> set[str]:
    """The card ids lying face up: in houses, the discards, the open deck top."""
    seen = set(state.graveyard) | set(state.orders_discard) | set(state.smuta_discard)
    seen |= set(state.prophet_stack)
    for p in state.players:
        for h in p.houses:
            seen.update(h.cards)
    if state.deck_top_open and state.deck:
        seen.add(state.deck[0])
    return seen


def cards_named(params: Mapping[str, Any]) -> set[str]:
    """The card ids an event's or a decision's parameters name."""
    named: set[str] = set()
    for key in ("card", "cards", "smuta"):
        value = params.get(key)
        if isinstance(value, str):
            named.add(value)
        elif isinstance(value, list):
            named.update(value)
    return named


class Witness:
    """What the engine has told, recorded as the bot's calls to it return.

    `public`: every card id an event for everyone named, for as long as the
    witness lives. `private`: the events told to some seats only, each with the
    seed of its game."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.private: list[tuple[int, Event]] = []

    def record(self, state: GameState, events: list[Event]) -> None:
        for e in events:
            if e.to is None:
                self.public |= cards_named(e.params)
            else:
                self.private.append((state.seed, e))

    def told(self, state: GameState, seat: int) -> list[Event]:
        """The private events of `state`'s game ever told to `seat`: a player may
        be reminded of what they were told (a prompt message's story keeps
        it), never shown what they were not."""
        return [e for seed, e in self.private if seed == state.seed and e.visible_to(seat)]

    @contextmanager
    def watching(self) -> Iterator[None]:
        # the names the bot calls (another watcher's, if one watches already)
        real_apply = getattr(bot.service.play, "apply")  # noqa: B009
        real_new_game = getattr(bot.service.lobby, "new_game")  # noqa: B009

        def apply(state: GameState, *args: Any, **kwargs: Any) -> list[Event]:
            asked = pending(state)
            events: list[Event] = real_apply(state, *args, **kwargs)
            if asked is not None:  # its options were shown to its player (a story keeps them)
                self.record(state, [offered(asked)])
            self.record(state, events)
            return events

        def new_game(*args: Any, **kwargs: Any) -> tuple[GameState, list[Event]]:
            state, events = real_new_game(*args, **kwargs)
            self.record(state, events)
            return state, events

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(bot.service.play, "apply", apply)  # answers: the only caller
            mp.setattr(bot.service.lobby, "new_game", new_game)
            yield


def offered(decision: Decision) -> Event:
    """The cards a decision's options showed its player, as if an event told them."""
    cards = sorted({part for option in decision.options for part in option if MARKABLE.match(part)})
    return Event(key="offered", params={"cards": cards}, to=(decision.seat,))


MARKABLE = re.compile(r"^[hos]\d+$")


def may_see(state: GameState, seat: int, told: Iterable[Event] = ()) -> set[str]:
    """The card ids the player on `seat` may be shown in private: their hand,
    what lies face up, and what the decision asked of them (its options and
    parameters) and the events `told` to them name — a hand looked at, a card
    taken or handed over, a card drawn."""
    seen = set(state.players[seat].hand) | public_zones(state)
    decision = pending(state)
    if decision is not None and decision.seat == seat:
        cards = catalog_for(state.rules).cards
        seen |= {part for option in decision.options for part in option if part in cards}
        seen |= cards_named(decision.params)
    for e in told:
        if e.visible_to(seat):
            seen |= cards_named(e.params)
    return seen


def cards_shown(request: SendMessage | EditMessageText) -> set[str]:
    """The card ids a message shows, in its text and on its buttons."""
    shown = set(MARK.findall(request.text or ""))
    markup = request.reply_markup
    if isinstance(markup, InlineKeyboardMarkup):
        for row in markup.inline_keyboard:
            for b in row:
                shown.update(MARK.findall(b.text))
    return shown


def is_prompt(markup: Any) -> bool:
    """Whether a message's buttons are a decision's prompt."""
    return isinstance(markup, InlineKeyboardMarkup) and any(
        (b.callback_data or "").startswith("p:") for row in markup.inline_keyboard for b in row
    )


def prompts(tg: FakeTelegram, user_id: int, since: int = 0) -> list[SendMessage]:
    """The prompts sent to `user_id` from request number `since` on."""
    return [
        r
        for r in tg.requests[since:]
        if isinstance(r, SendMessage) and r.chat_id == user_id and is_prompt(r.reply_markup)
    ]


def asked(tg: FakeTelegram, user_id: int, decision_id: int, since: int = 0) -> list[Any]:
    """The requests from number `since` on that showed `user_id` the buttons of
    decision `decision_id`: a new prompt message, or their message edited
    into it (the same player asked again at once)."""
    return [
        r
        for r in tg.requests[since:]
        if isinstance(r, SendMessage | EditMessageText)
        and r.chat_id == user_id
        and decision_id in decisions_of(r.reply_markup)
    ]


def decisions_of(markup: Any) -> set[int]:
    """The decisions a message's prompt buttons answer."""
    if not isinstance(markup, InlineKeyboardMarkup):
        return set()
    return {
        PromptCb.unpack(b.callback_data).decision
        for row in markup.inline_keyboard
        for b in row
        if (b.callback_data or "").startswith("p:")
    }


def answer_data(table: Table, decision: Decision, option: Sequence[str]) -> str:
    """The data of the prompt button that answers `decision` with `option` at
    once (a button naming the whole option, as the last menu level shows)."""
    return PromptCb(
        chat=table.chat_id,
        game=table.game_no,
        decision=decision.id,
        option=decision.options.index(tuple(option)),
        depth=len(option),
    ).pack()


def group_texts(tg: FakeTelegram, chat_id: int, since: int = 0) -> list[str]:
    """The texts sent to a chat, or edited into its messages, and the captions
    of its pictures; a line the table wrapped to fit a phone is joined back
    (`bot.words.shape.wrap`)."""
    return [
        (r.caption or "" if isinstance(r, SendPhoto) else r.text).replace("\n  ", " ")
        for r in tg.requests[since:]
        if isinstance(r, SendMessage | SendPhoto | EditMessageText) and r.chat_id == chat_id
    ]


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Until `check` holds: a test's wait on an event it cannot await (what
    another task or a server does), bounded so a hang fails instead of sticking."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        assert loop.time() < end, "never happened"
        await asyncio.sleep(0.005)


def people(*names: str) -> list[User]:
    return [person(100 + i, name) for i, name in enumerate(names)]
