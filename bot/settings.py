"""Configuration from environment variables (and an optional ``.env`` file).

Every field can also be given as a keyword argument, which is what tests do:

>>> s = Settings(telegram_bot_token="123:abc", turn_timeout=5, redis_url=None)
>>> (s.turn_timeout, s.redis_url)
(5.0, None)
>>> "123:abc" in repr(s)
False
"""

from __future__ import annotations

import ipaddress
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ENV_NAMES", "Settings", "describe_error"]


def _env(field: str, name: str) -> str:
    # Only the variable name is read from the environment (a bare ``LANGUAGE`` must not count);
    # ``populate_by_name`` lets tests pass the field name as a keyword argument.
    return name


class Settings(BaseSettings):
    """Everything the bot reads from its environment; see the README's configuration table."""

    model_config = SettingsConfigDict(
        env_prefix="TAPETE_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        frozen=True,
    )

    telegram_bot_token: str = Field(
        min_length=1,
        repr=False,
        validation_alias=_env("telegram_bot_token", "TELEGRAM_BOT_TOKEN"),
        description="Bot token from @BotFather (required).",
    )
    redis_url: str | None = Field(
        default=None,
        validation_alias=_env("redis_url", "REDIS_URL"),
        description="Redis URL; unset means an SQLite file (TAPETE_SQLITE_PATH).",
    )
    redis_prefix: str = Field(
        default="tapete",
        min_length=1,
        pattern=r"^[A-Za-z0-9_.:{}-]+$",
        validation_alias=_env("redis_prefix", "TAPETE_REDIS_PREFIX"),
        description="Prefix of every Redis key, so several bots (or test runs) share one Redis.",
    )
    redis_cluster: bool = Field(
        default=False,
        validation_alias=_env("redis_cluster", "TAPETE_REDIS_CLUSTER"),
        description="1: REDIS_URL names any node of a Redis Cluster (the keys are spread over "
        "its masters).",
    )
    sqlite_path: str | None = Field(
        default=None,
        validation_alias=_env("sqlite_path", "TAPETE_SQLITE_PATH"),
        description="SQLite file for the tables when REDIS_URL is unset (kept across restarts); "
        "unset too: a temporary file (tables lost on restart).",
    )
    telegram_api_url: str | None = Field(
        default=None,
        validation_alias=_env("telegram_api_url", "TELEGRAM_API_URL"),
        description="Bot API base URL in python-telegram-bot's base_url form "
        "(e.g. http://127.0.0.1:8081/bot); unset means Telegram's.",
    )
    language: Literal["es", "en"] = Field(
        default="es",
        validation_alias=_env("language", "TAPETE_LANGUAGE"),
        description="Default language of new chats.",
    )
    turn_timeout: float = Field(
        default=120.0,
        gt=0,
        validation_alias=_env("turn_timeout", "TAPETE_TURN_TIMEOUT"),
        description="Seconds a player has to act before the safe default is played "
        "(a table may choose its own with tiempo=30..600).",
    )
    nudge_after: float = Field(
        default=20.0,
        gt=0,
        validation_alias=_env("nudge_after", "TAPETE_NUDGE_AFTER"),
        description="Seconds after his turn starts at which a player who has not acted is "
        "told in private (at most a third of the turn time).",
    )
    computer_pause: float = Field(
        default=3.0,
        ge=0,
        validation_alias=_env("computer_pause", "TAPETE_COMPUTER_PAUSE"),
        description="Most seconds a computer player pauses before its move (at least half).",
    )
    timer_tick: float = Field(
        default=1.0,
        gt=0,
        validation_alias=_env("timer_tick", "TAPETE_TIMER_TICK"),
        description="Seconds between two sweeps of the due turn timers.",
    )
    sweep_batch: int = Field(
        default=25,
        ge=1,
        le=1000,
        description="Due timers and publications one process takes per sweep (others take the "
        "rest: the work spreads over processes).",
        validation_alias=_env("sweep_batch", "TAPETE_SWEEP_BATCH"),
    )
    concurrent_updates: int = Field(
        default=64,
        ge=1,
        le=4096,
        description="Updates one process handles at once (the compare-and-set keeps them "
        "consistent; a slow Bot API call then delays only its own update).",
        validation_alias=_env("concurrent_updates", "TAPETE_CONCURRENT_UPDATES"),
    )
    api_timeout: float = Field(
        default=5.0,
        gt=0,
        description="Seconds a Bot API call waits for Telegram's answer before it counts as "
        "timed out (long polls wait their own timeout on top).",
        validation_alias=_env("api_timeout", "TAPETE_API_TIMEOUT"),
    )
    publish_hold: float = Field(
        default=3.0,
        ge=0,
        le=3.0,
        description="Seconds a finished publication keeps its table's publishing lock, so "
        "that the table's next write releases it in the same round trip (0: release at once; "
        "at most 0.5 while another process publishes this bot's tables too).",
        validation_alias=_env("publish_hold", "TAPETE_PUBLISH_HOLD"),
    )
    answer_quiet: float = Field(
        default=30.0,
        ge=0,
        description="Seconds after a refusal or help a user got in a group during which his "
        "next ones go to him in private (0: always in the group, budget allowing).",
        validation_alias=_env("answer_quiet", "TAPETE_ANSWER_QUIET"),
    )
    table_ttl: int = Field(
        default=86_400,
        gt=0,
        validation_alias=_env("table_ttl", "TAPETE_TABLE_TTL"),
        description="Seconds a table is kept after its last write (finished or abandoned).",
    )
    records_keep: int = Field(
        default=200,
        gt=0,
        validation_alias=_env("records_keep", "TAPETE_RECORDS_KEEP"),
        description="Finished games kept in full per group (statistics count every game).",
    )
    webhook_url: str | None = Field(
        default=None,
        validation_alias=_env("webhook_url", "TAPETE_WEBHOOK_URL"),
        description="Public HTTPS URL Telegram posts updates to (--webhook mode).",
    )
    webhook_listen: str = Field(
        default="0.0.0.0",
        validation_alias=_env("webhook_listen", "TAPETE_WEBHOOK_LISTEN"),
        description="Address the webhook server binds to.",
    )
    webhook_port: int = Field(
        default=8443,
        gt=0,
        lt=65536,
        validation_alias=_env("webhook_port", "TAPETE_WEBHOOK_PORT"),
        description="Port the webhook server listens on.",
    )
    webhook_secret: str | None = Field(
        default=None,
        repr=False,
        validation_alias=_env("webhook_secret", "TAPETE_WEBHOOK_SECRET"),
        description="Secret token Telegram sends in X-Telegram-Bot-Api-Secret-Token.",
    )
    webapp_url: str | None = Field(
        default=None,
        validation_alias=_env("webapp_url", "TAPETE_WEBAPP_URL"),
        description="Public URL of the table's Mini App page (HTTPS; http only on a loopback "
        "address), where BotFather's Main Mini App points; unset: no page, no button.",
    )
    webapp_listen: str = Field(
        default="0.0.0.0",
        validation_alias=_env("webapp_listen", "TAPETE_WEBAPP_LISTEN"),
        description="Address the Mini App's page and API bind to.",
    )
    webapp_port: int = Field(
        default=8090,
        ge=0,
        lt=65536,
        validation_alias=_env("webapp_port", "TAPETE_WEBAPP_PORT"),
        description="Port the Mini App's page and API listen on (with TAPETE_WEBAPP_URL; 0: any "
        "free one, for tests).",
    )
    metrics_port: int | None = Field(
        default=None,
        gt=0,
        lt=65536,
        validation_alias=_env("metrics_port", "TAPETE_METRICS_PORT"),
        description="Port of /health and /metrics (Prometheus); unset: not served.",
    )
    metrics_listen: str = Field(
        default="0.0.0.0",
        validation_alias=_env("metrics_listen", "TAPETE_METRICS_LISTEN"),
        description="Address /health and /metrics bind to.",
    )
    log_format: Literal["text", "json"] = Field(
        default="text",
        validation_alias=_env("log_format", "TAPETE_LOG_FORMAT"),
        description="text, or json: one object per line with the chat and table ids.",
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = Field(
        default="INFO",
        validation_alias=_env("log_level", "TAPETE_LOG_LEVEL"),
        description="Logging level.",
    )

    @field_validator(
        "redis_url",
        "sqlite_path",
        "telegram_api_url",
        "webhook_url",
        "webhook_secret",
        "webapp_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("telegram_bot_token", mode="before")
    @classmethod
    def _strip_token(cls, value: object) -> object:
        return value.strip() if isinstance(value, str) else value

    @field_validator("metrics_port", mode="before")
    @classmethod
    def _blank_port(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("language", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("webhook_secret")
    @classmethod
    def _check_secret(cls, value: str | None) -> str | None:
        # Telegram accepts 1-256 characters from A-Z, a-z, 0-9, _ and -.
        if value is not None and not (
            len(value) <= 256 and all(c.isascii() and (c.isalnum() or c in "_-") for c in value)
        ):
            raise ValueError("use 1-256 characters among A-Z a-z 0-9 _ -")
        return value

    @field_validator("webapp_url")
    @classmethod
    def _check_webapp_url(cls, value: str | None) -> str | None:
        # Telegram opens Mini Apps over HTTPS only; plain http is for a page on this machine
        # (tests, local play), never sent over a network.
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme == "https" and parts.hostname:
            return value
        if parts.scheme == "http" and _loopback(parts.hostname or ""):
            return value
        raise ValueError("use an https:// URL (http:// only on a loopback address)")

    @property
    def webapp_path(self) -> str:
        """The path of ``webapp_url`` without its trailing slash ("" at the root).

        >>> Settings(telegram_bot_token="t", webapp_url="https://x.org/mesa/").webapp_path
        '/mesa'
        """
        return urlsplit(self.webapp_url or "").path.rstrip("/")

    @property
    def pause(self) -> tuple[float, float]:
        """The range of a computer player's pause (seconds).

        >>> Settings(telegram_bot_token="t", computer_pause=3).pause
        (1.5, 3.0)
        """
        return (self.computer_pause / 2, self.computer_pause)

    @property
    def webhook_path(self) -> str:
        """The path part of ``webhook_url`` (without the leading slash), served by the bot.

        >>> Settings(telegram_bot_token="t", webhook_url="https://x.org/tg/hook").webhook_path
        'tg/hook'
        """
        if self.webhook_url is None:
            return ""
        return urlsplit(self.webhook_url).path.lstrip("/")


def _loopback(host: str) -> bool:
    """``127.0.0.1``, ``::1``, ``localhost``...

    >>> _loopback("127.0.0.9"), _loopback("localhost"), _loopback("10.0.0.1"), _loopback("x.org")
    (True, True, False, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: Field name -> environment variable, for error messages and the README table.
ENV_NAMES: dict[str, str] = {
    name: str(field.validation_alias) for name, field in Settings.model_fields.items()
}


def describe_error(error: ValidationError) -> str:
    """One line naming each bad environment variable, for ``python -m bot``.

    >>> try:
    ...     Settings(telegram_bot_token="t", turn_timeout=0)
    ... except ValidationError as e:
    ...     print(describe_error(e))
    TAPETE_TURN_TIMEOUT: Input should be greater than 0
    """
    parts = []
    for err in error.errors():
        loc = str(err["loc"][0]) if err["loc"] else ""
        name = ENV_NAMES.get(loc, loc.upper())
        if err["type"] == "missing":
            message = "is not set"
            if name == "TELEGRAM_BOT_TOKEN":
                message += " (create a bot with @BotFather and export its token)"
            parts.append(f"{name} {message}")
        else:
            parts.append(f"{name}: {err['msg']}")
    return "; ".join(parts)
