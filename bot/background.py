"""Publications in the background: a handler answers and returns while its table is published.

At 100 ms per Bot API call a publication (the table message, then the private hands) takes a few
tenths of a second; done inside the handler it held one of the process's concurrent update
slots all that time. Instead the handler's write marks the table due (the outbox, see
:mod:`bot.publisher`) and :meth:`Publications.start` publishes it in a task of its own: at most
one task per chat in a process; a write made while it runs makes it go round once more (the
publisher's release also brings writes made meanwhile), so several moves may become one edit.

Nothing is lost if the process dies meanwhile: the table stays due and any process's sweep
publishes it. On a graceful stop (SIGTERM, SIGINT) :meth:`Publications.drain` waits for the
running publications, up to a bound; a publication still running then is cancelled, which
releases its table for another process at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.background")

DRAIN_SECONDS = 5.0
"""Longest wait for running publications on a graceful stop (Docker kills 10 s after
SIGTERM)."""


class Publications:
    """This process's background publications, one task per chat at most."""

    def __init__(self) -> None:
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def __len__(self) -> int:
        return len(self._tasks)

    def start(self, chat_id: int, publish: Callable[[], Awaitable[None]]) -> None:
        """Publish the table of ``chat_id`` soon with ``publish()`` (now, or once more after
        the running one)."""
        running = self._tasks.get(chat_id)
        if running is not None and not running.done():
            self._again.add(chat_id)
            return
        self._tasks[chat_id] = asyncio.create_task(
            self._run(chat_id, publish), name=f"tapete:publish:{chat_id}"
        )

    async def _run(self, chat_id: int, publish: Callable[[], Awaitable[None]]) -> None:
        try:
            while True:
                self._again.discard(chat_id)
                try:
                    await publish()
                except Exception:  # publishing keeps the table due on any trouble: a sweep retries
                    log.exception("publishing table %s failed", chat_id)
                if chat_id not in self._again:
                    return
        finally:
            if self._tasks.get(chat_id) is asyncio.current_task():
                del self._tasks[chat_id]
            self._again.discard(chat_id)

    async def drain(self, timeout: float = DRAIN_SECONDS) -> bool:
        """Wait for every running publication (also those started meanwhile), at most
        ``timeout`` seconds; then cancel what is left (it stays due for another process).
        True when everything finished."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._tasks:
            remaining = deadline - loop.time()
            if remaining <= 0:
                left = list(self._tasks.values())
                log.warning(
                    "stopping with %d publications running: left to other processes", len(left)
                )
                for task in left:
                    task.cancel()
                await asyncio.gather(*left, return_exceptions=True)
                return False
            await asyncio.wait(list(self._tasks.values()), timeout=remaining)
        return True
