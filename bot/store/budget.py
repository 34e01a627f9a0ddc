"""Telegram's budget, shared by every process: token buckets in the store.

Telegram lets a bot send about 30 messages a second, and about 20 a minute to one group. Game
messages come first: the publisher spends from the group's and the bot's buckets when it releases
a publication (in the same round trip, see :meth:`bot.store.Store.pub_release`), and answers
that are no part of a game (help, refusals) may only spend while a reserve is left, and are
throttled per user: the first refusal or help a user gets in a while goes to the group, the
next ones go to him in private (or nowhere).

A group's bucket holds 20 calls and refills one every 3 seconds:

>>> b = Bucket(GROUP_RATE, GROUP_BURST)
>>> b.spend(100.0, 12), b.spend(103.0, 0), b.spend(200.0, 0)
(8.0, 9.0, 20.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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
