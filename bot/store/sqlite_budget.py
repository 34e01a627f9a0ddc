"""Telegram's budget in the SQLite file: the buckets and the users answered lately, shared by
every process on the file (the arithmetic of ``lua/bucket.lua`` and ``lua/where.lua``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.store.budget import (
    BOT_BURST,
    BOT_RATE,
    BOT_RESERVE,
    GROUP_BURST,
    GROUP_RATE,
    GROUP_RESERVE,
    QUIET_SECONDS,
    Bucket,
    Where,
)

__all__ = ["SQLiteBudget", "spend", "spend_calls"]

T = TypeVar("T")

Run = Callable[[Callable[[sqlite3.Connection], T]], Awaitable[T]]

_BOT = "bot"


def _group(chat_id: int) -> str:
    return f"chat:{chat_id}"


def spend(
    db: sqlite3.Connection, key: str, rate: float, burst: float, debit: float, now: float
) -> float:
    """Refill the bucket ``key`` by the time elapsed and take ``debit``: its level after."""
    row = db.execute("SELECT level, at FROM buckets WHERE k = ?", (key,)).fetchone()
    bucket = Bucket(rate, burst) if row is None else Bucket(rate, burst, row[0], row[1])
    level = bucket.spend(now, debit)
    db.execute("INSERT OR REPLACE INTO buckets (k, level, at) VALUES (?, ?, ?)", (key, level, now))
    return level


def spend_calls(db: sqlite3.Connection, chat_id: int, spent: tuple[int, int], now: float) -> None:
    """A publication's Bot API calls (to the group, in all) taken from the buckets."""
    if spent[0] > 0:
        spend(db, _group(chat_id), GROUP_RATE, GROUP_BURST, spent[0], now)
    if spent[1] > 0:
        spend(db, _BOT, BOT_RATE, BOT_BURST, spent[1], now)


class SQLiteBudget:
    """The buckets in the store's file; ``run`` runs a function in one write transaction."""

    def __init__(self, run: Run[Where], clock: Callable[[], float]) -> None:
        self._run = run
        self._clock = clock

    async def where(
        self, chat_id: int, user_id: int, kind: str, quiet: float = QUIET_SECONDS
    ) -> Where:
        def fn(db: sqlite3.Connection) -> Where:
            now = self._clock()
            key = f"{chat_id}:{user_id}:{kind}"
            row = db.execute("SELECT until FROM quiet WHERE k = ?", (key,)).fetchone()
            if row is not None and row[0] > now:
                return "private"
            group = spend(db, _group(chat_id), GROUP_RATE, GROUP_BURST, 0, now)
            bot = spend(db, _BOT, BOT_RATE, BOT_BURST, 0, now)
            if group < GROUP_RESERVE + 1 or bot < BOT_RESERVE + 1:
                return "private"
            spend(db, _group(chat_id), GROUP_RATE, GROUP_BURST, 1, now)
            spend(db, _BOT, BOT_RATE, BOT_BURST, 1, now)
            if quiet > 0:
                db.execute(
                    "INSERT OR REPLACE INTO quiet (k, until) VALUES (?, ?)", (key, now + quiet)
                )
            return "group"

        return await self._run(fn)
