"""Settings from the environment (and `.env`), documented in `.env.example`.

Secrets (`BOT_TOKEN`, `WEBHOOK_SECRET`, `SENTRY_DSN`) are `SecretStr`: they print
as ``**********`` in a repr, a log line or a validation error. A setting that
cannot work is refused when the settings load, not when it is first used:
webhook mode without its secret, a secret Telegram would refuse.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.store.models import Lang

#: what Telegram accepts as a webhook's secret token
SECRET_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
#: what @BotFather accepts as a Direct Link Mini App's short name
SHORT_NAME = re.compile(r"[A-Za-z0-9_]{3,64}")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: a Sentinel's address as REDIS_SENTINELS lists it: ``host:port`` (``[::1]:26379``)
SENTINEL_ADDRESS = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^\s:,\[\]]+):(?P<port>\d{1,5})")


class Settings(BaseSettings):
    # hide_input_in_errors: a refused setting is named, its value (a token, a
    # secret, or every setting at once for a check across settings) never printed
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", hide_input_in_errors=True)

    bot_token: SecretStr
    redis_url: str | None = None
    # Redis Sentinel: the sentinels asked where the primary is (``host:port``,
    # comma-separated); REDIS_URL then only gives the database and password
    redis_sentinels: Annotated[list[tuple[str, int]], NoDecode] = Field(default_factory=list)
    redis_sentinel_master: str = "smuta"  # the name the sentinels monitor the primary by
    # Redis Cluster: REDIS_URL names one of its nodes (the client finds the others)
    redis_cluster: bool = False
    # replicas a save waits for (WAIT) before the person is told; None: 1 with
    # sentinels, 0 without
    redis_wait_replicas: int | None = Field(default=None, ge=0, le=5)
    redis_wait_ms: int = Field(default=100, ge=1, le=100)  # how long a save waits for them
    bot_api_url: str | None = None  # a self-hosted Bot API server; None: Telegram's
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None
    webhook_host: str = "0.0.0.0"
    webhook_port: int = Field(default=8080, ge=1, le=65535)
    default_lang: Lang = "ru"
    turn_timeout: int = Field(default=90, ge=10, le=86400)
    choice_timeout: int = Field(default=60, ge=10, le=86400)
    computer_pause: float = Field(default=1.5, ge=0)  # seconds before a computer seat answers
    # worker processes the computer thinks in (None: one a core; 0: on the event loop)
    computer_workers: int | None = Field(default=None, ge=0, le=64)
    # the CPU seconds a finished game's reviews may take in the after-game
    # worker, all its people's together (bot.service.reviews); 0: no reviews
    review_cpu_seconds: float = Field(default=6.0, ge=0, le=120)
    lobby_ttl_hours: float = Field(default=24, gt=0)  # an unstarted lobby is forgotten after
    finished_ttl_hours: float = Field(default=168, gt=0)  # a finished game's record is kept
    playing_ttl_hours: float = Field(default=168, gt=0)  # an untouched running game goes after
    # on SIGTERM: how long the updates and the timer tick in hand may take to finish
    drain_seconds: float = Field(default=8.0, ge=0, le=3600)
    # /healthz, /readyz, /metrics; port 0: any free port (the log says which)
    health_host: str = "127.0.0.1"
    health_port: int = Field(default=8081, ge=0, le=65535)
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"
    sentry_dsn: SecretStr | None = None
    # the Mini App (bot.webapp): its public HTTPS base; unset: no app, no app buttons
    webapp_url: str | None = None
    # where it listens: the webhook server when both match it in webhook mode, else its own
    webapp_host: str = "0.0.0.0"
    webapp_port: int = Field(default=8080, ge=0, le=65535)
    # a Direct Link Mini App's short name (set with @BotFather's /newapp): the group's link
    miniapp_short_name: str | None = None
    # how old a Web App's initData may be when an API call carries it
    webapp_auth_max_age: int = Field(default=24 * 3600, ge=60, le=7 * 24 * 3600)

    @field_validator(
        "redis_url",
        "bot_api_url",
        "webhook_url",
        "webhook_secret",
        "sentry_dsn",
        "webapp_url",
        "miniapp_short_name",
        mode="before",
    )
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        """``WEBHOOK_URL=`` in a file or environment means the same as leaving it out."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("redis_sentinels", mode="before")
    @classmethod
    def _sentinel_addresses(cls, value: Any) -> Any:
        """``a:26379, b:26379`` → [("a", 26379), ("b", 26379)]; empty: none."""
        if not isinstance(value, str):
            return value
        found = []
        for part in (p.strip() for p in value.split(",")):
            if not part:
                continue
            match = SENTINEL_ADDRESS.fullmatch(part)
            if match is None or not 0 < int(match["port"]) < 65536:
                raise ValueError("host:port of each sentinel, separated by commas")
            found.append((match["host"].strip("[]"), int(match["port"])))
        return found

    @field_validator("redis_sentinel_master")
    @classmethod
    def _master_name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", value):
            raise ValueError("a name of 1 to 64 of A-Z a-z 0-9 . _ -")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().upper()
            if value not in LOG_LEVELS:
                raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _https_base(cls, value: str | None) -> str | None:
        """Telegram opens a Web App only over HTTPS; the base ends without a slash."""
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("must be an https:// URL without a query (the app's public base)")
        return value.rstrip("/")

    @field_validator("miniapp_short_name")
    @classmethod
    def _short_name(cls, value: str | None) -> str | None:
        if value is not None and not SHORT_NAME.fullmatch(value):
            raise ValueError("a Mini App's short name: 3 to 64 of A-Z a-z 0-9 _")
        return value

    @model_validator(mode="after")
    def _webhook_has_a_secret(self) -> Settings:
        if self.webhook_secret is not None and not SECRET_TOKEN.fullmatch(
            self.webhook_secret.get_secret_value()
        ):
            raise ValueError("WEBHOOK_SECRET may hold only A-Z a-z 0-9 _ - and 1 to 256 characters")
        if self.webhook_url and self.webhook_secret is None:
            # without a secret anyone who learns the URL could post forged
            # updates (press any player's buttons)
            raise ValueError("WEBHOOK_URL is set: webhook mode needs WEBHOOK_SECRET too")
        return self

    @model_validator(mode="after")
    def _one_way_to_redis(self) -> Settings:
        """REDIS_CLUSTER names a cluster by one node's URL: not with sentinels
        (a cluster fails over by itself), nor a database other than 0 (a
        cluster has one)."""
        if not self.redis_cluster:
            return self
        if self.redis_sentinels:
            raise ValueError("REDIS_CLUSTER and REDIS_SENTINELS: choose one (a cluster fails over)")
        if not self.redis_url:
            raise ValueError("REDIS_CLUSTER is set: REDIS_URL must name one of its nodes")
        if urlsplit(self.redis_url).path.strip("/") not in ("", "0"):
            raise ValueError("REDIS_CLUSTER is set: a cluster has database 0 only (REDIS_URL)")
        return self

    @property
    def wait_replicas(self) -> int:
        """How many replicas each save waits for (`REDIS_WAIT_REPLICAS`)."""
        if self.redis_wait_replicas is not None:
            return self.redis_wait_replicas
        return 1 if self.redis_sentinels or self.redis_cluster else 0

    @property
    def webapp_path(self) -> str:
        """The path the Mini App is served under (``WEBAPP_URL``'s: ``/app``; "" at the root)."""
        return urlsplit(self.webapp_url or "").path.rstrip("/")

    @property
    def webapp_on_webhook_server(self) -> bool:
        """Whether the Mini App is served by the webhook's own server (webhook
        mode, and WEBAPP_HOST/WEBAPP_PORT the webhook's)."""
        return bool(self.webhook_url) and (self.webapp_host, self.webapp_port) == (
            self.webhook_host,
            self.webhook_port,
        )


def describe(error: ValidationError) -> str:
    """What is wrong with the settings, one line each, by environment variable —
    never their values."""
    lines = []
    for e in error.errors(include_input=False, include_url=False):
        where = ".".join(str(part) for part in e["loc"]).upper()
        message = e["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "\n".join(lines)
