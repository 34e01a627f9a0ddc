"""The store in process memory, with :class:`~bot.store.redis.RedisStore`'s semantics (tables
are lost on restart)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from bot.store.base import StoreBase
from bot.store.budget import Budget, MemoryBudget
from bot.store.rules import (
    DEDUPE_TTL,
    PREFS_TTL,
    PUBLISH_GRACE,
    PUBLISH_LEASE,
    PUBLISH_RETRY,
    TIMER_LEASE,
    ChatTaken,
    Held,
    Loaded,
    Outcome,
    Released,
    Sweep,
    positive_ttl,
    seen_before,
)

__all__ = ["MemoryStore"]


def _matches(entry: _Entry | None, version: int, doc: str | None) -> bool:
    """The in-memory twin of the scripts' check: same version and (if given) same document."""
    if entry is None:
        return version == 0
    return entry.version == version and (doc is None or entry.doc == doc)


@dataclass(slots=True)
class _Entry:
    version: int
    doc: str
    expires_at: float | None


@dataclass(slots=True)
class _MemoryData:
    tables: dict[int, _Entry] = field(default_factory=dict)
    timers: dict[int, float] = field(default_factory=dict)
    seen: dict[int, tuple[list[int], float]] = field(default_factory=dict)
    users: dict[int, tuple[set[int], float | None]] = field(default_factory=dict)
    prefs: dict[str, dict[str, str]] = field(default_factory=dict)
    prefs_until: dict[str, float] = field(default_factory=dict)
    last_first_version: int = 0
    publish: dict[int, float] = field(default_factory=dict)
    locks: dict[int, tuple[str, float]] = field(default_factory=dict)
    shown: dict[int, dict[str, str]] = field(default_factory=dict)
    budget: MemoryBudget = field(default_factory=MemoryBudget)
    procs: dict[str, float] = field(default_factory=dict)
    wakers: list[asyncio.Queue[int]] = field(default_factory=list)


class MemoryStore(StoreBase):
    """In-process store with :class:`RedisStore`'s semantics (tables are lost on restart).

    Each call yields to the event loop once, as a network round trip would, so concurrent
    handlers interleave as they do against Redis. ``clock`` (unix time) is for tests of expiry.
    """

    def __init__(
        self,
        *,
        dedupe_ttl: int = DEDUPE_TTL,
        clock: Callable[[], float] = time.time,
        _data: _MemoryData | None = None,
    ) -> None:
        super().__init__()
        self.dedupe_ttl = dedupe_ttl
        self._clock = clock
        self._data = _data if _data is not None else _MemoryData()
        self._data.budget.clock = clock

    def connect(self) -> MemoryStore:
        """Another store on the same data, with its own cache and counters (a second process).

        >>> a = MemoryStore(); b = a.connect()
        >>> import asyncio; v = asyncio.run(a.create(1, "{}"))
        >>> asyncio.run(b.load(1)) == (v, "{}")
        True
        """
        return MemoryStore(dedupe_ttl=self.dedupe_ttl, clock=self._clock, _data=self._data)

    async def _trip(self, op: str) -> None:
        self._count(op)
        await asyncio.sleep(0)

    async def _pause(self) -> None:
        # Every call yields once, like a network round trip, so tasks interleave as with Redis.
        await asyncio.sleep(0)

    def _live(self, chat_id: int) -> _Entry | None:
        entry = self._data.tables.get(chat_id)
        if entry is not None and entry.expires_at is not None and entry.expires_at <= self._clock():
            del self._data.tables[chat_id]
            return None
        return entry

    async def _load(self, chat_id: int) -> Loaded | None:
        await self._pause()
        entry = self._live(chat_id)
        return None if entry is None else Loaded(entry.version, entry.doc)

    async def _version(self, chat_id: int) -> int:
        await self._pause()
        entry = self._live(chat_id)
        return 0 if entry is None else entry.version

    async def _cas(
        self,
        chat_id: int,
        expected_version: int,
        doc: str | None,
        timer_at: float | None,
        ttl: int | None,
        update_id: int | None = None,
        users: tuple[int, ...] = (),
        lock: str | None = None,
        expected_doc: str | None = None,
        held: Held | None = None,
    ) -> Outcome:
        await self._pause()
        entry = self._live(chat_id)
        if not _matches(entry, expected_version, expected_doc):
            return Outcome(False, 0, None if entry is None else Loaded(entry.version, entry.doc))
        if update_id is not None and not self._mark_seen(chat_id, update_id):
            return Outcome(False, duplicate=True)
        if doc is None:
            del self._data.tables[chat_id]
            self._data.timers.pop(chat_id, None)
            self._data.publish.pop(chat_id, None)
            return Outcome(True, 0)
        self._data.publish.setdefault(chat_id, time.time() + PUBLISH_GRACE)
        if entry is None:
            version = max(int(self._clock() * 1_000_000), self._data.last_first_version + 1)
            self._data.last_first_version = version
        else:
            version = entry.version + 1
        expires_at = None if ttl is None else self._clock() + ttl
        self._data.tables[chat_id] = _Entry(version, doc, expires_at)
        if timer_at is None:
            self._data.timers.pop(chat_id, None)
        else:
            self._data.timers[chat_id] = float(timer_at)
        for user_id in users:
            self._link_user(user_id, chat_id, ttl)
        taken = self._data.locks.get(chat_id)
        if lock is None:
            return Outcome(True, version)
        if (
            held is not None
            and taken is not None
            and taken[0] == held.token
            and taken[1] > time.monotonic()
        ):  # this store's held publication ends here
            self._data.budget.spend(chat_id, *held.spent)
            self._data.shown[chat_id] = dict(held.shown)
            self._data.locks[chat_id] = (lock, time.monotonic() + self.publish_lease)
            self._data.publish[chat_id] = time.time() + PUBLISH_GRACE
            return Outcome(True, version, shown=dict(held.shown))
        if taken is None or taken[1] <= time.monotonic():
            self._data.locks[chat_id] = (lock, time.monotonic() + self.publish_lease)
            return Outcome(True, version, shown=dict(self._data.shown.get(chat_id, {})))
        return Outcome(True, version)

    async def _check(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        await self._pause()
        entry = self._live(chat_id)
        if _matches(entry, expected_version, expected_doc):
            return Outcome(True)
        return Outcome(False, 0, None if entry is None else Loaded(entry.version, entry.doc))

    async def first_time(self, update_id: int, chat_id: int) -> bool:
        await self._trip("first_time")
        return self._mark_seen(chat_id, update_id)

    async def _first_look(
        self, chat_id: int, update_id: int, version: int, doc: str | None
    ) -> tuple[bool, Outcome]:
        await self._pause()
        first = self._mark_seen(chat_id, update_id)
        entry = self._live(chat_id)
        if version >= 0 and _matches(entry, version, doc):
            return first, Outcome(True)
        return first, Outcome(False, 0, None if entry is None else Loaded(entry.version, entry.doc))

    def _mark_seen(self, chat_id: int, update_id: int) -> bool:
        """The chat's window of update ids (:func:`seen_before`): true only the first time."""
        now = self._clock()
        seen = self._data.seen
        if len(seen) > 10_000:
            for old in [k for k, (_, until) in seen.items() if until <= now]:
                del seen[old]
        window, until = seen.get(chat_id, ([], -math.inf))
        after = seen_before(window if until > now else [], update_id)
        if after is None:
            return False
        seen[chat_id] = (after, now + self.dedupe_ttl)
        return True

    def _due(self, now: float, limit: int) -> list[int]:
        due = sorted((at, chat) for chat, at in self._data.timers.items() if at <= now)
        return [chat for _, chat in due[:limit]]

    async def due_timers(self, now: float, limit: int = 100) -> list[int]:
        await self._trip("due_timers")
        return self._due(now, limit)

    async def claim_due(
        self, now: float, *, lease: float = TIMER_LEASE, limit: int = 100
    ) -> list[int]:
        await self._trip("claim_due")
        return self._claim_timers(now, lease, limit)

    def _claim_timers(self, now: float, lease: float, limit: int) -> list[int]:
        claimed = []
        for chat in self._due(now, limit):
            if self._live(chat) is None:
                del self._data.timers[chat]
            else:
                self._data.timers[chat] = now + lease
                claimed.append(chat)
        return claimed

    async def timer_of(self, chat_id: int) -> float | None:
        await self._trip("timer_of")
        return self._data.timers.get(chat_id)

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float = PUBLISH_LEASE
    ) -> dict[str, str] | None:
        await self._trip("pub_acquire")
        held = self._data.locks.get(chat_id)
        if held is not None and held[1] > time.monotonic():
            for queue in self._data.wakers:
                queue.put_nowait(chat_id)
            return None
        self._data.locks[chat_id] = (token, time.monotonic() + lease)
        self._leased(chat_id, lease)
        return dict(self._data.shown.get(chat_id, {}))

    async def pub_extend(self, chat_id: int, token: str, lease: float = PUBLISH_LEASE) -> bool:
        await self._trip("pub_extend")
        held = self._data.locks.get(chat_id)
        if held is None or held[0] != token or held[1] <= time.monotonic():
            self._leased(chat_id, None)
            return False
        self._data.locks[chat_id] = (token, time.monotonic() + lease)
        self._leased(chat_id, lease)
        return True

    async def pub_release(
        self,
        chat_id: int,
        token: str,
        version: int,
        shown: dict[str, str],
        *,
        retry_at: float | None = None,
        ttl: int | None = None,
        lease: float = PUBLISH_LEASE,
        spent: tuple[int, int] = (0, 0),
    ) -> Released:
        await self._trip("pub_release")
        self._data.budget.spend(chat_id, *spent)
        held = self._data.locks.get(chat_id)
        self._leased(chat_id, None)
        if held is None or held[0] != token or held[1] <= time.monotonic():
            return Released(False, lost=True)
        self._data.shown[chat_id] = dict(shown)
        if retry_at is not None:
            self._data.publish[chat_id] = retry_at
            del self._data.locks[chat_id]
            return Released(True)
        entry = self._live(chat_id)
        if entry is None or entry.version == version:
            self._data.publish.pop(chat_id, None)
            del self._data.locks[chat_id]
            return Released(True)
        self._data.locks[chat_id] = (token, time.monotonic() + lease)
        self._leased(chat_id, lease)
        self._remember(chat_id, Loaded(entry.version, entry.doc))
        return Released(False, version=entry.version, doc=entry.doc)

    async def wakeups(self) -> AsyncIterator[int]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._data.wakers.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._data.wakers.remove(queue)

    def budget(self) -> Budget:
        return self._data.budget

    async def claim_publish(
        self, now: float, *, lease: float = PUBLISH_RETRY, limit: int = 100
    ) -> list[int]:
        await self._trip("claim_publish")
        return self._claim_publish(now, lease, limit)

    def _claim_publish(self, now: float, lease: float, limit: int) -> list[int]:
        due = sorted((at, chat) for chat, at in self._data.publish.items() if at <= now)
        claimed = []
        for _, chat in due[:limit]:
            if self._live(chat) is None:
                del self._data.publish[chat]
            else:
                self._data.publish[chat] = now + lease
                claimed.append(chat)
        return claimed

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        await self._trip("claim_sweep")
        timers = self._claim_timers(now, TIMER_LEASE, limit)
        pubs = self._claim_publish(now, PUBLISH_RETRY, limit)
        if not process:
            return Sweep(timers, pubs)
        procs = self._data.procs
        procs[process] = now
        for old in [p for p, seen in procs.items() if seen < now - alive_for]:
            del procs[old]
        return Sweep(timers, pubs, len(procs))

    async def publish_due(self, chat_id: int) -> float | None:
        await self._trip("publish_due")
        return self._data.publish.get(chat_id)

    async def ttl_of(self, chat_id: int) -> float | None:
        await self._trip("ttl_of")
        entry = self._live(chat_id)
        if entry is None or entry.expires_at is None:
            return None
        return entry.expires_at - self._clock()

    def _user_set(self, user_id: int) -> set[int]:
        chats, expires_at = self._data.users.get(user_id, (set(), None))
        if expires_at is not None and expires_at <= self._clock():
            self._data.users.pop(user_id, None)
            return set()
        return chats

    async def add_user_table(self, user_id: int, chat_id: int, ttl: int | None = None) -> None:
        await self._trip("add_user_table")
        self._link_user(user_id, chat_id, ttl)

    def _link_user(self, user_id: int, chat_id: int, ttl: int | None) -> None:
        chats = self._user_set(user_id)
        chats.add(chat_id)
        old_expiry = self._data.users.get(user_id, (chats, None))[1]
        expires_at = old_expiry if ttl is None else self._clock() + positive_ttl(ttl)
        self._data.users[user_id] = (chats, expires_at)

    async def remove_user_table(self, user_id: int, chat_id: int) -> None:
        await self._trip("remove_user_table")
        chats = self._user_set(user_id)
        chats.discard(chat_id)
        if not chats:
            self._data.users.pop(user_id, None)

    async def user_tables(self, user_id: int) -> list[int]:
        await self._trip("user_tables")
        return sorted(self._user_set(user_id))

    async def get_prefs(self, scope: str) -> dict[str, str]:
        await self._trip("get_prefs")
        if self._data.prefs_until.get(scope, math.inf) <= self._clock():
            self._data.prefs.pop(scope, None)
            self._data.prefs_until.pop(scope, None)
        if scope in self._data.prefs:
            self._data.prefs_until[scope] = self._clock() + PREFS_TTL
        return dict(self._data.prefs.get(scope, {}))

    async def set_prefs(self, scope: str, values: dict[str, str]) -> None:
        if not values:
            return
        await self._trip("set_prefs")
        if self._data.prefs_until.get(scope, math.inf) <= self._clock():
            self._data.prefs.pop(scope, None)
        self._data.prefs.setdefault(scope, {}).update(values)
        self._data.prefs_until[scope] = self._clock() + PREFS_TTL

    async def aclose(self) -> None:
        return None

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
        await self._trip("move_table")
        return self._move(old_chat, new_chat, expected_version, doc, ttl, users)

    async def backlog(self, now: float) -> tuple[int, int]:
        await self._trip("backlog")
        return len(self._data.publish), sum(1 for at in self._data.timers.values() if at <= now)

    def _move(
        self,
        old_chat: int,
        new_chat: int,
        expected_version: int,
        doc: str,
        ttl: int | None,
        users: tuple[int, ...],
    ) -> int | None:
        data = self._data
        entry = self._live(old_chat)
        if entry is None or entry.version != expected_version:
            self._remember(old_chat, None if entry is None else Loaded(entry.version, entry.doc))
            return None
        if self._live(new_chat) is not None:
            raise ChatTaken(f"chat {new_chat} has a table already")
        version = max(int(self._clock() * 1_000_000), data.last_first_version + 1)
        data.last_first_version = version
        expires_at = None if ttl is None else self._clock() + positive_ttl(ttl)
        data.tables[new_chat] = _Entry(version, doc, expires_at)
        del data.tables[old_chat]
        data.locks.pop(old_chat, None)
        if old_chat in data.timers:
            data.timers[new_chat] = data.timers.pop(old_chat)
        data.publish.pop(old_chat, None)
        data.publish[new_chat] = time.time() + PUBLISH_GRACE
        if old_chat in data.shown:
            data.shown[new_chat] = data.shown.pop(old_chat)
        old_scope, new_scope = f"chat:{old_chat}", f"chat:{new_chat}"
        if old_scope in data.prefs and new_scope not in data.prefs:
            data.prefs[new_scope] = data.prefs.pop(old_scope)
            if old_scope in data.prefs_until:
                data.prefs_until[new_scope] = data.prefs_until.pop(old_scope)
        for user_id in users:
            self._user_set(user_id).discard(old_chat)
            self._link_user(user_id, new_chat, ttl)
        self._remember(old_chat, None)
        self._remember(new_chat, Loaded(version, doc))
        return version
