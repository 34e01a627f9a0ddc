"""The store's interface: what every back-end promises (see :mod:`bot.store`)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from typing import Protocol, TypeVar, runtime_checkable

from bot.store.budget import Budget
from bot.store.rules import (
    Held,
    Loaded,
    Released,
    Sweep,
    UpdateFn,
)

__all__ = ["Store"]

T = TypeVar("T")


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

    def behind(self) -> list[int]:
        """The tables this store found behind a copy it saw (a rollback)."""
        ...

    def take_behind(self, chat_id: int) -> list[Loaded]:
        """The newer copies of a table found behind (see :meth:`StoreBase.take_behind`), once."""
        ...

    async def look_behind(self, limit: int = 200) -> list[int]:
        """Mark the tables seen last that a rollback left behind, untouched since (see
        :meth:`StoreBase.look_behind`); returns them."""
        ...

    def put_behind(self, chat_id: int, copies: list[Loaded]) -> None:
        """Give back copies taken by :meth:`take_behind` (not dealt with after all)."""
        ...

    def look_all_soon(self) -> None:
        """The next :meth:`look_behind` looks at once at every table this store saw (the store
        failed: it may come back with older data)."""
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

    async def pub_acquire(
        self, chat_id: int, token: str, lease: float | None = None
    ) -> dict[str, str] | None:
        """Take the table's publishing lock for ``lease`` seconds (by default the store's
        :class:`~bot.store.rules.Timings`): the shown-message hashes, or ``None`` if another
        process holds it (then it is woken: :meth:`wakeups`)."""
        ...

    async def pub_extend(self, chat_id: int, token: str, lease: float | None = None) -> bool:
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
        lease: float | None = None,
        spent: tuple[int, int] = (0, 0),
    ) -> Released:
        """Store ``shown``; free the lock if ``version`` is current (or with ``retry_at``, which
        schedules another try), else keep it and return the current version. ``spent``: Bot
        API calls the publication made to the group and in all, taken from the budget
        (:mod:`bot.store.budget`) in the same round trip."""
        ...

    def budget(self) -> Budget:
        """Telegram's budget on the same storage (:mod:`bot.store.budget`)."""
        ...

    async def claim_sweep(
        self, now: float, *, limit: int = 100, process: str = "", alive_for: float = 5.0
    ) -> Sweep:
        """Atomically take the turn timers and the publications due at ``now``, in one round
        trip, leasing them (:data:`~bot.store.rules.TIMER_LEASE`,
        :data:`~bot.store.rules.PUBLISH_RETRY`: another sweep gets them again only when the lease
        ran out); with ``process`` (an id of the calling process), also note that it is alive and
        count the processes that swept in the last ``alive_for`` seconds."""
        ...

    async def drop_timer(self, chat_id: int) -> bool:
        """Drop the table's turn timer if the table is gone (it expired; a sweep that claimed
        the timer found no table): True when one was dropped."""
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
