"""Envite computer player strength: chicos won by an AI team against other players.

Each match is one chico (``Options(chicos=1)``), or with ``--chicos 2`` a whole game as a default
table plays it (best of three chicos: the unit the Mus benchmark counts as a vaca), between two
teams of 2 or 3 (4 and 6 players):
team "AI" plays every seat of its team with ``engine.envite.ai.choose`` at the given level, the
other team is a random player (a uniformly random legal action), the rule baseline
(``engine.envite.ai.baseline``) or the AI at level ``facil``. The AI team sits as team 0 in even
matches and team 1 in odd ones (no seat advantage). A figure is the share of matches the AI team
wins, with its 95 % Wilson interval. Decision time is one ``view`` + ``choose`` call on one core.

Señas are on, as at a default table (rules/senas.md): after every move each computer seat (the
AI team's, and the ``facil`` team's) makes the señas its ``choose_senas`` wants, as the bot's
computer players do; ``--sinsenas`` plays without them.

Run alone: ``python bench/ai_envite.py --n 2000`` (uses 2 processes); ``bench/ai.py --game
envite`` calls :func:`run`.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.envite as envite
from engine.core import Action
from engine.envite import ai

Row = tuple[str, str]
Player = Callable[[envite.EnviteState, int, random.Random], Action]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _opponent(kind: str) -> Player:
    def random_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return rng.choice(envite.legal_actions(s, seat))

    def baseline_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return ai.baseline(envite.view(s, seat), envite.legal_actions(s, seat), rng)

    def facil_player(s: envite.EnviteState, seat: int, rng: random.Random) -> Action:
        return ai.choose(envite.view(s, seat), envite.legal_actions(s, seat), rng, "facil")

    return {"random": random_player, "baseline": baseline_player, "facil": facil_player}[kind]


def _signal(
    s: envite.EnviteState, levels: dict[int, str], rng: random.Random
) -> envite.EnviteState:
    """Every computer seat (its team's level in ``levels``) makes the señas it wants now."""
    for seat in range(s.players):
        level = levels.get(seat % 2)
        if level is None or seat == s.ghost:
            continue
        offered = envite.legal_senas(s, seat)
        if offered:
            for sena in ai.choose_senas(envite.view(s, seat), offered, rng, level):
                s = envite.apply(s, seat, sena).state
    return s


def _matches(job: tuple[int, str, str, int, int, bool, int]) -> tuple[int, int, list[float]]:
    """Play ``count`` matches of ``chicos`` chicos to win; return (AI matches won, matches, AI
    decision times in seconds)."""
    players, level, against, seed, count, senas, chicos = job
    other = _opponent(against)
    rng = random.Random(seed)
    wins = 0
    times: list[float] = []
    for m in range(count):
        ai_team = m % 2
        levels = {ai_team: level} if senas else {}
        if senas and against == "facil":
            levels[1 - ai_team] = "facil"
        options = envite.Options(chicos=chicos, sinsenas=not senas)
        s = envite.new_game(players=players, options=options, seed=seed + m)
        while not s.is_over:
            if levels:
                s = _signal(s, levels, rng)
            seat = s.to_act[0]
            if seat % 2 == ai_team:
                start = time.perf_counter()
                action = ai.choose(envite.view(s, seat), envite.legal_actions(s, seat), rng, level)
                times.append(time.perf_counter() - start)
            else:
                action = other(s, seat, rng)
            s = envite.apply(s, seat, action).state
        wins += s.winner == ai_team
    return wins, count, times


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    n: int,
    level: str = "normal",
    seed: int = 1,
    processes: int = 2,
    senas: bool = True,
    chicos: int = 1,
    sizes: Sequence[int] = (4, 6),
    against: Sequence[str] = ("random", "baseline", "facil"),
) -> list[Row]:
    """Rows (label, figure) for ``n`` matches per match-up, each of ``chicos`` chicos to win
    (``senas``: the computer seats make señas, as at a default table)."""
    rows: list[Row] = []
    times: list[float] = []
    unit = "chicos" if chicos == 1 else f"games of {chicos} chicos"
    matchups = [(p, a) for p in sizes for a in against if not (level == "facil" == a)]
    with ProcessPoolExecutor(processes) as pool:
        for players, other in matchups:
            chunks = max(1, processes * 4)
            counts = [n // chunks + (1 if i < n % chunks else 0) for i in range(chunks)]
            base = seed * 1_000_003 + players * 10_007
            jobs = []
            start = base
            for size in counts:
                if size:
                    jobs.append((players, level, other, start, size, senas, chicos))
                    start += size
            wins = total = 0
            for w, c, t in pool.map(_matches, jobs):
                wins += w
                total += c
                times.extend(t)
            lo, hi = wilson(wins, total)
            rows.append(
                (
                    f"envite {players}p AI {level} team vs {other} team: {unit} won"
                    + ("" if senas else " (sin señas)"),
                    f"{wins / total:.1%} [{lo:.1%}, {hi:.1%}] of {total}",
                )
            )
    rows.append(
        (
            f"envite AI {level} decision time p50 / p99",
            f"{_percentile(times, 0.5) * 1000:.2f} ms / {_percentile(times, 0.99) * 1000:.2f} ms",
        )
    )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="matches per match-up")
    parser.add_argument(
        "--chicos", type=int, default=1, help="chicos to win a match (2: a default game)"
    )
    parser.add_argument("--players", type=int, nargs="+", default=[4, 6], choices=range(4, 13, 2))
    parser.add_argument(
        "--against",
        nargs="+",
        default=["random", "baseline", "facil"],
        choices=["random", "baseline", "facil"],
    )
    parser.add_argument("--level", default="normal", choices=ai.LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sinsenas", action="store_true", help="no señas (table option)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = run(
        args.n,
        args.level,
        args.seed,
        senas=not args.sinsenas,
        chicos=args.chicos,
        sizes=args.players,
        against=args.against,
    )
    for label, figure in rows:
        print(f"{label:<58} {figure}")
    print(f"{'elapsed':<58} {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
