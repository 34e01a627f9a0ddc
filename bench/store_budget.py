"""Two bot processes on one SQLite file share one Telegram budget: how many answers that are no
part of a game (refusals) each process sends to one group when both ask at once.

    .venv/bin/python bench/store_budget.py [--processes 2] [--answers 150]

Each process opens the store on the same file and asks the budget where ``--answers`` refusals
to distinct users may go, as fast as it can. A group's bucket holds 20 messages a minute, 8 of
them kept for the game, so at most 12 (and one more every 3 s) may go to the group in all,
whatever the number of processes.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import SQLiteStore  # noqa: E402


async def ask(path: str, first_user: int, answers: int) -> tuple[int, float]:
    """One process: the refusals the budget sends to the group, and the seconds it took."""
    store = SQLiteStore(path)
    budget = store.budget()
    start = time.perf_counter()
    to_group = 0
    for user in range(first_user, first_user + answers):
        to_group += await budget.where(-100, user, "refusal") == "group"
    await store.aclose()
    return to_group, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--answers", type=int, default=150)
    parser.add_argument("--child", nargs=2, metavar=("PATH", "FIRST_USER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        to_group, seconds = asyncio.run(ask(args.child[0], int(args.child[1]), args.answers))
        print(to_group, f"{seconds:.2f}")
        return
    with tempfile.TemporaryDirectory() as directory:
        path = str(Path(directory) / "tapete.sqlite3")
        asyncio.run(SQLiteStore(path).aclose())  # the tables, before the processes race
        command = [sys.executable, __file__, "--answers", str(args.answers), "--child", path]
        children = [
            subprocess.Popen([*command, str(1000 * (i + 1))], stdout=subprocess.PIPE, text=True)
            for i in range(args.processes)
        ]
        results = [child.communicate()[0].split() for child in children]
    counts = [int(r[0]) for r in results]
    print(f"to the group, per process: {counts}; in all: {sum(counts)} (a budget allows 12)")
    print(f"seconds per process: {[float(r[1]) for r in results]}")


if __name__ == "__main__":
    main()
