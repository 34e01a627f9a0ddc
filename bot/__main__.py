"""``python -m bot`` / ``tapete``: run the bot by long polling, or ``--webhook`` for production.

Configuration comes from the environment (see :mod:`bot.settings`); a missing or bad setting,
a Redis or a Telegram Bot API that does not answer, stops the program with one line on stderr
and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from pydantic import ValidationError
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

from bot.settings import Settings, describe_error

__all__ = ["configure_logging", "main"]

log = logging.getLogger("bot")

#: Libraries whose INFO lines carry request URLs (with the bot token in them) or noise.
QUIET_LOGGERS = ("httpx", "httpcore", "tornado.access", "hpack")
#: Libraries whose DEBUG lines carry Bot API request parameters (private hands!) and updates:
#: never below INFO, whatever ``TAPETE_LOG_LEVEL`` says.
CHATTY_LOGGERS = ("telegram", "apscheduler", "asyncio")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """Formats like ``logging.Formatter``, with each secret (the bot token) replaced by ``***``.

    Works on the final text, so tracebacks and library messages are covered too.
    """

    def __init__(self, fmt: str, secrets: Iterable[str]) -> None:
        super().__init__(fmt)
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text


class OwnDebugOnly(logging.Filter):
    """Lets DEBUG records through only from the bot's own loggers (``bot.*``), which never log a
    card: a library's DEBUG line may hold a request's parameters (a private hand) or an update.

    >>> f = OwnDebugOnly()
    >>> rec = lambda name, level: logging.LogRecord(name, level, "", 0, "x", None, None)
    >>> f.filter(rec("bot.flow", logging.DEBUG)), f.filter(rec("telegram._bot", logging.DEBUG))
    (True, False)
    >>> f.filter(rec("telegram.ext", logging.WARNING))
    True
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return (
            record.levelno >= logging.INFO or record.name == "bot" or record.name.startswith("bot.")
        )


def configure_logging(
    level: str = "INFO",
    secrets: Iterable[str] = (),
    *,
    stream: TextIO | None = None,
    fmt: str = "text",
) -> logging.Handler:
    """INFO by default; HTTP client loggers at WARNING, other libraries never below INFO;
    secrets never printed. Returns the handler installed on the root logger.

    Card texts are never logged by the bot's own modules (they log chat ids and reasons only).
    """
    handler = logging.StreamHandler(stream)
    if fmt == "json":
        from bot.ops import JsonFormatter  # imported late: a config error needs no telegram

        handler.setFormatter(JsonFormatter(secrets))
    else:
        handler.setFormatter(RedactingFormatter(LOG_FORMAT, secrets))
    handler.addFilter(OwnDebugOnly())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    floor = max(logging.INFO, logging.getLevelName(level))
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(floor)
    return handler


def safe_url(url: str) -> str:
    """``url`` without its password, for messages.

    >>> safe_url("redis://:hunter2@db:6379/0")
    'redis://***@db:6379/0'
    """
    parts = urlsplit(url)
    if parts.password is None and parts.username is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"***@{host}"))


def redis_problem(url: str, timeout: float = 5.0, *, cluster: bool = False) -> str | None:
    """Why Redis at ``url`` cannot be used (one line), or ``None`` when it answers a PING (with
    ``cluster``: when it is a node of a Redis Cluster whose every master answers)."""

    async def ping() -> None:
        kwargs: dict[str, Any] = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
        client = RedisCluster.from_url(url, **kwargs) if cluster else Redis.from_url(url, **kwargs)
        try:
            await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except (RedisError, OSError, ValueError) as error:
        detail = str(error).replace(url, safe_url(url)).splitlines()[0] if str(error) else ""
        return f"cannot reach Redis at {safe_url(url)}: {detail or type(error).__name__}"
    return None


STARTUP_PATIENCE = 300.0
"""Seconds a start-up waits out Telegram's transient refusals (429, 5xx, timeouts) before giving
up; a wrong token or an address nothing answers at fails at once."""


def bot_api_problem(
    settings: Settings,
    timeout: float = 10.0,
    patience: float = STARTUP_PATIENCE,
    *,
    sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    clock: Callable[[], float] | None = None,
) -> str | None:
    """Why the Telegram Bot API cannot be used with these settings (one line, the token never
    in it), or ``None`` when ``getMe`` answers. A refusal that may pass (flood control, 5xx, a
    timeout) is retried, with one warning per try, for up to ``patience`` seconds (of ``clock``,
    by default the event loop's; ``sleep`` pauses: tests pass simulated ones)."""
    import httpx
    from telegram import Bot
    from telegram.error import InvalidToken, NetworkError, RetryAfter, TelegramError, TimedOut
    from telegram.request import HTTPXRequest

    from bot.botapi import retry_seconds

    token = settings.telegram_bot_token
    where = settings.telegram_api_url or "https://api.telegram.org/bot"
    request = HTTPXRequest(connect_timeout=timeout, read_timeout=timeout)
    bot = Bot(token, base_url=where, request=request)

    def transient(error: Exception) -> bool:
        if isinstance(error, RetryAfter | TimedOut):
            return True
        # An HTTP answer (502, 503...) may pass; nothing listening at the address will not.
        return isinstance(error, NetworkError) and not isinstance(
            error.__cause__, httpx.TransportError
        )

    async def get_me() -> None:
        now = clock or asyncio.get_running_loop().time
        give_up, backoff = now() + patience, 1.0
        while True:
            try:
                async with bot:  # initializing asks getMe
                    return
            except TelegramError as error:
                if not transient(error):
                    raise
                pause, backoff = backoff, min(backoff * 2, 30.0)
                if isinstance(error, RetryAfter):
                    pause = retry_seconds(error)
                if now() + pause > give_up:
                    raise
                log.warning(
                    "the Telegram Bot API refused for now (%s): retrying in %.0f s",
                    type(error).__name__,
                    pause,
                )
            await sleep(pause)

    try:
        asyncio.run(get_me())
    except InvalidToken:
        return "the Telegram Bot API refused the bot token (TELEGRAM_BOT_TOKEN)"
    except (NetworkError, TelegramError, OSError) as error:
        detail = (str(error).splitlines() or [""])[0].replace(token, "***")
        return f"cannot reach the Telegram Bot API at {where}: {detail or type(error).__name__}"
    return None


def fail(message: str) -> int:
    print(f"tapete: {message}", file=sys.stderr)
    return 2


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tapete",
        description="Tapete, a Telegram bot for Spanish card games. "
        "Configured by environment variables (TELEGRAM_BOT_TOKEN, REDIS_URL, ...).",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="receive updates by webhook (TAPETE_WEBHOOK_URL, _LISTEN, _PORT, _SECRET) "
        "instead of long polling",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot until interrupted; returns the exit status."""
    args = parse_args(argv)
    try:
        settings = Settings()  # type: ignore[call-arg]  # fields come from the environment
    except ValidationError as error:
        return fail(describe_error(error))
    if args.webhook and not settings.webhook_url:
        return fail("--webhook needs TAPETE_WEBHOOK_URL (the public HTTPS URL of this bot)")
    if args.webhook and not settings.webhook_secret:
        # Refused rather than generated: every process behind the same URL must send Telegram
        # the same secret, and a generated one would differ per process.
        return fail(
            "--webhook needs TAPETE_WEBHOOK_SECRET (1-256 of A-Z a-z 0-9 _ -): without it "
            "anyone who reaches the URL could post updates as any user"
        )

    secrets = [settings.telegram_bot_token, settings.webhook_secret or ""]
    configure_logging(settings.log_level, secrets, fmt=settings.log_format)
    if settings.redis_url:
        problem = redis_problem(settings.redis_url, cluster=settings.redis_cluster)
        if problem is not None:
            return fail(problem)
    problem = bot_api_problem(settings)
    if problem is not None:
        return fail(problem)
    if settings.redis_url:
        kind = "a Redis Cluster" if settings.redis_cluster else "Redis"
        log.info("storage: %s at %s", kind, safe_url(settings.redis_url))
    elif settings.sqlite_path:
        log.info("storage: SQLite file %s (one machine; REDIS_URL for more)", settings.sqlite_path)
    else:
        log.warning(
            "storage: a temporary SQLite file (neither REDIS_URL nor TAPETE_SQLITE_PATH set): "
            "tables are lost on restart"
        )

    from bot.app import build_application  # imported late: a config error needs no telegram

    application = build_application(settings)
    if args.webhook:
        log.info(
            "receiving updates by webhook on %s:%s", settings.webhook_listen, settings.webhook_port
        )
        application.run_webhook(
            listen=settings.webhook_listen,
            port=settings.webhook_port,
            url_path=settings.webhook_path,
            secret_token=settings.webhook_secret,
            webhook_url=settings.webhook_url,
            bootstrap_retries=-1,  # Telegram refusing for a while (429, 5xx) delays the start
        )
    else:
        log.info("receiving updates by long polling")
        application.run_polling(bootstrap_retries=-1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
