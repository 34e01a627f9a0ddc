"""Mus computer player strength, for ``python bench/ai.py --game mus`` (see bench/ai.py), or
``python bench/ai_mus.py --against tight,random --n 400 [--level normal] [--seed 1]``.

Each match-up plays ``n`` vacas: ``n // 2`` seeds, each played twice from the same seed (the
same first deal and the same shuffles), once with the computer pair on seats {0,2} and once on
{1,3}. Opponents: a pair taking uniformly random legal actions; the rule-based pairs and
exploit bots of ``bench/mus_rivals.py``, written from the rules and not from our player
(``tight``, ``loose``, ``calls_ordago``, ``always_bet``, ``always_ordago``, ``always_accept``,
``never_accept``, ``nuts_only``); our own ``baseline``; and ``facil`` (for ``normal``). Runs
over 2 processes. Reports win rates with 95 % Wilson intervals and the computer player's
decision time (p50, p99, one decision on one core).

Señas are on, as at a default table (rules/senas.md): after every move each computer seat (the
level's pair, and the ``facil`` pair) makes the señas its ``choose_senas`` wants, as the bot's
computer players do.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai import percentile, rate, report
from mus_rivals import RIVALS

from engine.core import Action
from engine.mus import (
    MusState,
    ai,
    apply,
    baseline,
    legal_actions,
    legal_senas,
    new_game,
    view,
)

Player = Callable[[MusState, int, random.Random], Action]
PROCESSES = 2
OPPONENTS = ("random", *RIVALS, "baseline")
"""Every opponent; the default run meets all of them, then ``facil`` (level ``normal``)."""


def _player(kind: str) -> Player:
    if kind == "random":
        return lambda s, seat, rng: rng.choice(legal_actions(s, seat))
    if kind == "baseline":
        return lambda s, seat, rng: baseline.choose(view(s, seat), legal_actions(s, seat), rng)
    if kind in RIVALS:
        rival = RIVALS[kind]
        return lambda s, seat, rng: rival(view(s, seat), legal_actions(s, seat), rng)
    return lambda s, seat, rng: ai.choose(view(s, seat), legal_actions(s, seat), rng, kind)


def _signal(s: MusState, levels: dict[int, str], rng: random.Random) -> MusState:
    """Every computer seat (its pair's level in ``levels``) makes the señas it wants now."""
    for seat in range(4):
        level = levels.get(seat % 2)
        offered = legal_senas(s, seat) if level is not None else []
        if offered and level is not None:
            for sena in ai.choose_senas(view(s, seat), offered, rng, level):
                s = apply(s, seat, sena).state
    return s


def _vaca(job: tuple[str, str, int, int]) -> tuple[bool, list[float]]:
    """One vaca of ``us`` (on pair ``our_pair``) against ``them``; (we won, our decision
    times)."""
    us, them, seed, our_pair = job
    ours, theirs = _player(us), _player(them)
    rng = random.Random(seed * 2 + our_pair)
    s = new_game(seed=seed)
    levels = {p: who for p, who in ((our_pair, us), (1 - our_pair, them)) if who in ai.LEVELS}
    times: list[float] = []
    while not s.is_over:
        s = _signal(s, levels, rng)
        seat = s.to_act[0]
        if seat % 2 == our_pair:
            start = time.perf_counter()
            action = ours(s, seat, rng)
            times.append(time.perf_counter() - start)
        else:
            action = theirs(s, seat, rng)
        s = apply(s, seat, action).state
    return s.winner == our_pair, times


def run(
    n: int, level: str, seed: int, against: Sequence[str] | None = None
) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    times: list[float] = []
    if against is None:
        against = [*OPPONENTS, "facil" if level == "normal" else "random"]
    matchups = [("normal" if them == "facil" else level, them) for them in against]
    seeds = max(1, n // 2)
    with Pool(PROCESSES) as pool:
        for us, them in matchups:
            jobs = [(us, them, seed * 1_000_003 + i, pair) for i in range(seeds) for pair in (0, 1)]
            start = time.perf_counter()
            results = pool.map(_vaca, jobs, chunksize=max(1, len(jobs) // 40))
            wins = sum(won for won, _ in results)
            if us == level:
                for _, t in results:
                    times.extend(t)
            label = f"{us} vs {them} (vacas won)"
            rows.append((label, rate(wins, len(jobs)) + f"  {time.perf_counter() - start:.0f} s"))
    rows.append(("decisions timed", f"{len(times):,}"))
    rows.append(("decision time p50", f"{percentile(times, 0.5) * 1e3:.2f} ms"))
    rows.append(("decision time p99", f"{percentile(times, 0.99) * 1e3:.2f} ms"))
    rows.append(("decision time max", f"{percentile(times, 1.0) * 1e3:.2f} ms"))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=None, help="comma-separated opponents")
    parser.add_argument("--n", type=int, default=400, help="vacas per match-up")
    parser.add_argument("--level", choices=ai.LEVELS, default="normal")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    against = None if args.against is None else args.against.split(",")
    for them in against or ():
        if them not in (*OPPONENTS, *ai.LEVELS):
            parser.error(f"unknown opponent {them!r}; one of {', '.join(OPPONENTS)}, facil")
    start = time.perf_counter()
    rows = run(args.n, args.level, args.seed, against)
    rows.append(("wall time", f"{time.perf_counter() - start:.1f} s"))
    report(f"mus computer player, level {args.level}, n = {args.n}, seed = {args.seed}", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
