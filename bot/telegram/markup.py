"""The service's plain keyboards (`bot.words.screen`) as Telegram's inline markup.

Built once per distinct keyboard: a keyboard is frozen data, so the same
buttons (a lobby's, a prompt's menu level) reuse one markup object instead of
building and validating Telegram's models on every send.
"""

from __future__ import annotations

from functools import lru_cache

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, MenuButtonWebApp, WebAppInfo

from bot.words.screen import Button, Keyboard

#: distinct keyboards kept built (a few hundred bytes each)
BUILT_MAX = 2048


def _button(b: Button) -> InlineKeyboardButton:
    if b.url is not None:
        return InlineKeyboardButton(text=b.text, url=b.url)
    if b.app is not None:
        return InlineKeyboardButton(text=b.text, web_app=WebAppInfo(url=b.app))
    return InlineKeyboardButton(text=b.text, callback_data=b.data)


@lru_cache(maxsize=BUILT_MAX)
def _built(keys: Keyboard) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[_button(b) for b in row] for row in keys])


def markup_of(keys: Keyboard | None) -> InlineKeyboardMarkup | None:
    """Telegram's markup for `keys`; None for no keyboard (an edit then drops
    the buttons a message had)."""
    if not keys:
        return None
    return _built(keys)


def menu_button_of(b: Button) -> MenuButtonWebApp:
    """A private chat's menu button opening the Mini App page `b.app`."""
    assert b.app is not None
    return MenuButtonWebApp(text=b.text, web_app=WebAppInfo(url=b.app))
