"""End to end on a real Redis Cluster (3 masters, 3 replicas; tests/redis_cluster.py): two bot
processes play a whole vaca (on Redis, and on Valkey), and a master killed in the middle of a
game is failed over to its replica without a move lost or applied twice.

Skipped without ``redis-server`` (except in CI, where that fails).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from conftest import RedisFactory
from driver import open_table, ordago_policy, play_hand, table_key
from fake_telegram import FakeTelegram

from bot.handlers.common import SERVICES_KEY
from bot.records.store import RedisRecords
from tests.redis_cluster import Cluster

pytestmark = pytest.mark.e2e

SECOND = "654321:SECOND-PROCESS"


@pytest.fixture
async def redis_factory(
    tg: FakeTelegram, request: pytest.FixtureRequest
) -> AsyncIterator[RedisFactory]:
    """The bots' clients on a cluster: the test's own if it has one, else the session's."""
    if "own_cluster" in request.fixturenames:
        url = request.getfixturevalue("own_cluster").url
    else:
        server = getattr(request.node, "callspec", None)
        valkey = server is not None and server.params.get("server") == "valkey"
        url = request.getfixturevalue("valkey_cluster_url" if valkey else "redis_cluster_url")
    factory = RedisFactory(cluster_url=url)
    yield factory
    await factory.cleanup()


async def play_out(table: Any) -> Any:
    state = await table.state()
    hands = 0
    while not state.is_over:
        hands += 1
        assert hands <= 8
        state = await play_hand(
            table, random.Random(hands), mus_rounds_wanted=0, lance_policy=ordago_policy
        )
    return state


@pytest.mark.parametrize("server", ["redis", "valkey"])
async def test_two_processes_play_a_vaca_on_a_cluster(
    tg: FakeTelegram, apps: Any, redis_factory: RedisFactory, server: str
) -> None:
    redis = redis_factory.client()
    first = await apps.start()
    await apps.start(token=SECOND)
    assert first.bot_data[SERVICES_KEY].store.buckets == 16  # spread over the cluster
    table, _users, group = await open_table(tg, redis)
    await play_out(table)
    await tg.settle()
    await table.assert_dms_show_hands()
    doc = await table.doc()
    assert doc["status"] == "over" and not doc.get("rec_out")
    games = await RedisRecords(redis, prefix=_prefix()).games(group.id)
    assert [g.id for g in games] == [doc["tid"]]  # recorded once


async def test_a_master_killed_mid_game_fails_over_and_the_game_goes_on(
    tg: FakeTelegram, apps: Any, redis_factory: RedisFactory, own_cluster: Cluster
) -> None:
    redis = redis_factory.client()
    await apps.start(publish_hold=0.0)
    await apps.start(token=SECOND, publish_hold=0.0)
    table, _users, group = await open_table(tg, redis)
    state = await play_hand(table, random.Random(1), mus_rounds_wanted=0)
    await tg.settle()
    before = await table.doc()
    master = own_cluster.master_of(table_key(redis, group.id))
    replica = own_cluster.replica_of(master)
    await asyncio.to_thread(own_cluster.kill, master)
    await asyncio.to_thread(own_cluster.wait_ok, master=replica)  # the replica took over
    assert await table.doc() == before  # it had every write the group saw
    state = await play_out(table)
    await tg.settle()
    await table.assert_dms_show_hands()
    doc = await table.doc()
    assert doc["status"] == "over" and state.is_over
    games = await RedisRecords(redis, prefix=_prefix()).games(group.id)
    assert [g.id for g in games] == [doc["tid"]]  # recorded once, on the new master


def _prefix() -> str:
    from driver import PREFIX

    return PREFIX
