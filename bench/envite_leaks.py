"""Where the envite computer player loses: chico chances lost by kind of round.

Plays the matches of ``bench/ai_envite.py`` (the same deals, seats swapped, señas on) and puts
each round in a kind: how its betting went (who opened, how far, who refused or accepted),
tumbo, and who took the tricks. For each kind it prints how often it happened and the change
in the AI team's chance of winning the chico it caused (by ``reckoning.CHICO``, 1 or 0 when the
round ends the chico), summed over the rounds: the largest negative sums are the leaks.

``python bench/envite_leaks.py --against random --n 400 [--players 4]``
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.envite as envite
from bench.ai_envite import OPPONENTS, _opponent, _signal
from engine.envite import ai
from engine.envite.reckoning import CHICO


def _kind(spoken: Sequence[tuple[int, str]], ai_team: int, refused: int | None) -> str:
    """The betting of a round as text: "A:envido B:quiero" (A the AI team, B the other)."""
    words = [("A" if seat % 2 == ai_team else "B") + ":" + kind for seat, kind in spoken]
    if refused is not None:
        words.append(("A" if refused == ai_team else "B") + ":no_quiero")
    return " ".join(words) or "-"


def _play(players: int, against: str, deal: int, ai_team: int, rng: random.Random) -> list:
    other = _opponent(against)
    s = envite.new_game(players=players, seed=deal)
    levels = {ai_team: "normal"}
    rows = []
    before = s.score
    tumbo = ""
    while not s.is_over:
        s = _signal(s, levels, rng)
        seat = s.to_act[0]
        if seat % 2 == ai_team:
            action = ai.choose(envite.view(s, seat), envite.legal_actions(s, seat), rng)
        else:
            action = other(s, seat, rng)
        spoken = s.spoken
        t = envite.apply(s, seat, action)
        refused = None
        done = None
        for e in t.events:
            if e.kind == "tumbo_decided":
                tumbo = ("A" if e.data["team"] == ai_team else "B") + (
                    ":tumbo" if e.data["play"] else ":no_tumbo"
                )
            if e.kind == "bet_refused":
                refused = e.data["team"]
                spoken = t.state.spoken if t.state.round == s.round else spoken
            if e.kind == "round_scored":
                done = ("points", e.data["team"], e.data["why"])
            if e.kind == "chico_won":
                done = ("chico", e.data["team"], e.data["why"])
        if done is not None:
            us = before[ai_team], before[1 - ai_team]
            start = CHICO[us]
            if done[0] == "chico":
                end = 1.0 if done[1] == ai_team else 0.0
            else:
                after = t.state.score
                end = CHICO[(after[ai_team], after[1 - ai_team])]
            winner = "A" if done[1] == ai_team else "B"
            label = tumbo or _kind(spoken, ai_team, refused)
            if tumbo:
                label += " " + _kind(spoken, ai_team, refused)
            rows.append((f"{label} -> {winner} ({done[2]})", end - start, us))
            before = t.state.score
            tumbo = ""
        s = t.state
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400, help="matches (n // 2 deals)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--against", default="random", choices=OPPONENTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    total: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    start = args.seed * 1_000_003 + args.players * 10_007
    for deal in range(start, start + args.n // 2):
        for ai_team in (0, 1):
            for label, delta, _ in _play(args.players, args.against, deal, ai_team, rng):
                total[label][0] += 1
                total[label][1] += delta
    rows = sorted(total.items(), key=lambda kv: kv[1][1])
    print(f"{'round kind':<60} {'count':>6} {'chico chance':>12}")
    for label, (count, delta) in rows[: args.top]:
        print(f"{label:<60} {count:>6} {delta:>12.2f}")
    print("...")
    for label, (count, delta) in rows[-10:]:
        print(f"{label:<60} {count:>6} {delta:>12.2f}")


if __name__ == "__main__":
    main()
