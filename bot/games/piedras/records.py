"""What a hand of Mus a piedras adds to each seat's statistics (P4-P6): read from the start
state's piles and the engine's events.

>>> from engine.core import Event
>>> ev = [Event("hand_over", {"hand": 1, "piles": [5, 8, 7], "plate": 4}),
...       Event("juego_lost", {"seat": 1, "juego": 1, "losses": [0, 1, 0]})]
>>> tally((8, 8, 8), (0, 1, 2), ev) == {
...     0: {"hands": 1, "hands_won": 1}, 1: {"hands": 1, "juegos_lost": 1}, 2: {"hands": 1}}
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event


def tally(
    piles: Sequence[int], in_hand: Sequence[int], events: Sequence[Event]
) -> dict[int, dict[str, int]]:
    """Seat → counters: ``hands`` (dealt in), ``hands_won`` (got rid of the most stones in the
    hand), ``juegos_lost``."""
    out: dict[int, dict[str, int]] = {seat: {"hands": 1} for seat in in_hand}
    after = list(piles)
    for event in events:
        if event.kind == "hand_over":
            after = [int(x) for x in event.data.get("piles", after)]
        elif event.kind == "juego_lost":
            seat = int(event.data["seat"])
            out.setdefault(seat, {})["juegos_lost"] = 1
    shed = {seat: piles[seat] - after[seat] for seat in in_hand}
    best = max(shed.values(), default=0)
    for seat, amount in shed.items():
        if best > 0 and amount == best:
            out[seat]["hands_won"] = 1
    return out
