"""Storing the records outbox of a table document (called by the publisher, first thing).

Each pending hand goes to the group's records with an idempotent key (its hand number), the
finished game through :meth:`~bot.records.store.Records.add_game` (written once whoever tries
again); then a compare-and-set takes them out of the document (the publisher's next write,
which writes down the hand's result: :func:`store_records`; or one of their own:
:func:`store_pending`). A crash in between leaves them pending: the next publication (this
process's or another's sweep) stores them again, harmlessly.
"""

from __future__ import annotations

import logging

from bot.records.model import GameRecord
from bot.records.store import Records, dumps, open_records
from bot.services import Services
from bot.store import Loaded
from bot.table import Table
from bot.tables import change_table

log = logging.getLogger("bot.records")


def records_of(svc: Services) -> Records:
    """The records beside the services' table store (opened on first use)."""
    if svc.records is None:
        svc.records = open_records(svc.store, svc.settings.records_keep)
    return svc.records


async def store_records(svc: Services, table: Table) -> set[int]:
    """Store what the document has pending; the hand numbers stored (0: the game), for the
    caller to take out of the document in its next write (nothing when storing failed: it
    stays pending and is tried again)."""
    records = records_of(svc)
    try:
        for item in table.rec_out:
            if item.hand > 0:
                await records.add_hand(table.chat_id, table.tid, item.hand, dumps(item.doc))
            else:
                await records.add_game(GameRecord.model_validate(item.doc))
    except Exception:
        log.exception("records of table %s not stored yet", table.chat_id)
        return set()
    return {item.hand for item in table.rec_out}


async def store_pending(svc: Services, table: Table) -> Loaded | None:
    """Store what the document has pending and clear it; the new document, or ``None`` when
    nothing was pending or storing failed (it stays pending and is tried again)."""
    if not table.rec_out:
        return None
    stored = await store_records(svc, table)
    if not stored:  # something was pending, so storing failed
        return None
    tid = table.tid

    def clear(current: Table | None) -> tuple[Table | None, None]:
        if current is None or current.tid != tid:
            return None, None
        left = [p for p in current.rec_out if p.hand not in stored]
        if len(left) == len(current.rec_out):
            return None, None
        current.rec_out = left
        return current, None

    await change_table(svc, table.chat_id, clear)
    return await svc.store.cached(table.chat_id)
