"""Mus a piedras engine benchmark: complete random hands per second (4 and 8 players).

Each hand is played from the deal to the settlement with random legal actions (mostly quiet:
pass, accept or discard), new matches starting whenever one ends.
Run: ``python bench/engine.py piedras``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import piedras

Figure = tuple[str, float, str]


def hand_stream(players: int) -> Iterator[None]:
    """Complete random hands of ``players``, endlessly (new matches as they end): mostly quiet
    actions (pass, accept, discard). Yields after each hand; ``bench/callgrind_mus.py`` plays
    the same hands.

    >>> from itertools import islice
    >>> len(list(islice(hand_stream(4), 2)))
    2
    """
    rng = random.Random(players)
    state = piedras.new_game(players=players, seed=rng.randrange(1 << 30))
    while True:
        seat = rng.choice(state.to_act)
        actions = piedras.legal_actions(state, seat)
        quiet = [a for a in actions if a.kind in ("paso", "quiero", "descarto", "no_quiero")]
        action = rng.choice(quiet if quiet and rng.random() < 0.7 else actions)
        before = (state.juego, state.hand_number)
        state = piedras.apply(state, seat, action).state
        if state.is_over or (state.juego, state.hand_number) != before:
            yield None
        if state.is_over:
            state = piedras.new_game(players=players, seed=rng.randrange(1 << 30))


def _hands_per_second(players: int, seconds: float = 1.5) -> float:
    hands = 0
    start = time.perf_counter()
    for _ in hand_stream(players):
        hands += 1
        if time.perf_counter() - start >= seconds:
            break
    return hands / (time.perf_counter() - start)


def run() -> list[Figure]:
    return [(f"random hands, {n} players", _hands_per_second(n), "hands/s") for n in (4, 8)]


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<40} {value:>12,.0f} {unit}")
