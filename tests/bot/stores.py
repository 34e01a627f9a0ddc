"""Stores for tests, and what only tests ask of them.

The bot has no in-process store: a test's store is SQLite on a temporary file
(:func:`sqlite_store`), fakeredis or the real Redis. :func:`connect` gives a second store on the
same data (another process: its own cache, counters and connection). The questions only tests
ask (a table's timer, its publication's due time, its time to live, the due timers, a claim with
another lease, a user linked without a write) are answered here from each back-end's data, so the
back-ends implement only what the bot uses.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.store import TIMER_LEASE, RedisStore, SQLiteStore, Store
from bot.store.rules import positive_ttl
from bot.store.scripts import lua

_CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
local claimed = claim(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]))
local out = {}
for i, member in ipairs(claimed) do out[#out + 1] = {member, due[2 * i]} end
return out
"""
"""The claim of one sorted set (``lua/claim.lua``), as the sweep's script makes it, with the
due times the members had (to merge the buckets of a cluster by due time)."""

_ROOT = tempfile.TemporaryDirectory(prefix="tapete-tests-")
"""Every test store's file is under here (removed when the test process ends)."""


def sqlite_store(clock: Callable[[], float] = time.time, **kwargs: Any) -> SQLiteStore:
    """A store in a new SQLite file of its own."""
    path = Path(tempfile.mkdtemp(dir=_ROOT.name)) / "tapete.sqlite3"
    return SQLiteStore(path, clock=clock, **kwargs)


def connect(store: Store) -> Store:
    """Another store on the same data as ``store`` (a second process)."""
    if isinstance(store, SQLiteStore):
        return SQLiteStore(
            store.path, dedupe_ttl=store.dedupe_ttl, clock=store.clock, monotonic=store.monotonic
        )
    assert isinstance(store, RedisStore), store
    return RedisStore(
        store.redis,
        store.prefix,
        dedupe_ttl=store.dedupe_ttl,
        clock=store.clock,
        monotonic=store.monotonic,
    )


async def _score(store: Store, table: str, chat_id: int) -> float | None:
    if isinstance(store, RedisStore):
        key = store.keys.timers_of(chat_id) if table == "timers" else store.keys.publish_of(chat_id)
        score = await store.redis.zscore(key, str(chat_id))
        return None if score is None else float(score)
    assert isinstance(store, SQLiteStore), store

    def read(db: Any) -> float | None:
        row = db.execute(f"SELECT due FROM {table} WHERE chat = ?", (chat_id,)).fetchone()
        return None if row is None else float(row[0])

    return await store._run(None, False, read)


async def timer_of(store: Store, chat_id: int) -> float | None:
    """The due time of the table's pending timer (or lease), if any."""
    return await _score(store, "timers", chat_id)


async def publish_due(store: Store, chat_id: int) -> float | None:
    """When the table's publication is due (``None``: nothing left to publish)."""
    return await _score(store, "publish", chat_id)


async def ttl_of(store: Store, chat_id: int) -> float | None:
    """Seconds the table has left to live; ``None`` if it does not expire or is absent."""
    if isinstance(store, RedisStore):
        ms = await store.redis.pttl(store.keys.table(chat_id))
        return None if ms < 0 else ms / 1000
    assert isinstance(store, SQLiteStore), store

    def read(db: Any) -> float | None:
        row = db.execute("SELECT expires FROM tables WHERE chat = ?", (chat_id,)).fetchone()
        now = store.clock()
        return None if row is None or row[0] is None or row[0] <= now else float(row[0]) - now

    return await store._run(None, False, read)


async def due_timers(store: Store, now: float, limit: int = 100) -> list[int]:
    """Chats whose timer is due at ``now``, soonest first (read only)."""
    if isinstance(store, RedisStore):
        found: list[tuple[float, int]] = []
        for bucket in store.keys.sweep_buckets():
            key = store.keys.timers_in(bucket)
            members = await store.redis.zrangebyscore(
                key, "-inf", repr(now), 0, limit, withscores=True
            )
            found += [(float(score), int(m)) for m, score in members]
        return [chat for _, chat in sorted(found)[:limit]]
    assert isinstance(store, SQLiteStore), store

    def read(db: Any) -> list[int]:
        rows = db.execute(
            "SELECT chat FROM timers WHERE due <= ? ORDER BY due, chat LIMIT ?", (now, limit)
        )
        return [int(r[0]) for r in rows]

    return await store._run(None, False, read)


async def claim_due(
    store: Store, now: float, *, lease: float = TIMER_LEASE, limit: int = 100
) -> list[int]:
    """The turn timers a sweep claims at ``now``, leased for ``lease`` seconds (the bot's sweep,
    :meth:`~bot.store.Store.claim_sweep`, claims them with :data:`TIMER_LEASE`)."""
    if isinstance(store, RedisStore):
        claim = store.redis.register_script(lua("claim") + _CLAIM_DUE)
        args = [repr(float(now)), repr(float(now + lease)), str(limit)]
        claimed: list[tuple[float, int]] = []
        for bucket in store.keys.sweep_buckets():
            key = store.keys.timers_in(bucket)
            claimed += [(float(d), int(m)) for m, d in await claim(keys=[key], args=args)]
        return [chat for _, chat in sorted(claimed)]
    assert isinstance(store, SQLiteStore), store
    return await store._run(
        None, True, lambda db: store._claim(db, "timers", now, now + lease, limit)
    )


def same_bucket(store: Store, n: int) -> list[int]:
    """``n`` chat ids (from 1 on) whose tables share a bucket (on a cluster: a hash slot)."""
    if not isinstance(store, RedisStore):
        return list(range(1, n + 1))
    return [c for c in range(1, 100 * n) if store.keys.bucket(c) == store.keys.bucket(1)][:n]


async def add_user_table(store: Store, user_id: int, chat_id: int, ttl: int | None = None) -> None:
    """Link ``user_id`` to the table of ``chat_id`` without a write of the table (the bot links
    users in the table's own writes, :class:`~bot.store.Write` ``users``)."""
    if isinstance(store, RedisStore):
        key = store.keys.user(user_id)
        await store.redis.sadd(key, str(chat_id))
        if ttl is not None:
            await store.redis.expire(key, positive_ttl(ttl))
        return
    assert isinstance(store, SQLiteStore), store
    await store._run(None, True, lambda db: store._link_user(db, user_id, chat_id, ttl))


async def lapse_lock(store: Store, chat_id: int) -> None:
    """The table's publishing lock runs out now (as its lease would, without waiting for it)."""
    if isinstance(store, RedisStore):
        await store.redis.delete(store.keys.lock(chat_id))
        return
    assert isinstance(store, SQLiteStore), store
    await store.run(
        lambda db: db.execute("UPDATE locks SET until = 0 WHERE chat = ?", (chat_id,)), write=True
    )
