"""Strength of the computer players: ``python bench/ai.py --game mus|envite|piedras [--n N]
[--level normal|facil] [--seed S]``.

Each game has a module ``bench/ai_<game>.py`` (imported only when asked for) exposing::

    def run(n: int, level: str, seed: int) -> list[tuple[str, str]]: ...

``n`` is the number of games (vacas, chicos...) per match-up, ``level`` the computer player's
level, ``seed`` makes the run reproducible; it returns rows of (label, formatted figure) that
this script prints as a table. Helpers shared by those modules: :func:`wilson`, :func:`rate`,
:func:`percentile`.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("mus", "envite", "piedras")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a win rate ``wins / n``.

    >>> lo, hi = wilson(95, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.888, 0.978)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def rate(wins: int, n: int) -> str:
    """``"96.1 % [95.2, 96.8] (1922/2000)"``: a win rate with its 95 % Wilson interval."""
    lo, hi = wilson(wins, n)
    return f"{100 * wins / max(n, 1):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] ({wins}/{n})"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--n", type=int, default=2000, help="games per match-up")
    parser.add_argument("--level", choices=("normal", "facil"), default="normal")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "bench"))
    sys.path.insert(0, str(ROOT))  # first: bench/engine.py must not hide the engine package
    module = importlib.import_module(f"ai_{args.game}")
    start = time.perf_counter()
    rows: list[tuple[str, str]] = module.run(args.n, args.level, args.seed)
    rows.append(("wall time", f"{time.perf_counter() - start:.1f} s"))
    report(
        f"{args.game} computer player, level {args.level}, n = {args.n}, seed = {args.seed}", rows
    )
    return 0


def report(title: str, rows: Sequence[tuple[str, str]]) -> None:
    """Print a benchmark's figures: the title, then one aligned ``label  figure`` line each."""
    width = max(len(label) for label, _ in rows)
    print(title)
    for label, figure in rows:
        print(f"  {label:<{width}}  {figure}")


if __name__ == "__main__":
    raise SystemExit(main())
