"""Mus a piedras computer player strength: how often the AI seats avoid losing the juego.

Four players. Each match is played until its first juego is lost (P1: the last player with
stones loses it). Match-ups:

- **two of ours, two others** (the aim's measure): seats 0 and 2 are the AI
  (``engine.piedras.ai.choose`` at the given level), 1 and 3 the others; then, on the same
  deal seed, the AI takes seats 1 and 3 (seats swapped on the same deals). The figure is the
  share of juegos lost by one of the others (equal players: 50 %);
- **one of ours, three others**: the AI seat moves round the table on each deal seed (all four
  seats on the same deals); the share of juegos it does not lose (equal players: 75 %).

The others are random players (a uniformly random legal action), an independent rule-based
player written from rules/piedras.md alone (none of ``engine.piedras.ai``: :func:`rules_player`),
``engine.piedras.ai.baseline`` or the AI at level ``facil``. Intervals are 95 % Wilson
intervals. Decision time is one ``view`` + ``choose`` call on one core.

Run alone: ``python bench/ai_piedras.py --n 2000`` (uses 2 processes); ``bench/ai.py --game
piedras`` calls :func:`run`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai import percentile, wilson
from engine import piedras
from engine.cards import Card
from engine.core import Action
from engine.mus.evaluation import HandValue, hand_value
from engine.piedras import ai
from engine.piedras.options import Options

Row = tuple[str, str]
Player = Callable[[piedras.PiedrasState, int, random.Random], Action]
PLAYERS = 4
OPPONENTS = ("random", "rules", "baseline", "facil")

# --------------------------------------------------------------------------- the rule player
# Written from rules/piedras.md (P2 discard, P3 lances, P4 bets) and the Mus values of M3.

_PARES = {None: 0, "par": 1, "medias": 2, "duples": 3}


def _grade(value: HandValue, lance: str) -> int:
    """How strong a hand is in a lance: 0 weak, 1 above average, 2 strong, 3 very strong."""
    ranks = value.ranks
    if lance == "grande":
        reyes = ranks.count(12)
        return min(3, reyes) if reyes else int(ranks[0] >= 11)
    if lance == "chica":
        ases = ranks.count(1)
        return min(3, ases) if ases else int(ranks[-1] <= 4)
    if lance == "pares":
        if value.pares != "par":
            return _PARES[value.pares]
        return int(max(ranks, key=ranks.count) >= 11)  # a par of reyes or caballos
    if lance == "juego":
        return {31: 3, 32: 2}.get(value.points, 1)
    return 3 if value.points >= 30 else 2 if value.points >= 28 else 1 if value.points >= 25 else 0


def _keep_score(value: HandValue) -> float:
    """What four cards are worth to keep: pares and juego first, then reyes and ases."""
    juego = 3 if value.points == 31 else 2 if value.juego else 0
    return (
        2 * _PARES[value.pares] + juego + 0.3 * value.ranks.count(12) + 0.3 * value.ranks.count(1)
    )


def rules_player(v: Mapping[str, Any], actions: Sequence[Action]) -> Action:
    """The rule player's choice for the seat whose view (``to_dict()``) is ``v``: keep the four
    cards with the best pares, juego, reyes and ases; bet 2 with a strong hand in the lance;
    accept a bet with a hand above average and an órdago only with a very strong one; stay in
    re-envites (refusing a raise takes the deposit, P4.3); never raise nor call órdago."""
    options = Options(**v["options"])
    cards = [Card.parse(c) for c in v["cards"]]
    by_kind = {a.kind: a for a in actions}
    if actions[0].kind == "descarto":
        return max(
            actions,
            key=lambda a: _keep_score(hand_value([c for c in cards if c != a.cards[0]], options)),
        )
    b = v["betting"]
    grade = _grade(hand_value(cards, options), b["lance"])
    if b["stage"] == "open":
        bet = next((a for a in actions if a.kind == "envido" and a.amount == 2), None)
        return bet if bet is not None and grade >= 2 else by_kind["paso"]
    if b["ordago"] is not None:
        return by_kind["quiero" if grade >= 3 else "no_quiero"]
    if b["stage"] == "envite":
        return by_kind["quiero" if grade >= 1 else "no_quiero"]
    return by_kind.get("quiero") or by_kind["paso"]


# --------------------------------------------------------------------------- matches


def _opponent(kind: str) -> Player:
    def random_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return rng.choice(piedras.legal_actions(s, seat))

    def rules(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return rules_player(piedras.view(s, seat).to_dict(), piedras.legal_actions(s, seat))

    def baseline_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return ai.baseline(piedras.view(s, seat), piedras.legal_actions(s, seat), rng)

    def facil_player(s: piedras.PiedrasState, seat: int, rng: random.Random) -> Action:
        return ai.choose(piedras.view(s, seat), piedras.legal_actions(s, seat), rng, "facil")

    return {
        "random": random_player,
        "rules": rules,
        "baseline": baseline_player,
        "facil": facil_player,
    }[kind]


def _juego(
    ours: set[int], level: str, other: Player, deal: int, rng: random.Random, times: list[float]
) -> int:
    """Play the first juego of seed ``deal`` with the AI at ``ours``; the seat that lost it."""
    s = piedras.new_game(players=PLAYERS, seed=deal)
    while True:
        mine = [seat for seat in s.to_act if seat in ours]
        seat = mine[0] if mine else s.to_act[0]
        if seat in ours:
            start = time.perf_counter()
            action = ai.choose(piedras.view(s, seat), piedras.legal_actions(s, seat), rng, level)
            times.append(time.perf_counter() - start)
        else:
            action = other(s, seat, rng)
        t = piedras.apply(s, seat, action)
        s = t.state
        for e in t.events:
            if e.kind == "juego_lost":
                return int(e.data["seat"])


_LAYOUTS = {2: ({0, 2}, {1, 3}), 1: ({0}, {1}, {2}, {3})}
"""The AI seats on each deal seed, by how many of ours sit."""


def _juegos(job: tuple[int, str, str, int, int]) -> tuple[int, int, list[float]]:
    """Play ``count`` deal seeds in every layout of ``_LAYOUTS[ours]``; return (juegos lost by
    the others, juegos, AI decision times)."""
    ours, level, against, seed, count = job
    other = _opponent(against)
    rng = random.Random(seed)
    kept = total = 0
    times: list[float] = []
    for deal in range(seed, seed + count):
        for seats in _LAYOUTS[ours]:
            kept += _juego(seats, level, other, deal, rng, times) not in seats
            total += 1
    return kept, total, times


def run(
    n: int,
    level: str = "normal",
    seed: int = 1,
    processes: int = 2,
    against: Sequence[str] = ("random", "rules"),
    ours: Sequence[int] = (2, 1),
) -> list[Row]:
    """Rows (label, figure) for about ``n`` juegos per match-up."""
    rows: list[Row] = []
    times: list[float] = []
    with ProcessPoolExecutor(processes) as pool:
        for count in ours:
            for kind in against:
                if level == "facil" == kind:
                    continue
                deals = max(1, n // len(_LAYOUTS[count]))
                chunks = processes * 4
                sizes = [deals // chunks + (1 if i < deals % chunks else 0) for i in range(chunks)]
                jobs = []
                start = seed * 1_000_003
                for size in sizes:
                    if size:
                        jobs.append((count, level, kind, start, size))
                        start += size
                kept = total = 0
                for k, c, t in pool.map(_juegos, jobs):
                    kept += k
                    total += c
                    times.extend(t)
                lo, hi = wilson(kept, total)
                equal = 1 - count / PLAYERS
                rows.append(
                    (
                        f"piedras 4p {count} AI {level} vs {PLAYERS - count} {kind}: juegos lost "
                        f"by the {kind} (equal: {equal:.0%})",
                        f"{kept / total:.1%} [{lo:.1%}, {hi:.1%}] of {total}",
                    )
                )
    rows.append(
        (
            f"piedras AI {level} decision time p50 / p99",
            f"{percentile(times, 0.5) * 1000:.2f} ms / {percentile(times, 0.99) * 1000:.2f} ms",
        )
    )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="juegos per match-up")
    parser.add_argument("--level", default="normal", choices=ai.LEVELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", nargs="+", default=["random", "rules"], choices=OPPONENTS)
    parser.add_argument("--ours", type=int, nargs="+", default=[2, 1], choices=[1, 2])
    args = parser.parse_args(argv)
    start = time.perf_counter()
    for label, figure in run(args.n, args.level, args.seed, against=args.against, ours=args.ours):
        print(f"{label:<66} {figure}")
    print(f"{'elapsed':<66} {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
