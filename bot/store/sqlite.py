"""A store in one SQLite file: tables survive a restart with nothing to install.

:class:`SQLiteStore` has :class:`~bot.store.redis.RedisStore`'s semantics (the conformance suite in
``tests/bot/test_storage.py`` runs on every store): versioned compare-and-set documents checked
against the document they were based on, update de-duplication in the same write, turn timers
and publications claimed with leases, user links, preferences, expiry. Every operation is one
SQLite transaction (``BEGIN IMMEDIATE`` for writes), so several processes on one machine may
share the file; it is made for one machine and a few hundred tables: beyond that, or for
processes on several machines, use Redis (``REDIS_URL``).

The file uses write-ahead logging; calls run in a worker thread so the event loop never waits
on the disk.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import TypeVar

from bot.store.base import StoreBase
from bot.store.budget import Budget
from bot.store.rules import (
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
    seen_before,
)
from bot.store.sqlite_budget import SQLiteBudget, spend_calls

__all__ = ["SQLiteStore"]

#: The tables, made if missing when a store opens.
_SCHEMA = files(__package__ or "bot.store") / "schema.sql"

#: Seconds between two deletions of expired rows (done by the timer sweep).
PURGE_EVERY = 60.0

T = TypeVar("T")


class SQLiteStore(StoreBase):
    """The store in the SQLite file at ``path`` (created with its directory if missing).

    ``clock`` and ``monotonic``: see "Time" in :mod:`bot.store`. ``temporary``: the file and
    its directory are removed by :meth:`aclose`, or when the store is collected or the process
    exits (tables lost on restart).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        dedupe_ttl: int = DEDUPE_TTL,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        timings: Timings | None = None,
        temporary: bool = False,
    ) -> None:
        super().__init__(clock=clock, monotonic=monotonic, timings=timings)
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.dedupe_ttl = dedupe_ttl
        # A temporary file goes with the store: on aclose, else when it is collected or at exit.
        self._removal = (
            weakref.finalize(self, shutil.rmtree, self.path.parent, True) if temporary else None
        )
        self._budget = SQLiteBudget(lambda fn: self._run(None, True, fn), clock)
        self._purged = 0.0
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, timeout=30, isolation_level=None, check_same_thread=False
        )
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA.read_text(encoding="utf-8"))

    async def run(self, fn: Callable[[sqlite3.Connection], T], *, write: bool = False) -> T:
        """``fn`` in one transaction of the file (``BEGIN IMMEDIATE`` when it writes), in a
        worker thread: for what is kept beside the tables (:mod:`bot.records.store`)."""
        return await self._run(None, write, fn)

    async def _run(self, op: str | None, write: bool, fn: Callable[[sqlite3.Connection], T]) -> T:
        if op is not None:
            self._count(op)
        return await asyncio.to_thread(self._transaction, write, fn)

    def _transaction(self, write: bool, fn: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = fn(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

    def _now(self) -> float:
        return self.clock()

    def _live(self, db: sqlite3.Connection, chat: int) -> tuple[int, str] | None:
        row = db.execute("SELECT v, d, expires FROM tables WHERE chat = ?", (chat,)).fetchone()
        if row is None:
            return None
        if row[2] is not None and row[2] <= self._now():
            return None
        return int(row[0]), str(row[1])

    def _outcome_current(self, db: sqlite3.Connection, chat: int) -> Outcome:
        live = self._live(db, chat)
        return Outcome(False, 0, None if live is None else Loaded(*live))

    # ---- tables ---------------------------------------------------------------------------

    async def _load(self, chat_id: int) -> Loaded | None:
        live = await self._run(None, False, lambda db: self._live(db, chat_id))
        return None if live is None else Loaded(*live)

    async def _heads(self, chats: list[int]) -> list[tuple[int, str | None] | None]:
        def fn(db: sqlite3.Connection) -> list[tuple[int, str | None] | None]:
            lives = [self._live(db, chat) for chat in chats]
            return [None if live is None else (live[0], doc_digest(live[1])) for live in lives]

        return await self._run(None, False, fn)

    async def _version(self, chat_id: int) -> int:
        live = await self._run(None, False, lambda db: self._live(db, chat_id))
        return 0 if live is None else live[0]

    def _matches(self, db: sqlite3.Connection, chat: int, version: int, doc: str | None) -> bool:
        live = self._live(db, chat)
        if live is None:
            return version == 0
        return live[0] == version and (doc is None or live[1] == doc)

    def _next_version(self, db: sqlite3.Connection, previous: int | None) -> int:
        stamp = int(self._now() * 1_000_000)
        if previous is not None:
            return previous + 1
        row = db.execute("SELECT v FROM meta WHERE k = 'last_first'").fetchone()
        version = max(stamp, (int(row[0]) if row else 0) + 1)
        db.execute("INSERT OR REPLACE INTO meta (k, v) VALUES ('last_first', ?)", (version,))
        return version

    async def _cas(self, write: TableWrite) -> Outcome:
        def fn(db: sqlite3.Connection) -> Outcome:
            if not self._matches(db, write.chat_id, write.expected_version, write.expected_doc):
                return self._outcome_current(db, write.chat_id)
            if write.update_id is not None and not self._mark_seen(
                db, write.chat_id, write.update_id
            ):
                return Outcome(False, duplicate=True)
            if write.doc is None:
                for table in ("tables", "timers", "publish"):
                    db.execute(f"DELETE FROM {table} WHERE chat = ?", (write.chat_id,))
                return Outcome(True, 0)
            db.execute(
                "INSERT OR IGNORE INTO publish (chat, due) VALUES (?, ?)",
                (write.chat_id, self._now() + self.timings.publish_grace),
            )
            live = self._live(db, write.chat_id)
            version = self._next_version(db, None if live is None else live[0])
            expires = None if write.ttl is None else self._now() + write.ttl
            db.execute(
                "INSERT OR REPLACE INTO tables (chat, v, d, expires) VALUES (?, ?, ?, ?)",
                (write.chat_id, version, write.doc, expires),
            )
            if write.timer_at is None:
                db.execute("DELETE FROM timers WHERE chat = ?", (write.chat_id,))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO timers (chat, due) VALUES (?, ?)",
                    (write.chat_id, float(write.timer_at)),
                )
            for user_id in write.users:
                self._link_user(db, user_id, write.chat_id, write.ttl)
            if write.lock is None:
                return Outcome(True, version)
            if write.held is not None and self._holds(db, write.chat_id, write.held.token):
                # This store's held publication ends here: what it showed, what it spent.
                self._store_shown(db, write.chat_id, write.held.shown)
                db.execute(
                    "UPDATE locks SET token = ?, until = ? WHERE chat = ?",
                    (write.lock, self._now() + self.publish_lease, write.chat_id),
                )
                db.execute(
                    "UPDATE publish SET due = ? WHERE chat = ?",
                    (self._now() + self.timings.publish_grace, write.chat_id),
                )
                spend_calls(db, write.chat_id, write.held.spent, self._now())
                return Outcome(True, version, shown=dict(write.held.shown))
            if self._take_lock(db, write.chat_id, write.lock, self.publish_lease):
                return Outcome(True, version, shown=self._shown(db, write.chat_id))
            return Outcome(True, version)

        return await self._run(None, True, fn)

    async def _check(
        self, chat_id: int, expected_version: int, expected_doc: str | None = None
    ) -> Outcome:
        def fn(db: sqlite3.Connection) -> Outcome:
            if self._matches(db, chat_id, expected_version, expected_doc):
                return Outcome(True)
            return self._outcome_current(db, chat_id)

        return await self._run(None, False, fn)

    # ---- update ids -----------------------------------------------------------------------

    def _mark_seen(self, db: sqlite3.Connection, chat_id: int, update_id: int) -> bool:
        """The chat's window of update ids (:func:`~bot.store.rules.seen_before`)."""
        now = self._now()
        row = db.execute("SELECT ids, expires FROM windows WHERE chat = ?", (chat_id,)).fetchone()
        window = [int(x) for x in str(row[0]).split()] if row is not None and row[1] > now else []
        after = seen_before(window, update_id)
        if after is None:
            return False
        db.execute(
            "INSERT OR REPLACE INTO windows (chat, ids, expires) VALUES (?, ?, ?)",
            (chat_id, " ".join(map(str, after)), now + self.dedupe_ttl),
        )
        return True

    async def first_time(self, update_id: int, chat_id: int) -> bool:
        return await self._run(
            "first_time", True, lambda db: self._mark_seen(db, chat_id, update_id)
        )

    async def _first_look(
        self, chat_id: int, update_id: int, version: int, doc: str | None
    ) -> tuple[bool, Outcome]:
        def fn(db: sqlite3.Connection) -> tuple[bool, Outcome]:
            first = self._mark_seen(db, chat_id, update_id)
            if version >= 0 and self._matches(db, chat_id, version, doc):
                return first, Outcome(True)
            return first, self._outcome_current(db, chat_id)

        return await self._run(None, True, fn)

    # ---- timers and publications ------------------------------------------------------------

    def _claim(
        self, db: sqlite3.Connection, table: str, now: float, until: float, limit: int
    ) -> list[int]:
        rows = db.execute(
            f"SELECT chat FROM {table} WHERE due <= ? ORDER BY due, chat LIMIT ?",
            (now, limit),
        ).fetchall()
        claimed = []
        for (chat,) in rows:
            if self._live(db, chat) is None:
                db.execute(f"DELETE FROM {table} WHERE chat = ?", (chat,))
            else:
                db.execute(f"UPDATE {table} SET due = ? WHERE chat = ?", (until, chat))
                claimed.append(int(chat))
        return claimed

    def _purge(self, db: sqlite3.Connection) -> None:
        """Delete what has expired (a Redis key with a TTL disappears on its own)."""
        now = self._purged = self._now()
        db.execute("DELETE FROM tables WHERE expires <= ?", (now,))
        db.execute("DELETE FROM windows WHERE expires <= ?", (now,))
        gone = "SELECT user FROM user_ttl WHERE expires <= ?"
        db.execute(f"DELETE FROM users WHERE user IN ({gone})", (now,))
        db.execute("DELETE FROM user_ttl WHERE expires <= ?", (now,))
        old = "SELECT scope FROM prefs_ttl WHERE expires <= ?"
        db.execute(f"DELETE FROM prefs WHERE scope IN ({old})", (now,))
        db.execute("DELETE FROM prefs_ttl WHERE expires <= ?", (now,))
        db.execute("DELETE FROM shown WHERE chat NOT IN (SELECT chat FROM tables)")
        db.execute("DELETE FROM locks WHERE until <= ?", (self._now(),))
        db.execute("DELETE FROM quiet WHERE until <= ?", (now,))
        db.execute("DELETE FROM buckets WHERE at <= ?", (now - 3600,))  # full again long since
        db.execute("DELETE FROM rec_done WHERE expires <= ?", (now,))
        db.execute("DELETE FROM rec_hands WHERE expires <= ?", (now,))

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        def fn(db: sqlite3.Connection) -> Sweep:
            if self._now() - self._purged > PURGE_EVERY:
                self._purge(db)
            timers = self._claim(db, "timers", now, now + self.timings.timer_lease, limit)
            pubs = self._claim(db, "publish", now, now + self.timings.publish_retry, limit)
            if not process:
                return Sweep(timers, pubs)
            db.execute("INSERT OR REPLACE INTO procs (id, seen) VALUES (?, ?)", (process, now))
            db.execute("DELETE FROM procs WHERE seen < ?", (now - alive_for,))
            count = db.execute("SELECT COUNT(*) FROM procs").fetchone()[0]
            return Sweep(timers, pubs, int(count))

        return await self._run("claim_sweep", True, fn)

    async def drop_timer(self, chat_id: int) -> bool:
        def fn(db: sqlite3.Connection) -> bool:
            if self._live(db, chat_id) is not None:
                return False
            return db.execute("DELETE FROM timers WHERE chat = ?", (chat_id,)).rowcount > 0

        return await self._run("drop_timer", True, fn)

    async def backlog(self, now: float) -> tuple[int, int]:
        def fn(db: sqlite3.Connection) -> tuple[int, int]:
            waiting = db.execute("SELECT COUNT(*) FROM publish").fetchone()[0]
            due = db.execute("SELECT COUNT(*) FROM timers WHERE due <= ?", (now,)).fetchone()[0]
            return int(waiting), int(due)

        return await self._run("backlog", False, fn)

    def _take_lock(self, db: sqlite3.Connection, chat_id: int, token: str, lease: float) -> bool:
        row = db.execute("SELECT until FROM locks WHERE chat = ?", (chat_id,)).fetchone()
        if row is not None and row[0] > self._now():
            return False
        db.execute(
            "INSERT OR REPLACE INTO locks (chat, token, until) VALUES (?, ?, ?)",
            (chat_id, token, self._now() + lease),
        )
        return True

    def _holds(self, db: sqlite3.Connection, chat_id: int, token: str) -> bool:
        row = db.execute("SELECT token, until FROM locks WHERE chat = ?", (chat_id,)).fetchone()
        return row is not None and row[0] == token and row[1] > self._now()

    @staticmethod
    def _store_shown(db: sqlite3.Connection, chat_id: int, shown: dict[str, str]) -> None:
        db.execute("DELETE FROM shown WHERE chat = ?", (chat_id,))
        db.executemany(
            "INSERT INTO shown (chat, k, v) VALUES (?, ?, ?)",
            [(chat_id, k, v) for k, v in shown.items()],
        )

    @staticmethod
    def _shown(db: sqlite3.Connection, chat_id: int) -> dict[str, str]:
        rows = db.execute("SELECT k, v FROM shown WHERE chat = ?", (chat_id,))
        return {str(k): str(v) for k, v in rows}

    def budget(self) -> Budget:
        """Telegram's budget in the file, shared by the processes on it."""
        return self._budget

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float | None = None
    ) -> dict[str, str] | None:
        lease = self.publish_lease if lease is None else lease

        def fn(db: sqlite3.Connection) -> dict[str, str] | None:
            if not self._take_lock(db, chat_id, token, lease):
                return None
            return self._shown(db, chat_id)

        since = self.monotonic()
        found = await self._run("pub_acquire", True, fn)
        if found is not None:
            self._leased(chat_id, lease, since)
        return found

    async def pub_extend(self, chat_id: int, token: str, lease: float | None = None) -> bool:
        lease = self.publish_lease if lease is None else lease
        since = self.monotonic()

        def fn(db: sqlite3.Connection) -> bool:
            now = self._now()
            cursor = db.execute(
                "UPDATE locks SET until = ? WHERE chat = ? AND token = ? AND until > ?",
                (now + lease, chat_id, token, now),
            )
            return cursor.rowcount == 1

        kept: bool = await self._run("pub_extend", True, fn)
        self._leased(chat_id, lease if kept else None, since)
        return kept

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

        def fn(db: sqlite3.Connection) -> Released:
            spend_calls(db, chat_id, spent, self._now())
            if not self._holds(db, chat_id, token):
                return Released(False, lost=True)
            self._store_shown(db, chat_id, shown)
            if retry_at is not None:
                db.execute(
                    "INSERT OR REPLACE INTO publish (chat, due) VALUES (?, ?)", (chat_id, retry_at)
                )
                db.execute("DELETE FROM locks WHERE chat = ?", (chat_id,))
                return Released(True)
            live = self._live(db, chat_id)
            if live is None or live[0] == version:
                db.execute("DELETE FROM publish WHERE chat = ?", (chat_id,))
                db.execute("DELETE FROM locks WHERE chat = ?", (chat_id,))
                if live is None:
                    db.execute("DELETE FROM shown WHERE chat = ?", (chat_id,))
                return Released(True)
            db.execute("UPDATE locks SET until = ? WHERE chat = ?", (self._now() + lease, chat_id))
            return Released(False, version=live[0], doc=live[1])

        since = self.monotonic()
        released: Released = await self._run("pub_release", True, fn)
        self._leased(chat_id, None if released.done or released.lost else lease, since)
        if released.doc is not None:
            self._remember(chat_id, Loaded(released.version, released.doc))
        return released

    def _user_chats(self, db: sqlite3.Connection, user_id: int) -> list[int]:
        row = db.execute("SELECT expires FROM user_ttl WHERE user = ?", (user_id,)).fetchone()
        if row is not None and row[0] is not None and row[0] <= self._now():
            return []
        rows = db.execute("SELECT chat FROM users WHERE user = ?", (user_id,))
        return sorted(int(r[0]) for r in rows)

    def _link_user(
        self, db: sqlite3.Connection, user_id: int, chat_id: int, ttl: int | None
    ) -> None:
        row = db.execute("SELECT expires FROM user_ttl WHERE user = ?", (user_id,)).fetchone()
        if row is not None and row[0] is not None and row[0] <= self._now():
            db.execute("DELETE FROM users WHERE user = ?", (user_id,))
            row = None
        db.execute("INSERT OR IGNORE INTO users (user, chat) VALUES (?, ?)", (user_id, chat_id))
        expires = (row[0] if row else None) if ttl is None else self._now() + positive_ttl(ttl)
        db.execute(
            "INSERT OR REPLACE INTO user_ttl (user, expires) VALUES (?, ?)", (user_id, expires)
        )

    async def remove_user_table(self, user_id: int, chat_id: int) -> None:
        def fn(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM users WHERE user = ? AND chat = ?", (user_id, chat_id))

        await self._run("remove_user_table", True, fn)

    async def user_tables(self, user_id: int) -> list[int]:
        return await self._run("user_tables", False, lambda db: self._user_chats(db, user_id))

    def _prefs(self, db: sqlite3.Connection, scope: str) -> dict[str, str]:
        row = db.execute("SELECT expires FROM prefs_ttl WHERE scope = ?", (scope,)).fetchone()
        if row is not None and row[0] <= self._now():
            db.execute("DELETE FROM prefs WHERE scope = ?", (scope,))
            db.execute("DELETE FROM prefs_ttl WHERE scope = ?", (scope,))
            return {}
        rows = db.execute("SELECT k, v FROM prefs WHERE scope = ?", (scope,))
        return {str(k): str(v) for k, v in rows}

    async def get_prefs(self, scope: str) -> dict[str, str]:
        def fn(db: sqlite3.Connection) -> dict[str, str]:
            found = self._prefs(db, scope)
            if found:
                db.execute(
                    "UPDATE prefs_ttl SET expires = ? WHERE scope = ?",
                    (self._now() + PREFS_TTL, scope),
                )
            return found

        return await self._run("get_prefs", True, fn)

    async def set_prefs(self, scope: str, values: dict[str, str]) -> None:
        if not values:
            return

        def fn(db: sqlite3.Connection) -> None:
            self._prefs(db, scope)  # drops them if they had expired
            db.executemany(
                "INSERT OR REPLACE INTO prefs (scope, k, v) VALUES (?, ?, ?)",
                [(scope, k, v) for k, v in values.items()],
            )
            db.execute(
                "INSERT OR REPLACE INTO prefs_ttl (scope, expires) VALUES (?, ?)",
                (scope, self._now() + PREFS_TTL),
            )

        await self._run("set_prefs", True, fn)

    # ---- a chat that changes id -------------------------------------------------------------

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
        def fn(db: sqlite3.Connection) -> int | None:
            live = self._live(db, old_chat)
            if live is None or live[0] != expected_version:
                return None
            if self._live(db, new_chat) is not None:
                raise ChatTaken(f"chat {new_chat} has a table already")
            version = self._next_version(db, None)
            expires = None if ttl is None else self._now() + positive_ttl(ttl)
            db.execute(
                "INSERT OR REPLACE INTO tables (chat, v, d, expires) VALUES (?, ?, ?, ?)",
                (new_chat, version, doc, expires),
            )
            db.execute("DELETE FROM tables WHERE chat = ?", (old_chat,))
            db.execute("DELETE FROM locks WHERE chat = ?", (old_chat,))
            db.execute("UPDATE timers SET chat = ? WHERE chat = ?", (new_chat, old_chat))
            db.execute("DELETE FROM publish WHERE chat IN (?, ?)", (old_chat, new_chat))
            db.execute(
                "INSERT INTO publish (chat, due) VALUES (?, ?)",
                (new_chat, self._now() + self.timings.publish_grace),
            )
            db.execute("DELETE FROM shown WHERE chat = ?", (new_chat,))
            db.execute("UPDATE shown SET chat = ? WHERE chat = ?", (new_chat, old_chat))
            old_scope, new_scope = f"chat:{old_chat}", f"chat:{new_chat}"
            if self._prefs(db, old_scope) and not self._prefs(db, new_scope):
                db.execute("UPDATE prefs SET scope = ? WHERE scope = ?", (new_scope, old_scope))
                db.execute("UPDATE prefs_ttl SET scope = ? WHERE scope = ?", (new_scope, old_scope))
            for user_id in users:
                db.execute("DELETE FROM users WHERE user = ? AND chat = ?", (user_id, old_chat))
                self._link_user(db, user_id, new_chat, ttl)
            return version

        version = await self._run("move_table", True, fn)
        if version is None:
            self._remember(old_chat, await self._load(old_chat))
            return None
        self._remember(old_chat, None)
        self._remember(new_chat, Loaded(version, doc))
        return version

    async def aclose(self) -> None:
        with self._lock:
            self._db.close()
        if self._removal is not None:
            self._removal()
