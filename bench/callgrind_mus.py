"""CPU instructions per random hand, counted by callgrind (independent of the machine's load).

Plays the workload of ``bench/engine_mus.py``'s ``random_hands`` (vacas from seed 1 on, a
uniformly random legal action for a random seat to act, ``random.Random(2)``) for a fixed
number of hands, under ``valgrind --tool=callgrind``, twice: ``N`` hands and ``2N`` hands. The
difference of the two totals over the ``N`` extra hands is what one more hand costs, without
start-up, imports and first-use caches. ``--game piedras`` and ``--game envite`` do the same
with the workloads of ``bench/engine_piedras.py`` (4 players; hands) and
``bench/engine_envite.py`` (4 players; rounds), to check that a change in ``engine.core``
costs them nothing.

Run from the repository root (needs valgrind; about a minute)::

    PYTHONPATH=. python bench/callgrind_mus.py [--game mus|piedras|envite] [--hands N]

``--play N`` only plays ``N`` hands and prints them (what runs under callgrind).
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _count(stream: Iterator[object], count: int) -> int:
    return sum(1 for _ in itertools.islice(stream, count))


def play_mus(count: int) -> int:
    from engine_mus import hand_stream

    return _count(hand_stream(), count)


def play_piedras(count: int, players: int = 4) -> int:
    from engine_piedras import hand_stream

    return _count(hand_stream(players), count)


def play_envite(count: int, players: int = 4) -> int:
    from engine_envite import round_stream

    return _count(round_stream(players), count)


GAMES = {"mus": play_mus, "piedras": play_piedras, "envite": play_envite}


def instructions(game: str, count: int) -> int:
    """Instructions of a whole process that plays ``count`` hands of ``game`` (callgrind)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--game",
                game,
                "--play",
                str(count),
            ],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert match, "no total in the callgrind output"
        return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="mus")
    parser.add_argument("--hands", type=int, default=300, help="hands in the difference (N)")
    parser.add_argument("--play", type=int, help="only play this many hands (under callgrind)")
    args = parser.parse_args()
    if args.play is not None:
        print(GAMES[args.game](args.play))
        return
    n = args.hands
    small, large = instructions(args.game, n), instructions(args.game, 2 * n)
    unit = "round" if args.game == "envite" else "hand"
    print(f"{args.game}: {(large - small) / n:,.0f} instructions per {unit} ({n} {unit}s)")


if __name__ == "__main__":
    main()
