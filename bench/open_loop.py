"""Throughput of real bot processes: many Mus tables pressing as fast as the bot answers.

Used by ``bench/bot.py --open`` (see there). The bot runs as real ``python -m bot``
processes (each under its own token of the fake Bot API, updates dealt round robin, one Redis
or, with ``--cluster``, a Redis Cluster of which ``REDIS_URL`` names a node),
so their CPU is their own and is measured (``/proc``); the fake server and the players run in
this process. Each table is four people who open a Mus table through the bot, then press the
table's buttons: each press is sent the moment the previous one was answered (the answer comes
after the move is stored), with the callback data built from the stored table (so a slow
publication does not hold the players back). Mus is always cut ("corto") and órdago never
chosen, so the hands go on for the whole run. With enough tables the bot, not the players, is
the bottleneck: the report says how many presses were waiting to be answered on average.

Printed figures: updates answered per second; p50/p99 from the update being queued to the bot's
answer (the move is stored by then) and to the first group message call after it (the move
shown); CPU milliseconds per update of the bot processes; Bot API calls per update and their
peak per second per group (chat) and for the bot; Redis memory kept per table (all its keys,
``MEMORY USAGE``) and per update (its de-duplication key).

``--outage S``: after the warm-up every Bot API call but getUpdates fails (502) for S seconds
while the players go on (their moves are stored, their presses unanswered); then the time
until every table message and private hand shows the stored table. ``--timers``: every
table's turn timer falls due at one moment: how late they fire, and in which process.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from fake_telegram import Chat, FakeTelegram, User

from bot.store.cluster import BUCKETS
from bot.store.keys import Keys

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "tapete"
#: Bot API methods held back by ``--latency`` (every call the bot makes but getUpdates).
SLOW_METHODS = (
    "sendmessage",
    "editmessagetext",
    "editmessagereplymarkup",
    "answercallbackquery",
    "sendchataction",
    "deletemessage",
    "getchatmember",
)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class LoadTelegram(FakeTelegram):
    """The fake Bot API, also telling the players (on the bench's loop) when the bot answered a
    callback query: the moment the bot sent the answer (before the injected latency)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiters: dict[str, asyncio.Future[float]] = {}
        self.answered_at: dict[str, float] = {}

    def handle(self, token: str, method: str, params: dict[str, Any]) -> Any:
        arrived = time.monotonic()
        result = super().handle(token, method, params)
        if method.lower() == "answercallbackquery":
            query_id = str(params.get("callback_query_id"))
            self.answered_at.setdefault(query_id, arrived)
            waiter = self.waiters.pop(query_id, None)
            if waiter is not None and self.loop is not None:
                self.loop.call_soon_threadsafe(_resolve, waiter, arrived)
        return result


def _raw(chat: Chat, message_id: int) -> str | None:
    """The text (as the bot sent it) of a bot message of the fake's chat."""
    for message in reversed(chat.messages):
        if message.message_id == message_id and message.from_bot:
            return str(message.raw)
    return None


def _resolve(waiter: asyncio.Future[float], at: float) -> None:
    if not waiter.done():
        waiter.set_result(at)


class BotProcess:
    """``python -m bot`` against the fake Bot API under one token (like tests/e2e/test_kills)."""

    def __init__(self, tg: FakeTelegram, token: str, redis_url: str, log: Path) -> None:
        self.tg, self.token, self.redis_url, self.log = tg, token, redis_url, log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, extra_env: dict[str, str] | None = None, profile: Path | None = None) -> None:
        env = {
            **os.environ,
            "TELEGRAM_BOT_TOKEN": self.token,
            "TELEGRAM_API_URL": self.tg.base_url,
            "REDIS_URL": self.redis_url,
            "TAPETE_TURN_TIMEOUT": "600",
            "TAPETE_TIMER_TICK": "1",
            "TAPETE_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
            **(extra_env or {}),
        }
        command = [sys.executable, "-m", "bot"]
        if profile is not None:
            command = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "bot"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=out)

    def cpu_seconds(self) -> float:
        """User + system CPU time of the process so far."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def stop(self, timeout: float = 20.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


class Player:
    """One table of four people pressing the table's buttons as fast as they are answered."""

    def __init__(self, bench: OpenLoop, index: int) -> None:
        self.bench = bench
        tg = bench.tg
        self.users = [tg.user(f"P{index}-{n}") for n in range(4)]
        for user in self.users:
            user.started = True  # they opened the private chat before
        self.group: Chat = tg.group(f"Load {index}", members=self.users, creator=self.users[0])
        self.rng = random.Random(bench.args.seed * 100_003 + index)

    async def doc(self) -> Any:
        from bot.table import Table

        raw = await self.bench.redis.hget(self.bench.keys.table(self.group.id), "d")
        return None if raw is None else Table.model_validate_json(raw)

    async def press(self, user: User, data: str, *, measured: bool) -> None:
        """Press a button with ``data`` (on any bot message of the group) and wait for the
        answer."""
        bench = self.bench
        message = self.group.bot_messages()[-1]
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[float] = loop.create_future()
        with bench.tg._lock:  # the id is known only after queueing: register before it is read
            query_id = user.press_data(message, data, deliver_to=bench.deliver)
            bench.tg.waiters[query_id] = waiter
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter, bench.answer_timeout)
        if measured:
            bench.queries.append((query_id, self.group.id))

    async def open(self) -> None:
        """``/nueva mus``, four joins, start (through the bot, like people)."""
        tg = self.bench.tg
        self.users[0].send(self.group, "/nueva mus", deliver_to=self.bench.deliver)
        table = await self._wait(lambda t: t is not None and t.status == "lobby")
        await tg.wait_for(lambda: self.group.bot_messages(), timeout=60, what="the lobby")
        for user in self.users:
            await self.press(user, f"j:{self.group.id}:{table.tid}", measured=False)
        await self.press(self.users[0], f"g:{self.group.id}:{table.tid}", measured=False)
        await self._wait(lambda t: t is not None and t.status == "playing")

    async def again(self, table: Any) -> None:
        """The game is over: "Otra partida" (a new lobby with the same players), then start."""
        measured = self.bench.measuring
        chat, old = self.group.id, table.tid
        await self.press(self.users[0], f"o:{chat}:{old}", measured=measured)
        lobby = await self._wait(lambda t: t is not None and t.tid != old)
        if lobby.status == "lobby":
            seated = {p.user_id for p in lobby.players}
            for user in self.users:
                if user.id not in seated:
                    await self.press(user, f"j:{chat}:{lobby.tid}", measured=measured)
            await self.press(self.users[0], f"g:{chat}:{lobby.tid}", measured=measured)
            await self._wait(lambda t: t is not None and t.status == "playing")
        self.bench.restarted += 1

    async def _wait(self, condition: Any, timeout: float = 60.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            table = await self.doc()
            if condition(table):
                return table
            if time.monotonic() > deadline:
                raise TimeoutError(f"table {self.group.id}: {table and table.status}")
            await asyncio.sleep(0.05)

    async def current(self) -> bool:
        """The table message and every private hand show the stored table (texts), and no
        notice or closing edit is waiting."""
        from bot import present

        table = await self.doc()
        if table is None or table.shown.outbox or table.shown.closing:
            return False
        if table.status == "playing" and table.shown.table_msg is None:
            return False
        tg = self.bench.tg
        with tg._lock:
            shown = (
                None if table.shown.table_msg is None else _raw(self.group, table.shown.table_msg)
            )
            if table.state is not None and shown != present.table_view(table)[0]:
                return False
            if table.status != "playing" or table.state is None:
                return True
            for seat, player in enumerate(table.players):
                if not table.adapter.seat_cards(table, seat):
                    continue
                msg = table.shown.hand_msgs.get(str(seat))
                user = tg.users[player.user_id]
                if msg is None or _raw(user.private, msg) != present.hand_view(table, seat)[0]:
                    return False
        return True

    def choose(self, table: Any) -> tuple[User, str] | None:
        """A random legal button press of a seat to act (Mus cut, no órdago)."""
        from bot import keyboards

        if table.status != "playing" or table.state is None:
            return None
        state = table.engine_state()
        game = table.adapter
        markup = keyboards.table_keyboard(table)
        datas = [
            str(b.callback_data)
            for row in (markup.inline_keyboard if markup else ())
            for b in row
            if str(b.callback_data or "").startswith("a:")
        ]
        options = []
        for data in datas:
            text = data.split(":", 4)[4]
            if text.startswith(("ordago", "órdago", "mus")):
                continue
            for seat in game.to_act(state):
                if seat < len(table.players) and self._legal(table, state, seat, text):
                    options.append((seat, data))
                    break
        if not options:
            return None
        seat, data = self.rng.choice(options)
        user_id = table.players[seat].user_id
        return next(u for u in self.users if u.id == user_id), data

    @staticmethod
    def _legal(table: Any, state: Any, seat: int, text: str) -> bool:
        import engine.mus as mus
        from engine.core import IllegalAction

        try:
            mus.apply(state, seat, text)
        except IllegalAction:
            return False
        return True

    async def play(self) -> None:
        bench = self.bench
        while not bench.stopping.is_set():
            table = await self.doc()
            if table is not None and table.status == "over":
                try:
                    await self.again(table)  # "Otra partida", then start: the same four again
                except TimeoutError:
                    bench.finished += 1
                    return
                continue
            choice = self.choose(table) if table is not None else None
            if choice is None:
                if table is None or table.status != "playing":
                    bench.finished += 1
                    return
                await asyncio.sleep(0.05)  # between two hands, or a seat not the players'
                continue
            user, data = choice
            await self.press(user, data, measured=bench.measuring)


class OpenLoop:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        rnd = random.Random()
        self.tg = LoadTelegram(
            first_group_id=-1007000000000 - rnd.randrange(10**8) * 1000,
            first_user_id=7_000_000_000 + rnd.randrange(10**8) * 1000,
            first_update_id=rnd.randrange(10**9, 2 * 10**9),
        ).start()
        self.redis_url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
        self.keys = Keys(PREFIX, BUCKETS if args.cluster else 0)
        self.deliver: str | None = None
        self.queries: list[tuple[str, int]] = []
        self.stopping = asyncio.Event()
        self.measuring = False
        self.finished = 0
        self.restarted = 0
        self.redis: Any = None
        #: seconds a player waits for the answer to a press (an outage: no answer comes)
        self.answer_timeout = 2.0 if args.outage else 60.0
        self.players: list[Player] = []
        #: Commands each server (master) processed while measuring, by node.
        self.commands_run: dict[str, int] = {}
        #: On a cluster: the tables each master holds, by node.
        self.spread_found: dict[str, int] = {}

    async def run(self) -> int:
        import redis.asyncio as aioredis
        from redis.asyncio.cluster import RedisCluster

        args = self.args
        self.tg.loop = asyncio.get_running_loop()
        if args.cluster:
            self.redis = RedisCluster.from_url(self.redis_url)
        else:
            self.redis = aioredis.Redis.from_url(self.redis_url)
        for i in range(1, args.processes):
            self.tg.add_token(f"{654320 + i}:BENCH-PROCESS-{i}")
        self.deliver = "round_robin" if args.processes > 1 else None
        if args.latency:
            for token in self.tg.tokens:
                for method in SLOW_METHODS:
                    self.tg.delay[(token, method)] = args.latency / 1000
        logs = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
        procs = [
            BotProcess(self.tg, token, self.redis_url, logs / f"bot{i}.log")
            for i, token in enumerate(self.tg.tokens)
        ]
        env = {"TAPETE_CONCURRENT_UPDATES": str(args.concurrent)} if args.concurrent else {}
        if args.cluster:
            env["TAPETE_REDIS_CLUSTER"] = "1"
        for i, proc in enumerate(procs):
            profile = logs / f"bot{i}.prof" if args.profile else None
            proc.start(env, profile)
        players = [Player(self, i) for i in range(args.tables)]
        tasks: list[asyncio.Task[None]] = []
        try:
            await self.tg.wait_for(
                lambda: all(t in {c.token for c in self.tg.calls} for t in self.tg.tokens),
                timeout=60,
                what="the bot processes polling",
            )
            started = time.monotonic()
            opening = asyncio.Semaphore(args.open_at_once)

            async def open_one(player: Player) -> None:
                async with opening:
                    await player.open()

            await asyncio.gather(*(open_one(p) for p in players))
            opened = time.monotonic() - started
            if args.timers:
                await self.timers(players)
                return 0
            tasks = [asyncio.create_task(p.play()) for p in players]
            await asyncio.sleep(args.warmup)
            if args.outage:
                self.players = players
                await self.outage(tasks)
                return 0
            self.measuring = True
            mark = self.tg.mark()
            commands0 = await self.commands()
            cpu0 = [p.cpu_seconds() for p in procs] + [time.process_time()]
            t0 = time.monotonic()
            await asyncio.sleep(args.seconds)
            self.measuring = False
            t1 = time.monotonic()
            cpu1 = [p.cpu_seconds() for p in procs] + [time.process_time()]
            self.commands_run = {
                node: n - commands0.get(node, 0) for node, n in (await self.commands()).items()
            }
            self.stopping.set()
            await asyncio.wait(tasks, timeout=30)
            await self.tg.settle(quiet=0.5, timeout=30)
            kept = await self.memory_kept()
            self.spread_found = await self.spread() if args.cluster else {}
            self.report(t0, t1, mark, cpu0, cpu1, kept, opened)
        finally:
            for task in tasks:
                task.cancel()
            codes = [p.stop() for p in procs]
            if any(codes):
                print(f"bot exit codes         {codes} (logs in {logs})")
            if args.profile:
                print(f"profiles               {logs}/bot*.prof")
            await self.cleanup()
            self.tg.stop()
        return 0

    async def outage(self, tasks: list[asyncio.Task[None]]) -> None:
        """Every Bot API call but getUpdates fails (502) for ``--outage`` seconds while the
        players go on; then they stop, the API answers again, and the time until every table
        message and private hand shows its stored table is measured."""
        tg, args = self.tg, self.args
        tg.expect_bad_requests = True
        with tg._lock:
            for method in SLOW_METHODS:
                tg.fail[method] = (502, "Bad Gateway")
        mark = tg.mark()
        await asyncio.sleep(args.outage)
        self.stopping.set()
        await asyncio.wait(tasks, timeout=30)
        presses = sum(1 for c in tg.calls[mark:] if c.method.lower() == "answercallbackquery")
        with tg._lock:
            tg.fail.clear()
        back = time.monotonic()
        behind = {p.group.id: p for p in self.players}
        converged: list[float] = []
        while behind and time.monotonic() - back < 120:
            for chat, player in list(behind.items()):
                if await player.current():
                    converged.append(time.monotonic() - back)
                    del behind[chat]
            await asyncio.sleep(0.1)
        n = len(self.players)
        print(
            f"outage                 {args.outage:.0f} s of 502 on every Bot API call but "
            f"getUpdates, {n} Mus tables, {args.processes} bot process(es), "
            f"{args.latency:.0f} ms latency; {presses} presses during it (stored, unanswered)"
        )
        print(
            f"converged after        p50 {percentile(converged, 0.5):.1f} s, "
            f"max {max(converged, default=float('nan')):.1f} s from the API answering again "
            f"({len(converged)} of {n} tables: table message and every private hand current)"
        )
        if behind:
            print(f"not converged          {len(behind)} tables after 120 s")

    async def timers(self, players: list[Player]) -> None:
        """Every table's turn timer falls due at the same moment (nobody plays): how late
        each one fires, and which processes fire them (the first edit of each group)."""
        import json

        from bot.store import doc_digest

        tg, redis = self.tg, self.redis
        mark = tg.mark()
        due = time.time() + 1.0
        for player in players:
            key = self.keys.table(player.group.id)
            doc = json.loads(await redis.hget(key, "d"))
            doc["deadline"] = doc["turn_deadline"] = due
            text = json.dumps(doc)
            await redis.hset(key, mapping={"d": text, "h": doc_digest(text)})
            await redis.zadd(self.keys.timers_of(player.group.id), {str(player.group.id): due})
        late: dict[int, float] = {}
        while len(late) < len(players) and time.time() < due + 120:
            for player in players:
                if player.group.id not in late:
                    table = await player.doc()
                    if table is not None and table.timeouts >= 1:
                        late[player.group.id] = time.time() - due
            await asyncio.sleep(0.1)
        await tg.settle(quiet=0.5, timeout=30)
        by: Counter[str] = Counter()
        with tg._lock:
            for chat in late:
                first = next(
                    (
                        c
                        for c in tg.calls[mark:]
                        if c.method.lower() == "editmessagetext"
                        and int(c.params.get("chat_id", 0) or 0) == chat
                    ),
                    None,
                )
                by[f"process {tg.tokens.index(first.token) + 1}" if first else "?"] += 1
        values = list(late.values())
        print(
            f"timers due together    {len(players)} tables, {self.args.processes} bot "
            f"process(es), {self.args.latency:.0f} ms latency, timer tick 1 s"
        )
        print(
            f"fired late by          p50 {percentile(values, 0.5):.1f} s, "
            f"max {max(values, default=float('nan')):.1f} s ({len(values)} fired; "
            + ", ".join(f"{k}: {v}" for k, v in sorted(by.items()))
            + ")"
        )

    async def commands(self) -> dict[str, int]:
        """Commands each Redis server (each master of a cluster) processed so far, by node
        (``INFO stats``; every bot process and this bench's reads count)."""
        if self.args.cluster:
            from redis.asyncio.cluster import RedisCluster

            found = await self.redis.info("stats", target_nodes=RedisCluster.PRIMARIES)
            return {node: int(info["total_commands_processed"]) for node, info in found.items()}
        return {"redis": int((await self.redis.info("stats"))["total_commands_processed"])}

    async def spread(self) -> dict[str, int]:
        """How many of the tables each master of the cluster holds."""
        found: Counter[str] = Counter()
        for chat in self.tg.chats:
            if chat < 0:
                found[self.redis.get_node_from_key(self.keys.table(chat)).name] += 1
        return dict(found)

    async def memory_kept(self) -> dict[str, tuple[int, int]]:
        """Redis memory of this run's keys by kind (``t`` tables, ``upd`` update ids...):
        kind -> (keys, bytes), from ``MEMORY USAGE``."""
        ids = {str(c) for c in self.tg.chats} | {str(u) for u in self.tg.users}
        first, last = self.tg.first_update_id, self.tg.first_update_id + len(self.tg.queued_at)
        out: dict[str, tuple[int, int]] = {}
        async for key in self.redis.scan_iter(match=f"{PREFIX}:*", count=1000):
            name = key.decode()
            parts = [p for p in name.split(":") if not p.startswith("{")]  # a cluster's tag
            if len(parts) < 3:
                continue
            mine = parts[-1] in ids or any(p in ids for p in parts[2:])
            if parts[1] == "upd":
                mine = parts[2].isdigit() and first <= int(parts[2]) < last
            if not mine:
                continue
            size = int(await self.redis.memory_usage(key) or 0)
            keys, total = out.get(parts[1], (0, 0))
            out[parts[1]] = (keys + 1, total + size)
        return out

    def report(
        self,
        t0: float,
        t1: float,
        mark: int,
        cpu0: list[float],
        cpu1: list[float],
        kept: dict[str, tuple[int, int]],
        opened: float,
    ) -> None:
        tg, args = self.tg, self.args
        elapsed = t1 - t0
        queued = {}
        with tg._lock:
            calls = [c for c in tg.calls[mark:] if c.method.lower() != "getupdates"]
            for update_id, (_chats, query_id) in tg.update_meta.items():
                if query_id is not None:
                    queued[query_id] = tg.queued_at[update_id]
        answered = [(q, g) for q, g in self.queries if q in tg.answered_at]
        in_window = [(q, g) for q, g in answered if t0 <= tg.answered_at[q] <= t1]
        stored = [tg.answered_at[q] - queued[q] for q, _ in answered]
        # The first group call (a send or an edit of the group's messages) after each answer.
        group_times: dict[int, list[float]] = defaultdict(list)
        for c in calls:
            chat = int(c.params.get("chat_id", 0) or 0)
            if chat < 0 and c.method.lower() in ("editmessagetext", "sendmessage"):
                group_times[chat].append(c.at)
        shown = []
        for q, g in answered:
            times = group_times.get(g, [])
            i = bisect.bisect_left(times, tg.answered_at[q])
            if i < len(times):
                shown.append(times[i] - queued[q])
        cpu = sum(cpu1[:-1]) - sum(cpu0[:-1])
        n = max(len(in_window), 1)
        where = (
            f"a Redis Cluster ({len(self.commands_run)} masters)" if args.cluster else "one Redis"
        )
        print(
            f"open loop              {args.tables} Mus tables, {args.processes} bot process(es) "
            f"on {where}, Bot API latency {args.latency:.0f} ms, {elapsed:.1f} s measured "
            f"(tables opened in {opened:.1f} s)"
        )
        print(f"updates answered       {len(in_window) / elapsed:.1f} /s ({len(in_window)})")
        commands = sum(self.commands_run.values())
        print(
            f"Redis commands         {commands / n:.2f} per update ({commands / elapsed:.0f}/s: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.commands_run.items()))
            + ")"
        )
        if self.spread_found:
            total = max(1, sum(self.spread_found.values()))
            print(
                "tables per master      "
                + ", ".join(
                    f"{node} {100 * k / total:.0f} %"
                    for node, k in sorted(self.spread_found.items())
                )
                + f" (of {total})"
            )
        waiting = sum(stored) / elapsed if stored else 0.0
        print(f"presses waiting        {waiting:.1f} on average (of {args.tables} tables)")
        print(
            f"queued -> answered     p50 {percentile(stored, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(stored, 0.99) * 1000:.0f} ms (the move is stored by then)"
        )
        print(
            f"queued -> shown        p50 {percentile(shown, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(shown, 0.99) * 1000:.0f} ms (first group call after the answer)"
        )
        per_proc = ", ".join(f"{b - a:.1f}" for a, b in zip(cpu0[:-1], cpu1[:-1], strict=True))
        print(
            f"bot CPU                {cpu * 1000 / n:.1f} ms per update "
            f"({per_proc} s of {elapsed:.1f} s per process; players and fake server "
            f"{cpu1[-1] - cpu0[-1]:.1f} s)"
        )
        print(f"Bot API calls          {len(calls) / n:.2f} per update ({len(calls)})")
        print_peaks(calls)
        updates = len(tg.queued_at)
        tables = max(kept.get("t", (0, 0))[0], 1)
        per_table = sum(b for kind, (_k, b) in kept.items() if kind != "upd") / tables
        dedupe = kept.get("upd", (0, 0))
        print(
            f"Redis memory kept      {per_table:.0f} B per table (all its keys), "
            f"{dedupe[1] / max(updates, 1):.0f} B per update for update ids "
            f"({dedupe[0]} of {updates} updates kept 24 h)"
        )
        print(
            "  by key kind          "
            + ", ".join(
                f"{kind} {b / max(k, 1):.0f} B x {k}" for kind, (k, b) in sorted(kept.items())
            )
        )
        if self.restarted or self.finished:
            print(
                f"games over             {self.restarted} (played again: "
                f'"Otra partida" and start, counted above), {self.finished} left'
            )

    async def cleanup(self) -> None:
        ids = [str(c) for c in self.tg.chats] + [str(u) for u in self.tg.users]
        keys = [k async for k in self.redis.scan_iter(match=f"{PREFIX}:*", count=1000)]
        doomed = [k for k in keys if any(i in k.decode() for i in ids)]
        first = self.tg.first_update_id
        last = first + len(self.tg.queued_at)
        doomed += [f"{PREFIX}:upd:{u}" for u in range(first, last)]
        for i in range(0, len(doomed), 500):
            async with self.redis.pipeline(transaction=False) as pipe:
                for key in doomed[i : i + 500]:  # one key a command: a cluster's keys spread
                    pipe.delete(key)
                await pipe.execute()
        chats = [str(c) for c in self.tg.chats]
        if chats:
            for bucket in self.keys.sweep_buckets():
                await self.redis.zrem(self.keys.timers_in(bucket), *chats)
                await self.redis.zrem(self.keys.publish_in(bucket), *chats)
        await self.redis.aclose()


def print_peaks(calls: list[Any]) -> None:
    """The most Bot API calls in any one second: per group chat (every call about it, and the
    new messages Telegram counts against its 20 a minute) and for the whole bot."""
    per_second: Counter[int] = Counter()
    per_chat: Counter[tuple[int, int]] = Counter()
    sends_per_chat_minute: Counter[tuple[int, int]] = Counter()
    sends_per_second: Counter[int] = Counter()
    for c in calls:
        second = int(c.at)
        per_second[second] += 1
        chat = int(c.params.get("chat_id", 0) or 0)
        if chat < 0:
            per_chat[(chat, second)] += 1
            if c.method.lower() == "sendmessage":
                sends_per_chat_minute[(chat, int(c.at // 60))] += 1
        if c.method.lower() == "sendmessage":
            sends_per_second[second] += 1
    top = max(per_second.values(), default=0)
    top_chat = max(per_chat.values(), default=0)
    top_sends = max(sends_per_second.values(), default=0)
    top_group_sends = max(sends_per_chat_minute.values(), default=0)
    print(
        f"peak Bot API calls     {top}/s for the bot ({top_sends}/s new messages), "
        f"{top_chat}/s for one group ({top_group_sends} new group messages in one minute)"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("open loop (--open)")
    group.add_argument(
        "--open",
        action="store_true",
        help="real bot processes, every table pressing as soon as its last press was answered",
    )
    group.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    group.add_argument("--open-at-once", type=int, default=20, help="tables opened at once")
    group.add_argument(
        "--concurrent", type=int, default=0, help="TAPETE_CONCURRENT_UPDATES of the processes"
    )
    group.add_argument("--profile", action="store_true", help="cProfile each bot process")
    group.add_argument(
        "--timers",
        action="store_true",
        help="instead: every table's turn timer due at once; how late they fire, and where",
    )
    group.add_argument(
        "--outage",
        type=float,
        default=0.0,
        help="instead: every Bot API call fails for this many seconds, then how long until "
        "every table is shown as stored",
    )


def run(args: argparse.Namespace) -> int:
    return asyncio.run(OpenLoop(args).run())
