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

    Each choice is one float (``random()`` times the length) rather than ``random.choice``,
    whose rejection sampling cost the benchmark's random player more than a tenth of the time
    measured: what is measured is the engine.

    >>> from itertools import islice
    >>> len(list(islice(hand_stream(), 3)))
    3
    """
    draw = random.Random(2).random
    seed = 0
    while True:
        seed += 1
        s = new_game(seed=seed)
        calls = 0
        while not s.is_over:
            to_act = s.to_act
            seat = to_act[int(draw() * len(to_act))]
            hand = s.hand_number
            actions = legal_actions(s, seat)
            s = apply(s, seat, actions[int(draw() * len(actions))]).state
            calls += 1
            if s.hand_number != hand or s.is_over:
                yield calls
                calls = 0


def random_hands(seconds: float = 1.0, repeat: int = 5) -> tuple[float, float, float]:
    """Complete hands of :func:`hand_stream`, ``repeat`` runs of about ``seconds`` each (after a
    warm-up run), one stream throughout. Returns (best run's hands per second, median run's
    hands per second, best run's apply calls per second): on a shared machine other work only
    ever slows a run down, so the best run is the engine's speed (as ``timeit`` advises) and
    the median says how steady the machine was."""
    stream = hand_stream()
    runs: list[tuple[float, float]] = []
    for _ in range(repeat + 1):
        hands = calls = 0
        start = time.perf_counter()
        for moves in stream:
            hands += 1
            calls += moves
            if time.perf_counter() - start >= seconds:
                break
        elapsed = time.perf_counter() - start
        runs.append((hands / elapsed, calls / elapsed))
    ordered = sorted(runs[1:])
    return ordered[-1][0], ordered[len(ordered) // 2][0], ordered[-1][1]


def run() -> list[Figure]:
    best, median, calls = random_hands()
    from_values, from_cards = lance_deals()
    return [
        ("lance_winners, deals from HandValue (5 lances)", from_values, "deals/s"),
        ("lance_winners, deals from cards (5 lances)", from_cards, "deals/s"),
        ("complete random Mus hands through apply, best run", best, "hands/s"),
        ("complete random Mus hands, median of 5 runs", median, "hands/s"),
        ("apply calls (with legal_actions), best run", calls, "calls/s"),
    ]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<48} {value:>14,.0f} {unit}")
