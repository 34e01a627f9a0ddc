"""Benchmark of the records: Redis bytes per finished game and per player kept, and the latency
of ``/ranking`` in a group with 10,000 stored games.

    REDIS_URL=redis://127.0.0.1:6379/7 .venv/bin/python bench/records.py [--games 10000]

Random games of each game (random legal actions through the table document, as the bot plays
them) are recorded exactly as the publisher does; their keys are measured with ``MEMORY USAGE``
(real Redis) beside the payload bytes. Then ``--games`` games among 12 regular players are
recorded in one group (the last ``TAPETE_RECORDS_KEEP`` = 200 in full) and the ``/ranking``
handler is timed end to end (its Redis reads and its text; the reply goes to a stub bot). The
run uses its own key prefix and deletes its keys at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis.asyncio as aioredis  # noqa: E402
from telegram import Update  # noqa: E402

from bot.flow import moves  # noqa: E402
from bot.handlers import records as handlers  # noqa: E402
from bot.handlers.common import SERVICES_KEY  # noqa: E402
from bot.records.model import GameRecord, HandLog  # noqa: E402
from bot.records.store import RedisRecords  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.store import RedisStore  # noqa: E402
from bot.table import Table  # noqa: E402

SIZES = {"mus": 4, "envite": 6, "piedras": 5}


def random_game(game: str, players: list[tuple[int, str]], chat: int, seed: int) -> Table:
    """A whole random game through the table document; its pending records collected."""
    rnd = random.Random(seed)
    table = Table(chat_id=chat, creator=players[0][0], tid=uuid.uuid4().hex[:6], game=game)
    for uid, name in players:
        table.join(uid, name)
    moves.start(table, seed, time.time() - 3600, 60)
    pending = []
    while table.status == "playing":
        seat = rnd.choice(table.to_act())
        moves.play(table, seat, rnd.choice(table.adapter.legal_actions(table.engine_state(), seat)),
                   time.time(), 60)  # fmt: skip
        pending += table.rec_out
        table.rec_out = []
    table.rec_out = pending
    return table


async def store(records: RedisRecords, table: Table) -> None:
    for item in table.rec_out:
        if item.hand:
            doc = HandLog(**item.doc).model_dump_json()
            await records.add_hand(table.chat_id, table.tid, item.hand, doc)
        else:
            await records.add_game(GameRecord.model_validate(item.doc))


async def usage(client: Any, pattern: str) -> tuple[int, int]:
    """(MEMORY USAGE summed, keys) over the keys matching ``pattern``."""
    total, count = 0, 0
    async for key in client.scan_iter(match=pattern, count=1000):
        total += int(await client.memory_usage(key) or 0)
        count += 1
    return total, count


class StubBot:
    """Takes the reply of ``/ranking`` (nothing goes to Telegram)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_message(self, chat_id: int, text: str, **_: Any) -> None:
        self.texts.append(text)


def ranking_update(bot: Any, chat: int, update_id: int) -> Update:
    data = {
        "update_id": update_id,
        "message": {
            "message_id": update_id,
            "date": int(time.time()),
            "chat": {"id": chat, "type": "supergroup", "title": "bench"},
            "from": {"id": 1, "is_bot": False, "first_name": "Ana"},
            "text": "/ranking",
        },
    }
    return Update.de_json(data, bot)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=20, help="random games per game measured")
    args = parser.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    client = aioredis.Redis.from_url(url)
    prefix = f"bench-rec-{uuid.uuid4().hex[:8]}"
    records = RedisRecords(client, prefix)
    try:
        print(f"Redis {url}, prefix {prefix}")
        for game, size in SIZES.items():
            chat = -100_000 - size
            people = [(1000 + i, f"Jugador {i}") for i in range(size)]
            hands = 0
            for seed in range(args.sample):
                table = random_game(game, people, chat, seed)
                hands += len([p for p in table.rec_out if p.hand])
                await store(records, table)
            kept, _ = await usage(client, f"{prefix}:rec:game*:{chat}:*")
            hand_bytes, _ = await usage(client, f"{prefix}:rec:hands:{chat}:*")
            per_player = 0
            for kind in ("stats", "pairs", "rate", "names"):
                per_player += (await usage(client, f"{prefix}:rec:{kind}:{chat}*"))[0]
            per_player += (await usage(client, f"{prefix}:rec:user:*"))[0]
            n = args.sample
            print(
                f"{game:8} {size} players: {(kept + hand_bytes) / n:,.0f} B per finished game "
                f"({kept / n:,.0f} record + {hand_bytes / n:,.0f} hands; "
                f"{hands / n:.1f} hands/game, {hand_bytes / max(hands, 1):,.0f} B per hand); "
                f"aggregates {per_player / size:,.0f} B per player kept"
            )
            await client.delete(*[k async for k in client.scan_iter(match=f"{prefix}:rec:user:*")])

        chat = -200_000
        regulars = [(2000 + i, f"Jugador {i}") for i in range(12)]
        template = random_game("mus", regulars[:4], chat, 1)
        record = GameRecord.model_validate(next(p.doc for p in template.rec_out if not p.hand))
        rnd = random.Random(3)
        start = time.perf_counter()
        for i in range(args.games):
            seated = rnd.sample(regulars, 4)
            players = [
                p.model_copy(update={"id": uid, "name": name})
                for p, (uid, name) in zip(record.players, seated, strict=True)
            ]
            places = [1, 0, 1, 0] if rnd.random() < 0.5 else [0, 1, 0, 1]
            await records.add_game(
                record.model_copy(update={"id": f"b{i}", "players": players, "places": places})
            )
        took = time.perf_counter() - start
        print(f"recorded {args.games:,} games in one group in {took:.1f} s "
              f"({args.games / took:,.0f} games/s)")  # fmt: skip
        kinds = ("games", "game", "stats", "pairs", "rate", "names", "meta")
        per_group = sum([(await usage(client, f"{prefix}:rec:{k}:{chat}*"))[0] for k in kinds])
        print(f"group with {args.games:,} games: {per_group:,} B in Redis (200 kept in full)")

        settings = Settings(telegram_bot_token="1:bench", redis_prefix=prefix)  # type: ignore[call-arg]
        svc = Services(settings, RedisStore(client, prefix), records=records)
        bot = StubBot()
        context = SimpleNamespace(
            application=SimpleNamespace(bot_data={SERVICES_KEY: svc}), bot=bot, args=[]
        )
        times = []
        for i in range(50):
            update = ranking_update(bot, chat, 10**9 + i)
            t0 = time.perf_counter()
            await handlers.ranking(update, context)  # type: ignore[arg-type]
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        assert "Ranking" in bot.texts[-1], bot.texts[-1]
        print(f"/ranking with {args.games:,} games: p50 {statistics.median(times):.1f} ms, "
              f"p99 {times[int(len(times) * 0.99) - 1]:.1f} ms (Redis reads + text)")  # fmt: skip
    finally:
        keys = [k async for k in client.scan_iter(match=f"{prefix}:*", count=1000)]
        if keys:
            await client.delete(*keys)
        await client.aclose()


if __name__ == "__main__":
    asyncio.run(main())
