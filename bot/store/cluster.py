"""The Redis store on a Redis Cluster: what crosses the buckets of :mod:`bot.store.keys`.

A script runs on one hash slot, so on a cluster (a ``RedisCluster`` client) the store's
scripts touch only a table's bucket, and three things go beside them:

- **The bot's budget** (one small key): a release's calls are added to :class:`BotBill`, which
  spends them from the bot's bucket in a request of its own, sent while the bot goes on (several
  releases meanwhile are one spend). A question to the budget (:func:`cluster_where`) reads the
  bot's bucket first, then asks the group's, then spends from the bot's: three round trips, only
  for answers that are no part of a game.
- **The users' table sets**: added after the table's write, in one pipeline (only writes that
  seat someone pass users).
- **Moving a table** to a new chat (a group that became a supergroup): the new table is
  created, then the old one deleted if it did not move meanwhile (else the new one is deleted
  again), then what it showed, its preferences and its users follow. Not one atomic step: a
  process that dies in between leaves both tables (the old one is refused by Telegram from
  then on and expires).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import RedisError, SlotNotCoveredError

from bot.store.budget import BOT_RESERVE, GROUP_BURST, GROUP_RATE, GROUP_RESERVE, Where
from bot.store.keys import Keys
from bot.store.rules import PREFS_TTL, ChatTaken, Loaded, Outcome, TableWrite
from bot.store.scripts import lua

__all__ = [
    "BUCKETS",
    "BotBill",
    "Client",
    "cluster_client",
    "cluster_move",
    "cluster_where",
    "database",
    "primaries",
]

log = logging.getLogger("bot.store")

BUCKETS = 16
"""The buckets the tables are spread over on a cluster (each a hash tag; every process sweeps
them all)."""

Client = Redis | RedisCluster
"""A client of one Redis server or of a Redis Cluster."""


def cluster_client(redis: Client) -> bool:
    return isinstance(redis, RedisCluster)


def database(redis: Client) -> int:
    """The client's database number (a cluster has only 0)."""
    if isinstance(redis, RedisCluster):
        return 0
    return int(redis.connection_pool.connection_kwargs.get("db", 0))


def primaries(redis: RedisCluster, keys: Keys) -> tuple[str, ...]:
    """The node that serves each bucket, as the client's map of the slots has it (no round
    trip; empty while it knows none, or a slot has no master)."""
    names = []
    for bucket in keys.sweep_buckets():
        try:
            node = redis.get_node_from_key(keys.timers_in(bucket))
        except SlotNotCoveredError:  # no map yet (it is made at the first command)
            return ()
        if node is None:
            return ()
        names.append(node.name)
    return tuple(names)


class _Store(Protocol):
    """What :func:`cluster_move` uses of :class:`~bot.store.redis.RedisStore`."""

    keys: Keys
    redis: Client

    async def _cas(self, write: TableWrite) -> Outcome: ...

    async def _load(self, chat_id: int) -> Loaded | None: ...

    def _remember(self, chat_id: int, table: Loaded | None) -> None: ...


class _Budget(Protocol):
    """What :func:`cluster_where` uses of :class:`~bot.store.redis.RedisBudget`."""

    keys: Keys
    clock: Callable[[], float]
    spend: AsyncScript
    where_group: AsyncScript


class BotBill:
    """The calls still to spend from the bot's bucket (on a cluster), spent in the background."""

    def __init__(self, redis: Client, key: str, clock: Callable[[], float]) -> None:
        self.key = key
        self.clock = clock
        #: Spends sent (beside the round trips: nothing waits for them).
        self.sent = 0
        self.owed = 0
        self._spend = redis.register_script(lua("spend"))
        self._task: asyncio.Task[None] | None = None

    def owe(self, calls: int) -> None:
        if calls <= 0:
            return
        self.owed += calls
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._pay(), name="tapete:bill")

    async def _pay(self) -> None:
        while self.owed:
            owed, self.owed = self.owed, 0
            self.sent += 1
            try:
                await self._spend(keys=[self.key], args=[repr(self.clock()), owed])
            except RedisError as exc:  # the budget is a guide: a lost spend is only a lost count
                log.warning("the bot's budget was not spent: %s", type(exc).__name__)
                return

    async def settle(self) -> None:
        """Wait for what is being spent."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)


async def cluster_where(
    budget: _Budget, chat_id: int, user_id: int, kind: str, quiet: float
) -> Where:
    """:meth:`RedisBudget.where` on a cluster (see the module's docstring)."""
    keys, now = budget.keys, budget.clock()
    level = float(await budget.spend(keys=[keys.bot_budget], args=[repr(now), 0]))
    quiet_for = max(0, math.ceil(quiet))
    args = [now, GROUP_RATE, GROUP_BURST, GROUP_RESERVE, quiet_for, int(level >= BOT_RESERVE + 1)]
    found = await budget.where_group(
        keys=[keys.group_budget(chat_id), keys.quiet(chat_id, user_id, kind)], args=args
    )
    if (found.decode() if isinstance(found, bytes) else str(found)) != "group":
        return "private"
    await budget.spend(keys=[keys.bot_budget], args=[repr(now), 1])
    return "group"


async def cluster_move(
    store: _Store,
    old_chat: int,
    new_chat: int,
    expected_version: int,
    doc: str,
    ttl: int | None,
    users: tuple[int, ...],
) -> int | None:
    """:meth:`RedisStore.move_table` on a cluster (see the module's docstring)."""
    keys, redis = store.keys, store.redis
    old_prefs, new_prefs = keys.prefs(f"chat:{old_chat}"), keys.prefs(f"chat:{new_chat}")
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hget(keys.table(old_chat), "v")
        pipe.zscore(keys.timers_of(old_chat), str(old_chat))
        pipe.hgetall(keys.shown(old_chat))
        pipe.hgetall(old_prefs)
        pipe.exists(new_prefs)
        version, due, shown, prefs, has_prefs = await pipe.execute()
    if version is None or int(version) != expected_version:
        store._remember(old_chat, await store._load(old_chat))
        return None
    timer_at = None if due is None else float(due)
    created = await store._cas(TableWrite(new_chat, 0, doc, timer_at, ttl, users=users))
    if not created.ok:
        raise ChatTaken(f"chat {new_chat} has a table already")
    gone = await store._cas(TableWrite(old_chat, expected_version, None))
    if not gone.ok:
        await store._cas(TableWrite(new_chat, created.version, None))
        store._remember(old_chat, gone.current)
        return None
    async with redis.pipeline(transaction=False) as pipe:
        if shown:
            pipe.hset(keys.shown(new_chat), mapping=dict[Any, Any](shown))
            if ttl is not None:
                pipe.expire(keys.shown(new_chat), ttl)
        pipe.delete(keys.shown(old_chat))
        pipe.delete(keys.lock(old_chat))
        if prefs and not has_prefs:
            pipe.hset(new_prefs, mapping=dict[Any, Any](prefs))
            pipe.expire(new_prefs, PREFS_TTL)
            pipe.delete(old_prefs)
        for user in users:
            pipe.srem(keys.user(user), str(old_chat))
        await pipe.execute()
    store._remember(old_chat, None)
    store._remember(new_chat, Loaded(created.version, doc))
    return created.version
