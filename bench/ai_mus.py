"""Mus computer player strength, for ``python bench/ai.py --game mus`` (see bench/ai.py).

Match-ups, ``n`` vacas each, the computer pair on seats {0,2} in half of them and {1,3} in the
other half (each vaca from its own seed): the level asked for against a pair taking uniformly
random legal actions, against the rule-based pair (engine.mus.baseline), and ``normal`` against
``facil``. Runs over 2 processes. Reports win rates with 95 % Wilson intervals and the
computer player's decision time (p50, p99, one decision on one core).

Señas are on, as at a default table (rules/senas.md): after every move each computer seat (the
level's pair, and the ``facil`` pair) makes the señas its ``choose_senas`` wants, as the bot's
computer players do.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from multiprocessing import Pool

from ai import percentile, rate

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


def _player(kind: str) -> Player:
    if kind == "random":
        return lambda s, seat, rng: rng.choice(legal_actions(s, seat))
    if kind == "baseline":
        return lambda s, seat, rng: baseline.choose(view(s, seat), legal_actions(s, seat), rng)
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


def _vaca(job: tuple[str, str, int]) -> tuple[bool, list[float]]:
    """One vaca of ``us`` against ``them``; returns (we won, our decision times)."""
    us, them, seed = job
    ours, theirs = _player(us), _player(them)
    our_pair = seed % 2
    rng = random.Random(seed)
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


def run(n: int, level: str, seed: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    times: list[float] = []
    matchups = [(level, "random"), (level, "baseline")]
    matchups.append(("normal", "facil") if level == "normal" else ("facil", "random"))
    with Pool(PROCESSES) as pool:
        for us, them in matchups:
            jobs = [(us, them, seed * 1_000_003 + i) for i in range(n)]
            start = time.perf_counter()
            results = pool.map(_vaca, jobs, chunksize=max(1, n // 40))
            wins = sum(won for won, _ in results)
            if us == level:
                for _, t in results:
                    times.extend(t)
            label = f"{us} vs {them} (vacas won)"
            rows.append((label, rate(wins, n) + f"  {time.perf_counter() - start:.0f} s"))
    rows.append(("decisions timed", f"{len(times):,}"))
    rows.append(("decision time p50", f"{percentile(times, 0.5) * 1e3:.2f} ms"))
    rows.append(("decision time p99", f"{percentile(times, 0.99) * 1e3:.2f} ms"))
    rows.append(("decision time max", f"{percentile(times, 1.0) * 1e3:.2f} ms"))
    return rows
