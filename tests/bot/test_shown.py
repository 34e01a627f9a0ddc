"""What the chat is shown of a table (``bot.shown``): a record beside the session, stored in the
same document; documents stored before it (its fields at the top level) still load."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot import present
from bot.shown import FIELDS, Notice, Shown
from bot.store import Write
from bot.table import Table
from bot.tables import load_doc

sys.path.insert(0, str(Path(__file__).parent))
from stores import sqlite_store

OLD_DOC = (
    '{"chat_id":-1001234,"creator":1,"tid":"ab12","status":"playing",'
    '"players":[{"user_id":1,"name":"P1","team":0},{"user_id":2,"name":"P2","team":1}],'
    '"turn":3,"hand":1,"lobby_msg":10,"table_msg":11,"hand_msgs":{"0":21,"1":22},'
    '"deadline":1060.0,"seed":7,"turn_seconds":60,'
    '"log":[{"kind":"mus","data":{"seat":0}}],'
    '"outbox":[{"seq":1,"text":"hola"},{"seq":2,"text":"privado","to":2}],'
    '"closing":{"9":"<b>fin</b>"},"notice_seq":2,"unreachable":[2],"moved_at":1000.0}'
)
"""A table as the bot wrote it before the record existed (``model_dump_json(exclude_defaults=
True)`` of that day's ``Table``): the record's fields at the top level, among the session's."""

SHOWN = Shown(
    lobby_msg=10,
    table_msg=11,
    hand_msgs={"0": 21, "1": 22},
    closing={"9": "<b>fin</b>"},
    outbox=[Notice(seq=1, text="hola"), Notice(seq=2, text="privado", to=2)],
    notice_seq=2,
    unreachable=[2],
)


def test_a_document_of_the_old_shape_loads_the_same_record() -> None:
    table = Table.model_validate_json(OLD_DOC)
    assert table.shown == SHOWN
    assert (table.turn, table.hand, table.seed, table.deadline) == (3, 1, 7, 1060.0)
    assert present.table_link(table) == "https://t.me/c/1234/11"


def test_the_record_is_stored_nested_in_the_same_document() -> None:
    table = Table.model_validate_json(OLD_DOC)
    stored = json.loads(table.model_dump_json(exclude_defaults=True))
    assert FIELDS.isdisjoint(stored)  # no field of the record is left at the top level
    assert Shown.model_validate(stored["shown"]) == SHOWN
    assert Table.model_validate_json(table.model_dump_json(exclude_defaults=True)) == table
    old = json.loads(OLD_DOC)  # and the session's fields are as they were
    assert {k: v for k, v in stored.items() if k != "shown"} == {
        k: v for k, v in old.items() if k not in FIELDS
    }


def test_a_fresh_table_stores_no_record_and_the_nested_one_wins() -> None:
    assert "shown" not in Table(chat_id=-1, creator=1).model_dump_json(exclude_defaults=True)
    both = json.loads(OLD_DOC) | {"shown": {"table_msg": 99}}
    table = Table.model_validate(both)
    assert table.shown.table_msg == 99 and table.shown.outbox == SHOWN.outbox


async def test_an_old_document_in_the_store_is_rewritten_in_one_write() -> None:
    """A table stored by the bot before the record is read, changed and written back by one
    compare-and-set: its record comes along in the same document (no second key)."""
    store = sqlite_store()
    await store.create(-1001234, OLD_DOC)

    def post_lobby(current):  # type: ignore[no-untyped-def]
        table = load_doc(current)
        assert table is not None and table.shown == SHOWN
        table.shown.outbox = table.shown.outbox[1:]  # the first notice was posted
        return Write(None, doc=table.model_dump_json(exclude_defaults=True), ttl=3600)

    await store.update_table(-1001234, post_lobby)
    loaded = load_doc(await store.load(-1001234))
    assert loaded is not None
    assert loaded.shown == SHOWN.model_copy(update={"outbox": SHOWN.outbox[1:]})
