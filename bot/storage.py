"""Table storage: versioned JSON documents, update de-duplication, turn timers.

Two implementations with the same semantics: :class:`RedisStore` (production; several bot
processes can share one Redis) and :class:`MemoryStore` (in-process, when ``REDIS_URL`` is unset,
and in tests). Every method is one Redis round trip; ``update_table`` is usually one too (below).

Tables
    One document per chat: ``load(chat_id)`` gives ``Loaded(version, doc)`` or ``None``. Every
    write is a compare-and-set on the version: ``save(chat_id, expected_version, doc, timer_at=,
    ttl=)`` is one Lua script that checks the version, writes the document, bumps the version,
    sets or clears the table's timer and sets or clears its TTL; it returns the new version, or
    ``None`` when the version moved (someone else wrote first: reload and retry). Version 0 means
    "no table", so ``save(chat_id, 0, ...)`` creates a table only if there is none
    (:meth:`Store.create`). A new table's first version is the server's clock in microseconds
    and each write adds 1, so a version never repeats for a chat, even after the table is deleted
    and another one created.

    After Redis is restored from older data (a snapshot, an older append-only file, a failover
    to a lagging replica), the counter goes on from the restored version and hands out again the
    numbers of the writes that were lost, while a process may still cache the newest of those
    writes. So a write is checked against the *document* it was based on as well: the table
    hash keeps a digest of its document (field ``h``, :func:`doc_digest`), and a write (or a
    version check) made from a cached copy sends that copy's digest; the same version with
    another document is refused like a moved version, with the current table in the reply, and
    the update runs again on it. No extra round trip; a stale cache can never win. (Tables
    written before the field existed are checked by version alone until their next write.)

    Handlers never call ``save`` themselves; they call :meth:`Store.update_table`, which loads,
    runs a pure function on the current document and saves with CAS, retrying on conflict::

        def join(current: Loaded | None) -> Write[str]:
            if current is None:
                return Write("no_table")            # no write
            table = json.loads(current.doc)
            ...
            return Write("joined", doc=json.dumps(table), timer_at=None, ttl=settings.table_ttl)

        result = await store.update_table(chat_id, join)

    Each store keeps the last version it saw of each table (a bounded in-process cache). With a
    cached copy, ``update_table`` runs ``fn`` on it and sends the CAS write directly: one round
    trip. If ``fn`` decides not to write (or raises), a version check (a tiny script) confirms
    the copy was current: one round trip. When another process wrote in between, the refused
    CAS or check returns the current table in the same reply, and ``fn`` runs again on it: one
    more round trip, never a separate load. So a table update costs 1 round trip when this
    process saw the table last, and 2 otherwise; each lost race costs one more.

Timers
    A sorted set holds one member per table with a pending turn timer (score = due unix time).
    Only the CAS script (and the claim below) writes it, so it mirrors the latest document's
    deadline.
    :meth:`Store.claim_due` atomically takes the due tables and leases them (moves their score
    ``lease`` seconds ahead): two processes sweeping at once never get the same table, and if the
    process that claimed a table dies before firing, the lease runs out and another process fires
    it. Firing is an ``update_table`` whose function checks the document's own deadline and turn
    token (the document carries them), so a timer made stale by a move in between does nothing;
    the CAS write that plays the default move also sets the next timer. Members whose table has
    expired are dropped by the claim.

Expiry
    ``ttl`` on a write sets the table's time to live (refreshed by every write that passes one);
    ``ttl=None`` keeps the table until deleted. Pass ``settings.table_ttl`` on every write so
    abandoned and finished tables disappear on their own.

De-duplication
    Each chat keeps a small window of the update ids it has seen (``{p}:seen:<chat>``: the last
    :data:`DEDUPE_KEEP` ids, forgotten :data:`DEDUPE_TTL` after the chat's last update), so what
    de-duplication keeps is bounded per chat, not per update: a re-delivery is recognised while
    fewer than :data:`DEDUPE_KEEP` other updates of its chat came since (Telegram re-delivers
    what a process did not confirm, soon after), and an older one meets the table's own checks
    (turn tokens, the date of a typed command).
    ``update_table(chat_id, fn, update_id=N)`` folds the check into the write: the CAS script
    first checks the version (a conflict returns the current table as always and leaves the
    update id alone, so the retry may still use it), then looks the id up in the chat's window
    and adds it; if it was there the script writes nothing and ``update_table`` raises
    :class:`DuplicateUpdate` (the same update already changed the table, here or in another
    process). No extra round trip. Decisions not to write never consume the id.
    ``first_time(update_id, chat_id)`` is the same look-up on its own (one round trip), for
    updates that answer without writing, and :meth:`Store.first_look` the same with the
    table's current document; all use the chat's window, so either way an id counts once (a
    handler checks an update against one chat: the table's).

Publishing
    What the group and the players see is derived from the table document (see
    :mod:`bot.publisher`). Every table write also puts the chat in the ``pub`` sorted set, due
    ``PUBLISH_GRACE`` seconds later, in the same atomic step: if the process that wrote dies
    before it has published, any process sweeping that set (:meth:`Store.claim_publish`) takes
    over. One process at a time publishes a table: :meth:`Store.pub_acquire` takes a leased lock
    and returns what the messages showed after the last publication (a hash per message);
    :meth:`Store.pub_release` stores the new hashes and, if the document has not moved since the
    version published, drops the chat from the set and frees the lock; if it moved, the lock is
    kept (and extended) and the current version is returned, so the same process publishes it
    too. A publication that Telegram refused for now is released with a retry time instead.
    While it runs, the publisher renews the lease (:meth:`Store.pub_extend`, checked against
    the lock's token: a lock that lapsed and may be another process's is never taken back),
    so a slow publication keeps its lock; :meth:`StoreBase.lease_left` is this store's
    conservative estimate (counted from when the request left), checked before each Bot API
    call.

    A publication may also end **held** (:meth:`StoreBase.hold`): the lock stays this store's
    for a moment (well within its lease) and what it showed stays in memory. This store's next
    write of that table with a lock token folds the release into its compare-and-set (the
    shown hashes stored, the budget spent and the lock renewed for the new token: one round
    trip for both), and :meth:`StoreBase.release_held` releases the others together, one round
    trip for any number of tables. Moves in quick succession thus cost one round trip each. A
    write by another process meanwhile finds the lock taken: the holder's release brings that
    write (as any release does) and the holder publishes it.

    A process that cannot take the lock also **wakes** the holder, in the same step: the chat
    goes to every process sharing the store (:meth:`Store.wakeups`; Redis pub/sub, on
    ``{prefix}:wake:<db>``), and the one holding the table releases it at once (its release brings
    the new write) instead of when its hold runs out; one still publishing it does not hold it
    afterwards. A wake-up lost (a reconnection) only costs the wait for the hold.

``round_trips`` counts the calls made to Redis (one per method call) and ``ops`` splits them by
operation. Scripts go as EVALSHA; a server that does not know one yet gets it once more in
full, which is not counted. Keys are not cluster-safe (a table and the timer set live in
different slots): use one Redis server, or a hash-tagged prefix such as ``{tapete}``.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import random
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, cast, runtime_checkable

from redis.asyncio import BlockingConnectionPool, Redis

from bot.budget import (
    BOT_BURST,
    BOT_RATE,
    BUCKET_LUA,
    GROUP_BURST,
    GROUP_RATE,
    Budget,
    MemoryBudget,
    RedisBudget,
    bot_key,
    group_key,
)

__all__ = [
    "ChatTaken",
    "DuplicateUpdate",
    "Loaded",
    "MemoryStore",
    "Outcome",
    "RedisStore",
    "Released",
    "Store",
    "StoreBase",
    "Sweep",
    "TableConflict",
    "Write",
    "open_store",
]

T = TypeVar("T")

#: Seconds a chat's window of update ids is kept after its last update (Telegram re-delivers
#: within hours, not days).
DEDUPE_TTL = 24 * 3600
#: Update ids each chat's window keeps (the last seen).
DEDUPE_KEEP = 32
#: Seconds a claimed timer is leased before another process may fire it again (firing is one
#: compare-and-set write that checks the table's own deadline, so a second firing after a
#: lapsed lease plays nothing twice; a process killed with timers claimed delays them this long).
TIMER_LEASE = 10.0
#: Seconds after a write before another process takes over its publication (the writer
#: normally publishes at once and clears it long before).
PUBLISH_GRACE = 5.0
#: Seconds a process holds a table's publishing lock before another may take it, unless it
#: renews it (a running publication does, see :mod:`bot.publisher`); a dead process's lock is
#: taken over after at most this.
PUBLISH_LEASE = 10.0
#: Seconds before a claimed publication is due again (the claimer may find the lock still held
#: by a process that died: it tries again this soon).
PUBLISH_RETRY = 3.0
#: Seconds small settings (a group's language) are kept after they were last read or written.
PREFS_TTL = 180 * 24 * 3600


class Released(NamedTuple):
    """What :meth:`Store.pub_release` found: ``done`` (published up to the current version, lock
    freed), ``lost`` (the lock had expired and moved on), or else the version to publish next
    (``version``; the lock is kept)."""

    done: bool
    lost: bool = False
    version: int = 0
    doc: str | None = None


class Sweep(NamedTuple):
    """What :meth:`Store.claim_sweep` claimed: due turn timers, due publications, and how many
    processes sweep this store (0: not asked)."""

    timers: list[int]
    publications: list[int]
    processes: int = 0


class Loaded(NamedTuple):
    """A table as stored: its version (1, 2, ...) and its JSON document."""

    version: int
    doc: str


@dataclass(slots=True)
class Held:
    """A finished publication whose release waits (see "Publishing"): the lock token, the
    version published, what the messages show, the Bot API calls to take from the budget
    (group, all) and when the publication ended (``time.monotonic()``)."""

    token: str
    version: int
    shown: dict[str, str]
    spent: tuple[int, int]
    since: float


@dataclass(frozen=True, slots=True)
class Write(Generic[T]):
    """What an :meth:`Store.update_table` function decided.

    ``doc=None`` (and ``delete=False``) means "change nothing": no write, no round trip.
    Otherwise ``doc`` replaces the table, ``timer_at`` (unix time or ``None``) becomes the table's
    pending timer and ``ttl`` (seconds or ``None`` for no expiry) its time to live.
    ``delete=True`` removes the table and its timer. ``users``: with a ``doc``, also remember
    in the same atomic write that these users sit at this table (as :meth:`Store.add_user_table`
    with ``ttl``), at no extra round trip.
    """

    result: T
    doc: str | None = None
    timer_at: float | None = None
    ttl: int | None = None
    delete: bool = False
    users: tuple[int, ...] = ()
    lock: str | None = None
    """With a ``doc``: also take the table's publishing lock with this token in the same atomic
    write, if it is free (see :meth:`StoreBase.take_acquired`); saves the publisher a trip."""


class TableConflict(RuntimeError):
    """``update_table`` lost the compare-and-set race more times than it may retry."""


class ChatTaken(Exception):
    """:meth:`Store.move_table`: the chat the table should move to has a table already."""


class DuplicateUpdate(Exception):
    """``update_table(..., update_id=N)``: update ``N`` already wrote; nothing was written."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was already applied")
        self.update_id = update_id


UpdateFn = Callable[[Loaded | None], Write[T] | tuple[str | None, T]]


@runtime_checkable
class Store(Protocol):
    """Storage used by the bot; see the module docstring for the semantics."""

    round_trips: int

    async def load(self, chat_id: int) -> Loaded | None:
        """The table of ``chat_id``, or ``None``."""
        ...

    async def cached(self, chat_id: int) -> Loaded | None:
        """The last copy of the table this store saw (maybe stale), else a load."""
        ...

    def take_acquired(self, chat_id: int) -> tuple[str, dict[str, str]] | None:
        """The publishing lock a write of this store took for the table, once."""
        ...

    def is_cached(self, chat_id: int) -> bool:
        """Whether :meth:`cached` answers from this store's memory (no round trip)."""
        ...

    def lease_left(self, chat_id: int) -> float:
        """Seconds this store's publishing lock of the table surely stays its own (0: none)."""
        ...

    def hold(self, chat_id: int, held: Held) -> None:
        """Keep a finished publication's release for later (see "Publishing")."""
        ...

    def take_held(self, chat_id: int) -> Held | None:
        """The held publication of the table (its lock is still this store's), once."""
        ...

    def held_since(self) -> float | None:
        """When the oldest held publication ended (``None``: none is held)."""
        ...

    async def release_held(
        self,
        before: float = math.inf,
        *,
        chats: set[int] | None = None,
        ttl: int | None = None,
    ) -> list[tuple[int, Released]]:
        """Release the held publications (see :meth:`StoreBase.release_held`)."""
        ...

    def forget(self, chat_id: int | None = None) -> None:
        """Drop the cached copy of one table (or of all)."""
        ...

    async def save(
        self,
        chat_id: int,
        expected_version: int,
        doc: str,
        *,
        timer_at: float | None = None,
        ttl: int | None = None,
    ) -> int | None:
        """Write ``doc`` if the table is still at ``expected_version`` (0: no table yet).

        Returns the new version, or ``None`` if the version moved.
        """
        ...

    async def delete(self, chat_id: int, expected_version: int) -> bool:
        """Remove the table (and its timer) if it is still at ``expected_version``."""
        ...

    async def version_of(self, chat_id: int) -> int:
        """The table's current version (0 if there is none), without its document."""
        ...

    async def first_time(self, update_id: int, chat_id: int) -> bool:
        """True the first time ``update_id`` is seen in ``chat_id`` (by any process sharing the
        store)."""
        ...

    async def first_look(self, chat_id: int, update_id: int) -> tuple[bool, Loaded | None]:
        """:meth:`first_time` and the chat's current table, in one round trip (the document
        travels only when it moved since the copy this store saw last)."""
        ...

    async def due_timers(self, now: float, limit: int = 100) -> list[int]:
        """Chats whose timer is due at ``now`` (read only; see :meth:`claim_due`)."""
        ...

    async def claim_due(
        self, now: float, *, lease: float = TIMER_LEASE, limit: int = 100
    ) -> list[int]:
        """Atomically take the due timers, leasing each for ``lease`` seconds."""
        ...

    async def timer_of(self, chat_id: int) -> float | None:
        """The due time of the table's pending timer (or lease), if any."""
        ...

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float = PUBLISH_LEASE
    ) -> dict[str, str] | None:
        """Take the table's publishing lock: the shown-message hashes, or ``None`` if another
        process holds it (then it is woken: :meth:`wakeups`)."""
        ...

    async def pub_extend(self, chat_id: int, token: str, lease: float = PUBLISH_LEASE) -> bool:
        """Renew the table's publishing lock for ``lease`` seconds if it is still ``token``'s;
        False when it is not (it lapsed: another process may hold it now). Never takes a lock
        that is free."""
        ...

    def wakeups(self) -> AsyncIterator[int]:
        """The chats whose lock a process could not take (see "Publishing"), from every process
        sharing the store, as they come; ends at once if the store has none (holds then end
        by their timer). A lost connection raises: listen again."""
        ...

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
        """Store ``shown``; free the lock if ``version`` is current (or with ``retry_at``, which
        schedules another try), else keep it and return the current version. ``spent``: Bot
        API calls the publication made to the group and in all, taken from the budget
        (:mod:`bot.budget`) in the same round trip."""
        ...

    def budget(self) -> Budget:
        """Telegram's budget on the same storage (:mod:`bot.budget`)."""
        ...

    async def claim_publish(
        self, now: float, *, lease: float = PUBLISH_RETRY, limit: int = 100
    ) -> list[int]:
        """Atomically take the tables whose publication is due (leased, as :meth:`claim_due`)."""
        ...

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        """:meth:`claim_due` and :meth:`claim_publish` (default leases) in one round trip; with
        ``process`` (an id of the calling process), also note that it is alive and count the
        processes that swept in the last ``alive_for`` seconds."""
        ...

    async def publish_due(self, chat_id: int) -> float | None:
        """When the table's publication is due (``None``: nothing left to publish)."""
        ...

    async def ttl_of(self, chat_id: int) -> float | None:
        """Seconds the table has left to live; ``None`` if it does not expire or is absent."""
        ...

    async def add_user_table(self, user_id: int, chat_id: int, ttl: int | None = None) -> None:
        """Remember that ``user_id`` sits at the table of ``chat_id`` (for private chats)."""
        ...

    async def remove_user_table(self, user_id: int, chat_id: int) -> None:
        """Forget that ``user_id`` sits at the table of ``chat_id``."""
        ...

    async def user_tables(self, user_id: int) -> list[int]:
        """Chats where ``user_id`` has (or recently had) a seat, sorted."""
        ...

    async def get_prefs(self, scope: str) -> dict[str, str]:
        """Small settings, e.g. ``get_prefs("chat:-100123")`` -> ``{"lang": "en"}``; each read
        or write keeps them :data:`PREFS_TTL` seconds longer (one round trip either way)."""
        ...

    async def set_prefs(self, scope: str, values: dict[str, str]) -> None:
        """Merge ``values`` into the settings of ``scope``."""
        ...

    async def aclose(self) -> None:
        """Release connections the store opened itself."""
        ...

    async def backlog(self, now: float) -> tuple[int, int]:
        """For metrics: (tables due or waiting to be published, turn timers due at ``now``)."""
        ...

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
        """Move the table of ``old_chat`` to ``new_chat`` (a group upgraded to a supergroup
        gets a new chat id) in one atomic step, if it is still at ``expected_version``: its
        document becomes ``doc``, and its timer, publication entry, shown-message hashes and
        the chat's preferences follow it; each of ``users`` now sits at ``new_chat``. Returns
        the new version, ``None`` when the table moved on or is gone (reload and retry), and
        raises :class:`ChatTaken` when ``new_chat`` has a table already."""
        ...

    async def create(
        self, chat_id: int, doc: str, *, timer_at: float | None = None, ttl: int | None = None
    ) -> int | None:
        """Create the table if there is none: its first version, or ``None`` if one exists."""
        return await self.save(chat_id, 0, doc, timer_at=timer_at, ttl=ttl)

    async def update_table(
        self, chat_id: int, fn: UpdateFn[T], *, retries: int = 30, update_id: int | None = None
    ) -> T:
        """Load the table, apply ``fn`` and compare-and-set the result, retrying on conflict.

        ``fn`` gets the current table (or ``None``) and returns a :class:`Write` (or a tuple
        ``(doc_or_None, result)``). It must be pure and synchronous: it may run several times.
        An exception from ``fn`` propagates and nothing is written. Returns ``Write.result``.
        With ``update_id``, a write happens only the first time that id writes (in the same
        atomic step); otherwise nothing is written and :class:`DuplicateUpdate` is raised.
        """
        ...


class Outcome(NamedTuple):
    """What a compare-and-set or a version check found (one round trip, atomically).

    ``ok``: it succeeded (``version`` is the new one, 0 after a delete). ``duplicate``: the
    version matched but the update id had already been used, so nothing was written. Otherwise
    ``current`` is the table as it is now (``None`` if there is none), read in the same step as
    the refusal.
    """

    ok: bool
    version: int = 0
    current: Loaded | None = None
    duplicate: bool = False
    shown: dict[str, str] | None = None
    """The write also took the publishing lock: the shown-message hashes (else ``None``)."""


class StoreBase(Store):
    """Round-trip counting, the cache of last-seen tables and ``update_table`` for both stores.

    Implementations provide ``_load``, ``_cas``, ``_check`` and ``_version`` (one round trip
    each). A refused ``_cas`` or ``_check`` returns the current table with the refusal, so a
    stale cached copy costs no extra load.
    """

    #: How many tables' last-seen versions a store remembers.
    CACHE_SIZE = 4096

    def __init__(self) -> None:
        #: Compare-and-set writes (or checks) refused because the table had moved (metrics).
        self.conflicts = 0
        self.round_trips = 0
        #: Round trips by operation name, for benchmarks.
        self.ops: Counter[str] = Counter()
        self._known: OrderedDict[int, Loaded | None] = OrderedDict()
        self._acquired: dict[int, tuple[str, dict[str, str]]] = {}
        #: Until when (``time.monotonic()``) each publishing lock this store took is its own.
        self._leases: dict[int, float] = {}
        #: Publications whose release waits (see "Publishing"), by chat.
        self._held: dict[int, Held] = {}

    def take_acquired(self, chat_id: int) -> tuple[str, dict[str, str]] | None:
        """The publishing lock a write of this store took for the table (token, shown hashes),
        once; ``None`` if none did."""
        return self._acquired.pop(chat_id, None)

    def lease_left(self, chat_id: int) -> float:
        """Seconds this store's publishing lock of the table surely stays its own (0: none)."""
        return max(0.0, self._leases.get(chat_id, 0.0) - time.monotonic())

    def _leased(self, chat_id: int, lease: float | None, since: float | None = None) -> None:
        """This store took (or extended) the table's publishing lock for ``lease`` seconds
        (``None``: it is not its own any more), counted from ``since`` (``time.monotonic()``
        when the request left: the estimate never outlives the lock; default now)."""
        self._leases.pop(chat_id, None)
        if lease is not None:
            self._leases[chat_id] = (time.monotonic() if since is None else since) + lease
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
        self._known[chat_id] = table
        self._known.move_to_end(chat_id)
        if len(self._known) > self.CACHE_SIZE:
            self._known.popitem(last=False)

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
        """Write ``doc`` (``None``: delete) if the table is at ``expected_version`` (and, with
        ``update_id``, if that id was not used before: else ``Outcome(False, duplicate=True)``).
        A saved ``doc`` also adds the chat to each of ``users``' tables, and with ``lock`` takes
        the publishing lock if it is free (``Outcome.shown``), or if it is still ``held``'s: then
        it first releases ``held`` (its shown hashes stored, its calls spent, ``Outcome.shown``
        is ``held.shown``). With ``expected_doc`` the stored document must also be that one
        (see "Versions")."""
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
        ttl = None if ttl is None else _positive_ttl(ttl)
        # A held publication of this table is released by this write (when it takes the lock).
        held = self._held.pop(chat_id, None) if lock is not None and doc is not None else None
        since = time.monotonic()
        try:
            outcome = await self._cas(
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
            self._leased(chat_id, PUBLISH_LEASE, since)
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


def _decode(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


# A chat's window of update ids (see "De-duplication"): seen(key, id, keep, ttl) is true when
# ``id`` is in the window at ``key`` (ids separated by spaces, oldest first); otherwise it adds
# ``id``, keeps the last ``keep`` ids and sets the window's time to live.
SEEN_LUA = """
local function seen(key, id, keep, ttl)
  local ids = {}
  local raw = redis.call('GET', key)
  if raw then
    for x in string.gmatch(raw, '%d+') do
      if x == id then return true end
      ids[#ids + 1] = x
    end
  end
  ids[#ids + 1] = id
  local first = math.max(1, #ids - keep + 1)
  redis.call('SET', key, table.concat(ids, ' ', first), 'EX', ttl)
  return false
end
"""

# What a publication showed: the shown hash at ``key`` becomes the field, value pairs of ARGV
# from ``first`` on (kept as long as the table: ttl "" for no expiry).
SHOWN_LUA = """
local function store_shown(key, ttl, first)
  redis.call('DEL', key)
  for i = first, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
  if ttl ~= '' and #ARGV >= first then redis.call('EXPIRE', key, ttl) end
end
"""

# KEYS: table hash, timers zset, the chat's window of update ids, publish zset, publishing
# lock, shown hash, the group's and the bot's budget buckets, then the sets of users who sit at
# the table. ARGV: expected version, mode ("save"|"delete"), doc, timer_at ("" clears), ttl
# ("" persists), chat id (timer member), update id ("": none, KEYS[3] unused), publish due
# time (a saved table must be published by then, by this process or another), lock token ("":
# none), lock lease (ms), the digest of the document the write is based on ("": version only),
# the digest of the new document (kept in field h: a version alone is not proof enough after a
# rollback, see "Versions"), the window's size and time to live, the token of this process's
# held publication of the table ("": none), the calls it made to the group and in all, now,
# then what it showed (field, value...). A saved table with a token also takes the lock if it
# is free (the reply then goes on with 1 and the shown hashes), or if the held publication
# still has it: that one is released first (shown hashes stored, calls spent) and the reply
# goes on with 2. Returns {1, new version} ({1, 0} after a delete), {0, current version,
# current document} when the version moved ({0, '0', ''}: no table), or {2} when the version
# matched but the update id was already seen (nothing written). A new table's version is the
# server clock in microseconds (built as text: Lua numbers are doubles).
_CAS = (
    SEEN_LUA
    + SHOWN_LUA
    + BUCKET_LUA
    + """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
local seen_doc = ARGV[11] == '' or (redis.call('HGET', KEYS[1], 'h') or ARGV[11]) == ARGV[11]
if current ~= ARGV[1] or not seen_doc then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
if ARGV[7] ~= '' and seen(KEYS[3], ARGV[7], tonumber(ARGV[13]), ARGV[14]) then
  return {2}
end
if ARGV[2] == 'delete' then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[6])
  redis.call('ZREM', KEYS[4], ARGV[6])
  return {1, 0}
end
redis.call('ZADD', KEYS[4], 'NX', ARGV[8], ARGV[6])
local version
if current == '0' then
  local now = redis.call('TIME')
  version = now[1] .. string.format('%06d', tonumber(now[2]))
  redis.call('HSET', KEYS[1], 'v', version, 'd', ARGV[3], 'h', ARGV[12])
else
  version = redis.call('HINCRBY', KEYS[1], 'v', 1)
  redis.call('HSET', KEYS[1], 'd', ARGV[3], 'h', ARGV[12])
end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[2], ARGV[6])
else
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[6])
end
if ARGV[5] == '' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('EXPIRE', KEYS[1], ARGV[5])
end
for i = 9, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[6])
  if ARGV[5] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[5]) end
end
if ARGV[9] == '' then return {1, version} end
if ARGV[15] ~= '' and redis.call('GET', KEYS[5]) == ARGV[15] then
  local now = tonumber(ARGV[18])"""
    + f"""
  if tonumber(ARGV[16]) > 0 then bucket(KEYS[7], now, {GROUP_RATE}, {GROUP_BURST}, ARGV[16]) end
  if tonumber(ARGV[17]) > 0 then bucket(KEYS[8], now, {BOT_RATE}, {BOT_BURST}, ARGV[17]) end"""
    + """
  store_shown(KEYS[6], ARGV[5], 19)
  redis.call('SET', KEYS[5], ARGV[9], 'PX', ARGV[10])
  redis.call('ZADD', KEYS[4], ARGV[8], ARGV[6])
  return {1, version, 2}
end
if redis.call('SET', KEYS[5], ARGV[9], 'NX', 'PX', ARGV[10]) then
  local reply = {1, version, 1}
  for _, x in ipairs(redis.call('HGETALL', KEYS[6])) do reply[#reply + 1] = x end
  return reply
end
return {1, version}
"""
)

# KEYS: table hash. ARGV: expected version, expected digest ("": version only). Returns {1}, or
# {0, version, document} as _CAS.
_CHECK = """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
local seen = ARGV[2] == '' or (redis.call('HGET', KEYS[1], 'h') or ARGV[2]) == ARGV[2]
if current == ARGV[1] and seen then return {1} end
return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
"""


# KEYS: the chat's window of update ids. ARGV: update id, window size, ttl. Returns 1 the first
# time, else 0.
_FIRST_TIME = (
    SEEN_LUA
    + """
if seen(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3]) then return 0 end
return 1
"""
)

# KEYS: the chat's window of update ids, table hash. ARGV: update id, window size, ttl, the
# version and digest of the copy the caller has. Returns {first (1|0), 1} when that copy is
# current, else {first, 0, version, document} as _CHECK.
_FIRST_LOOK = (
    SEEN_LUA
    + """
local first = 1
if seen(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3]) then first = 0 end
local current = redis.call('HGET', KEYS[2], 'v')
if current == false then current = '0' end
if current == ARGV[4] and (redis.call('HGET', KEYS[2], 'h') or ARGV[5]) == ARGV[5] then
  return {first, 1}
end
return {first, 0, current, redis.call('HGET', KEYS[2], 'd') or ''}
"""
)


def seen_before(window: list[int], update_id: int, keep: int = DEDUPE_KEEP) -> list[int] | None:
    """A chat's window of update ids (oldest first) after ``update_id``: ``None`` when the id
    was seen (it is in the window), else the new window (the last ``keep`` ids). The
    in-process twin of the scripts' ``seen``.

    >>> seen_before([], 7), seen_before([5, 7], 7), seen_before([5, 9], 4, keep=2)
    ([7], None, [9, 4])
    """
    if update_id in window:
        return None
    return [*window, update_id][-keep:]


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


# KEYS: timers zset. ARGV: now, lease-until, limit, table key prefix.
# Returns the claimed chat ids; members whose table no longer exists are dropped.
CLAIM_LUA = """
local function claim(key, now, until_, limit, prefix)
  local due = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, limit)
  local claimed = {}
  for _, member in ipairs(due) do
    if redis.call('EXISTS', prefix .. member) == 1 then
      redis.call('ZADD', key, until_, member)
      claimed[#claimed + 1] = member
    else
      redis.call('ZREM', key, member)
    end
  end
  return claimed
end
"""
_CLAIM = (
    CLAIM_LUA
    + """
return claim(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4])
"""
)

# KEYS: timers zset, publish zset, the sweeping processes' zset. ARGV: now, timer lease-until,
# publication lease-until, limit, table key prefix, the process's id ("": not counted), seconds
# a process counts after its last sweep. Returns {claimed timers, claimed publications,
# processes that swept lately}.
_CLAIM_SWEEP = (
    CLAIM_LUA
    + """
local timers = claim(KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[4]), ARGV[5])
local pubs = claim(KEYS[2], ARGV[1], ARGV[3], tonumber(ARGV[4]), ARGV[5])
local processes = 0
if ARGV[6] ~= '' then
  redis.call('ZADD', KEYS[3], ARGV[1], ARGV[6])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[7]))
  redis.call('EXPIRE', KEYS[3], math.ceil(tonumber(ARGV[7])) + 60)
  processes = redis.call('ZCARD', KEYS[3])
end
return {timers, pubs, processes}
"""
)

# KEYS: lock key, shown hash. ARGV: token, lease (ms), chat id, the wake-up channel. Returns {1,
# field, value, ...} (the shown hashes) when the lock is taken, {0} when another process holds
# it (which is woken: the chat id goes to the channel).
_PUB_ACQUIRE = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('PUBLISH', ARGV[4], ARGV[3])
  return {0}
end
local shown = redis.call('HGETALL', KEYS[2])
table.insert(shown, 1, 1)
return shown
"""

# KEYS: lock key. ARGV: token, lease (ms). Returns 1 when the lock was still the token's (its
# lease now starts again), else 0 (nothing changed: a lapsed lock is never taken back here).
_PUB_EXTEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: lock key, shown hash, table hash, publish zset, the group's and the bot's budget
# buckets. ARGV: token, version published, retry at ("": none), chat id, ttl of the shown hash
# ("": none), lease (ms), now, calls made to the group, calls made in all, then field, value...
# Returns {'lost'}, {'done'} (lock freed), {'retry'} (lock freed, due at retry) or
# {'more', current version, current document} (lock kept and extended).
_PUB_RELEASE = (
    BUCKET_LUA
    + SHOWN_LUA
    + f"""
local now = tonumber(ARGV[7])
if tonumber(ARGV[8]) > 0 then bucket(KEYS[5], now, {GROUP_RATE}, {GROUP_BURST}, ARGV[8]) end
if tonumber(ARGV[9]) > 0 then bucket(KEYS[6], now, {BOT_RATE}, {BOT_BURST}, ARGV[9]) end"""
    + """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'lost'} end
store_shown(KEYS[2], ARGV[5], 10)
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
  redis.call('DEL', KEYS[1])
  return {'retry'}
end
local current = redis.call('HGET', KEYS[3], 'v') or '0'
if current == ARGV[2] or current == '0' then
  redis.call('ZREM', KEYS[4], ARGV[4])
  redis.call('DEL', KEYS[1])
  return {'done'}
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {'more', current, redis.call('HGET', KEYS[3], 'd')}
"""
)

# The releases of several held publications in one round trip: _PUB_RELEASE of each (never a
# retry). KEYS: publish zset, the bot's budget bucket, then for each table: lock, shown hash,
# table hash, the group's bucket. ARGV: now, lease (ms), ttl of the shown hashes ("": none),
# then for each table: token, version published, chat id, calls made to the group and in all,
# how many shown-hash values follow, then those (field, value...). Returns three values for
# each table: 'lost', 'done' or 'more' (then the current version and document).
_PUB_RELEASE_MANY = (
    BUCKET_LUA
    + f"""
local now = tonumber(ARGV[1])
local out = {{}}
local a = 4
for t = 0, (#KEYS - 2) / 4 - 1 do
  local lock, shown, tab, gb = KEYS[3 + 4 * t], KEYS[4 + 4 * t], KEYS[5 + 4 * t], KEYS[6 + 4 * t]
  local token, version, chat = ARGV[a], ARGV[a + 1], ARGV[a + 2]
  local sg, sb, n = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4]), tonumber(ARGV[a + 5])
  local first = a + 6
  a = first + n
  if sg > 0 then bucket(gb, now, {GROUP_RATE}, {GROUP_BURST}, sg) end
  if sb > 0 then bucket(KEYS[2], now, {BOT_RATE}, {BOT_BURST}, sb) end"""
    + """
  if redis.call('GET', lock) ~= token then
    out[#out + 1] = 'lost'; out[#out + 1] = ''; out[#out + 1] = ''
  else
    redis.call('DEL', shown)
    for i = first, a - 1, 2 do redis.call('HSET', shown, ARGV[i], ARGV[i + 1]) end
    if ARGV[3] ~= '' and n > 0 then redis.call('EXPIRE', shown, ARGV[3]) end
    local current = redis.call('HGET', tab, 'v') or '0'
    if current == version or current == '0' then
      redis.call('ZREM', KEYS[1], chat)
      redis.call('DEL', lock)
      out[#out + 1] = 'done'; out[#out + 1] = ''; out[#out + 1] = ''
    else
      redis.call('PEXPIRE', lock, ARGV[2])
      out[#out + 1] = 'more'; out[#out + 1] = current
      out[#out + 1] = redis.call('HGET', tab, 'd') or ''
    end
  end
end
return out
"""
)

# KEYS: the user's set. ARGV: chat id, ttl ("" keeps the current expiry).
_ADD_USER_TABLE = """
redis.call('SADD', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


# KEYS: old table, new table, timers zset, publish zset, old shown, new shown, old prefs, new
# prefs, old publishing lock, then the sets of users who sit at the table. ARGV: expected
# version, new document, ttl ("" none), old chat id, new chat id, publish due time, digest of
# the new document. Returns {1, version}, {0, current version, current document} as _CAS
# (also when there is no table), or {3} when the new chat has a table already.
_MOVE = """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '0' end
if current ~= ARGV[1] or current == '0' then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
if redis.call('EXISTS', KEYS[2]) == 1 then return {3} end
local now = redis.call('TIME')
local version = now[1] .. string.format('%06d', tonumber(now[2]))
redis.call('HSET', KEYS[2], 'v', version, 'd', ARGV[2], 'h', ARGV[7])
if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
redis.call('DEL', KEYS[1], KEYS[9])
local due = redis.call('ZSCORE', KEYS[3], ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[4])
if due then redis.call('ZADD', KEYS[3], due, ARGV[5]) end
redis.call('ZREM', KEYS[4], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[5])
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[6]) end
if redis.call('EXISTS', KEYS[7]) == 1 and redis.call('EXISTS', KEYS[8]) == 0 then
  redis.call('RENAME', KEYS[7], KEYS[8])
end
for i = 10, #KEYS do
  redis.call('SREM', KEYS[i], ARGV[4])
  redis.call('SADD', KEYS[i], ARGV[5])
  if ARGV[3] ~= '' then redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
return {1, version}
"""


class RedisStore(StoreBase):
    """The store on a ``redis.asyncio.Redis`` client (with or without ``decode_responses``).

    Keys (``{p}`` = prefix): ``{p}:t:<chat>`` table hash (``v`` version, ``d`` document, ``h``
    its digest),
    ``{p}:timers`` sorted set, ``{p}:u:<user>`` a user's tables, ``{p}:seen:<chat>`` the
    chat's window of update ids,
    ``{p}:prefs:<scope>`` preferences (expire :data:`PREFS_TTL` after their last use). Use a
    different prefix per bot (or per test).
    """

    def __init__(
        self,
        redis: Redis,
        prefix: str = "tapete",
        *,
        dedupe_ttl: int = DEDUPE_TTL,
        owns_client: bool = False,
    ) -> None:
        super().__init__()
        self.redis = redis
        self.prefix = prefix
        self.dedupe_ttl = dedupe_ttl
        self._owns_client = owns_client
        self._timers = f"{prefix}:timers"
        self._publish = f"{prefix}:pub"
        # Channels are the server's, not a database's: the database's number keeps bots on
        # other databases of the server (with the same prefix) out.
        db = redis.connection_pool.connection_kwargs.get("db", 0)
        self._wake = f"{prefix}:wake:{db}"
        self._cas_script = redis.register_script(_CAS)
        self._pub_acquire = redis.register_script(_PUB_ACQUIRE)
        self._pub_release = redis.register_script(_PUB_RELEASE)
        self._pub_extend = redis.register_script(_PUB_EXTEND)
        self._pub_release_many = redis.register_script(_PUB_RELEASE_MANY)
        self._check_script = redis.register_script(_CHECK)
        self._first_time = redis.register_script(_FIRST_TIME)
        self._first_look_script = redis.register_script(_FIRST_LOOK)
        self._claim = redis.register_script(_CLAIM)
        self._claim_sweep = redis.register_script(_CLAIM_SWEEP)
        self._add_user_table = redis.register_script(_ADD_USER_TABLE)
        self._move = redis.register_script(_MOVE)

    @classmethod
    def from_url(cls, url: str, prefix: str = "tapete", *, max_connections: int = 50) -> RedisStore:
        """A store with its own client for ``url``, closed by :meth:`aclose`.

        The pool blocks (up to 10 s) rather than failing when every connection is busy.
        """
        pool = BlockingConnectionPool.from_url(url, max_connections=max_connections, timeout=10)
        return cls(Redis.from_pool(pool), prefix, owns_client=True)

    def table_key(self, chat_id: int) -> str:
        return f"{self.prefix}:t:{chat_id}"

    async def _load(self, chat_id: int) -> Loaded | None:
        version, doc = await self.redis.hmget(self.table_key(chat_id), ["v", "d"])
        if version is None or doc is None:
            return None
        return Loaded(int(version), _decode(doc))

    async def _version(self, chat_id: int) -> int:
        version = await self.redis.hget(self.table_key(chat_id), "v")
        return 0 if version is None else int(version)

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
        args = [
            str(expected_version),
            "delete" if doc is None else "save",
            doc or "",
            "" if timer_at is None else repr(float(timer_at)),
            "" if ttl is None else str(ttl),
            str(chat_id),
            "" if update_id is None else str(update_id),
            repr(time.time() + PUBLISH_GRACE),
            lock or "",
            str(int(PUBLISH_LEASE * 1000)),
            "" if expected_doc is None else doc_digest(expected_doc),
            "" if doc is None else doc_digest(doc),
            str(DEDUPE_KEEP),
            str(self.dedupe_ttl),
            "" if held is None else held.token,
            str(held.spent[0] if held else 0),
            str(held.spent[1] if held else 0),
            repr(time.time()),
        ]
        if held is not None:
            for key, value in held.shown.items():
                args += [key, value]
        keys = [
            self.table_key(chat_id),
            self._timers,
            self._seen_key(chat_id),
            self._publish,
            f"{self.prefix}:lock:{chat_id}",
            f"{self.prefix}:shown:{chat_id}",
            group_key(self.prefix, chat_id),
            bot_key(self.prefix),
        ]
        if doc is not None:
            keys.extend(self._user_key(u) for u in users)
        reply = await self._cas_script(keys=keys, args=args)
        outcome = _outcome(reply)
        if held is not None and int(reply[0]) == 1 and len(reply) > 2 and int(reply[2]) == 2:
            return outcome._replace(shown=dict(held.shown))
        return outcome

    async def _check(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        digest = "" if expected_doc is None else doc_digest(expected_doc)
        reply = await self._check_script(
            keys=[self.table_key(chat_id)], args=[expected_version, digest]
        )
        return _outcome(reply)

    def _seen_key(self, chat_id: int) -> str:
        return f"{self.prefix}:seen:{chat_id}"

    def _user_key(self, user_id: int) -> str:
        return f"{self.prefix}:u:{user_id}"

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

    async def due_timers(self, now: float, limit: int = 100) -> list[int]:
        self._count("due_timers")
        members = await self.redis.zrangebyscore(self._timers, "-inf", repr(now), 0, limit)
        return [int(_decode(m)) for m in members]

    async def claim_due(
        self, now: float, *, lease: float = TIMER_LEASE, limit: int = 100
    ) -> list[int]:
        self._count("claim_due")
        args = [repr(float(now)), repr(float(now + lease)), str(limit), f"{self.prefix}:t:"]
        claimed = await self._claim(keys=[self._timers], args=args)
        return [int(_decode(m)) for m in claimed]

    async def timer_of(self, chat_id: int) -> float | None:
        self._count("timer_of")
        score = await self.redis.zscore(self._timers, str(chat_id))
        return None if score is None else float(score)

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float = PUBLISH_LEASE
    ) -> dict[str, str] | None:
        self._count("pub_acquire")
        since = time.monotonic()
        keys = [f"{self.prefix}:lock:{chat_id}", f"{self.prefix}:shown:{chat_id}"]
        args: list[str | int] = [token, int(lease * 1000), str(chat_id), self._wake]
        reply = await self._pub_acquire(keys=keys, args=args)
        if int(reply[0]) != 1:
            return None
        self._leased(chat_id, lease, since)
        flat = [_decode(x) for x in reply[1:]]
        return dict(zip(flat[::2], flat[1::2], strict=True))

    async def pub_extend(self, chat_id: int, token: str, lease: float = PUBLISH_LEASE) -> bool:
        self._count("pub_extend")
        since = time.monotonic()
        keys = [f"{self.prefix}:lock:{chat_id}"]
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
            await pubsub.aclose()  # type: ignore[no-untyped-call]

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
        self._count("pub_release")
        keys = [
            f"{self.prefix}:lock:{chat_id}",
            f"{self.prefix}:shown:{chat_id}",
            self.table_key(chat_id),
            self._publish,
            group_key(self.prefix, chat_id),
            bot_key(self.prefix),
        ]
        args: list[Any] = [
            token,
            str(version),
            "" if retry_at is None else repr(float(retry_at)),
            str(chat_id),
            "" if ttl is None else str(_positive_ttl(ttl)),
            int(lease * 1000),
            repr(time.time()),
            spent[0],
            spent[1],
        ]
        for key, value in shown.items():
            args += [key, value]
        since = time.monotonic()
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
        keys = [self._publish, bot_key(self.prefix)]
        args: list[Any] = [
            repr(time.time()),
            int(PUBLISH_LEASE * 1000),
            "" if ttl is None else str(_positive_ttl(ttl)),
        ]
        for chat, token, version, shown, spent in items:
            keys += [
                f"{self.prefix}:lock:{chat}",
                f"{self.prefix}:shown:{chat}",
                self.table_key(chat),
                group_key(self.prefix, chat),
            ]
            args += [token, str(version), str(chat), spent[0], spent[1], 2 * len(shown)]
            for key, value in shown.items():
                args += [key, value]
        since = time.monotonic()
        reply = [_decode(x) for x in await self._pub_release_many(keys=keys, args=args)]
        return [
            self._released(chat, reply[3 * i], reply[3 * i + 1 : 3 * i + 3], PUBLISH_LEASE, since)
            for i, (chat, *_) in enumerate(items)
        ]

    def budget(self) -> Budget:
        return RedisBudget(self.redis, self.prefix)

    async def claim_publish(
        self, now: float, *, lease: float = PUBLISH_RETRY, limit: int = 100
    ) -> list[int]:
        self._count("claim_publish")
        args = [repr(float(now)), repr(float(now + lease)), str(limit), f"{self.prefix}:t:"]
        claimed = await self._claim(keys=[self._publish], args=args)
        return [int(_decode(m)) for m in claimed]

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        self._count("claim_sweep")
        args = [
            repr(float(now)),
            repr(float(now + TIMER_LEASE)),
            repr(float(now + PUBLISH_RETRY)),
            str(limit),
            f"{self.prefix}:t:",
            process,
            repr(float(alive_for)),
        ]
        keys = [self._timers, self._publish, f"{self.prefix}:procs"]
        timers, pubs, processes = await self._claim_sweep(keys=keys, args=args)
        return Sweep(
            [int(_decode(m)) for m in timers], [int(_decode(m)) for m in pubs], int(processes)
        )

    async def publish_due(self, chat_id: int) -> float | None:
        self._count("publish_due")
        score = await self.redis.zscore(self._publish, str(chat_id))
        return None if score is None else float(score)

    async def ttl_of(self, chat_id: int) -> float | None:
        self._count("ttl_of")
        ms = await self.redis.pttl(self.table_key(chat_id))
        return None if ms < 0 else ms / 1000

    async def add_user_table(self, user_id: int, chat_id: int, ttl: int | None = None) -> None:
        self._count("add_user_table")
        ttl_arg = "" if ttl is None else str(_positive_ttl(ttl))
        await self._add_user_table(keys=[f"{self.prefix}:u:{user_id}"], args=[chat_id, ttl_arg])

    async def remove_user_table(self, user_id: int, chat_id: int) -> None:
        self._count("remove_user_table")
        await self.redis.srem(f"{self.prefix}:u:{user_id}", str(chat_id))

    async def user_tables(self, user_id: int) -> list[int]:
        self._count("user_tables")
        members = await self.redis.smembers(f"{self.prefix}:u:{user_id}")
        return sorted(int(_decode(m)) for m in members)

    async def get_prefs(self, scope: str) -> dict[str, str]:
        self._count("get_prefs")
        key = f"{self.prefix}:prefs:{scope}"
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
        key = f"{self.prefix}:prefs:{scope}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=mapping)
            pipe.expire(key, PREFS_TTL)
            await pipe.execute()

    async def aclose(self) -> None:
        if self._owns_client:
            await self.redis.aclose()

    async def backlog(self, now: float) -> tuple[int, int]:
        self._count("backlog")
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcard(self._publish)
            pipe.zcount(self._timers, "-inf", repr(float(now)))
            waiting, due = await pipe.execute()
        return int(waiting), int(due)

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
        p = self.prefix
        keys = [
            self.table_key(old_chat),
            self.table_key(new_chat),
            self._timers,
            self._publish,
            f"{p}:shown:{old_chat}",
            f"{p}:shown:{new_chat}",
            f"{p}:prefs:chat:{old_chat}",
            f"{p}:prefs:chat:{new_chat}",
            f"{p}:lock:{old_chat}",
            *(self._user_key(u) for u in users),
        ]
        args = [
            str(expected_version),
            doc,
            "" if ttl is None else str(_positive_ttl(ttl)),
            str(old_chat),
            str(new_chat),
            repr(time.time() + PUBLISH_GRACE),
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


def _positive_ttl(ttl: int) -> int:
    if ttl <= 0:
        raise ValueError(f"ttl must be positive seconds, not {ttl}")
    return math.ceil(ttl)


def doc_digest(doc: str) -> str:
    """A short digest of a document, kept beside it (field ``h``) and compared with the copy a
    write was based on: after a rollback a version number may come back with another document.

    >>> doc_digest("{}") == doc_digest("{}") != doc_digest("{ }")
    True
    """
    return hashlib.blake2b(doc.encode(), digest_size=12).hexdigest()


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
            self._data.locks[chat_id] = (lock, time.monotonic() + PUBLISH_LEASE)
            self._data.publish[chat_id] = time.time() + PUBLISH_GRACE
            return Outcome(True, version, shown=dict(held.shown))
        if taken is None or taken[1] <= time.monotonic():
            self._data.locks[chat_id] = (lock, time.monotonic() + PUBLISH_LEASE)
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
        expires_at = old_expiry if ttl is None else self._clock() + _positive_ttl(ttl)
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
        expires_at = None if ttl is None else self._clock() + _positive_ttl(ttl)
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


def open_store(
    redis: Redis | None = None,
    url: str | None = None,
    prefix: str = "tapete",
    sqlite_path: str | None = None,
) -> Store:
    """The store the bot uses: on ``redis`` if given, else on ``url``, else in the SQLite file
    ``sqlite_path``, else in memory."""
    if redis is not None:
        return RedisStore(redis, prefix)
    if url:
        return RedisStore.from_url(url, prefix)
    if sqlite_path:
        from bot.sqlite_store import SQLiteStore

        return SQLiteStore(sqlite_path)
    return MemoryStore()
