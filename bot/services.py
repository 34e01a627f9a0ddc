"""What every part of a bot process shares: its settings, its store, its clocks and what it
knows of Telegram and its users.

One :class:`Services` per process (kept in the Application's ``bot_data``): the handlers, the
publisher, the timers and the status server all read it; it knows none of them. The publisher's
own runtime state is not here: it is the :class:`bot.publisher.Publisher`'s.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.botapi import Outage, TelegramClock
from bot.records.store import Records
from bot.settings import Settings
from bot.store import Store
from bot.store.budget import Budget

REACHABLE_FOR = 3600.0
"""Seconds a user stays known to be reachable in private after the last proof of it."""


@dataclass
class Services:
    """Shared by every handler (kept in ``application.bot_data``)."""

    settings: Settings
    store: Store
    clock: Callable[[], float] = time.time
    """The wall clock (unix time): turn deadlines, the publisher's retry times."""
    monotonic: Callable[[], float] = time.monotonic
    """The steady clock of holds, contention and warnings (:mod:`bot.publisher`)."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """The publisher's pauses (flood waits, retries, the releaser): tests pass their own."""
    records: Records | None = None
    """Game records (:mod:`bot.records`): opened beside ``store`` on first use."""
    #: Update ids this process knows it is handling first (bounded; see :func:`first_delivery`).
    owned: OrderedDict[int, None] = field(default_factory=OrderedDict)
    budget: Budget = field(init=False)
    outage: Outage = field(init=False)
    """Whether Telegram answers (its log lines: one when it stops, one when it is back)."""
    telegram_clock: TelegramClock = field(default_factory=TelegramClock)
    """How far this process's clock may be ahead of Telegram's (the dates of typed commands)."""
    #: This process's id among those sweeping the store, and how many swept lately.
    process: str = field(default_factory=lambda: secrets.token_hex(6))
    processes: int = 0
    #: Timer sweeps of this process firing timers or publishing what they claimed now.
    sweeping: int = 0
    #: Users this process knows it could write to in private lately (:attr:`monotonic` of
    #: the last proof: a private message from them, or one sent to them).
    reachable: OrderedDict[int, float] = field(default_factory=OrderedDict)
    #: Whether the Bot API server knows ephemeral messages (``None``: not asked yet; see
    #: :func:`bot.handlers.mine.usable`).
    ephemeral_ok: bool | None = None

    def __post_init__(self) -> None:
        self.budget = self.store.budget()
        self.outage = Outage(clock=self.monotonic)

    def own(self, update_id: int) -> None:
        self.owned[update_id] = None
        self.owned.move_to_end(update_id)
        if len(self.owned) > 1024:
            self.owned.popitem(last=False)

    def reached(self, user_id: int, ok: bool = True) -> None:
        """The bot could (or, ``ok=False``, could not) write to ``user_id`` in private now."""
        if not ok:
            self.reachable.pop(user_id, None)
            return
        self.reachable[user_id] = self.monotonic()
        self.reachable.move_to_end(user_id)
        if len(self.reachable) > 4096:
            self.reachable.popitem(last=False)

    def known_reachable(self, user_id: int) -> bool:
        """The bot wrote to ``user_id`` in private, or he wrote to it, in the last
        :data:`REACHABLE_FOR` seconds (a check with Telegram is then not needed)."""
        seen = self.reachable.get(user_id)
        return seen is not None and self.monotonic() - seen < REACHABLE_FOR
