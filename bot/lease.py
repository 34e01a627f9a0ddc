"""A running publication's lock: a lease renewed while the publication runs, checked before
each of its Bot API calls (see :mod:`bot.publisher`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.store import Store

log = logging.getLogger("bot.publisher")

LEASE_MARGIN = 2.0
"""Seconds of its lease a publication's lock must surely have left when a Bot API call starts
(else it is renewed first, or the publication stops: :class:`Lease`); a held lock keeps that
much beyond the hold."""


RENEW_MIN = 0.25
"""Fewest seconds between two renewals of a running publication's lock (the retries of one
that failed, once the lease is down to :data:`LEASE_MARGIN`)."""


class LeaseLost(Exception):
    """The publication's lock is not surely its own any more (it lapsed: another process may
    publish the table now): it sends nothing more and leaves the table due."""


class Lease:
    """A running publication's lock: renewed while the publication runs, checked before each
    of its Bot API calls.

    A timer renews it (token-checked: :meth:`~bot.store.Store.pub_extend`) halfway between
    now and the moment only :data:`LEASE_MARGIN` would be left, every 4 s with the default
    lease: a publication that ends sooner (nearly all: well under a second) costs no round
    trip, only a timer set and cancelled; a slow one (flood waits, retries, a Bot API call
    that hangs up to its timeout) keeps its lock as long as it is alive and Redis answers. A
    renewal that fails is tried again in half the time left (at least :data:`RENEW_MIN`).

    :meth:`check` comes before every Bot API call: it costs nothing while the lease has more
    than :data:`LEASE_MARGIN` left; below that (the renewals failed, or the process stalled
    longer than the lease) the lock is renewed first, and a lock that is lost (another token
    has it, or it lapsed) or cannot be renewed raises :class:`LeaseLost`: the call is not made.
    """

    def __init__(self, store: Store, chat_id: int, token: str) -> None:
        self.store, self.chat_id, self.token = store, chat_id, token
        self.lost = False
        self._renewing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        wait = max(RENEW_MIN, (self.store.lease_left(self.chat_id) - LEASE_MARGIN) / 2)
        self._timer = asyncio.get_running_loop().call_later(wait, self._due)

    def _due(self) -> None:
        self._timer = None
        self._task = asyncio.create_task(self._keep())

    async def _keep(self) -> None:
        async with self._renewing:
            await self._renew()
        if not self.lost:
            self._arm()

    async def _renew(self) -> None:
        try:
            kept = await self.store.pub_extend(self.chat_id, self.token)  # the store's lease
        except Exception as exc:  # Redis away: tried again (and checked before each call)
            log.warning("publishing %s: lease renewal failed: %s", self.chat_id, type(exc).__name__)
            return
        if not kept:
            self.lost = True
            log.warning("publishing %s: the lock lapsed; left to its holder", self.chat_id)

    def _sure(self) -> bool:
        return not self.lost and self.store.lease_left(self.chat_id) > LEASE_MARGIN

    async def check(self) -> None:
        """Before a Bot API call: return if the lock surely stays this publication's for
        :data:`LEASE_MARGIN` more seconds (renewing it if needed), else raise
        :class:`LeaseLost`."""
        if self._sure():
            return
        async with self._renewing:  # (concurrent calls wait for one renewal)
            if not self.lost and not self._sure():
                await self._renew()
        if not self._sure():
            raise LeaseLost(self.chat_id)

    async def stop(self) -> None:
        """The publication ended (its lock released, held or lost): no more renewals."""
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
