"""Operations: metrics, a health check and structured logs (no card, no token, ever).

- :class:`MeteredApplication` counts updates and times their handling; :class:`CountingRequest`
  counts Bot API calls and refusals by method (never their parameters).
- :class:`StatusServer` serves ``/health`` (200 when the store answers, else 503) and
  ``/metrics`` (Prometheus text) on ``TAPETE_METRICS_PORT``, beside polling or the webhook. The
  store's figures are read at each scrape: compare-and-set conflicts, the publication backlog
  (tables whose messages are not yet what their document says) and the turn timers due.
- :class:`JsonFormatter` writes one JSON object per log line (``TAPETE_LOG_FORMAT=json``) with
  the chat and table ids of the update being handled (:data:`LOG_CHAT`, :data:`LOG_TABLE`).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from telegram import Update
from telegram.ext import Application
from telegram.request import HTTPXRequest, RequestData

from bot.services import Services

if TYPE_CHECKING:
    from tornado.httpserver import HTTPServer

__all__ = [
    "LOG_CHAT",
    "LOG_TABLE",
    "REGISTRY",
    "CountingRequest",
    "JsonFormatter",
    "MeteredApplication",
    "StatusServer",
]

log = logging.getLogger("bot.ops")

#: The chat and table the current task works for (set per update, per timer, per table write).
LOG_CHAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("tapete_chat", default=None)
LOG_TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("tapete_table", default=None)

REGISTRY = CollectorRegistry(auto_describe=True)
UPDATES = Counter("tapete_updates", "Updates handled, by kind", ["kind"], registry=REGISTRY)
LATENCY = Histogram(
    "tapete_update_seconds",
    "Time to handle one update (handlers, store, publishing)",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY,
)
API_CALLS = Counter(
    "tapete_bot_api_calls", "Bot API calls, by method and HTTP status", ["method", "status"],
    registry=REGISTRY,
)  # fmt: skip


def update_kind(update: object) -> str:
    """``message``, ``callback_query``, ``inline_query``... (the update's one payload field)."""
    if not isinstance(update, Update):
        return "other"
    for kind in ("message", "callback_query", "inline_query", "chosen_inline_result"):
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


class MeteredApplication(Application):  # type: ignore[type-arg]
    """The Application, counting and timing each update and naming its chat in the logs."""

    async def process_update(self, update: object) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        token = LOG_CHAT.set(chat.id if chat is not None else None)
        started = time.perf_counter()
        try:
            await super().process_update(update)
        finally:
            LATENCY.observe(time.perf_counter() - started)
            UPDATES.labels(update_kind(update)).inc()
            LOG_CHAT.reset(token)


class CountingRequest(HTTPXRequest):
    """python-telegram-bot's HTTP client, counting each call by method and status."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1][:40] or "?"
        try:
            code, payload = await super().do_request(url, method, request_data, *args, **kwargs)
        except Exception:
            API_CALLS.labels(name, "error").inc()
            raise
        API_CALLS.labels(name, str(code)).inc()
        return code, payload


class _StoreFigures:
    """The store's figures, read (asynchronously) right before each scrape."""

    def __init__(self) -> None:
        self.conflicts = 0
        self.backlog = 0
        self.timers_due = 0

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "tapete_cas_conflicts", "Compare-and-set writes refused and retried", self.conflicts
        )
        yield GaugeMetricFamily(
            "tapete_publish_backlog", "Tables waiting to be published (pub set)", self.backlog
        )
        yield GaugeMetricFamily("tapete_timers_due", "Turn timers due now", self.timers_due)


class StatusServer:
    """``/health`` and ``/metrics`` on their own port (tornado, in the bot's event loop)."""

    def __init__(self, svc: Services, listen: str, port: int) -> None:
        self.svc, self.listen, self.port = svc, listen, port
        self.figures = _StoreFigures()
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(self.figures)
        self._server: HTTPServer | None = None

    async def healthy(self) -> bool:
        try:
            await asyncio.wait_for(self.svc.store.version_of(0), 2.0)
        except Exception:
            return False
        return True

    async def metrics(self) -> bytes:
        store = self.svc.store
        self.figures.conflicts = getattr(store, "conflicts", 0)
        try:
            backlog, due = await asyncio.wait_for(store.backlog(self.svc.clock()), 2.0)
        except Exception as exc:
            log.warning("metrics: the store did not answer: %s", type(exc).__name__)
        else:
            self.figures.backlog, self.figures.timers_due = backlog, due
        return bytes(generate_latest(REGISTRY) + generate_latest(self.registry))

    async def start(self) -> None:
        import tornado.web

        server = self

        class Health(tornado.web.RequestHandler):
            async def get(self) -> None:
                ok = await server.healthy()
                self.set_status(200 if ok else 503)
                self.set_header("Content-Type", "application/json")
                self.finish(json.dumps({"ok": ok}))

        class Metrics(tornado.web.RequestHandler):
            async def get(self) -> None:
                self.set_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                self.finish(await server.metrics())

        app = tornado.web.Application([(r"/health", Health), (r"/metrics", Metrics)])
        self._server = app.listen(self.port, address=self.listen, xheaders=True)
        log.info("health and metrics on %s:%s", self.listen, self.port)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            await self._server.close_all_connections()
            self._server = None


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, chat and table ids (when the
    line was logged while handling one), and the traceback; each secret replaced by ``***``.

    >>> f = JsonFormatter(["123:TOKEN"])
    >>> rec = logging.LogRecord("bot.flow", logging.INFO, "", 0, "url bot%s", ("123:TOKEN",), None)
    >>> token = LOG_CHAT.set(-100)
    >>> json.loads(f.format(rec))["msg"], json.loads(f.format(rec))["chat"]
    ('url bot***', -100)
    >>> LOG_CHAT.reset(token)
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if (chat := LOG_CHAT.get()) is not None:
            data["chat"] = chat
        if (table := LOG_TABLE.get()) is not None:
            data["table"] = table
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        text = json.dumps(data, ensure_ascii=False)
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text
