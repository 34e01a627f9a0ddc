"""Benchmark of the whole bot: fake Bot API + Redis + the real Application, many random tables.

    .venv/bin/python bench/bot.py [--game mus|envite|piedras] [--players N] [--tables 24]
        [--concurrency 6] [--hands 2] [--seconds 60] [--latency MS] [--processes N]
        [--think SECONDS] [--no-ordago] [--policy random|ai]

Each table is a group of simulated users who open a table, join with buttons, start and play
``--hands`` hands (envite: rounds) of random legal actions. Mus: four players, half by command
and half by button (discards with the private toggle buttons). Envite (``--players`` 4..12, one
chico): the private card buttons, the table buttons and commands in turn. Mus a piedras
(``--players`` 3..8, 5 stones): buttons, with the private discard toggles. The envite and piedras
drivers wait for the whole fake server to be quiet while opening a table, so their tables open
one at a time. ``--latency`` holds every Bot API answer back that many milliseconds (a real
network). Redis is ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``); the run uses fresh
random chat ids and deletes its keys at the end. All traffic stays on 127.0.0.1. ``--think``
makes each player think that long (0.5-1.5 times it, at random) before each move, as people do:
several moves in a second become one edit, moves at a human pace do not. ``--policy ai``
(Mus): the players choose their moves as the computer player does, so a hand has as many moves
as people make (random players bet, raise and go to mus far more often).

``--cluster``: ``REDIS_URL`` names a node of a Redis Cluster (``TAPETE_REDIS_CLUSTER``; start a
local one with ``python3 tests/redis_cluster.py start DIR``, which prints its address); the
report adds how the tables spread over its masters. With ``--open`` too.

``--open`` measures throughput instead (``bench/open_loop.py``): real ``python -m bot``
processes, ``--tables`` Mus tables each pressing the moment its last press was answered, for
``--seconds`` after ``--warmup``::

    REDIS_URL=redis://127.0.0.1:6379/0 python bench/bot.py --open --tables 100 --seconds 20 \
        [--latency 100] [--processes 2]

``--open --outage 10``: how long tables take to be shown as stored after a Bot API outage;
``--open --timers``: how late timers due together fire, and in which processes.

Printed figures (without ``--open``): peak Bot API calls per second for the bot and for one
group, updates handled per second, p50/p99 handling latency (update queued -> the bot's
first resulting API call), new group messages per hand, Bot API calls per hand (in all, by method
and destination: the group or private chats; and in the steady state, from the end of each
table's first hand on, so the lobby, the joins and the first deal are left out), Redis round trips
per update (the store's own counter), bytes stored per table and bytes kept for de-duplication.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

import polling  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from driver import LANG, PREFIX, MusTable, t  # noqa: E402
from envite_driver import open_envite, play_round  # noqa: E402
from fake_telegram import FakeTelegram  # noqa: E402
from open_loop import add_arguments as add_open_loop_arguments  # noqa: E402
from open_loop import print_peaks  # noqa: E402
from open_loop import run as run_open_loop  # noqa: E402
from piedras_driver import open_piedras_table, play_hand_by_buttons  # noqa: E402
from redis.asyncio.cluster import RedisCluster  # noqa: E402

import engine.mus as mus  # noqa: E402
from bot.store.cluster import BUCKETS  # noqa: E402
from bot.store.keys import Keys  # noqa: E402
from engine.mus import ai as mus_ai  # noqa: E402

TARGET_GROUP_MSGS = {"mus": 3, "envite": 2, "piedras": 3}
TARGET_ROUND_TRIPS = 3
TARGET_BYTES = 8 * 1024
SWEEP_OPS = frozenset({"claim_due", "claim_publish", "claim_sweep"})
"""Round trips every process makes each tick, whatever the load."""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        rnd = random.Random()
        self.tg = FakeTelegram(
            first_group_id=-1008000000000 - rnd.randrange(10**8) * 1000,
            first_user_id=6_000_000_000 + rnd.randrange(10**8) * 1000,
            first_update_id=rnd.randrange(10**9, 2 * 10**9),
        ).start()
        self.redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
        self.keys = Keys(PREFIX, BUCKETS if args.cluster else 0)
        self.hands = 0
        self.doc_sizes: list[int] = []
        self.errors: list[str] = []
        self.tables_done = 0
        self.deadline = 0.0
        self.deliver: str | None = None
        #: Each table's chats (its group and its players' private chats), by group id.
        self.table_chats: dict[int, set[int]] = {}
        #: Per table: (position in the call log after its first hand, hands played after it).
        self.steady: dict[int, list[int]] = {}
        self.dedupe_bytes = 0
        self.think_rng = random.Random(args.seed)

    async def run(self) -> int:
        from bot.app import build_application
        from bot.settings import Settings

        for i in range(1, self.args.processes):
            self.tg.add_token(f"{654320 + i}:BENCH-PROCESS-{i}")
        self.deliver = "round_robin" if self.args.processes > 1 else None
        self.opening = asyncio.Lock()
        if self.args.latency:
            for token in self.tg.tokens:
                for method in ("sendmessage", "editmessagetext", "answercallbackquery"):
                    self.tg.delay[(token, method)] = self.args.latency / 1000
        self.reader = self.client()
        apps, clients = [], []
        for token in self.tg.tokens:
            settings = Settings(
                telegram_bot_token=token,
                telegram_api_url=self.tg.base_url,
                turn_timeout=600.0,
                timer_tick=1.0,
                redis_prefix=PREFIX,  # the drivers read the tables under it
                redis_cluster=self.args.cluster,
            )
            client = self.client()
            app = build_application(settings, redis=client)
            await polling.start(app)
            apps.append(app)
            clients.append(client)
        stores = [app.bot_data["tapete"].store for app in apps]
        try:
            trips0 = sum(store.round_trips for store in stores)
            ops0: Counter[str] = sum((Counter(getattr(st, "ops", {})) for st in stores), Counter())
            calls0 = self.tg.mark()
            updates0 = len(self.tg.queued_at)
            started = time.monotonic()
            self.deadline = started + self.args.seconds
            queue: asyncio.Queue[int] = asyncio.Queue()
            for i in range(self.args.tables):
                queue.put_nowait(i)
            workers = [
                asyncio.create_task(self.worker(queue, w)) for w in range(self.args.concurrency)
            ]
            await asyncio.gather(*workers)
            await self.tg.settle(quiet=0.2, timeout=10)
            elapsed = time.monotonic() - started
            trips = sum(store.round_trips for store in stores) - trips0
            ops1: Counter[str] = sum((Counter(getattr(st, "ops", {})) for st in stores), Counter())
            ops = dict(ops1 - ops0)
            self.dedupe_bytes = await self.dedupe_size()
            if self.args.cluster:
                spread = await self.spread()
                total = max(1, sum(spread.values()))
                shares = ", ".join(
                    f"{n} {100 * k / total:.0f} %" for n, k in sorted(spread.items())
                )
                print(f"tables per master      {shares} (of {total})")
        finally:
            for app in apps:
                await polling.stop(app)
            await self.cleanup()
            for client in clients:
                await client.aclose()
            self.tg.stop()
        self.report(elapsed, trips, calls0, updates0, ops)
        return 1 if self.errors and not self.tables_done else 0

    async def worker(self, queue: asyncio.Queue[int], number: int) -> None:
        while not queue.empty() and time.monotonic() < self.deadline:
            index = queue.get_nowait()
            try:
                await self.play_table(index)
                self.tables_done += 1
            except Exception as exc:  # a bench reports and goes on
                self.errors.append(f"table {index}: {type(exc).__name__}: {exc}")

    async def play_table(self, index: int) -> None:
        if self.args.game == "envite":
            await self.play_envite(index)
        elif self.args.game == "piedras":
            await self.play_piedras(index)
        else:
            await self.play_mus(index)

    async def play_envite(self, index: int) -> None:
        rng = random.Random(self.args.seed * 1000 + index)
        async with self.opening:
            table = await open_envite(
                self.tg, self.reader, players=self.args.players or 4, options="chicos=1"
            )
        self._track(table.group.id, [u.id for u in table.users])
        self._think_before(table)
        for _ in range(self.args.hands):
            state = await play_round(table, rng, vias=("button", "command"))
            await self._hand_done(table.group.id)
            if state.is_over:
                break

    async def play_piedras(self, index: int) -> None:
        rng = random.Random(self.args.seed * 1000 + index)
        async with self.opening:
            table = await open_piedras_table(self.tg, self.reader, players=self.args.players or 4)
        self._track(table.group.id, [u.id for u in table.users])
        self._think_before(table)
        for _ in range(self.args.hands):
            state = await play_hand_by_buttons(table, rng)
            await self._hand_done(table.group.id)
            if state.is_over:
                break

    def client(self) -> Any:
        if self.args.cluster:
            return RedisCluster.from_url(self.redis_url)
        return aioredis.Redis.from_url(self.redis_url)

    async def spread(self) -> dict[str, int]:
        """How many of the tables each master holds (on a cluster)."""
        found: Counter[str] = Counter()
        for chat in self.table_chats:
            node = self.reader.get_node_from_key(self.keys.table(chat))
            found[node.name] += 1
        return dict(found)

    async def _size(self, chat_id: int) -> None:
        size = await self.reader.hstrlen(self.keys.table(chat_id), "d")
        self.doc_sizes.append(int(size))

    def _track(self, group_id: int, user_ids: list[int]) -> None:
        self.table_chats[group_id] = {group_id, *user_ids}

    async def _hand_done(self, group_id: int) -> None:
        """A hand is over: count it; after a table's first hand, wait for its publication to be
        done and mark where its steady state begins in the call log."""
        self.hands += 1
        await self._size(group_id)
        if group_id in self.steady:
            self.steady[group_id][1] += 1
            return
        with contextlib.suppress(AssertionError):  # else the steady state starts a bit early
            await self.tg.wait_for(
                lambda: self._published(group_id), timeout=10, what="the hand published"
            )
        self.steady[group_id] = [self.tg.mark(), 0]

    async def _published(self, chat_id: int) -> bool:
        due = await self.reader.zscore(self.keys.publish_of(chat_id), str(chat_id))
        return due is None and await self._has_table_msg(chat_id)

    async def think(self) -> None:
        """A person's pause before a move (``--think``)."""
        if self.args.think > 0:
            await asyncio.sleep(self.args.think * self.think_rng.uniform(0.5, 1.5))

    def _think_before(self, table: Any) -> None:
        """Make a driver's table think before each move (the drivers' loops stay as they are)."""
        if self.args.think <= 0:
            return
        act = table.act

        async def thinking(*args: Any, **kwargs: Any) -> Any:
            await self.think()
            return await act(*args, **kwargs)

        table.act = thinking

    async def play_mus(self, index: int) -> None:
        tg = self.tg
        rng = random.Random(self.args.seed * 1000 + index)
        users = [tg.user(name) for name in ("Ana", "Bea", "Cris", "Dani")]
        group = tg.group(f"Bench {index}", members=users, creator=users[0])
        for user in users:
            user.started = True  # they opened the private chat before
        table = MusTable(tg, group, users, self.reader)
        table.poll = self.args.poll
        self._track(group.id, [u.id for u in users])
        users[0].send(group, "/nueva mus", deliver_to=self.deliver)
        join = t(LANG, "button.join")
        lobby = await tg.wait_for(
            lambda: next((m for m in group.bot_messages() if join in m.button_texts()), None),
            timeout=10,
            what="lobby",
        )
        await tg.wait_for(lambda: self._players_more_than(group.id, 0), timeout=10, what="creator")
        for user in users[1:]:  # /nueva seated the first
            seated = len(await self._players(group.id))
            user.press(lobby, join, deliver_to=self.deliver)
            await tg.wait_for(
                lambda n=seated: self._players_more_than(group.id, n), timeout=10, what="join"
            )
        users[rng.randrange(4)].send(group, "/empezar", deliver_to=self.deliver)
        await tg.wait_for(lambda: self._playing(group.id), timeout=10, what="start")
        await tg.wait_for(
            lambda: self._has_table_msg(group.id), timeout=10, what="the table message"
        )
        for _ in range(self.args.hands):
            state = await table.state()
            hand = state.hand_number
            while state.hand_number == hand and not state.is_over:
                if time.monotonic() > self.deadline + 30:
                    raise TimeoutError("out of time")
                seat = rng.choice(list(state.to_act))
                actions = mus.legal_actions(state, seat)
                if state.phase == "discard":
                    actions = [a for a in actions if len(a.cards) <= 2]
                if self.args.no_ordago:  # a vaca of many hands, as people play it
                    actions = [a for a in actions if a.kind != "ordago"] or actions
                if self.args.policy == "ai":  # as people play: the moves a sensible player makes
                    action = mus_ai.choose(mus.view(state, seat), actions, rng)
                else:
                    action = rng.choice(actions)
                via = rng.choice(["button", "command"])
                await tg.wait_for(lambda: self._has_table_msg(group.id), timeout=10, what="msg")
                await self.think()
                await table.act(seat, action, via, deliver_to=self.deliver)
                state = await table.state()
                table.check.check(state)
            await self._hand_done(group.id)
            if state.is_over:
                break
        if not state.is_over:  # the next hand's table message is posted before the table ends
            await tg.wait_for(
                lambda: self._has_table_msg(group.id), timeout=10, what="the next table message"
            )

    async def _players(self, chat_id: int) -> list[Any]:
        found = await self.reader.hget(self.keys.table(chat_id), "d")
        if found is None:
            return []
        import json

        return list(json.loads(found).get("players", []))

    async def _players_more_than(self, chat_id: int, n: int) -> bool:
        return len(await self._players(chat_id)) > n

    async def _playing(self, chat_id: int) -> bool:
        import json

        found = await self.reader.hget(self.keys.table(chat_id), "d")
        return found is not None and json.loads(found).get("status") == "playing"

    async def _has_table_msg(self, chat_id: int) -> bool:
        import json

        found = await self.reader.hget(self.keys.table(chat_id), "d")
        return found is not None and json.loads(found).get("shown", {}).get("table_msg") is not None

    def _dedupe_keys(self) -> list[str]:
        first = self.tg.first_update_id
        last = first + len(self.tg.queued_at)
        keys = [f"{PREFIX}:upd:{u}" for u in range(first, last)]  # one per update (older bots)
        keys += [self.keys.seen(c) for c in self.tg.chats]  # one per chat
        keys += [self.keys.seen(u) for u in self.tg.users]
        return keys

    async def dedupe_size(self) -> int:
        """Bytes Redis keeps for update de-duplication (``MEMORY USAGE`` of those keys)."""
        total = 0
        for key in self._dedupe_keys():
            total += int(await self.reader.memory_usage(key) or 0)
        return total

    async def cleanup(self) -> None:
        ids = [str(c) for c in self.tg.chats]
        keys = [k async for k in self.reader.scan_iter(match=f"{PREFIX}:*", count=1000)]
        doomed = [k for k in keys if any(i in k.decode() for i in ids)]
        doomed += self._dedupe_keys()
        if self.args.cluster:
            for key in doomed:
                await self.reader.delete(key)
        else:
            for i in range(0, len(doomed), 500):
                await self.reader.delete(*doomed[i : i + 500])
        for bucket in self.keys.sweep_buckets():
            await self.reader.zrem(self.keys.timers_in(bucket), *ids)
            await self.reader.zrem(self.keys.publish_in(bucket), *ids)
        await self.reader.aclose()

    def report(
        self, elapsed: float, trips: int, calls0: int, updates0: int, ops: dict[str, int]
    ) -> None:
        tg = self.tg
        updates = len(tg.queued_at) - updates0
        calls = [c for c in tg.calls[calls0:] if c.method.lower() != "getupdates"]
        group_msgs = len(tg.group_calls(since=calls0))
        lat = tg.latencies()
        hands = max(self.hands, 1)
        print(f"tables played          {self.tables_done} ({self.hands} hands, {updates} updates)")
        print(
            f"wall time              {elapsed:.1f} s (concurrency {self.args.concurrency}, "
            f"{self.args.processes} bot process(es) on "
            f"{'a Redis Cluster' if self.args.cluster else 'one Redis'})"
        )
        print(f"updates handled        {updates / elapsed:.1f} /s")
        print(
            f"handling latency       p50 {percentile(lat, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(lat, 0.99) * 1000:.1f} ms ({len(lat)} matched)"
        )
        target = TARGET_GROUP_MSGS[self.args.game]
        print(
            f"new group messages     {group_msgs / hands:.2f} per hand "
            f"(incl. lobby/start; target <= {target} per {self.args.game} hand)"
        )
        per_hand_play = (group_msgs - 2 * self.tables_done) / hands  # minus lobby + first table
        print(f"  of which in play     {per_hand_play:.2f} per hand")
        print(
            f"Bot API calls          {len(calls) / hands:.1f} per hand, "
            f"{len(calls) / max(updates, 1):.2f} per update"
        )
        self.print_calls("  by method/dest.", calls, hands)
        steady = [c for c in calls if self._steady(c)]
        steady_hands = sum(n for _, n in self.steady.values())
        if steady_hands:
            print(
                f"  steady state         {len(steady) / steady_hands:.1f} per hand "
                f"(from the end of each table's first hand: {steady_hands} hands)"
            )
            self.print_calls("    by method/dest.", steady, steady_hands)
        print_peaks(calls)
        print(
            f"Redis round trips      {trips / max(updates, 1):.2f} per update "
            f"(target <= {TARGET_ROUND_TRIPS}; includes timer sweeps)"
        )
        if ops:
            per = ", ".join(
                f"{k} {v / max(updates, 1):.2f}"
                for k, v in sorted(ops.items(), key=lambda x: -x[1])
            )
            print(f"  by operation         {per}")
            sweeps = sum(v for k, v in ops.items() if k in SWEEP_OPS)
            print(
                f"  without the sweeps   {(trips - sweeps) / max(updates, 1):.2f} per update "
                f"(the sweeps cost {sweeps / max(elapsed, 1e-9):.1f} per second)"
            )
        if self.doc_sizes:
            print(
                f"bytes stored per table mean {statistics.mean(self.doc_sizes):.0f}, "
                f"max {max(self.doc_sizes)} (target < {TARGET_BYTES})"
            )
        tables = max(len(self.table_chats), 1)
        print(
            f"de-duplication kept    {self.dedupe_bytes / max(updates, 1):.1f} bytes per update, "
            f"{self.dedupe_bytes / tables:.0f} per table ({self.dedupe_bytes} in all)"
        )
        failed = [c for c in calls if not c.ok]
        if failed:
            print(f"failed API calls       {len(failed)}: {sorted({c.error for c in failed})[:5]}")
        for error in self.errors[:10]:
            print(f"error                  {error}")

    def destination(self, call: Any) -> str:
        """``group`` or ``private``: the chat a call wrote to (a button's answer: where the
        button was)."""
        chat = call.params.get("chat_id")
        if chat is None:
            query = call.params.get("callback_query_id")
            chats = self.query_chats().get(str(query), frozenset())
            return "group" if any(c < 0 for c in chats) else "private"
        return "group" if int(chat) < 0 else "private"

    def query_chats(self) -> dict[str, frozenset[int]]:
        if not hasattr(self, "_query_chats"):
            self._query_chats = {
                str(q): chats for chats, q in self.tg.update_meta.values() if q is not None
            }
        return self._query_chats

    def table_of(self, call: Any) -> int | None:
        chat = call.params.get("chat_id")
        chats = (
            frozenset({int(chat)})
            if chat is not None
            else self.query_chats().get(str(call.params.get("callback_query_id")), frozenset())
        )
        for group, members in self.table_chats.items():
            if chats & members:
                return group
        return None

    def _steady(self, call: Any) -> bool:
        group = self.table_of(call)
        return group is not None and group in self.steady and call.seq >= self.steady[group][0]

    def print_calls(self, title: str, calls: list[Any], hands: int) -> None:
        counts: Counter[tuple[str, str]] = Counter((c.method, self.destination(c)) for c in calls)
        parts = [f"{m} {d} {n / hands:.2f}" for (m, d), n in sorted(counts.items())]
        group = sum(n for (_, d), n in counts.items() if d == "group")
        print(
            f"{title:<23} {', '.join(parts)} "
            f"(group {group / hands:.2f}, private {(len(calls) - group) / hands:.2f})"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=["mus", "envite", "piedras"], default="mus")
    parser.add_argument("--players", type=int, default=0, help="envite 4..12, piedras 3..8")
    parser.add_argument("--latency", type=float, default=0.0, help="Bot API latency in ms")
    parser.add_argument("--tables", type=int, default=24)
    parser.add_argument("--concurrency", type=int, default=6)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0, help="stop starting tables after")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--processes", type=int, default=1, help="Applications sharing Redis (updates spread)"
    )
    parser.add_argument(
        "--poll", type=float, default=0.02, help="seconds between the players' reads of Redis"
    )
    add_open_loop_arguments(parser)
    parser.add_argument(
        "--no-ordago", action="store_true", help="Mus: no órdagos (vacas of many hands)"
    )
    parser.add_argument(
        "--policy",
        choices=["random", "ai"],
        default="random",
        help="Mus: uniformly random legal moves, or those of the computer player (as people play)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="seconds a player thinks before a move (about)"
    )
    parser.add_argument(
        "--cluster", action="store_true", help="REDIS_URL is a node of a Redis Cluster"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if args.open:
        return run_open_loop(args)
    return asyncio.run(Bench(args).run())


if __name__ == "__main__":
    raise SystemExit(main())
