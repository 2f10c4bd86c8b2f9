"""A Telegram stand-in for bot tests: a bot session that records every request
and answers as Telegram would (after aiogram's own tests/mocked_bot.py), plus
builders for the updates people send.

Failures can be scripted: `blocked` users answer 403, `flood` makes the next
sends to a chat answer 429, `server_errors` makes the next calls answer 5xx,
every call about a chat in `down` answers 5xx until it is taken out, and
sends and edits to a group in `no_rights` answer 400 (the bot may not write),
getChatMember says a user of `outsiders` is not in the group,
and while `member_lookup_fails` holds an error, every getChatMember raises it
(Telegram cannot say whether someone is an admin). Requests to a chat in
`holds` wait until the test releases them (a slow Telegram, with no clock).
"""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiogram import Bot
from aiogram.client.session.base import BaseSession
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageReplyMarkup,
    EditMessageText,
    GetChatMember,
    GetMe,
    SendDocument,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    Chat,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)

BOT_USER = User(id=42, is_bot=True, first_name="Смута", username="smuta_test_bot")
NOW = datetime(2026, 11, 29, tzinfo=UTC)


@dataclass
class Hold:
    """Requests to a chat wait at the door until `release` is set; `reached`
    is set when the first arrives, and `tasks` names the task each came from."""

    release: asyncio.Event = field(default_factory=asyncio.Event)
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[Any] | None] = field(default_factory=list)


class FakeTelegram(BaseSession):
    def __init__(self) -> None:
        super().__init__()
        self.requests: list[TelegramMethod[Any]] = []
        self.message_ids = itertools.count(1000)
        self.admins: set[tuple[int, int]] = set()
        self.outsiders: set[tuple[int, int]] = set()  # (chat, user): not in the group
        self.blocked: set[int] = set()
        self.files: list[tuple[int, str, bytes]] = []  # documents sent: (chat, name, content)
        self.photos: list[tuple[int, int, bytes]] = []  # pictures sent: (chat, message, PNG)
        self.flood: defaultdict[int, int] = defaultdict(int)  # chat → how many 429s to answer
        self.server_errors = 0
        self.down: set[int] = set()  # chats whose every request answers 5xx
        self.no_rights: set[int] = set()  # groups where the bot may not write (400)
        self.member_lookup_fails: Exception | None = None  # what getChatMember raises
        self.texts: dict[tuple[int, int], str] = {}  # (chat, message) → current text
        self.markups: dict[tuple[int, int], InlineKeyboardMarkup | None] = {}
        self.message_id_of: dict[int, int] = {}  # id(SendMessage request) → message id
        self.holds: dict[int, Hold] = {}  # chat → its requests wait until released

    async def close(self) -> None:
        pass

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        yield b""

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        to = getattr(method, "chat_id", None)
        hold = self.holds.get(to) if isinstance(to, int) else None
        if hold is not None:
            hold.tasks.append(asyncio.current_task())
            hold.reached.set()
            await hold.release.wait()
        self.requests.append(method)
        if self.server_errors > 0:
            self.server_errors -= 1
            raise TelegramServerError(method=method, message="Internal Server Error")
        chat_id = getattr(method, "chat_id", None)
        if chat_id in self.down:
            raise TelegramServerError(method=method, message="Bad Gateway")
        if chat_id in self.no_rights and isinstance(
            method, SendMessage | SendPhoto | EditMessageText
        ):
            raise TelegramBadRequest(
                method=method,
                message="Bad Request: not enough rights to send text messages to the chat",
            )
        if isinstance(chat_id, int):
            if chat_id in self.blocked:
                raise TelegramForbiddenError(
                    method=method, message="Forbidden: bot was blocked by the user"
                )
            if self.flood[chat_id] > 0 and isinstance(method, SendMessage):
                self.flood[chat_id] -= 1
                raise TelegramRetryAfter(method=method, message="Too Many Requests", retry_after=1)
        if isinstance(method, GetMe):
            return BOT_USER
        if isinstance(method, SendMessage):
            assert isinstance(method.chat_id, int)
            message_id = next(self.message_ids)
            self.message_id_of[id(method)] = message_id
            self.texts[(method.chat_id, message_id)] = method.text
            markup = method.reply_markup
            self.markups[(method.chat_id, message_id)] = (
                markup if isinstance(markup, InlineKeyboardMarkup) else None
            )
            return Message(
                message_id=message_id,
                date=NOW,
                chat=chat(method.chat_id),
                from_user=BOT_USER,
                text=method.text,
                reply_markup=method.reply_markup,
            )
        if isinstance(method, SendPhoto):  # a picture: kept to be looked at, its caption read
            assert isinstance(method.chat_id, int)
            message_id = next(self.message_ids)
            self.message_id_of[id(method)] = message_id
            photo = method.photo
            if isinstance(photo, BufferedInputFile):
                self.photos.append((method.chat_id, message_id, photo.data))
            self.texts[(method.chat_id, message_id)] = method.caption or ""
            markup = method.reply_markup
            self.markups[(method.chat_id, message_id)] = (
                markup if isinstance(markup, InlineKeyboardMarkup) else None
            )
            return Message(
                message_id=message_id,
                date=NOW,
                chat=chat(method.chat_id),
                from_user=BOT_USER,
                caption=method.caption,
                reply_markup=method.reply_markup,
            )
        if isinstance(method, SendDocument):  # a small text file: kept to be read
            assert isinstance(method.chat_id, int)
            message_id = next(self.message_ids)
            document = method.document
            if isinstance(document, BufferedInputFile):
                self.files.append((method.chat_id, document.filename or "", document.data))
            return Message(message_id=message_id, date=NOW, chat=chat(method.chat_id))
        if isinstance(method, EditMessageText):
            assert isinstance(method.chat_id, int) and method.message_id is not None
            key = (method.chat_id, method.message_id)
            if key not in self.texts:
                raise TelegramBadRequest(
                    method=method, message="Bad Request: message to edit not found"
                )
            if self.texts[key] == method.text and self.markups.get(key) == method.reply_markup:
                raise TelegramBadRequest(
                    method=method, message="Bad Request: message is not modified"
                )
            self.texts[key] = method.text
            self.markups[key] = method.reply_markup
            return True
        if isinstance(method, EditMessageReplyMarkup):
            assert isinstance(method.chat_id, int) and method.message_id is not None
            self.markups[(method.chat_id, method.message_id)] = method.reply_markup
            return True
        if isinstance(method, GetChatMember):
            if self.member_lookup_fails is not None:
                raise self.member_lookup_fails
            user = User(id=method.user_id, is_bot=False, first_name="x")
            if (method.chat_id, method.user_id) in self.outsiders:
                return ChatMemberLeft(user=user)
            if (method.chat_id, method.user_id) in self.admins:
                # every permission flag this aiogram version requires, granted
                flags = {
                    name: False
                    for name, field in ChatMemberAdministrator.model_fields.items()
                    if field.is_required() and name != "user"
                }
                return ChatMemberAdministrator(user=user, **flags)
            return ChatMemberMember(user=user)
        if isinstance(method, AnswerCallbackQuery):
            return True
        return True

    # ------------------------------------------------------------------ reading what was sent
    def sent(self, chat_id: int | None = None) -> list[SendMessage]:
        return [
            r
            for r in self.requests
            if isinstance(r, SendMessage) and (chat_id is None or r.chat_id == chat_id)
        ]

    def posted(self, chat_id: int | None = None) -> list[SendMessage | SendPhoto]:
        """New messages: texts and pictures (`text_of` reads either)."""
        return [
            r
            for r in self.requests
            if isinstance(r, SendMessage | SendPhoto) and (chat_id is None or r.chat_id == chat_id)
        ]

    def pictures(self, chat_id: int | None = None) -> list[SendPhoto]:
        return [
            r
            for r in self.requests
            if isinstance(r, SendPhoto) and (chat_id is None or r.chat_id == chat_id)
        ]

    def edits(self, chat_id: int | None = None) -> list[EditMessageText]:
        return [
            r
            for r in self.requests
            if isinstance(r, EditMessageText) and (chat_id is None or r.chat_id == chat_id)
        ]

    def answers(self) -> list[AnswerCallbackQuery]:
        return [r for r in self.requests if isinstance(r, AnswerCallbackQuery)]


class Connection(BaseSession):
    """One bot process's own session to the one fake Telegram: what a process
    puts on its session (the call policy) stays its own, while every process's
    requests reach and are recorded by the same `FakeTelegram`."""

    def __init__(self, telegram: FakeTelegram) -> None:
        super().__init__()
        self.telegram = telegram

    async def close(self) -> None:
        pass

    async def make_request(
        self, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        return await self.telegram.make_request(bot, method, timeout)

    async def stream_content(
        self,
        url: str,
        headers: dict[str, Any] | None = None,
        timeout: int = 30,
        chunk_size: int = 65536,
        raise_for_status: bool = True,
    ) -> AsyncGenerator[bytes, None]:
        yield b""


def text_of(request: SendMessage | SendPhoto) -> str:
    """A new message's text: a text's own, a picture's caption."""
    return request.text if isinstance(request, SendMessage) else request.caption or ""


def chat(chat_id: int, title: str = "Тестовая группа") -> Chat:
    if chat_id > 0:
        return Chat(id=chat_id, type="private", first_name=f"user{chat_id}")
    return Chat(id=chat_id, type="supergroup" if chat_id < -(10**12) else "group", title=title)


def person(user_id: int, name: str | None = None, lang: str = "ru") -> User:
    return User(id=user_id, is_bot=False, first_name=name or f"Игрок{user_id}", language_code=lang)


#: update ids, for every `Updates` of the test process: Telegram never gives two
#: updates one id, and the bot drops an id it has seen (`bot.handlers.once`) —
#: also when a test's second "process" builds its own `Updates` over the store
UPDATE_IDS = itertools.count(1)


class Updates:
    """Builds updates with increasing ids (unique in the test process)."""

    def __init__(self) -> None:
        self.ids = UPDATE_IDS
        self.message_ids = itertools.count(1)

    def message(self, chat_id: int, user: User, text: str, **extra: Any) -> Update:
        entities = None
        if text.startswith("/"):
            command = text.split()[0]
            entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        return Update(
            update_id=next(self.ids),
            message=Message(
                message_id=next(self.message_ids),
                date=NOW,
                chat=chat(chat_id),
                from_user=user,
                text=text,
                entities=entities,
                **extra,
            ),
        )

    def membership(self, chat_id: int, by: User, status: str) -> Update:
        """The bot's own membership of a chat changed (``kicked``, ``left``,
        ``member``…), as Telegram tells it."""
        old = {"status": "member", "user": BOT_USER}
        new: dict[str, Any] = {"status": status, "user": BOT_USER}
        if status == "kicked":
            new["until_date"] = 0
        return Update.model_validate(
            {
                "update_id": next(self.ids),
                "my_chat_member": {
                    "chat": chat(chat_id),
                    "from": by,
                    "date": NOW,
                    "old_chat_member": old,
                    "new_chat_member": new,
                },
            }
        )

    def press(self, user: User, chat_id: int, message_id: int, data: str) -> Update:
        return Update(
            update_id=next(self.ids),
            callback_query=CallbackQuery(
                id=str(next(self.ids)),
                from_user=user,
                chat_instance="ci",
                data=data,
                message=Message(
                    message_id=message_id, date=NOW, chat=chat(chat_id), from_user=BOT_USER
                ),
            ),
        )
