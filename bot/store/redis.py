"""The store on Redis (production: several bot processes can share one server).

Every method is one round trip: a command, a pipeline or one of the Lua scripts in ``lua/``
(:mod:`bot.store.scripts`), sent as EVALSHA (a server that does not know one yet gets it once
more in full, which is not counted); every key a script touches is passed to it. Key names are
in :mod:`bot.store.keys`. On a Redis Cluster (a ``RedisCluster`` client) the keys are
hash-tagged by bucket, and the few steps that cross buckets are in :mod:`bot.store.cluster`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster

from bot.store.base import StoreBase
from bot.store.budget import (
    BOT_BURST,
    BOT_RATE,
    BOT_RESERVE,
    GROUP_BURST,
    GROUP_RATE,
    GROUP_RESERVE,
    QUIET_SECONDS,
    Budget,
    Where,
)
from bot.store.cluster import (
    BUCKETS,
    BotBill,
    Client,
    cluster_client,
    cluster_move,
    cluster_where,
    database,
    primaries,
)
from bot.store.keys import Keys
from bot.store.rules import (
    DEDUPE_KEEP,
    DEDUPE_TTL,
    PREFS_TTL,
    ChatTaken,
    Loaded,
    Outcome,
    Released,
    Sweep,
    TableWrite,
    Timings,
    doc_digest,
    positive_ttl,
)
from bot.store.scripts import lua

__all__ = ["RedisBudget", "RedisStore"]


def _decode(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _outcome(reply: Any) -> Outcome:
    if int(reply[0]) == 2:
        return Outcome(False, duplicate=True)
    if int(reply[0]) == 1:
        shown = None
        if len(reply) > 2 and int(reply[2]) == 1:
            flat = [_decode(x) for x in reply[3:]]
            shown = dict(zip(flat[::2], flat[1::2], strict=True))
        return Outcome(True, int(reply[1]) if len(reply) > 1 else 0, shown=shown)
    version = int(reply[1])
    return Outcome(False, 0, Loaded(version, _decode(reply[2])) if version else None)


class RedisStore(StoreBase):
    """The store on a ``redis.asyncio.Redis`` client (with or without ``decode_responses``).

    Every key starts with ``prefix`` (:mod:`bot.store.keys`): use a different prefix per bot (or
    per test). Preferences expire :data:`~bot.store.rules.PREFS_TTL` after their last use.
    """

    def __init__(
        self,
        redis: Client,
        prefix: str = "tapete",
        *,
        buckets: int | None = None,
        dedupe_ttl: int = DEDUPE_TTL,
        owns_client: bool = False,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        timings: Timings | None = None,
    ) -> None:
        super().__init__(clock=clock, monotonic=monotonic, timings=timings)
        self.redis = redis
        self.prefix = prefix
        self.dedupe_ttl = dedupe_ttl
        self._owns_client = owns_client
        #: On a cluster, the buckets the tables are spread over (0: one Redis server).
        self.buckets = buckets if buckets is not None else BUCKETS if cluster_client(redis) else 0
        self.keys = Keys(prefix, self.buckets)
        self._wake = self.keys.wake(database(redis))
        #: On a cluster, the master of each bucket when last asked (:meth:`_servers_changed`).
        self._masters: tuple[str, ...] | None = None
        #: On a cluster, the bot's budget is spent beside the tables' scripts.
        self.bill = BotBill(redis, self.keys.bot_budget, self.clock)
        script = redis.register_script
        self._cas_script = script(lua("cas"))
        self._pub_acquire = script(lua("pub_acquire"))
        self._pub_release = script(lua("pub_release"))
        self._pub_extend = script(lua("pub_extend"))
        self._pub_release_many = script(lua("pub_release_many"))
        self._check_script = script(lua("check"))
        self._first_time = script(lua("first_time"))
        self._first_look_script = script(lua("first_look"))
        self._claim_sweep = script(lua("claim_sweep"))
        self._move = script(lua("move_table"))
        self._drop_timer = script(lua("drop_timer"))

    @classmethod
    def from_url(
        cls,
        url: str,
        prefix: str = "tapete",
        *,
        max_connections: int = 50,
        cluster: bool = False,
    ) -> RedisStore:
        """A store with its own client for ``url`` (with ``cluster``, any node of a Redis
        Cluster), closed by :meth:`aclose`.

        The pool blocks (up to 10 s) rather than failing when every connection is busy.
        """
        if cluster:
            client = RedisCluster.from_url(url, max_connections=max_connections)
            return cls(client, prefix, owns_client=True)
        pool = BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10)
        return cls(Redis.from_pool(pool), prefix, owns_client=True)

    @property
    def cluster(self) -> bool:
        """Whether the keys are spread over a cluster's slots (:mod:`bot.store.keys`)."""
        return self.buckets > 0

    def _servers_changed(self) -> bool:
        """On a cluster: whether a bucket's master is another node than when last asked (a
        replica took over), from the client's map of the slots (no round trip)."""
        if not isinstance(self.redis, RedisCluster):
            return False
        masters = primaries(self.redis, self.keys)
        if not masters:
            return False  # the client knows no slots yet, or none are served: ask again later
        before, self._masters = self._masters, masters
        return before is not None and before != masters

    def table_key(self, chat_id: int) -> str:
        return self.keys.table(chat_id)

    async def _load(self, chat_id: int) -> Loaded | None:
        version, doc = await self.redis.hmget(self.table_key(chat_id), ["v", "d"])
        if version is None or doc is None:
            return None
        return Loaded(int(version), _decode(doc))

    async def _heads(self, chats: list[int]) -> list[tuple[int, str | None] | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for chat in chats:
                pipe.hmget(self.table_key(chat), ["v", "h"])
            replies = await pipe.execute()
        return [
            None if version is None else (int(version), None if h is None else _decode(h))
            for version, h in replies
        ]

    async def _version(self, chat_id: int) -> int:
        version = await self.redis.hget(self.table_key(chat_id), "v")
        return 0 if version is None else int(version)

    async def _cas(self, write: TableWrite) -> Outcome:
        args = [
            str(write.expected_version),
            "delete" if write.doc is None else "save",
            write.doc or "",
            "" if write.timer_at is None else repr(float(write.timer_at)),
            "" if write.ttl is None else str(write.ttl),
            str(write.chat_id),
            "" if write.update_id is None else str(write.update_id),
            repr(self.clock() + self.timings.publish_grace),
            write.lock or "",
            str(int(self.publish_lease * 1000)),
            "" if write.expected_doc is None else doc_digest(write.expected_doc),
            "" if write.doc is None else doc_digest(write.doc),
            str(DEDUPE_KEEP),
            str(self.dedupe_ttl),
            "" if write.held is None else write.held.token,
            str(write.held.spent[0] if write.held else 0),
            str(write.held.spent[1] if write.held and not self.cluster else 0),
            repr(self.clock()),
        ]
        if write.held is not None:
            for key, value in write.held.shown.items():
                args += [key, value]
        keys = [
            self.table_key(write.chat_id),
            self.keys.timers_of(write.chat_id),
            self._seen_key(write.chat_id),
            self.keys.publish_of(write.chat_id),
            self.keys.lock(write.chat_id),
            self.keys.shown(write.chat_id),
            self.keys.group_budget(write.chat_id),
        ]
        if not self.cluster:
            keys.append(self.keys.bot_budget)
            if write.doc is not None:
                keys.extend(self._user_key(u) for u in write.users)
        reply = await self._cas_script(keys=keys, args=args)
        outcome = _outcome(reply)
        if self.cluster and outcome.ok and write.doc is not None and write.users:
            await self._add_users(write.chat_id, write.users, write.ttl)
        if write.held is not None and int(reply[0]) == 1 and len(reply) > 2 and int(reply[2]) == 2:
            if self.cluster:
                self.bill.owe(write.held.spent[1])
            return outcome._replace(shown=dict(write.held.shown))
        return outcome

    async def _add_users(self, chat_id: int, users: tuple[int, ...], ttl: int | None) -> None:
        """On a cluster: the users' table sets (each in a slot of its own), after the write."""
        self._count("add_users")
        async with self.redis.pipeline(transaction=False) as pipe:
            for user in users:
                pipe.sadd(self._user_key(user), str(chat_id))
                if ttl is not None:
                    pipe.expire(self._user_key(user), ttl)
            await pipe.execute()

    async def drop_timer(self, chat_id: int) -> bool:
        self._count("drop_timer")
        keys = [self.table_key(chat_id), self.keys.timers_of(chat_id)]
        return bool(int(await self._drop_timer(keys=keys, args=[str(chat_id)])))

    async def _check(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        digest = "" if expected_doc is None else doc_digest(expected_doc)
        reply = await self._check_script(
            keys=[self.table_key(chat_id)], args=[expected_version, digest]
        )
        return _outcome(reply)

    def _seen_key(self, chat_id: int) -> str:
        return self.keys.seen(chat_id)

    def _user_key(self, user_id: int) -> str:
        return self.keys.user(user_id)

    async def first_time(self, update_id: int, chat_id: int) -> bool:
        self._count("first_time")
        args = [str(update_id), str(DEDUPE_KEEP), str(self.dedupe_ttl)]
        return bool(await self._first_time(keys=[self._seen_key(chat_id)], args=args))

    async def _first_look(
        self, chat_id: int, update_id: int, version: int, doc: str | None
    ) -> tuple[bool, Outcome]:
        args = [
            str(update_id),
            str(DEDUPE_KEEP),
            str(self.dedupe_ttl),
            str(version),
            "" if doc is None else doc_digest(doc),
        ]
        keys = [self._seen_key(chat_id), self.table_key(chat_id)]
        reply = await self._first_look_script(keys=keys, args=args)
        return bool(int(reply[0])), _outcome(reply[1:])

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float | None = None
    ) -> dict[str, str] | None:
        lease = self.publish_lease if lease is None else lease
        self._count("pub_acquire")
        since = self.monotonic()
        keys = [self.keys.lock(chat_id), self.keys.shown(chat_id)]
        args: list[str | int] = [token, int(lease * 1000), str(chat_id), self._wake]
        reply = await self._pub_acquire(keys=keys, args=args)
        if int(reply[0]) != 1:
            return None
        self._leased(chat_id, lease, since)
        flat = [_decode(x) for x in reply[1:]]
        return dict(zip(flat[::2], flat[1::2], strict=True))

    async def pub_extend(self, chat_id: int, token: str, lease: float | None = None) -> bool:
        lease = self.publish_lease if lease is None else lease
        self._count("pub_extend")
        since = self.monotonic()
        keys = [self.keys.lock(chat_id)]
        kept = bool(int(await self._pub_extend(keys=keys, args=[token, int(lease * 1000)])))
        self._leased(chat_id, lease if kept else None, since)
        return kept

    async def wakeups(self) -> AsyncIterator[int]:
        """The chats published to ``{prefix}:wake:<db>`` (a connection of the pool kept for
        it)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self._wake)
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                if message is not None and message.get("type") == "message":
                    yield int(_decode(message["data"]))
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed since redis 8.2

    async def pub_release(
        self,
        chat_id: int,
        token: str,
        version: int,
        shown: dict[str, str],
        *,
        retry_at: float | None = None,
        ttl: int | None = None,
        lease: float | None = None,
        spent: tuple[int, int] = (0, 0),
    ) -> Released:
        lease = self.publish_lease if lease is None else lease
        self._count("pub_release")
        keys = [
            self.keys.lock(chat_id),
            self.keys.shown(chat_id),
            self.table_key(chat_id),
            self.keys.publish_of(chat_id),
            self.keys.group_budget(chat_id),
        ]
        if self.cluster:
            self.bill.owe(spent[1])
            spent = (spent[0], 0)
        else:
            keys.append(self.keys.bot_budget)
        args: list[Any] = [
            token,
            str(version),
            "" if retry_at is None else repr(float(retry_at)),
            str(chat_id),
            "" if ttl is None else str(positive_ttl(ttl)),
            int(lease * 1000),
            repr(self.clock()),
            spent[0],
            spent[1],
        ]
        for key, value in shown.items():
            args += [key, value]
        since = self.monotonic()
        reply = [_decode(x) for x in await self._pub_release(keys=keys, args=args)]
        return self._released(chat_id, reply[0], reply[1:], lease, since)

    def _released(
        self, chat_id: int, status: str, rest: list[str], lease: float, since: float
    ) -> Released:
        if status == "more":
            self._leased(chat_id, lease, since)
            self._remember(chat_id, Loaded(int(rest[0]), rest[1]))
            return Released(False, version=int(rest[0]), doc=rest[1])
        self._leased(chat_id, None)
        return Released(status in ("done", "retry"), lost=status == "lost")

    async def _release_many(
        self,
        items: list[tuple[int, str, int, dict[str, str], tuple[int, int]]],
        *,
        ttl: int | None,
    ) -> list[Released]:
        self._count("pub_release")
        since = self.monotonic()
        by_bucket: dict[int, list[int]] = {}
        for i, (chat, *_) in enumerate(items):
            by_bucket.setdefault(self.keys.bucket(chat), []).append(i)
        replies = await asyncio.gather(
            *(self._release_bucket(b, [items[i] for i in at], ttl) for b, at in by_bucket.items())
        )
        found: dict[int, Released] = {}
        for at, reply in zip(by_bucket.values(), replies, strict=True):
            for n, i in enumerate(at):
                chat = items[i][0]
                rest = reply[3 * n + 1 : 3 * n + 3]
                found[i] = self._released(chat, reply[3 * n], rest, self.publish_lease, since)
        return [found[i] for i in range(len(items))]

    async def _release_bucket(
        self,
        bucket: int,
        items: list[tuple[int, str, int, dict[str, str], tuple[int, int]]],
        ttl: int | None,
    ) -> list[str]:
        """pub_release_many.lua for the tables of one bucket."""
        keys = [self.keys.publish_in(bucket)]
        args: list[Any] = [
            repr(self.clock()),
            int(self.publish_lease * 1000),
            "" if ttl is None else str(positive_ttl(ttl)),
        ]
        for chat, token, version, shown, spent in items:
            keys += [
                self.keys.lock(chat),
                self.keys.shown(chat),
                self.table_key(chat),
                self.keys.group_budget(chat),
            ]
            if self.cluster:
                self.bill.owe(spent[1])
                spent = (spent[0], 0)
            args += [token, str(version), str(chat), spent[0], spent[1], 2 * len(shown)]
            for key, value in shown.items():
                args += [key, value]
        if not self.cluster:
            keys.append(self.keys.bot_budget)
        return [_decode(x) for x in await self._pub_release_many(keys=keys, args=args)]

    def budget(self) -> Budget:
        return RedisBudget(self.redis, self.prefix, self.clock, buckets=self.buckets)

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        self._count("claim_sweep")
        buckets = self.keys.sweep_buckets()
        share = math.ceil(limit / len(buckets))  # each bucket's share of the batch
        replies = await asyncio.gather(
            *(self._claim_bucket(b, now, share, process, alive_for) for b in buckets)
        )
        timers = [int(_decode(m)) for reply in replies for m in reply[0]]
        pubs = [int(_decode(m)) for reply in replies for m in reply[1]]
        return Sweep(timers, pubs, int(replies[0][2]))

    async def _claim_bucket(
        self, bucket: int, now: float, limit: int, process: str, alive_for: float
    ) -> Any:
        """claim_sweep.lua on one bucket (the processes are counted in bucket 0's)."""
        counted = process if bucket == 0 else ""
        args = [
            repr(float(now)),
            repr(float(now + self.timings.timer_lease)),
            repr(float(now + self.timings.publish_retry)),
            str(limit),
            counted,
            repr(float(alive_for)),
        ]
        keys = [self.keys.timers_in(bucket), self.keys.publish_in(bucket)]
        if counted:
            keys.append(self.keys.procs)
        return await self._claim_sweep(keys=keys, args=args)

    async def remove_user_table(self, user_id: int, chat_id: int) -> None:
        self._count("remove_user_table")
        await self.redis.srem(self.keys.user(user_id), str(chat_id))

    async def user_tables(self, user_id: int) -> list[int]:
        self._count("user_tables")
        members = await self.redis.smembers(self.keys.user(user_id))
        return sorted(int(_decode(m)) for m in members)

    async def get_prefs(self, scope: str) -> dict[str, str]:
        self._count("get_prefs")
        key = self.keys.prefs(scope)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(key)
            pipe.expire(key, PREFS_TTL)
            raw, _ = await pipe.execute()
        return {_decode(k): _decode(v) for k, v in raw.items()}

    async def set_prefs(self, scope: str, values: dict[str, str]) -> None:
        if not values:
            return
        self._count("set_prefs")
        mapping: dict[Any, Any] = dict(values)
        key = self.keys.prefs(scope)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, PREFS_TTL)
            await pipe.execute()

    async def aclose(self) -> None:
        await self.bill.settle()
        if self._owns_client:
            await self.redis.aclose()

    async def backlog(self, now: float) -> tuple[int, int]:
        self._count("backlog")
        async with self.redis.pipeline(transaction=False) as pipe:
            for bucket in self.keys.sweep_buckets():
                pipe.zcard(self.keys.publish_in(bucket))
                pipe.zcount(self.keys.timers_in(bucket), "-inf", repr(float(now)))
            counts = await pipe.execute()
        return sum(int(n) for n in counts[::2]), sum(int(n) for n in counts[1::2])

    async def move_table(
        self,
        old_chat: int,
        new_chat: int,
        expected_version: int,
        doc: str,
        *,
        ttl: int | None = None,
        users: tuple[int, ...] = (),
    ) -> int | None:
        self._count("move_table")
        if self.cluster:
            return await cluster_move(self, old_chat, new_chat, expected_version, doc, ttl, users)
        keys = [
            self.table_key(old_chat),
            self.table_key(new_chat),
            self.keys.timers,
            self.keys.publish,
            self.keys.shown(old_chat),
            self.keys.shown(new_chat),
            self.keys.prefs(f"chat:{old_chat}"),
            self.keys.prefs(f"chat:{new_chat}"),
            self.keys.lock(old_chat),
            *(self._user_key(u) for u in users),
        ]
        args = [
            str(expected_version),
            doc,
            "" if ttl is None else str(positive_ttl(ttl)),
            str(old_chat),
            str(new_chat),
            repr(self.clock() + self.timings.publish_grace),
            doc_digest(doc),
        ]
        reply = await self._move(keys=keys, args=args)
        if int(reply[0]) == 3:
            raise ChatTaken(f"chat {new_chat} has a table already")
        outcome = _outcome(reply)
        if not outcome.ok:
            self._remember(old_chat, outcome.current)
            return None
        self._remember(old_chat, None)
        self._remember(new_chat, Loaded(outcome.version, doc))
        return outcome.version


class RedisBudget:
    """The buckets in Redis, one round trip per question (on a cluster three)."""

    def __init__(
        self,
        redis: Client,
        prefix: str = "tapete",
        clock: Callable[[], float] = time.time,
        *,
        buckets: int = 0,
    ) -> None:
        self.redis = redis
        self.keys = Keys(prefix, buckets)
        self.clock = clock
        self._where = redis.register_script(lua("where"))
        self.spend = redis.register_script(lua("spend"))
        self.where_group = redis.register_script(lua("where_group"))

    async def where(
        self, chat_id: int, user_id: int, kind: str, quiet: float = QUIET_SECONDS
    ) -> Where:
        if self.keys.cluster:
            return await cluster_where(self, chat_id, user_id, kind, quiet)
        keys = [
            self.keys.group_budget(chat_id),
            self.keys.bot_budget,
            self.keys.quiet(chat_id, user_id, kind),
        ]
        args = [self.clock(), GROUP_RATE, GROUP_BURST, BOT_RATE, BOT_BURST]
        args += [GROUP_RESERVE, BOT_RESERVE, max(0, math.ceil(quiet))]
        found = await self._where(keys=keys, args=args)
        text = found.decode() if isinstance(found, bytes) else str(found)
        return "group" if text == "group" else "private"
