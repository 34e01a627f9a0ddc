"""Mus a piedras computer player strength: how often one AI seat avoids losing the juego.

Four players, one AI seat (``engine.piedras.ai.choose`` at the given level) against three
others of one kind: random players (a uniformly random legal action), the rule baseline
(``engine.piedras.ai.baseline``) or the AI at level ``facil``. Each match is played until its
first juego is lost (P1: the last player with stones loses it); the AI seat moves round the
table from match to match (no seat advantage).

**The measure**: the share of juegos the AI does **not** lose. Four equal players each avoid
losing 3 juegos in 4, so 75 % is the mark of a player as good as the others; the loss rate
(25 % for an equal player) is shown beside it. Intervals are 95 % Wilson intervals. Decision
time is one ``view`` + ``choose`` call on one core.

Run alone: ``python bench/ai_piedras.py --n 2000`` (uses 2 processes); ``bench/ai.py --game
piedras`` calls :func:`run`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_envite import _percentile, wilson
from engine import piedras
from engine.core import Action
from engine.piedras import ai

Row = tuple[str, str]
Player = Callable[[piedras.PiedrasState, int, random.Random], Action]
PLAYERS = 4


def _opponent(kind: str) -> Player:
    def random_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return rng.choice(piedras.legal_actions(s, seat))

    def baseline_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return ai.baseline(piedras.view(s, seat), piedras.legal_actions(s, seat), rng)

    def facil_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return ai.choose(piedras.view(s, seat), piedras.legal_actions(s, seat), rng, "facil")

    return {"random": random_player, "baseline": baseline_player, "facil": facil_player}[kind]


def _juegos(job: tuple[str, str, int, int]) -> tuple[int, int, list[float]]:
    """Play ``count`` first juegos; return (juegos the AI did not lose, juegos, AI times)."""
    level, against, seed, count = job
    other = _opponent(against)
    rng = random.Random(seed)
    kept = 0
    times: list[float] = []
    for m in range(count):
        me = (seed + m) % PLAYERS
        s = piedras.new_game(players=PLAYERS, seed=seed + m)
        loser = None
        while loser is None:
            seat = me if me in s.to_act else s.to_act[0]
            if seat == me:
                start = time.perf_counter()
                action = ai.choose(piedras.view(s, me), piedras.legal_actions(s, me), rng, level)
                times.append(time.perf_counter() - start)
            else:
                action = other(s, seat, rng)
            t = piedras.apply(s, seat, action)
            s = t.state
            loser = next((e.data["seat"] for e in t.events if e.kind == "juego_lost"), None)
        kept += loser != me
    return kept, count, times


def run(n: int, level: str = "normal", seed: int = 1, processes: int = 2) -> list[Row]:
    """Rows (label, figure) for ``n`` juegos per match-up."""
    rows: list[Row] = []
    times: list[float] = []
    opponents = ["random", "baseline"] + (["facil"] if level == "normal" else [])
    with ProcessPoolExecutor(processes) as pool:
        for against in opponents:
            chunks = processes * 4
            sizes = [n // chunks + (1 if i < n % chunks else 0) for i in range(chunks)]
            jobs = []
            start = seed * 1_000_003
            for size in sizes:
                if size:
                    jobs.append((level, against, start, size))
                    start += size
            kept = total = 0
            for k, c, t in pool.map(_juegos, jobs):
                kept += k
                total += c
                times.extend(t)
            lo, hi = wilson(kept, total)
            rows.append(
                (
                    f"piedras 4p AI {level} vs 3 {against}: juegos not lost (equal: 75%)",
                    f"{kept / total:.1%} [{lo:.1%}, {hi:.1%}] of {total}; "
                    f"lost {1 - kept / total:.1%} (equal: 25%)",
                )
            )
    rows.append(
        (
            f"piedras AI {level} decision time p50 / p99",
            f"{_percentile(times, 0.5) * 1000:.2f} ms / {_percentile(times, 0.99) * 1000:.2f} ms",
        )
    )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="juegos per match-up")
    parser.add_argument("--level", default="normal", choices=ai.LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for label, figure in run(args.n, args.level, args.seed):
        print(f"{label:<60} {figure}")
    print(f"{'elapsed':<60} {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
