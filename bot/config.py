"""Settings from the environment (and `.env`), documented in `.env.example`."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.models import Lang


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    bot_token: SecretStr
    redis_url: str | None = None
    bot_api_url: str | None = None  # a self-hosted Bot API server; None: Telegram's
    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_host: str = "0.0.0.0"
    webhook_port: int = 8080
    default_lang: Lang = "ru"
    turn_timeout: int = Field(default=90, ge=10, le=3600)
    choice_timeout: int = Field(default=60, ge=10, le=3600)
    computer_pause: float = Field(default=1.5, ge=0)  # seconds before a computer seat answers
    lobby_ttl_hours: float = Field(default=24, gt=0)  # an unstarted lobby is forgotten after
    finished_ttl_hours: float = Field(default=168, gt=0)  # a finished game's record is kept
