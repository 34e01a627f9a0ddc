"""Table storage: versioned JSON documents, update de-duplication, turn timers, publications.

The rules are written once (:mod:`bot.store.rules`, the interface :class:`Store`, what every
back-end shares in :class:`~bot.store.base.StoreBase`); the back-ends are thin:
:class:`RedisStore` (:mod:`bot.store.redis`, Lua scripts in ``lua/``; several bot processes,
on several machines, can share one Redis) and :class:`SQLiteStore` (:mod:`bot.store.sqlite`,
one file: processes of one machine). Every method is one round trip; ``update_table`` is
usually one too (below).

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
    The store then also remembers the newer copy it had (:meth:`StoreBase.take_behind`): what
    Telegram shows may be that copy's, and the publisher shows the table again as it is. A
    table nothing touches after a rollback is found by :meth:`StoreBase.look_behind` (the
    sweep's, every ``Timings.look_behind`` seconds: the versions and digests of the tables the
    store saw last, one round trip; at once, and at every table it saw, after the store failed
    or a cluster's master changed: :meth:`StoreBase.look_all_soon`), before another process's
    writes on the restored table reach the version of the lost ones (after that, a version
    number says nothing).

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
    :meth:`Store.claim_sweep` atomically takes the due tables and leases them (moves their
    score :data:`TIMER_LEASE` seconds ahead): two processes sweeping at once never get the same
    table, and if the process that claimed a table dies before firing, the lease runs out and
    another process fires it. Firing is an ``update_table`` whose function checks the document's
    own deadline and turn token (the document carries them), so a timer made stale by a move in
    between does nothing; the CAS write that plays the default move also sets the next timer.
    Members whose table has expired are dropped by the claim.

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
    before it has published, any process sweeping that set (:meth:`Store.claim_sweep`) takes
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

Time
    A store reads no clock of its own: ``clock`` (unix time, default :func:`time.time`) gives
    the publications' due times and the budget's refills, and with SQLite also expiry, locks and
    first versions (Redis keeps those by its server's clock); ``monotonic`` (default
    :func:`time.monotonic`) measures how long a lock this process took surely stays its own.
    Tests pass their own to drive time, and their own :class:`Timings` (the leases, the grace
    before another process publishes a write, the retry of a claimed publication).

``round_trips`` counts the calls made to the store (one per method call) and ``ops`` splits them
by operation.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bot.store.base import StoreBase
from bot.store.budget import Budget, Where
from bot.store.cluster import Client
from bot.store.protocol import Store
from bot.store.redis import RedisStore
from bot.store.rules import (
    DEDUPE_KEEP,
    DEDUPE_TTL,
    PREFS_TTL,
    PUBLISH_GRACE,
    PUBLISH_LEASE,
    PUBLISH_RETRY,
    TIMER_LEASE,
    ChatTaken,
    DuplicateUpdate,
    Held,
    Loaded,
    Outcome,
    Released,
    Sweep,
    TableConflict,
    Timings,
    UpdateFn,
    Write,
    doc_digest,
    older_than,
)
from bot.store.sqlite import SQLiteStore

__all__ = [
    "DEDUPE_KEEP",
    "DEDUPE_TTL",
    "PREFS_TTL",
    "PUBLISH_GRACE",
    "PUBLISH_LEASE",
    "PUBLISH_RETRY",
    "TIMER_LEASE",
    "Budget",
    "ChatTaken",
    "Client",
    "DuplicateUpdate",
    "Held",
    "Loaded",
    "Outcome",
    "RedisStore",
    "Released",
    "SQLiteStore",
    "Store",
    "StoreBase",
    "Sweep",
    "TableConflict",
    "Timings",
    "UpdateFn",
    "Where",
    "Write",
    "doc_digest",
    "older_than",
    "open_store",
]


def open_store(
    redis: Client | None = None,
    url: str | None = None,
    prefix: str = "tapete",
    sqlite_path: str | None = None,
    *,
    cluster: bool = False,
) -> Store:
    """The store the bot uses: on ``redis`` if given, else on ``url`` (with ``cluster``, a node
    of a Redis Cluster), else in the SQLite file
    ``sqlite_path``, else in a temporary SQLite file (removed when the store closes: tables are
    lost on restart)."""
    if redis is not None:
        return RedisStore(redis, prefix)
    if url:
        return RedisStore.from_url(url, prefix, cluster=cluster)
    if sqlite_path:
        return SQLiteStore(sqlite_path)
    directory = Path(tempfile.mkdtemp(prefix="tapete-"))
    return SQLiteStore(directory / "tapete.sqlite3", temporary=True)
