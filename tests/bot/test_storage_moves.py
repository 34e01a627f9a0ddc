"""Storage under moves of the world, on every store: a rollback, a group that changes chat id.

A Redis restored from older data (a snapshot, an older append-only file, a failover to a
lagging replica) must never let a process's cached copy erase the moves made since.

The restore reuses the version numbers the lost writes had; the process that made those writes
still holds the newest of them in its cache, so only the version would let its next
compare-and-set pass. The document it was based on is checked too (``doc_digest``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from stores import add_user_table, publish_due, timer_of
from test_storage import BACKENDS, Backend, make_backend

from bot.store import Loaded, RedisStore, SQLiteStore, Store, Write

CHAT = 77


@pytest.fixture(params=[kind for kind in BACKENDS if kind != "fakeredis-text"])  # DUMP: bytes
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    import os

    if request.param == "redis" and not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set")
    b = make_backend(request)
    yield b
    await b.close()


def move(name: str) -> Any:
    def fn(current: Loaded | None) -> Write[int]:
        assert current is not None
        data = json.loads(current.doc)
        data["moves"].append(name)
        return Write(len(data["moves"]), doc=json.dumps(data))

    return fn


async def snapshot(backend: Backend, store: Store) -> Any:
    if isinstance(store, RedisStore):
        return await store.redis.dump(store.table_key(CHAT))
    assert isinstance(store, SQLiteStore)
    return store._db.execute("SELECT * FROM tables WHERE chat = ?", (CHAT,)).fetchone()


async def restore(backend: Backend, store: Store, saved: Any) -> None:
    if isinstance(store, RedisStore):
        await store.redis.restore(store.table_key(CHAT), 0, saved, replace=True)
        return
    assert isinstance(store, SQLiteStore)
    store._db.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?, ?)", saved)


async def moves(store: Store) -> list[str]:
    loaded = await store.load(CHAT)
    assert loaded is not None
    return list(json.loads(loaded.doc)["moves"])


async def test_a_stale_cache_after_a_rollback_never_erases_moves(backend: Backend) -> None:
    a, b = backend.store(), backend.store()  # two processes
    await a.create(CHAT, json.dumps({"moves": []}))
    await a.update_table(CHAT, move("a1"))
    saved = await snapshot(backend, a)  # the backup Redis will be restored from
    await a.update_table(CHAT, move("a2"))
    await a.update_table(CHAT, move("a3"))  # ``a`` caches this version and document
    cached = await a.cached(CHAT)
    assert cached is not None

    await restore(backend, b, saved)  # Redis comes back with older data: a2 and a3 are lost
    await b.update_table(CHAT, move("b1"))
    await b.update_table(CHAT, move("b2"))
    reused = await b.load(CHAT)
    assert reused is not None and reused.version == cached.version, "the numbers come back"

    # ``a`` plays on from its cache (same version number, other document): refused, retried.
    await a.update_table(CHAT, move("a4"))
    assert await moves(b) == ["a1", "b1", "b2", "a4"]
    # ``a`` found the table behind its copy (what it may have shown): once; ``b`` did not.
    assert a.behind() == [CHAT] and a.take_behind(CHAT) == [cached]
    assert a.take_behind(CHAT) == [] and b.behind() == []

    # A decision not to write, taken on the stale copy, is checked against the document too.
    await restore(backend, b, saved)
    await b.update_table(CHAT, move("b3"))
    a_cache = await a.cached(CHAT)
    assert a_cache is not None
    seen: list[list[str]] = []

    def look(current: Loaded | None) -> Write[None]:
        assert current is not None
        seen.append(json.loads(current.doc)["moves"])
        return Write(None)

    a.forget(CHAT)
    await a.update_table(CHAT, move("x"))  # a's cache: version V+1 of the restored line
    await restore(backend, b, saved)
    await b.update_table(CHAT, move("b4"))  # same version number as a's cache, other document
    await a.update_table(CHAT, look)
    assert seen[-1] == ["a1", "b4"]


async def test_move_table_moves_everything_at_once(backend: Backend) -> None:
    from bot.store import ChatTaken

    a, b = backend.store(), backend.store()
    old, new, taken = 501, 502, 503
    v = await a.create(old, json.dumps({"moves": ["a1"]}), timer_at=1234.0, ttl=600)
    assert v is not None
    await add_user_table(a, 9, old, ttl=600)
    await a.set_prefs(f"chat:{old}", {"lang": "en"})
    assert await a.move_table(old, new, v - 1, "{}", ttl=600, users=(9,)) is None  # stale
    await b.create(taken, "{}")
    with pytest.raises(ChatTaken):
        await a.move_table(old, taken, v, "{}", ttl=600, users=(9,))
    moved = await a.move_table(old, new, v, json.dumps({"moves": ["a1"], "to": new}), users=(9,))
    assert moved is not None and moved > v
    assert await b.load(old) is None
    assert await b.load(new) == (moved, json.dumps({"moves": ["a1"], "to": new}))
    assert await timer_of(b, old) is None and await timer_of(b, new) == 1234.0
    assert await publish_due(b, old) is None and await publish_due(b, new) is not None
    assert await b.user_tables(9) == [new]
    assert await b.get_prefs(f"chat:{new}") == {"lang": "en"}
    assert await b.move_table(old, new, v, "{}") is None  # nothing left to move
    await b.update_table(new, move("b1"))  # the moved table is a table like any other
    loaded = await a.load(new)
    assert loaded is not None and json.loads(loaded.doc)["moves"] == ["a1", "b1"]


async def test_look_behind_finds_a_rolled_back_table_nobody_touched(backend: Backend) -> None:
    """One round trip at most every ``Timings.look_behind`` seconds: a table the store saw that
    is now older (or the same version with another document) is marked behind, read again."""
    from bot.store import Timings

    a = backend.store(Timings(look_behind=0.0))
    await a.create(CHAT, json.dumps({"moves": []}))
    await a.update_table(CHAT, move("a1"))
    saved = await snapshot(backend, a)
    assert await a.look_behind() == []  # not behind
    await a.update_table(CHAT, move("a2"))
    newest = await a.cached(CHAT)
    await restore(backend, a, saved)
    trips = a.round_trips
    assert await a.look_behind() == [CHAT]
    assert a.round_trips == trips + 2  # the look, and the table read again
    assert a.take_behind(CHAT) == [newest]
    assert await a.cached(CHAT) == await a.load(CHAT)
    assert await a.look_behind() == []  # the copy is the table now
    slow = backend.store()  # the default: a look every few seconds, the first not at once
    assert await slow.look_behind() == [] and not slow.ops["look_behind"]


async def test_after_an_outage_the_next_look_is_at_once_and_at_every_table_seen(
    backend: Backend,
) -> None:
    """Issue 26: the store failed (a restart, a replica promoted), so the next look does not
    wait for its interval and is not limited to the tables seen last: one rolled back among
    more than the limit is found, in one round trip; the look after it is as before."""
    from bot.store import Timings

    a = backend.store(Timings(look_behind=3600.0))  # the periodic look never comes
    chats = [CHAT + 1 + i for i in range(5)]
    await a.create(CHAT, json.dumps({"moves": []}))
    await a.update_table(CHAT, move("a1"))
    saved = await snapshot(backend, a)
    await a.update_table(CHAT, move("a2"))
    newest = await a.cached(CHAT)
    for chat in chats:  # seen after it: the rolled back table is not among the last 5
        await a.create(chat, json.dumps({"moves": []}))
    await restore(backend, a, saved)
    assert await a.look_behind(limit=5) == [] and not a.ops["look_behind"]
    a.look_all_soon()
    trips = a.round_trips
    assert await a.look_behind(limit=5) == [CHAT]
    assert a.round_trips == trips + 2  # the look at all six, and the table read again
    assert a.take_behind(CHAT) == [newest]
    assert await a.look_behind(limit=5) == [] and a.ops["look_behind"] == 1
