"""Fixtures of the end-to-end tests: the fake Bot API server, Redis and the real Application.

Redis is the real server at ``REDIS_URL`` when it is set (CI) and fakeredis otherwise. Every test
uses its own chat and user ids (random), and the keys it created are deleted afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import polling
from driver import PREFIX
from fake_telegram import FakeTelegram

SOON = 0.25  # seconds: a turn timer due within this is work in hand (a computer's move...)
POLL_TIMEOUT = 1  # seconds of long polling: short so that stopping an Application is quick
STOP_TIMEOUT = 15.0  # seconds an Application may take to start or stop before the test fails


@pytest.fixture
def tg() -> Iterator[FakeTelegram]:
    """A running fake Bot API server with ids no other test uses."""
    rnd = random.Random()
    server = FakeTelegram(
        first_group_id=-1009000000000 - rnd.randrange(10**8) * 100,
        first_user_id=5_000_000_000 + rnd.randrange(10**8) * 100,
        first_update_id=rnd.randrange(10**9, 2 * 10**9),  # update ids are de-duplicated
    ).start()
    yield server
    server.stop()
    assert not server.unknown_methods, f"the bot called unknown methods {server.unknown_methods}"
    if not server.expect_bad_requests:
        bad = [
            f"{c.method}: {c.error}"
            for c in server.calls
            if not c.ok and any(m in (c.error or "") for m in BOT_BUG_ERRORS)
        ]
        assert not bad, f"the Bot API refused calls that a correct bot never makes: {bad}"


#: Bot API refusals that always mean a bug in the bot (bad HTML, too long, bad buttons...).
BOT_BUG_ERRORS = (
    "can't parse entities",
    "BUTTON_DATA_INVALID",
    "BUTTON_URL_INVALID",
    "message is too long",
    "message text is empty",
    "chat not found",
    "query is too old",
    "MESSAGE_TOO_LONG",
    "inline keyboard",
)


class RedisFactory:
    """Clients on one Redis (real or fake), each a separate connection pool like two processes."""

    def __init__(self, cluster_url: str | None = None) -> None:
        self.url = cluster_url or os.environ.get("REDIS_URL")
        self.cluster = cluster_url is not None
        self.clients: list[Any] = []
        self._server: Any = None
        if not self.url:
            import fakeredis

            self._server = fakeredis.FakeServer()

    def client(self) -> Any:
        if self.cluster:
            from redis.asyncio.cluster import RedisCluster

            client = RedisCluster.from_url(self.url)
        elif self.url:
            import redis.asyncio

            client = redis.asyncio.Redis.from_url(self.url)
        else:
            import fakeredis

            client = fakeredis.FakeAsyncRedis(server=self._server)
        self.clients.append(client)
        return client

    async def cleanup(self) -> None:
        """Delete every key under this process's prefix: one test runs at a time in a process,
        its bots are stopped, and no other suite or bot uses the prefix."""
        if not self.clients:
            return
        client = self.clients[0]
        with contextlib.suppress(Exception):  # (a cluster a test has stopped is gone)
            doomed = [k async for k in client.scan_iter(match=f"{PREFIX}:*", count=1000)]
            if self.cluster:
                for key in doomed:
                    await client.delete(key)
            else:
                for start in range(0, len(doomed), 500):
                    await client.delete(*doomed[start : start + 500])
        for c in self.clients:
            with contextlib.suppress(Exception):
                await c.aclose()


@pytest.fixture
async def redis_factory(tg: FakeTelegram) -> AsyncIterator[RedisFactory]:
    factory = RedisFactory()
    yield factory
    await factory.cleanup()


def make_settings(tg: FakeTelegram, token: str | None = None, **overrides: Any) -> Any:
    from bot.settings import Settings

    values: dict[str, Any] = {
        "telegram_bot_token": token or tg.tokens[0],
        "telegram_api_url": tg.base_url,
        "turn_timeout": 60.0,
        "timer_tick": 0.1,
        "language": "es",
        # Bad-input tests check each refusal in the group; the throttle has its own tests.
        "answer_quiet": 0.0,
        "redis_prefix": PREFIX,
    }
    values.update(overrides)
    return Settings(**values)


class ShiftedClock:
    """A bot's wall clock (its services' and its store's: turn deadlines, retry times,
    publications due) that the test moves on: a wait of seconds passes at once."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift

    def advance(self, seconds: float) -> None:
        self.shift += seconds


class AppRunner:
    """Starts and stops real Applications against the fake server (like ``python -m bot``)."""

    def __init__(self, tg: FakeTelegram, redis_factory: RedisFactory) -> None:
        self.tg = tg
        self.redis_factory = redis_factory
        self.running: list[Any] = []
        self.probes: dict[int, Any] = {}
        self.reader: Any = None

    async def start(
        self,
        *,
        token: str | None = None,
        redis: Any = None,
        clock: ShiftedClock | None = None,
        **settings: Any,
    ) -> Any:
        """Start an Application (on its own Redis client unless ``redis``; reading the time
        from ``clock`` if given)."""
        from bot.app import build_application
        from bot.handlers.common import SERVICES_KEY

        if token and token not in self.tg.tokens:
            self.tg.add_token(token)
        client = redis if redis is not None else self.redis_factory.client()
        app = build_application(make_settings(self.tg, token, **settings), redis=client)
        if clock is not None:
            svc = app.bot_data[SERVICES_KEY]
            svc.clock = svc.store.clock = clock
        await asyncio.wait_for(self._start(app), STOP_TIMEOUT)
        self.running.append(app)
        if self.reader is None:  # (not the bot's own client: a test may cut that one off)
            self.reader = self.redis_factory.client()
        self.probes[id(app)] = self._idle_probe(app, self.reader)
        self.tg.watch(self.probes[id(app)])
        return app

    @staticmethod
    def _idle_probe(app: Any, redis: Any) -> Any:
        """``tg.settle()``'s question to this Application: nothing in hand? No update taken and
        not yet handled, no publication, release or sweep running, no turn timer due within
        :data:`SOON` (read with a client of the test's, not counted in the store's figures)."""
        from bot.handlers.common import PUBLISHER_KEY, SERVICES_KEY
        from bot.store.keys import Keys

        svc, pub = app.bot_data[SERVICES_KEY], app.bot_data[PUBLISHER_KEY]
        keys = getattr(svc.store, "keys", Keys(PREFIX))
        timers = [keys.timers_in(b) for b in keys.sweep_buckets()]

        async def idle() -> bool:
            # Each update the Updater queued is marked done once the Application handled it
            # (asyncio.Queue counts them for join(); read here without waiting).
            if app.update_queue._unfinished_tasks or pub.busy() or svc.sweeping:
                return False
            async with redis.pipeline(transaction=False) as pipe:
                for key in timers:
                    pipe.zcount(key, "-inf", svc.clock() + SOON)
                return not any(await pipe.execute())

        return idle

    @staticmethod
    async def _start(app: Any) -> None:
        def polling_failed(error: Any) -> None:  # what run_polling does with a failed poll
            app.create_task(app.process_error(error=error, update=None))

        await polling.start(app, poll_timeout=POLL_TIMEOUT, error_callback=polling_failed)

    async def stop(self, app: Any) -> None:
        if app not in self.running:
            return
        self.running.remove(app)
        self.tg.unwatch(self.probes.pop(id(app)))
        try:
            await asyncio.wait_for(polling.stop(app), STOP_TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"the Application did not stop within {STOP_TIMEOUT} s") from None

    async def stop_all(self) -> None:
        for app in list(reversed(self.running)):
            await self.stop(app)


@pytest.fixture
async def apps(tg: FakeTelegram, redis_factory: RedisFactory) -> AsyncIterator[AppRunner]:
    runner = AppRunner(tg, redis_factory)
    yield runner
    await runner.stop_all()


@pytest.fixture(autouse=True)
def _bot_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The bot logs no error (a handler that raised is a bug) and never a card."""
    # The capture handler takes the level of the last call: the bot's DEBUG comes last, or
    # everything below WARNING would go unchecked.
    caplog.set_level(logging.WARNING, logger="httpx")
    caplog.set_level(logging.DEBUG, logger="bot")
    yield
    from driver import card_mentions

    deck = [f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    errors, cards = [], []
    for record in caplog.get_records("call"):
        text = record.getMessage() + (record.exc_text or "")
        if record.levelno >= logging.ERROR and record.name.startswith(("bot", "telegram")):
            errors.append(f"{record.name}: {text[:500]}")
        if record.name.startswith("bot") and card_mentions(text, deck):
            cards.append(f"{record.name}: {text[:300]}")
    assert not errors, f"the bot logged errors: {errors}"
    assert not cards, f"the bot logged cards: {cards}"
