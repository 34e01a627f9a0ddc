"""Chaos benchmark for the results (issue 25): each hand's result reaches the group exactly once.

    REDIS_URL=redis://127.0.0.1:6379/0 nice -n 10 .venv/bin/python bench/chaos.py \
        [--games envite piedras mus] [--stores redis sqlite] [--processes 3] [--tables 20] \
        [--hands 10] [--until 200] [--seed 1] [--stall 0.005] [--kill 0.1] \
        [--kill-after-result 0.3] [--timeout 0.08] [--parallel]

For each game and store, ``--processes`` real ``python -m bot`` processes (on one Redis, or on
one SQLite file) play ``--tables`` tables one after another, ``--hands`` hands (envite: rounds)
each or to the game's end (piedras: to the end of the first juego), through the fake Bot API, by
typed commands, while, per move and at random, a process is killed (``--kill``; and, with
``--kill-after-result``, the one that just showed a result, at once), a Bot API call to the
group times out before or after its effect (``--timeout``; and the next call showing a result,
30 % of moves), edits answer slowly for a few moves (5 %), and a process is stopped (SIGSTOP)
for 11 s right after a move was sent to it, beyond its publishing lock's 10 s lease
(``--stall``). ``--parallel`` plays the games at once, each with its processes, fake Bot API
and key prefix of its own. Printed: per game and store, the results checked, lost and posted
twice, and the faults made. Everything stays on 127.0.0.1; the run's keys are deleted at the
end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT))

import os  # noqa: E402

import chaos  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from driver import PREFIX  # noqa: E402
from fake_telegram import FakeTelegram  # noqa: E402


async def one(args: argparse.Namespace, game: str, store: str, seed: int) -> chaos.Figures:
    rnd = random.Random(seed)
    tg = FakeTelegram(
        first_group_id=-1009000000000 - rnd.randrange(10**8) * 100,
        first_user_id=5_000_000_000 + rnd.randrange(10**8) * 100,
        first_update_id=rnd.randrange(10**9, 2 * 10**9),
    ).start()
    prefix = f"{PREFIX}-{game}"  # each game's processes sweep their own tables only
    redis = aioredis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    try:
        return await chaos.run(
            tg,
            game,
            processes=args.processes,
            store=store,
            tables=args.tables,
            hands=args.hands,
            seed=seed,
            faults=chaos.Faults(
                kill=args.kill,
                kill_after_result=args.kill_after_result,
                timeout=args.timeout,
                stall=args.stall,
            ),
            logs=Path(tempfile.mkdtemp(prefix=f"tapete-chaos-{game}-{store}-")),
            redis=redis,
            prefix=prefix,
            until=args.until,
            progress=args.progress,
        )
    finally:
        tg.stop()
        doomed = [k async for k in redis.scan_iter(match=f"{prefix}:*", count=1000)]
        for start in range(0, len(doomed), 500):
            await redis.delete(*doomed[start : start + 500])
        with contextlib.suppress(Exception):
            await redis.aclose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="+", default=["envite", "piedras", "mus"])
    parser.add_argument("--stores", nargs="+", default=["redis", "sqlite"])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--until", type=int, default=0, help="stop once this many results")
    parser.add_argument("--progress", action="store_true", help="figures after each table")
    parser.add_argument("--kill", type=float, default=0.1)
    parser.add_argument("--timeout", type=float, default=0.08)
    parser.add_argument("--stall", type=float, default=0.005)
    parser.add_argument("--kill-after-result", type=float, default=0.3)
    parser.add_argument(
        "--parallel", action="store_true", help="the games at once (each its own processes)"
    )
    args = parser.parse_args()
    failed = False
    for store in args.stores:
        started = time.monotonic()
        runs = [one(args, game, store, args.seed + i) for i, game in enumerate(args.games)]
        if args.parallel:
            found = await asyncio.gather(*runs)
        else:
            found = [await run for run in runs]
        took = time.monotonic() - started
        for game, figures in zip(args.games, found, strict=True):
            print(f"{figures.line(game, store, args.processes)} ({took:.0f} s)", flush=True)
            for problem in figures.problems:
                print("   ", problem, flush=True)
            failed = failed or bool(figures.lost or figures.doubled)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    asyncio.run(main())
