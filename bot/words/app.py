"""Where the Mini App opens: its buttons and links (`bot.webapp` serves it).

- In a private chat, a «🃏 Стол» `web_app` button under each prompt and /hand,
  and the chat's menu button, open the app on a game (``?chat=<id>``);
- a group cannot carry a `web_app` button: its table message carries a link —
  the Direct Link Mini App ``t.me/<bot>/<short name>?startapp=<chat>`` when a
  short name is set with @BotFather, else the private chat's deep link
  ``t.me/<bot>?start=app_<chat>``, which answers with the `web_app` button.

A finished game's replay (`replay_url`): ``?replay=<N>&move=<M>`` — ``N`` the
game's number (/history's, `GameRecord.number`), ``M`` a command index: the
position after the log's first ``M`` commands (0: the deal). A group's link
and a Direct Link carry it as the start parameter ``r<N>_<M>``.

Without `WEBAPP_URL` nothing here is built and no button shows.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.words.i18n import Translator
from bot.words.screen import Button, Keyboard

#: the /start payload that asks for the app's button for a chat
START_PREFIX = "app_"
#: the start parameter of a replay: ``r<number>_<move>``
REPLAY_PARAM = re.compile(r"^r(\d{1,12})_(\d{1,6})$")


def replay_param(number: int, move: int = 0) -> str:
    """The start parameter (/start, ``startapp``) that opens game `number`'s
    replay at `move`."""
    return f"r{number}_{max(0, move)}"


def parse_replay(param: str) -> tuple[int, int] | None:
    """A replay's number and move from its start parameter (None: not one)."""
    found = REPLAY_PARAM.match(param)
    return (int(found[1]), int(found[2])) if found else None


@dataclass
class AppLinks:
    """The app's public base (``https://…``, no trailing slash), the Direct
    Link's short name if any, and the bot's username (learnt once)."""

    base_url: str
    short_name: str | None = None
    username: str | None = None
    learn: Callable[[], Awaitable[str]] | None = field(default=None, repr=False)

    async def know_username(self) -> None:
        """Learn the bot's username once (the group's link names the bot)."""
        if self.username is None and self.learn is not None:
            self.username = await self.learn()

    def url(self, chat_id: int | None = None) -> str:
        """The page, opened on the chat's game (None: on the person's games)."""
        return f"{self.base_url}/" if chat_id is None else f"{self.base_url}/?chat={chat_id}"

    def button(self, tr: Translator, lang: str, chat_id: int) -> Button:
        """«🃏 Стол»: the app on the chat's game (private chats only)."""
        return Button(tr.t(lang, "btn-app"), app=self.url(chat_id))

    def markup(self, tr: Translator, lang: str, chat_id: int) -> Keyboard:
        return ((self.button(tr, lang, chat_id),),)

    def menu_button(self, tr: Translator, lang: str) -> Button:
        """The private chat's menu button: the app on the person's games."""
        return Button(tr.t(lang, "btn-app"), app=self.url())

    def replay_url(self, number: int, move: int = 0) -> str:
        """The page on game `number`'s replay, at the position after its first
        `move` commands (0: the deal)."""
        return f"{self.base_url}/?replay={number}&move={max(0, move)}"

    def replay_button(self, tr: Translator, lang: str, number: int, move: int = 0) -> Button:
        """«🎞 Игра № N»: the replay in the app (a `web_app` button: private chats only)."""
        return Button(tr.t(lang, "btn-replay", number=number), app=self.replay_url(number, move))

    def replay_link(self, number: int, move: int = 0) -> str | None:
        """The replay's link for a group's message (None until the username is
        known): the Direct Link, else the private chat's deep link, which
        answers with `replay_button`."""
        if self.username is None:
            return None
        param = replay_param(number, move)
        if self.short_name is not None:
            return f"https://t.me/{self.username}/{self.short_name}?startapp={param}"
        return f"https://t.me/{self.username}?start={param}"

    def group_url(self, chat_id: int) -> str | None:
        """The link a group's table carries (None until the username is known)."""
        if self.username is None:
            return None
        if self.short_name is not None:
            return f"https://t.me/{self.username}/{self.short_name}?startapp={chat_id}"
        return f"https://t.me/{self.username}?start={START_PREFIX}{chat_id}"

    def group_markup(self, tr: Translator, lang: str, chat_id: int) -> Keyboard | None:
        url = self.group_url(chat_id)
        if url is None:
            return None
        return ((Button(tr.t(lang, "btn-app"), url=url),),)


def with_app(
    keys: Keyboard, app: AppLinks | None, tr: Translator, lang: str, chat_id: int
) -> Keyboard:
    """`keys` with the «🃏 Стол» button as its last row (unchanged without the app)."""
    if app is None:
        return keys
    return (*keys, (app.button(tr, lang, chat_id),))
