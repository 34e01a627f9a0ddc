"""What every back-end shares: round-trip counting, the cache of last-seen tables, the
compare-and-set retry loop of ``update_table``, and the publications held by this process."""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import TypeVar, cast

from bot.store.protocol import Store
from bot.store.rules import (
    DuplicateUpdate,
    Held,
    Loaded,
    Outcome,
    Released,
    TableConflict,
    TableWrite,
    Timings,
    UpdateFn,
    Write,
    doc_digest,
    older_than,
    positive_ttl,
)

__all__ = ["StoreBase"]

T = TypeVar("T")


LOOK_LIMIT = 200
"""Tables :meth:`StoreBase.look_behind` looks at, at most (those seen last)."""
BEHIND_KEEP = 4
"""Copies of a table found behind kept at most (several rollbacks before its publication)."""


class StoreBase(Store):
    """Round-trip counting, the cache of last-seen tables and ``update_table`` for both stores.

    Implementations provide ``_load``, ``_cas``, ``_check`` and ``_version`` (one round trip
    each). A refused ``_cas`` or ``_check`` returns the current table with the refusal, so a
    stale cached copy costs no extra load.
    """

    #: How many tables' last-seen versions a store remembers.
    CACHE_SIZE = 4096

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        timings: Timings | None = None,
    ) -> None:
        #: The timing constants this store writes with (leases, grace, retry).
        self.timings = Timings() if timings is None else timings
        #: Unix time as this store reads it (publications due, the budget's refills and, where
        #: the back-end keeps them, expiries and locks): tests drive it.
        self.clock = clock
        #: This process's own steady clock, for how long the locks it took surely stay its own.
        self.monotonic = monotonic
        #: Compare-and-set writes (or checks) refused because the table had moved (metrics).
        self.conflicts = 0
        self.round_trips = 0
        #: Round trips by operation name, for benchmarks.
        self.ops: Counter[str] = Counter()
        self._known: OrderedDict[int, Loaded | None] = OrderedDict()
        self._acquired: dict[int, tuple[str, dict[str, str]]] = {}
        #: Until when (:attr:`monotonic`) each publishing lock this store took is its own.
        self._leases: dict[int, float] = {}
        #: Publications whose release waits (see "Publishing"), by chat.
        self._held: dict[int, Held] = {}
        #: Tables found behind a copy this store saw (a rollback, see "Versions"), by chat:
        #: the newer copies it saw (what Telegram may show), oldest first.
        self._behind: dict[int, list[Loaded]] = {}
        #: When (:attr:`monotonic`) :meth:`look_behind` may ask (a new store has seen nothing).
        self._next_look = self.monotonic() + self.timings.look_behind
        #: Whether the next :meth:`look_behind` looks at once at every table seen (an outage,
        #: a failover: see :meth:`look_all_soon`).
        self._look_all = False

    @property
    def publish_lease(self) -> float:
        """Seconds a publishing lock taken by a write lasts."""
        return self.timings.publish_lease

    def take_acquired(self, chat_id: int) -> tuple[str, dict[str, str]] | None:
        """The publishing lock a write of this store took for the table (token, shown hashes),
        once; ``None`` if none did."""
        return self._acquired.pop(chat_id, None)

    def lease_left(self, chat_id: int) -> float:
        """Seconds this store's publishing lock of the table surely stays its own (0: none)."""
        return max(0.0, self._leases.get(chat_id, 0.0) - self.monotonic())

    def _leased(self, chat_id: int, lease: float | None, since: float | None = None) -> None:
        """This store took (or extended) the table's publishing lock for ``lease`` seconds
        (``None``: it is not its own any more), counted from ``since`` (:attr:`monotonic`
        when the request left: the estimate never outlives the lock; default now)."""
        self._leases.pop(chat_id, None)
        if lease is not None:
            self._leases[chat_id] = (self.monotonic() if since is None else since) + lease
            if len(self._leases) > self.CACHE_SIZE:  # forget the oldest (long expired)
                self._leases.pop(next(iter(self._leases)))

    def hold(self, chat_id: int, held: Held) -> None:
        """Keep a finished publication's release for later (see "Publishing")."""
        self._held[chat_id] = held

    def take_held(self, chat_id: int) -> Held | None:
        """The held publication of the table (its lock is still this store's), once."""
        return self._held.pop(chat_id, None)

    def held_since(self) -> float | None:
        """When the oldest held publication ended (``None``: none is held)."""
        return min((h.since for h in self._held.values()), default=None)

    async def wakeups(self) -> AsyncIterator[int]:
        """None by default (see :meth:`Store.wakeups`)."""
        return
        yield  # an async generator that ends at once

    async def release_held(
        self,
        before: float = math.inf,
        *,
        chats: set[int] | None = None,
        ttl: int | None = None,
    ) -> list[tuple[int, Released]]:
        """Release together (one round trip) the publications held since before ``before``
        (all by default; only those of ``chats`` if given). One that finds a newer table keeps
        the lock and hands it to :meth:`take_acquired`: the caller publishes that table."""
        due = [
            (chat, h)
            for chat, h in self._held.items()
            if h.since < before and (chats is None or chat in chats)
        ]
        for chat, _ in due:
            del self._held[chat]
        if not due:
            return []
        results = await self._release_many(
            [(chat, h.token, h.version, h.shown, h.spent) for chat, h in due], ttl=ttl
        )
        out = []
        for (chat, held), released in zip(due, results, strict=True):
            if not released.done and not released.lost:
                self._acquired[chat] = (held.token, held.shown)
            out.append((chat, released))
        return out

    async def _release_many(
        self,
        items: list[tuple[int, str, int, dict[str, str], tuple[int, int]]],
        *,
        ttl: int | None,
    ) -> list[Released]:
        """:meth:`pub_release` of several tables (chat, token, version, shown, spent)."""
        return [
            await self.pub_release(chat, token, version, shown, ttl=ttl, spent=spent)
            for chat, token, version, shown, spent in items
        ]

    def _count(self, op: str) -> None:
        self.round_trips += 1
        self.ops[op] += 1

    def _remember(self, chat_id: int, table: Loaded | None) -> None:
        seen = self._known.get(chat_id)
        if seen is not None and table is not None and older_than(table, seen):
            self._mark_behind(chat_id, seen)
        self._known[chat_id] = table
        self._known.move_to_end(chat_id)
        if len(self._known) > self.CACHE_SIZE:
            self._known.popitem(last=False)

    def _mark_behind(self, chat_id: int, seen: Loaded) -> None:
        copies = self._behind.setdefault(chat_id, [])
        if seen not in copies:
            copies[:] = [*copies, seen][-BEHIND_KEEP:]
        if len(self._behind) > self.CACHE_SIZE:
            self._behind.pop(next(iter(self._behind)))

    def behind(self) -> list[int]:
        """The tables found behind a copy this store saw (see :meth:`take_behind`)."""
        return list(self._behind)

    def take_behind(self, chat_id: int) -> list[Loaded]:
        """Once: the copies of the table this store saw that the store then answered an older
        table than (a rollback: Redis restored from older data, a failover to a replica that
        lacked the last writes; see "Versions"), oldest first; what Telegram shows may be
        theirs. Empty if none."""
        return self._behind.pop(chat_id, [])

    async def look_behind(self, limit: int = LOOK_LIMIT) -> list[int]:
        """Whether a rollback left, untouched since, the tables this store saw last (up to
        ``limit``, the most recent) behind its copies: their versions (and digests) are read in
        one round trip, at most once every ``timings.look_behind`` seconds (else nothing is
        asked). After an outage or a failover (:meth:`look_all_soon`, :meth:`_servers_changed`)
        it looks at once, at every table it saw. Each found behind is marked
        (:meth:`take_behind`) and read again (one load each). Returns those chats."""
        now = self.monotonic()
        if self._servers_changed():
            self._look_all = True
        everything = self._look_all
        if now < self._next_look and not everything:
            return []
        self._next_look = now + self.timings.look_behind
        copies = [(chat, seen) for chat, seen in reversed(self._known.items()) if seen]
        if not everything:
            copies = copies[:limit]
        if not copies:
            self._look_all = False
            return []
        self._count("look_behind")
        heads = await self._heads([chat for chat, _ in copies])
        self._look_all = False  # (a look that failed is tried again at the next sweep)
        found = []
        for (chat, seen), head in zip(copies, heads, strict=True):
            if head is None:
                continue  # gone (finished, expired): nothing shows a table to bring back
            version, digest = head
            other = digest is not None and digest != doc_digest(seen.doc)
            if version < seen.version or (version == seen.version and other):
                self._mark_behind(chat, seen)  # (the reply is newer than the copy: no race)
                found.append(chat)
        for chat in found:
            await self.load(chat)
        return found

    def look_all_soon(self) -> None:
        """The next :meth:`look_behind` looks at once, at every table this store saw: the store
        failed (a server restarted, a replica may have taken over), so it may be back with
        older tables than those shown, and waiting for the next look (or for the table to be
        among the last seen) would leave them shown as they no longer are."""
        self._look_all = True

    def _servers_changed(self) -> bool:
        """Whether the servers that hold the tables changed since last asked (a cluster's
        failover), without a round trip; never on one server."""
        return False

    async def _heads(self, chats: list[int]) -> list[tuple[int, str | None] | None]:
        """Each table's version and its document's digest (``None``: not kept), ``None`` when
        there is none; one round trip."""
        raise NotImplementedError

    def put_behind(self, chat_id: int, copies: list[Loaded]) -> None:
        """Give back copies taken by :meth:`take_behind` (their publication did not happen)."""
        for seen in copies:
            self._mark_behind(chat_id, seen)

    def is_cached(self, chat_id: int) -> bool:
        return chat_id in self._known

    async def cached(self, chat_id: int) -> Loaded | None:
        """The last copy of the table this store saw (no round trip), else a load."""
        if chat_id in self._known:
            return self._known[chat_id]
        return await self.load(chat_id)

    def forget(self, chat_id: int | None = None) -> None:
        """Drop the cached copy of one table (or of all): the next update loads it."""
        if chat_id is None:
            self._known.clear()
        else:
            self._known.pop(chat_id, None)

    async def _load(self, chat_id: int) -> Loaded | None:
        raise NotImplementedError

    async def _cas(self, write: TableWrite) -> Outcome:
        """Apply ``write`` if the table is at its ``expected_version`` (and, with ``update_id``,
        if that id was not used before: else ``Outcome(False, duplicate=True)``). A saved doc
        also adds the chat to each of ``users``' tables, and with ``lock`` takes the publishing
        lock if it is free (``Outcome.shown``), or if it is still ``held``'s: then it first
        releases ``held`` (its shown hashes stored, its calls spent, ``Outcome.shown`` is
        ``held.shown``). With ``expected_doc`` the stored document must also be that one (see
        "Versions")."""
        raise NotImplementedError

    async def _check(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        """``ok`` if the table is at ``expected_version`` (and holds ``expected_doc``, if
        given), else the current table."""
        raise NotImplementedError

    async def _version(self, chat_id: int) -> int:
        raise NotImplementedError

    async def _first_look(
        self, chat_id: int, update_id: int, version: int, doc: str | None
    ) -> tuple[bool, Outcome]:
        """:meth:`first_time`, and ``Outcome(True)`` if the table is at ``version`` (and holds
        ``doc``), else the current table (version -1: always the current table)."""
        raise NotImplementedError

    async def first_look(self, chat_id: int, update_id: int) -> tuple[bool, Loaded | None]:
        self._count("first_look")
        known = chat_id in self._known
        cached = self._known.get(chat_id)
        version = (cached.version if cached is not None else 0) if known else -1
        first, outcome = await self._first_look(
            chat_id, update_id, version, None if cached is None else cached.doc
        )
        if outcome.ok:
            return first, cached
        self._remember(chat_id, outcome.current)
        return first, outcome.current

    async def load(self, chat_id: int) -> Loaded | None:
        self._count("load")
        table = await self._load(chat_id)
        self._remember(chat_id, table)
        return table

    async def _write(
        self,
        chat_id: int,
        expected_version: int,
        doc: str | None,
        timer_at: float | None = None,
        ttl: int | None = None,
        update_id: int | None = None,
        users: tuple[int, ...] = (),
        lock: str | None = None,
        expected_doc: str | None = None,
    ) -> Outcome:
        self._count("delete" if doc is None else "save")
        ttl = None if ttl is None else positive_ttl(ttl)
        # A held publication of this table is released by this write (when it takes the lock).
        held = self._held.pop(chat_id, None) if lock is not None and doc is not None else None
        since = self.monotonic()
        try:
            outcome = await self._cas(
                TableWrite(
                    chat_id,
                    expected_version,
                    doc,
                    timer_at,
                    ttl,
                    update_id,
                    users=users,
                    lock=lock,
                    expected_doc=expected_doc,
                    held=held,
                )
            )
        except BaseException:
            if held is not None:
                self._held.setdefault(chat_id, held)
            raise
        if held is not None and not outcome.ok:
            self._held.setdefault(chat_id, held)  # nothing written: still held
        elif held is not None:
            self._leased(chat_id, None)  # released by the write (or its lock was lost)
        if outcome.shown is not None and lock is not None:
            self._acquired[chat_id] = (lock, outcome.shown)
            self._leased(chat_id, self.publish_lease, since)
        if outcome.duplicate:
            raise DuplicateUpdate(update_id if update_id is not None else 0)
        if outcome.ok:
            self._remember(chat_id, None if doc is None else Loaded(outcome.version, doc))
        else:
            self._remember(chat_id, outcome.current)
        return outcome

    async def save(
        self,
        chat_id: int,
        expected_version: int,
        doc: str,
        *,
        timer_at: float | None = None,
        ttl: int | None = None,
    ) -> int | None:
        outcome = await self._write(chat_id, expected_version, doc, timer_at, ttl)
        return outcome.version if outcome.ok else None

    async def delete(self, chat_id: int, expected_version: int) -> bool:
        if expected_version <= 0:
            return False
        return (await self._write(chat_id, expected_version, None)).ok

    async def version_of(self, chat_id: int) -> int:
        self._count("version")
        return await self._version(chat_id)

    async def update_table(
        self, chat_id: int, fn: UpdateFn[T], *, retries: int = 30, update_id: int | None = None
    ) -> T:
        if chat_id in self._known:
            current, checked = self._known[chat_id], False
        else:
            current, checked = await self.load(chat_id), True
        for attempt in range(retries):
            done, result, now = await self._attempt(
                chat_id, current, fn, checked=checked, update_id=update_id
            )
            if done:
                return result
            # The table moved; ``now`` is how it is (read with the refusal): try again on it.
            self.conflicts += 1
            # Back off a little (randomly, so racers spread out) when it is real contention.
            if checked:
                await asyncio.sleep(random.uniform(0, min(0.05, 0.001 * 2**attempt)))
            current, checked = now, True
        raise TableConflict(f"table {chat_id}: gave up after {retries} conflicting writes")

    async def _attempt(
        self,
        chat_id: int,
        current: Loaded | None,
        fn: UpdateFn[T],
        *,
        checked: bool,
        update_id: int | None = None,
    ) -> tuple[bool, T, Loaded | None]:
        """One try of ``fn`` on ``current``: ``(True, result, _)`` if it stands, else
        ``(False, _, table as it is now)``.

        ``checked`` says ``current`` was just read from the store; otherwise it is the cached
        copy, and a decision not to write (or an exception) stands only if the version has not
        moved.
        """
        version = current.version if current is not None else 0
        based_on = current.doc if current is not None else None
        no_result = cast(T, None)
        try:
            decided = fn(current)
        except Exception:
            if checked:
                raise
            outcome = await self._checked(chat_id, version, based_on)
            if outcome.ok:
                raise
            return False, no_result, outcome.current
        write = decided if isinstance(decided, Write) else Write(decided[1], doc=decided[0])
        if write.delete and current is not None:
            outcome = await self._write(
                chat_id, version, None, update_id=update_id, expected_doc=based_on
            )
        elif write.delete or write.doc is None:  # nothing to write (or to delete)
            if checked:
                return True, write.result, None
            outcome = await self._checked(chat_id, version, based_on)
        else:
            outcome = await self._write(
                chat_id,
                version,
                write.doc,
                write.timer_at,
                write.ttl,
                update_id,
                write.users,
                write.lock,
                expected_doc=based_on,
            )
        return outcome.ok, write.result, outcome.current

    async def _checked(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        self._count("check")
        outcome = await self._check(chat_id, expected_version, expected_doc)
        if not outcome.ok:
            self._remember(chat_id, outcome.current)
        return outcome
