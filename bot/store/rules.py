"""The store's rules, written once for every back-end: the timings, the values that travel
(a table as stored, what an update decided, what a compare-and-set found), the errors, and the
checks every back-end makes the same way (the window of update ids, a document's digest).

The semantics are told in :mod:`bot.store`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

__all__ = [
    "DEDUPE_KEEP",
    "DEDUPE_TTL",
    "LOOK_BEHIND",
    "PREFS_TTL",
    "PUBLISH_GRACE",
    "PUBLISH_LEASE",
    "PUBLISH_RETRY",
    "TIMER_LEASE",
    "ChatTaken",
    "DuplicateUpdate",
    "Held",
    "Loaded",
    "Outcome",
    "Released",
    "Sweep",
    "TableConflict",
    "Timings",
    "UpdateFn",
    "Write",
    "doc_digest",
    "older_than",
    "positive_ttl",
    "seen_before",
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
#: Seconds between two looks of a store at the tables it saw last, for a rollback nobody touched
#: (:meth:`StoreBase.look_behind`: one round trip).
LOOK_BEHIND = 5.0
#: Seconds small settings (a group's language) are kept after they were last read or written.
PREFS_TTL = 180 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Timings:
    """A store's timing constants in seconds (the module's by default; tests pass shorter ones):
    a claimed timer's lease, a write's grace before another process publishes it, a publishing
    lock's lease, how soon a claimed publication is due again, and how often the tables seen
    last are looked at for a rollback."""

    timer_lease: float = TIMER_LEASE
    publish_grace: float = PUBLISH_GRACE
    publish_lease: float = PUBLISH_LEASE
    publish_retry: float = PUBLISH_RETRY
    look_behind: float = LOOK_BEHIND


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
class TableWrite:
    """One compare-and-set of a table as every back-end applies it (:meth:`StoreBase._cas`):
    write ``doc`` (``None``: delete) if the table is at ``expected_version``; ``update_id``
    marks the update handled, ``users`` gain the chat among their tables, ``lock`` takes the
    publishing lock, ``held`` is this process's held publication that the write releases,
    ``expected_doc`` the document the cache read (see "Versions")."""

    chat_id: int
    expected_version: int
    doc: str | None
    timer_at: float | None = None
    ttl: int | None = None
    update_id: int | None = None
    users: tuple[int, ...] = ()
    lock: str | None = None
    expected_doc: str | None = None
    held: Held | None = None


@dataclass(frozen=True, slots=True)
class Write(Generic[T]):
    """What an :meth:`Store.update_table` function decided.

    ``doc=None`` (and ``delete=False``) means "change nothing": no write, no round trip.
    Otherwise ``doc`` replaces the table, ``timer_at`` (unix time or ``None``) becomes the table's
    pending timer and ``ttl`` (seconds or ``None`` for no expiry) its time to live.
    ``delete=True`` removes the table and its timer. ``users``: with a ``doc``, also remember
    in the same atomic write that these users sit at this table (:meth:`Store.user_tables`;
    kept ``ttl`` seconds), at no extra round trip.
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


def positive_ttl(ttl: int) -> int:
    """``ttl`` as whole seconds; a time to live must be positive.

    >>> positive_ttl(60)
    60
    """
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


def older_than(found: Loaded, seen: Loaded) -> bool:
    """Whether the store answered ``found`` although this process saw ``seen``: an older
    version, or the same version with another document (a version never repeats otherwise:
    see "Tables" in :mod:`bot.store`).

    >>> older_than(Loaded(5, "a"), Loaded(6, "b")), older_than(Loaded(6, "c"), Loaded(6, "b"))
    (True, True)
    >>> older_than(Loaded(7, "c"), Loaded(6, "b")), older_than(Loaded(6, "b"), Loaded(6, "b"))
    (False, False)
    """
    return found.version < seen.version or (found.version == seen.version and found.doc != seen.doc)
