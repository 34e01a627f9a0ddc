"""Which tables changed, told to the open pages of every process.

A write's process calls :meth:`Feed.changed` (the publisher does, for every table it is asked
to publish): the pages open in this process hear it at once, and on Redis the chat id is
published on ``{prefix}:miniapp:<db>`` so that every process sharing the store hears it too. A
process also asks the store for the versions of the tables its pages watch every
:attr:`Feed.poll` seconds: on SQLite (one file, several processes) that is how another
process's writes arrive, and on Redis it makes up for a message lost with a connection. A page
that hears of a change reads the stored table: nothing but chat ids travels on the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.store import Store
from bot.store.cluster import database
from bot.store.redis import RedisStore

__all__ = ["Feed"]

log = logging.getLogger("bot.miniapp.feed")

POLL_SQLITE = 0.5
"""Seconds between two looks at the watched tables' versions without Redis pub/sub."""
POLL_REDIS = 5.0
"""The same beside Redis pub/sub (only a lost message waits that long)."""
RETRY = 1.0
"""Seconds before listening again after the pub/sub connection was lost."""


class Feed:
    """The changes of the tables watched by this process's pages."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.redis: Redis | None = None
        self.channel = ""
        if isinstance(store, RedisStore) and isinstance(store.redis, Redis):
            self.redis = store.redis
            self.channel = f"{store.prefix}:miniapp:{database(store.redis)}"
        self.poll = POLL_REDIS if self.redis is not None else POLL_SQLITE
        self._watchers: dict[int, set[asyncio.Event]] = {}
        self._versions: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @contextlib.contextmanager
    def watch(self, chat_id: int) -> Iterator[asyncio.Event]:
        """An event set whenever the table of ``chat_id`` may have changed (clear it after
        reading the table)."""
        event = asyncio.Event()
        self._watchers.setdefault(chat_id, set()).add(event)
        try:
            yield event
        finally:
            watchers = self._watchers.get(chat_id, set())
            watchers.discard(event)
            if not watchers:
                self._watchers.pop(chat_id, None)
                self._versions.pop(chat_id, None)

    def _wake(self, chat_id: int) -> None:
        for event in self._watchers.get(chat_id, ()):
            event.set()

    def wake_all(self) -> None:
        """Wake every page's loop (the process stops: they see it and end)."""
        for events in self._watchers.values():
            for event in events:
                event.set()

    def changed(self, chat_id: int) -> None:
        """The table of ``chat_id`` was written by this process: tell every page."""
        self._wake(chat_id)
        if self.redis is not None:
            task = asyncio.get_running_loop().create_task(self._publish(chat_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _publish(self, chat_id: int) -> None:
        assert self.redis is not None
        try:
            await self.redis.publish(self.channel, str(chat_id))
        except (RedisError, OSError) as exc:  # the pages of other processes poll meanwhile
            log.warning("miniapp: a change could not be published: %s", type(exc).__name__)

    async def run(self) -> None:
        """Hear other processes' changes until cancelled."""
        tasks = [asyncio.create_task(self._poll_forever())]
        if self.redis is not None:
            tasks.append(asyncio.create_task(self._listen_forever()))
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            for task in [*tasks, *self._tasks]:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _listen_forever(self) -> None:
        assert self.redis is not None
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                    if message is not None and message.get("type") == "message":
                        data = message["data"]
                        self._wake(int(data.decode() if isinstance(data, bytes) else data))
            except (RedisError, OSError, ValueError) as exc:
                log.warning("miniapp: changes unheard: %s", type(exc).__name__)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]
            await asyncio.sleep(RETRY)

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            for chat_id in list(self._watchers):
                try:
                    version = await self.store.version_of(chat_id)
                except Exception as exc:
                    log.warning("miniapp: a version was not read: %s", type(exc).__name__)
                    break
                if self._versions.get(chat_id, version) != version:
                    self._wake(chat_id)
                self._versions[chat_id] = version
