"""Issue 26: a failover on a real Redis Cluster to a replica that lacked the last moves.

The table's master is killed while its replica is stopped (so the moves made meanwhile never
reached it), and the replica takes over with the older table and the older hashes of what each
message shows. The group and the players saw the erased moves: the store finds the table behind
the copy the bot saw (a stale press), and the publisher shows the table again as it really is,
as after any rollback (tests/bot/test_rollback.py), on the cluster client through the failover.
"""

from __future__ import annotations

import asyncio
import random
import sys
import uuid
from pathlib import Path

from redis.asyncio.cluster import RedisCluster

sys.path.insert(0, str(Path(__file__).parent))

from test_handlers import GROUP, Harness, press_random_move
from test_rollback import Bot, _messages, assert_live_as_stored

from bot import keyboards
from bot.handlers import play, timers
from bot.store import RedisStore
from locales import t
from tests.redis_cluster import Cluster


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
        table = await h.open_and_start()
        for _ in range(3):
            table = await press_random_move(h, table, rnd)
        master = own_cluster.master_of(store.table_key(GROUP))
        replica = own_cluster.replica_of(master)
        await asyncio.to_thread(own_cluster.wait_synced, replica)
        restored_turn, ever = table.turn, _messages(table)
        own_cluster.cut_off(replica)  # what is written from now on reaches the master only
        for _ in range(8):
            table = await press_random_move(h, table, rnd)
            ever |= _messages(table)
        assert table.turn > restored_turn

        await asyncio.to_thread(own_cluster.kill, master)
        own_cluster.resume(replica)
        await asyncio.to_thread(own_cluster.takeover, replica)
        await asyncio.to_thread(own_cluster.wait_ok, master=replica)

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
