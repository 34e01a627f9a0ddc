"""Mixed versions during a rolling deploy (docs/operations.md, "Mixed versions"): a process
refuses a table document of a newer version than its own and leaves it as it is, in the store
the bot runs on (SQLite here, as in ``make run``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_handlers import GROUP, Harness

from bot import keyboards
from bot.handlers import play, timers
from bot.store import Write
from bot.table import SCHEMA, NewerDocument, Table
from bot.tables import change_table
from locales import t


async def _newer(h: Harness) -> str:
    """The table rewritten as a newer process would: a newer version and a field unknown here."""
    loaded = await h.store.load(GROUP)
    assert loaded is not None
    doc = json.loads(loaded.doc)
    doc["doc_version"] = SCHEMA + 1
    doc["later_field"] = {"kept": True}
    newer = json.dumps(doc)
    await h.store.update_table(GROUP, lambda _: Write(None, doc=newer, timer_at=0.0))
    return newer


def test_a_document_of_this_version_is_written_as_before() -> None:
    """Version 1 is never written out: older processes read today's documents as their own."""
    table = Table(chat_id=GROUP, creator=1)
    assert "doc_version" not in table.model_dump_json()
    assert "doc_version" not in table.model_dump_json(exclude_defaults=True)
    assert Table.model_validate_json(table.model_dump_json()).doc_version == SCHEMA


async def test_a_newer_document_is_refused_and_left_as_it_is() -> None:
    h = Harness()
    table = await h.open_and_start()
    newer = await _newer(h)

    def touch(current: Table | None) -> tuple[Table | None, None]:
        return current, None

    with pytest.raises(NewerDocument):
        await change_table(h.svc, GROUP, touch)
    # A player's button is answered with the refusal, nothing written.
    uid = table.players[table.to_act()[0]].user_id
    data = keyboards.pack("a", GROUP, table.tid, table.turn, "paso")
    await play.table_button(*h.press(uid, data))
    assert h.bot.answers()[-1].get("text") == t("es", "error.newer_version")
    # The sweep takes the table's timer and fails on it: the table stays as it is (due again for
    # a newer process when the lease runs out).
    h.clock += 120
    await timers.sweep_once(h.pub)
    h.store.forget()
    loaded = await h.store.load(GROUP)
    assert loaded is not None and loaded.doc == newer
