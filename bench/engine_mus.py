"""Mus engine benchmark: lance comparisons and complete random hands per second (one core).

Run ``python bench/engine.py mus`` (or this file). ``run()`` returns ``(label, value, unit)``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK
from engine.mus import Options, apply, hand_value, lance_winners, legal_actions, new_game

Figure = tuple[str, float, str]


def lance_comparisons(seconds: float = 1.0, deals: int = 10_000) -> float:
    """All five lances of one hand decided from precomputed values: comparisons per second."""
    rng = random.Random(1)
    opts = Options()
    prepared = []
    for _ in range(deals):
        cards = rng.sample(DECK, 16)
        values = [hand_value(cards[i : i + 4], opts) for i in range(0, 16, 4)]
        prepared.append((values, rng.randrange(4)))
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for values, mano in prepared:
            lance_winners(values, mano)
        done += deals
    return 5 * done / (time.perf_counter() - start)


def random_hands(seconds: float = 2.0) -> tuple[float, float]:
    """Complete hands played through ``apply`` with ``legal_actions`` for a random player to act,
    uniformly random legal choices. Returns (hands per second, apply calls per second)."""
    rng = random.Random(2)
    hands = calls = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        s = new_game(seed=seed)
        while not s.is_over:
            seat = rng.choice(s.to_act)
            hand = s.hand_number
            s = apply(s, seat, rng.choice(legal_actions(s, seat))).state
            calls += 1
            if s.hand_number != hand or s.is_over:
                hands += 1
    elapsed = time.perf_counter() - start
    return hands / elapsed, calls / elapsed


def run() -> list[Figure]:
    hands, calls = random_hands()
    return [
        ("lance comparisons (5 lances per hand, tables)", lance_comparisons(), "/s"),
        ("complete random Mus hands through apply", hands, "hands/s"),
        ("apply calls (with legal_actions)", calls, "calls/s"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<48} {value:>14,.0f} {unit}")
