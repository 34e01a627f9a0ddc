"""Issue 26: a failover on a real Redis Cluster to a replica that lacked the last moves.

The table's master is killed while its replica is stopped (so the moves made meanwhile never
reached it), and the replica takes over with the older table and the older hashes of what each
message shows. The group and the players saw the erased moves: the store finds the table behind
the copy the bot saw, and the publisher shows the table again as it really is, as after any
rollback (tests/bot/test_rollback.py), on the cluster client through the failover: at the next
press, and without one at the next sweeps (the failover is seen in the client's map of the
slots).
"""

from __future__ import annotations

import asyncio
import random
import sys
import uuid
from pathlib import Path

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError

sys.path.insert(0, str(Path(__file__).parent))

from test_handlers import GROUP, Harness, press_random_move
from test_rollback import Bot, _messages, assert_live_as_stored

from bot import keyboards
from bot.handlers import play, timers
from bot.store import RedisStore, Timings
from bot.table import Table
from locales import t
from tests.redis_cluster import Cluster


async def _lose_moves(
    h: Harness, store: RedisStore, cluster: Cluster, rnd: random.Random
) -> tuple[Table, int, set[tuple[int, int]]]:
    """Start and play 3 moves, cut the table's replica off, play 8 more (shown to the group
    and the players), kill the master and promote the replica: it lacks those 8. Returns the
    newest table the bot saw, the turn the replica has, and every message the bot showed."""
    table = await h.open_and_start()
    for _ in range(3):
        table = await press_random_move(h, table, rnd)
    await timers.sweep_once(h.pub)  # as a running bot's, every second
    master = cluster.master_of(store.table_key(GROUP))
    replica = cluster.replica_of(master)
    await asyncio.to_thread(cluster.wait_synced, replica)
    restored_turn, ever = table.turn, _messages(table)
    cluster.cut_off(replica)  # what is written from now on reaches the master only
    for _ in range(8):
        table = await press_random_move(h, table, rnd)
        ever |= _messages(table)
    assert table.turn > restored_turn

    await asyncio.to_thread(cluster.kill, master)
    cluster.resume(replica)
    await asyncio.to_thread(cluster.takeover, replica)
    await asyncio.to_thread(cluster.wait_ok, master=replica)
    return table, restored_turn, ever


async def test_a_failover_that_lost_moves_is_shown_as_the_table_really_is(
    own_cluster: Cluster,
) -> None:
    bot = Bot()
    store = RedisStore(RedisCluster.from_url(own_cluster.url), f"test-{uuid.uuid4().hex[:12]}")
    h = Harness(store, publish_hold=0.0)
    h.bot = bot
    h.pub.bot = bot
    try:
        rnd = random.Random(7)
        table, restored_turn, ever = await _lose_moves(h, store, own_cluster, rnd)

        uid = table.players[0].user_id
        data = keyboards.pack("a", GROUP, table.tid, table.turn, "paso")
        await play.table_button(*h.press(uid, data))  # a button of the lost moves
        assert bot.answers()[-1].get("text") == t("es", "error.stale")
        await timers.sweep_once(h.pub)
        assert store.behind() == []

        now = await h.table()
        assert now.turn == restored_turn  # the promoted replica's table
        assert_live_as_stored(bot, now)
        assert ever - _messages(now) <= bot.deleted
        # The game goes on from there.
        for _ in range(4):
            now = await press_random_move(h, now, rnd)
        assert now.turn > restored_turn
    finally:
        await store.redis.aclose()


async def test_the_sweep_notices_a_failover_and_shows_a_table_nobody_touched_as_it_is(
    own_cluster: Cluster,
) -> None:
    """Nobody presses after the failover, and the sweep's periodic look at the tables seen last
    is an hour apart: the sweep sees that a bucket's master changed (the client's map of the
    slots, after it failed to reach the dead master) and looks at every table this process saw
    at once, so the lost moves are shown as the table really is within the next sweeps."""
    bot = Bot()
    store = RedisStore(
        RedisCluster.from_url(own_cluster.url),
        f"test-{uuid.uuid4().hex[:12]}",
        timings=Timings(look_behind=3600.0),
    )
    h = Harness(store, publish_hold=0.0)
    h.bot = bot
    h.pub.bot = bot
    try:
        table, restored_turn, ever = await _lose_moves(h, store, own_cluster, random.Random(7))
        failed = 0
        for _ in range(10):  # the first sweeps may still try the dead master
            try:
                await timers.sweep_once(h.pub)
            except (RedisError, OSError):
                failed += 1
                continue
            if store.ops["look_behind"] and not store.behind():
                break
        assert store.ops["look_behind"] == 1 and store.behind() == [], failed
        now = await h.table()
        assert now.turn == restored_turn < table.turn  # the promoted replica's table
        assert_live_as_stored(bot, now)
        assert ever - _messages(now) <= bot.deleted
    finally:
        await store.redis.aclose()
