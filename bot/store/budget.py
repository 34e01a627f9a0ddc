"""Telegram's budget, shared by every process: token buckets in the store.

Telegram lets a bot send about 30 messages a second, and about 20 a minute to one group. Game
messages come first: the publisher spends from the group's and the bot's buckets when it releases
a publication (in the same round trip, see :meth:`bot.store.Store.pub_release`), and answers
that are no part of a game (help, refusals) may only spend while a reserve is left, and are
throttled per user: the first refusal or help a user gets in a while goes to the group, the
next ones go to him in private (or nowhere).

>>> b = MemoryBudget(clock=lambda: 100.0)
>>> import asyncio
>>> [asyncio.run(b.where(-100, 7, "refusal")) for _ in range(3)]
['group', 'private', 'private']
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

Where = Literal["group", "private", "nowhere"]

GROUP_RATE, GROUP_BURST = 20 / 60, 20.0
"""A group's bucket: about 20 messages a minute."""
BOT_RATE, BOT_BURST = 30.0, 30.0
"""The whole bot's bucket: about 30 messages a second."""
GROUP_RESERVE, BOT_RESERVE = 8.0, 10.0
"""Tokens kept for game messages: help and refusals may not spend below them."""
QUIET_SECONDS = 30
"""After a user's refusal or help in a group, his next ones in that group go to him privately
for this long."""


class Budget(Protocol):
    async def where(
        self, chat_id: int, user_id: int, kind: str, quiet: float = QUIET_SECONDS
    ) -> Where:
        """Where an answer that is no part of the game may go: the group (spending from its
        budget), or only the user in private (he was answered there less than ``quiet``
        seconds ago, or the budget is down to the game's reserve)."""
        ...


@dataclass
class Bucket:
    """One token bucket in memory (the same arithmetic as ``lua/bucket.lua``)."""

    rate: float
    burst: float
    level: float = math.nan
    at: float = math.nan

    def spend(self, now: float, debit: float) -> float:
        level = self.burst if math.isnan(self.level) else self.level
        at = now if math.isnan(self.at) else self.at
        self.level = min(self.burst, level + max(0.0, now - at) * self.rate) - debit
        self.at = now
        return self.level


@dataclass
class MemoryBudget:
    """The buckets in memory (one process: tests, or running without Redis)."""

    clock: Callable[[], float] = time.time
    groups: dict[int, Bucket] = field(default_factory=dict)
    bot: Bucket = field(default_factory=lambda: Bucket(BOT_RATE, BOT_BURST))
    quiet: dict[tuple[int, int, str], float] = field(default_factory=dict)

    def group(self, chat_id: int) -> Bucket:
        return self.groups.setdefault(chat_id, Bucket(GROUP_RATE, GROUP_BURST))

    def spend(self, chat_id: int, group_calls: int, all_calls: int) -> None:
        """The publisher's spending (what :meth:`bot.store.Store.pub_release` does in Redis)."""
        now = self.clock()
        self.group(chat_id).spend(now, group_calls)
        self.bot.spend(now, all_calls)

    async def where(
        self, chat_id: int, user_id: int, kind: str, quiet: float = QUIET_SECONDS
    ) -> Where:
        now = self.clock()
        key = (chat_id, user_id, kind)
        if self.quiet.get(key, -math.inf) > now:
            return "private"
        group, bot = self.group(chat_id), self.bot
        if group.spend(now, 0) < GROUP_RESERVE + 1 or bot.spend(now, 0) < BOT_RESERVE + 1:
            return "private"
        group.spend(now, 1)
        bot.spend(now, 1)
        self.quiet[key] = now + quiet
        return "group"
