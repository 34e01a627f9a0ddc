"""The turn-timer sweep: every ``tick`` seconds, claim the due tables and fire their timers.

Any number of processes may sweep the same store: :meth:`~bot.storage.Store.claim_due` gives each
due table to exactly one of them (with a lease, so a table claimed by a process that dies is
fired again by another once the lease runs out). ``fire(chat_id, now)`` does the work, normally
an ``update_table`` whose function checks the table's own deadline and turn token and plays the
default action; it runs as its own task, so a slow chat does not delay the others.

Usage (in ``post_init`` / ``post_shutdown``)::

    sweeper = TimerSweeper(store, fire, tick=settings.timer_tick)
    sweeper.start()
    ...
    await sweeper.stop()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage import TIMER_LEASE, Store

__all__ = ["Fire", "TimerSweeper"]

log = logging.getLogger(__name__)

Fire = Callable[[int, float], Awaitable[object]]


class TimerSweeper:
    """Periodically claims due timers from ``store`` and runs ``fire`` for each."""

    def __init__(
        self,
        store: Store,
        fire: Fire,
        *,
        tick: float = 1.0,
        lease: float = TIMER_LEASE,
        limit: int = 100,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if tick <= 0:
            raise ValueError("tick must be positive")
        self.store = store
        self.fire = fire
        self.tick = tick
        self.lease = lease
        self.limit = limit
        self.clock = clock
        self._loop_task: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()

    @property
    def running(self) -> bool:
        return self._loop_task is not None and not self._loop_task.done()

    def start(self) -> None:
        """Start sweeping in the running event loop (idempotent)."""
        if not self.running:
            self._loop_task = asyncio.get_running_loop().create_task(
                self._run(), name="tapete-timer-sweep"
            )

    async def stop(self) -> None:
        """Stop sweeping and wait for the timers being fired to finish."""
        task, self._loop_task = self._loop_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._firing:
            await asyncio.gather(*self._firing, return_exceptions=True)

    async def sweep_once(self) -> list[int]:
        """Claim the due tables and start firing them; returns their chat ids."""
        now = self.clock()
        claimed = await self.store.claim_due(now, lease=self.lease, limit=self.limit)
        for chat_id in claimed:
            task = asyncio.get_running_loop().create_task(self._fire(chat_id, now))
            self._firing.add(task)
            task.add_done_callback(self._firing.discard)
        return claimed

    async def _fire(self, chat_id: int, now: float) -> None:
        try:
            await self.fire(chat_id, now)
        except Exception:
            # The lease makes the timer fire again later: nothing is lost.
            log.exception("turn timer of chat %s failed", chat_id)

    async def _run(self) -> None:
        while True:
            started = self.clock()
            try:
                claimed = await self.sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timer sweep failed")
                claimed = []
            if len(claimed) >= self.limit:
                continue  # more are due: sweep again at once
            await asyncio.sleep(max(0.0, self.tick - (self.clock() - started)))
