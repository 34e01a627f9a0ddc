"""Table documents in the store: read one, or change one with a compare-and-set.

Every write of a table goes through :func:`change_table`: load, run a pure function of the
:class:`~bot.table.Table`, compare-and-set the result (retried on conflict, and while Redis
does not answer).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from bot.ops import LOG_TABLE
from bot.services import Services
from bot.store import Loaded, Write
from bot.table import Table
from engine.core import IllegalAction

R = TypeVar("R")


def load_doc(current: Loaded | None) -> Table | None:
    return None if current is None else Table.model_validate_json(current.doc)


async def read_table(svc: Services, chat_id: int) -> Table | None:
    return load_doc(await svc.store.load(chat_id))


def current_table(table: Table | None, tid: str) -> Table:
    """The table a button of table ``tid`` acts on (else ``IllegalAction("stale")``)."""
    if table is None or table.tid != tid or not table.active:
        raise IllegalAction("stale")
    return table


async def peek(svc: Services, chat_id: int, check: Callable[[Table | None], R]) -> R:
    """``check`` (which may raise ``IllegalAction``) on the table as this process last saw it,
    for checks made before a write that checks again (a stale copy that passes costs nothing:
    the compare-and-set refuses it); a refusal is confirmed on the table as it is now."""
    cached = svc.store.is_cached(chat_id)
    try:
        return check(load_doc(await svc.store.cached(chat_id)))
    except IllegalAction:
        if not cached:
            raise
    return check(await read_table(svc, chat_id))


async def change_table(
    svc: Services,
    chat_id: int,
    fn: Callable[[Table | None], tuple[Table | None, R]],
    *,
    update_id: int | None = None,
    users: Iterable[int] = (),
    publish: bool = False,
) -> R:
    """Load, run ``fn`` on a fresh copy, compare-and-set the result (retried on conflict).

    ``fn`` returns ``(table_to_save_or_None, result)``; it may raise ``IllegalAction``, which
    propagates with nothing written. The table's deadline becomes the store's timer.

    With ``update_id`` (a handler's own write for that update; not the follow-up bookkeeping
    writes), the id is de-duplicated in the same round trip as the write: a duplicate delivery
    (here or in another process) writes nothing and raises
    :class:`~bot.store.DuplicateUpdate`.

    ``users``: if the table is written, the store also records (in the same write) that these
    users sit at it (:meth:`~bot.store.Store.user_tables`).

    ``publish``: the caller publishes the table right after (:func:`bot.publisher.flush`): the
    write also takes the table's publishing lock when it is free, saving a round trip.
    """
    linked = tuple(users)
    token = secrets.token_hex(8) if publish else None

    def run(current: Loaded | None) -> Write[R]:
        loaded = load_doc(current)
        if loaded is not None:
            LOG_TABLE.set(loaded.tid)  # the logs of this task name the table
        table_to_save, result = fn(loaded)
        if table_to_save is None:
            return Write(result)
        return Write(
            result,
            doc=table_to_save.model_dump_json(exclude_defaults=True),
            timer_at=table_to_save.deadline if table_to_save.status == "playing" else None,
            ttl=svc.settings.table_ttl,
            users=linked,
            lock=token,
        )

    return await with_redis_retries(
        lambda: svc.store.update_table(chat_id, run, update_id=update_id)
    )


REDIS_PAUSES = (0.2, 0.5, 1.0, 2.0)
"""Pauses between tries of a store call while Redis does not answer (about 4 s in all, within
the time a player waits for a button)."""


async def with_redis_retries(call: Callable[[], Awaitable[R]]) -> R:
    """A store call, tried again while Redis is unreachable (a restart, a failover). A write
    whose answer was lost and is tried again is recognised by its update id (the retry writes
    nothing), or by the table's own checks (a timer no longer due)."""
    for pause in REDIS_PAUSES:
        try:
            return await call()
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(pause)
    return await call()
