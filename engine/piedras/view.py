"""What one seat (or the whole group) may know of a Mus a piedras match.

>>> from engine.piedras.game import new_game
>>> s = new_game(players=3, seed=4)
>>> v = view(s, 1).to_dict()
>>> len(v["cards"]), v["piles"], view(s, None).to_dict()["cards"]
(5, [8, 8, 8], None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import check_seat
from engine.piedras.state import SLOTS, PiedrasState


@dataclass(frozen=True, slots=True)
class PiedrasView:
    """A seat's view (``seat`` None: the public view). ``to_dict()`` gives JSON-plain data."""

    data: tuple[tuple[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)


def view(state: PiedrasState, seat: int | None) -> PiedrasView:
    """Everything ``seat`` may know: his own cards, public bets and stones, revealed hands.

    Besides the piles, plate, deposits and lances: ``betting`` (the lance being bet: players,
    in_lance, level, put, bettor, ordago, accepted, ``queue`` = who speaks next, in order) and
    ``spoken`` (everything said this hand: [{seat, lance, action}], action as in the ``spoke``
    event); ``options`` (the table options, as ``Options.model_dump()``).
    """
    if seat is not None:
        check_seat(seat, state.players)
    b = state.betting
    betting: dict[str, Any] | None = None
    if b is not None:
        betting = {
            "lance": b.lance,
            "stage": b.stage,
            "players": list(b.entitled),
            "in_lance": list(b.in_lance),
            "level": b.level,
            "put": list(b.put),
            "bettor": b.bettor,
            "ordago": b.ordago,
            "accepted": list(b.accepted),
            "queue": list(b.queue),
        }
    own = None
    if seat is not None and 0 <= seat < state.players and state.hands[seat]:
        own = [str(c) for c in state.hands[seat]]
    revealed: list[list[str] | None] = [
        [str(c) for c in state.hands[s]] if s in state.revealed else None
        for s in range(state.players)
    ]
    data: dict[str, Any] = {
        "game": "piedras",
        "seat": seat,
        "phase": state.phase,
        "juego": state.juego,
        "hand": state.hand_number,
        "mano": state.mano,
        "players": state.players,
        "to_act": list(state.to_act),
        "piles": list(state.piles),
        "plate": state.plate,
        "deposits": dict(zip(SLOTS, state.deposits, strict=True)),
        "stones": state.options.stones,
        "losses": list(state.losses),
        "max_losses": state.options.losses,
        "options": state.options.model_dump(),
        "seated": list(state.seated),
        "free": list(state.free),
        "out": list(state.out),
        "in_hand": list(state.in_hand),
        "discarded": [len(h) == 4 for h in state.hands],
        "lance": state.lance,
        "betting": betting,
        "lances": [
            {"lance": r.lance, "outcome": r.outcome, "players": list(r.players), "winner": r.winner}
            for r in state.lances
        ],
        "spoken": [{"seat": w, "lance": lance, "action": text} for w, lance, text in state.spoken],
        "cards": own,
        "revealed": revealed if state.revealed else None,
        "winner": state.winner,
    }
    return PiedrasView(tuple(data.items()))
