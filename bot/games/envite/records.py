"""What an envite round adds to each seat's statistics, read from the engine's events (E4-E6).

>>> from engine.core import Event
>>> r = [Event("tumbo_decided", {"seat": 1, "team": 1, "play": True}),
...      Event("chico_won", {"team": 0, "chicos": [1, 0], "why": "tumbo"})]
>>> tally(r, 4) == {0: {"hands": 1, "hands_won": 1, "chicos": 1}, 1: {"hands": 1, "tumbos": 1},
...                 2: {"hands": 1, "hands_won": 1, "chicos": 1}, 3: {"hands": 1, "tumbos": 1}}
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event


def tally(events: Sequence[Event], players: int) -> dict[int, dict[str, int]]:
    """Seat → counters: ``hands`` (rounds), ``hands_won`` (his team scored the round or won the
    chico with it), ``chicos`` (won), ``tumbos`` (his team chose to play at tumbo)."""
    out: dict[int, dict[str, int]] = {seat: {"hands": 1} for seat in range(players)}

    def add(team: int, name: str) -> None:
        for seat in range(team, players, 2):
            out[seat][name] = out[seat].get(name, 0) + 1

    won: int | None = None
    for event in events:
        d = event.data
        if event.kind == "round_scored" and d.get("points"):
            won = int(d["team"])
        elif event.kind == "chico_won":
            won = int(d["team"])
            add(won, "chicos")
        elif event.kind == "tumbo_decided" and d.get("play"):
            add(int(d["team"]), "tumbos")
    if won is not None:
        add(won, "hands_won")
    return out
