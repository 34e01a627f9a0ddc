"""What a Mus hand adds to each seat's statistics, read from the engine's events (M4, M5).

>>> from engine.core import Event
>>> hand = [Event("spoke", {"seat": 1, "action": "ordago", "bet": None}),
...         Event("lance_closed", {"lance": "grande", "outcome": "no_querido", "pair": 1}),
...         Event("scored", {"pair": 1, "points": 1, "lance": "grande", "why": "no_querido"}),
...         Event("scored", {"pair": 0, "points": 2, "lance": "pares", "why": "pares"}),
...         Event("scored", {"pair": 0, "points": 3, "lance": "juego", "why": "juego"}),
...         Event("juego_won", {"pair": 0, "juegos": [1, 0]})]
>>> t = tally(hand)
>>> t[0] == {"hands": 1, "hands_won": 1, "juegos": 1, "lance_pares": 1, "lance_juego": 1}
True
>>> t[1] == {"hands": 1, "ordagos": 1, "ordagos_won": 1, "lance_grande": 1}
True
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Event

LANCES = ("grande", "chica", "pares", "juego", "punto")
PLAYERS = 4


def tally(events: Sequence[Event]) -> dict[int, dict[str, int]]:
    """Seat → counters: ``hands``, ``hands_won`` (the pair that scored more points in the
    hand), ``juegos``, ``ordagos`` (called), ``ordagos_won`` (his pair took the lance: refused
    or won at the showdown), ``lance_<lance>`` (his pair scored that lance)."""
    out: dict[int, dict[str, int]] = {seat: {"hands": 1} for seat in range(PLAYERS)}

    def add(seats: Sequence[int], name: str) -> None:
        for seat in seats:
            out[seat][name] = out[seat].get(name, 0) + 1

    def pair(p: int) -> list[int]:
        return [p, p + 2]

    points = [0, 0]
    lances: set[tuple[str, int]] = set()
    caller: int | None = None
    for event in events:
        d = event.data
        if event.kind == "spoke" and d.get("action") == "ordago":
            caller = int(d["seat"])
            add([caller], "ordagos")
        elif event.kind == "lance_closed" and caller is not None:
            if d.get("outcome") in ("ordago", "no_querido") and d.get("pair") == caller % 2:
                add([caller], "ordagos_won")
            caller = None
        elif event.kind == "scored":
            points[int(d["pair"])] += int(d.get("points") or 0)
            if d.get("lance") in LANCES:
                lances.add((str(d["lance"]), int(d["pair"])))
        elif event.kind == "juego_won":
            add(pair(int(d["pair"])), "juegos")
    if points[0] != points[1]:
        add(pair(int(points[1] > points[0])), "hands_won")
    for lance, p in sorted(lances):
        add(pair(p), f"lance_{lance}")
    return out
