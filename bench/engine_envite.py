"""Envite engine benchmark: complete random rounds per second for 4 and 12 players.

A round is one deal from the first card (or tumbo decision) to its scoring; every move is a
uniformly random legal action (bets included). Run ``python bench/engine.py envite``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.envite as envite

Figure = tuple[str, float, str]


def round_stream(players: int, *, renuncio: bool = False) -> Iterator[None]:
    """Random games back to back, endlessly (games of four chicos, seeds 0, 1...): yields after
    each finished round. ``bench/callgrind_mus.py`` plays the same rounds.

    With ``renuncio`` (modo renuncio) every card is playable and calls are legal actions too.

    >>> from itertools import islice
    >>> len(list(islice(round_stream(4), 2)))
    2
    """
    rng = random.Random(players)
    options = envite.Options(chicos=4, renuncio=renuncio)
    game = 0
    while True:
        state = envite.new_game(players=players, options=options, seed=game)
        game += 1
        while not state.is_over:
            seat = state.to_act[0]
            action = rng.choice(envite.legal_actions(state, seat))
            before = state.round
            state = envite.apply(state, seat, action).state
            if state.round != before or state.is_over:
                yield None


def rounds_per_second(players: int, seconds: float = 1.0, *, renuncio: bool = False) -> float:
    """Rounds of :func:`round_stream` finished per second, over about ``seconds``."""
    rounds = 0
    start = time.perf_counter()
    for _ in round_stream(players, renuncio=renuncio):
        rounds += 1
        if rounds % 16 == 0 and time.perf_counter() - start >= seconds:
            break
    return rounds / (time.perf_counter() - start)


def run() -> list[Figure]:
    """Figures for bench/engine.py."""
    figures: list[Figure] = []
    for players in (4, 12):
        figures.append(
            (f"random envite rounds, {players} players", rounds_per_second(players), "rounds/s")
        )
    figures.append(
        (
            "random envite rounds, 12 players, modo renuncio",
            rounds_per_second(12, renuncio=True),
            "rounds/s",
        )
    )
    return figures


if __name__ == "__main__":
    for label, value, unit in run():
        print(f"{label:<48} {value:>14,.0f} {unit}")
