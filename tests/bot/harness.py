"""A whole bot in a test: the real dispatcher, routers and services over a
store, a fake Telegram that records every request, and a clock the test moves.

Card names in every text carry their instance id (``🔴 Лорд‹h3›``), so a test
can tell exactly which cards a message shows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import InlineKeyboardMarkup, User

from bot.app import App, build_app
from bot.games import Defaults
from bot.i18n import Case, Translator
from bot.keyboards import PromptCb
from bot.models import Table
from bot.pace import Pace
from bot.store import Store
from engine import Decision, pending
from engine.cards import Card
from tests.bot.fake_telegram import FakeTelegram, Updates, person

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


class Harness:
    def __init__(
        self,
        store: Store,
        tg: FakeTelegram | None = None,
        clock: FakeClock | None = None,
        tr: MarkedTranslator | None = None,
    ):
        """`tr`: a translator to share between harnesses (parsing the locales
        is most of what building one costs); by default a new one."""
        self.store = store
        self.tg = tg or FakeTelegram()
        self.clock = clock or FakeClock()
        self.updates = Updates()
        self.tr = tr or MarkedTranslator()
        self.defaults = Defaults(turn_timeout=90, choice_timeout=60, computer_pause=1.0)
        self.app = self._build()

    def _build(self) -> App:
        bot = Bot(
            token="42:TEST",
            session=self.tg,
            default=DefaultBotProperties(parse_mode="HTML"),
        )
        self.pace = InstantPace()
        return build_app(
            bot, self.store, self.defaults, clock=self.clock, tr=self.tr, pace=self.pace
        )

    def restart(self) -> None:
        """A new process: fresh bot, services and dispatcher over the same store."""
        self.app = self._build()

    # ------------------------------------------------------------------ acting
    async def feed(self, update: Any) -> None:
        await self.app.dispatcher.feed_update(self.app.bot, update)

    async def say(self, chat_id: int, user: User, text: str) -> None:
        await self.feed(self.updates.message(chat_id, user, text))

    async def press(self, user: User, chat_id: int, message_id: int, data: str) -> None:
        await self.feed(self.updates.press(user, chat_id, message_id, data))

    async def tick(self, seconds: float = 0.0) -> int:
        self.clock.advance(seconds)
        return await self.app.ticker.tick()

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
        for request in reversed(self.tg.sent(chat_id)):
            markup = request.reply_markup
            if isinstance(markup, InlineKeyboardMarkup) and any(
                (b.callback_data or "").startswith(prefix)
                for row in markup.inline_keyboard
                for b in row
            ):
                return self.message_id_of(request)
        raise AssertionError(f"no message with a {prefix!r} button in {chat_id}")

    def message_id_of(self, request: SendMessage) -> int:
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


def group_texts(tg: FakeTelegram, chat_id: int, since: int = 0) -> list[str]:
    return [
        r.text
        for r in tg.requests[since:]
        if isinstance(r, SendMessage | EditMessageText) and r.chat_id == chat_id
    ]


def people(*names: str) -> list[User]:
    return [person(100 + i, name) for i, name in enumerate(names)]
