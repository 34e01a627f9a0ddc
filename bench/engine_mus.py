"""Mus engine benchmark: lance comparisons and complete random hands per second (one core).

Run ``python bench/engine.py mus`` (or this file). ``run()`` returns ``(label, value, unit)``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import DECK
from engine.mus import Options, apply, hand_value, lance_winners, legal_actions, new_game

Figure = tuple[str, float, str]


def lance_deals(seconds: float = 1.0, deals: int = 10_000) -> tuple[float, float]:
    """``lance_winners`` of whole deals (all five lances), per second: from evaluated hands
    (``HandValue``) and from the cards themselves."""
    rng = random.Random(1)
    opts = Options()
    prepared = []
    for _ in range(deals):
        cards = rng.sample(DECK, 16)
        hands = [tuple(cards[i : i + 4]) for i in range(0, 16, 4)]
        prepared.append(([hand_value(h, opts) for h in hands], hands, rng.randrange(4)))
    rates = []
    for use_cards in (False, True):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            for values, hands, mano in prepared:
                lance_winners(hands if use_cards else values, mano, opts)
            done += deals
        rates.append(done / (time.perf_counter() - start))
    return rates[0], rates[1]


def hand_stream() -> Iterator[int]:
    """Complete random Mus hands, endlessly (vacas from seed 1 on): a uniformly random legal
    action for a random seat to act, ``random.Random(2)``. Yields the ``apply`` calls of each
    finished hand. ``bench/callgrind_mus.py`` plays the same hands.

    >>> from itertools import islice
    >>> len(list(islice(hand_stream(), 3)))
    3
    """
    rng = random.Random(2)
    seed = 0
    while True:
        seed += 1
        s = new_game(seed=seed)
        calls = 0
        while not s.is_over:
            seat = rng.choice(s.to_act)
            hand = s.hand_number
            s = apply(s, seat, rng.choice(legal_actions(s, seat))).state
            calls += 1
            if s.hand_number != hand or s.is_over:
                yield calls
                calls = 0


def random_hands(seconds: float = 2.0) -> tuple[float, float]:
    """Complete hands of :func:`hand_stream` for about ``seconds``. Returns (hands per second,
    apply calls per second)."""
    hands = calls = 0
    start = time.perf_counter()
    for moves in hand_stream():
        hands += 1
        calls += moves
        if time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    return hands / elapsed, calls / elapsed


def run() -> list[Figure]:
    hands, calls = random_hands()
    from_values, from_cards = lance_deals()
    return [
        ("lance_winners, deals from HandValue (5 lances)", from_values, "deals/s"),
        ("lance_winners, deals from cards (5 lances)", from_cards, "deals/s"),
        ("complete random Mus hands through apply", hands, "hands/s"),
        ("apply calls (with legal_actions)", calls, "calls/s"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<48} {value:>14,.0f} {unit}")
