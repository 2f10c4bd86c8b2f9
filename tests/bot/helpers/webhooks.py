"""The webhook's settings and an update as Telegram posts it."""

from __future__ import annotations

from typing import Any

from aiogram.types import Update

from bot.config import Settings

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


SECRET = "s3cret_Token-0123456789"


HOOK_URL = "https://bot.example.com/tg/hook"


HOOK_PATH = "/tg/hook"


def webhook_settings(secret: str | None = SECRET) -> Settings:
    return Settings(bot_token="42:TEST", webhook_url=HOOK_URL, webhook_secret=secret)


def as_json(update: Update) -> dict[str, Any]:
    """The update as Telegram posts it (``from``, not ``from_user``; no nulls)."""
    return update.model_dump(mode="json", by_alias=True, exclude_none=True)
