"""What one seat (or the group) may know about a Mus vaca.

>>> from engine.mus.game import new_game
>>> s = new_game(seed=1, hands=["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"])
>>> view(s, 0).to_dict()["cards"]
['1o', '2c', '4e', '5b']
>>> "cards" in view(s, None).to_dict()
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import check_seat
from engine.mus import senas_play
from engine.mus.state import LanceResult, MusState, Spoken

AMARRACO = 5
"""M1: five points (piedras, tantos) make one amarraco."""


def amarracos(points: int) -> tuple[int, int]:
    """A score shown the other way (M1): ``(amarracos, piedras)``.

    >>> amarracos(17)
    (3, 2)
    """
    return divmod(points, AMARRACO)


@dataclass(frozen=True, slots=True)
class MusView:
    """A seat's view (``seat`` None: the public view). ``to_dict()`` gives JSON-plain data."""

    seat: int | None
    phase: str
    hand: int
    mano: int
    postre: int
    lance: str | None
    to_act: tuple[int, ...]
    score: tuple[int, int]
    juegos: tuple[int, int]
    target: int
    juegos_to_win: int
    reyes: int
    real: bool
    cards: tuple[str, ...] | None
    bet: int | None
    ordago: bool
    bet_pair: int | None
    accepted: int
    players: tuple[int, ...]
    lances: tuple[LanceResult, ...]
    declarations: dict[str, list[bool] | None]
    discarded: tuple[bool, ...]
    mus_round: int
    revealed: tuple[tuple[str, ...], ...] | None
    winner: int | None
    history: tuple[Spoken, ...] = ()
    """Everything said in the current hand, in order: ``(stage, seat, action, amount)`` (see
    :data:`engine.mus.state.Spoken`); in ``to_dict()`` a list of objects with those keys."""
    senas_received: tuple[tuple[int, str], ...] = ()
    """rules/senas.md: the señas the partner sent this seat this hand, ``(seat, name)``."""
    senas_caught: tuple[tuple[int, str], ...] = ()
    """S4: the opponents' señas this seat caught this hand, ``(seat, name)``."""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "seat": self.seat,
            "phase": self.phase,
            "hand": self.hand,
            "mano": self.mano,
            "postre": self.postre,
            "lance": self.lance,
            "to_act": list(self.to_act),
            "score": list(self.score),
            "amarracos": [list(amarracos(p)) for p in self.score],
            "juegos": list(self.juegos),
            "target": self.target,
            "juegos_to_win": self.juegos_to_win,
            "reyes": self.reyes,
            "real": self.real,
            "bet": self.bet,
            "ordago": self.ordago,
            "bet_pair": self.bet_pair,
            "accepted": self.accepted,
            "players": list(self.players),
            "lances": [r.to_dict() for r in self.lances],
            "declarations": dict(self.declarations),
            "discarded": list(self.discarded),
            "mus_round": self.mus_round,
            "revealed": None if self.revealed is None else [list(h) for h in self.revealed],
            "winner": self.winner,
            "history": [
                {"stage": h[0], "seat": h[1], "action": h[2], "amount": h[3]} for h in self.history
            ],
            "senas_received": [list(x) for x in self.senas_received],
            "senas_caught": [list(x) for x in self.senas_caught],
        }
        if self.cards is not None:
            d["cards"] = list(self.cards)
        return d


def view(state: MusState, seat: int | None = None) -> MusView:
    """Everything ``seat`` may know (``None``: what the whole group may see).

    Other seats' cards appear only in ``revealed``, after the final showdown of a vaca.
    """
    if seat is not None:
        check_seat(seat, len(state.hands))
    opts = state.options
    revealed = None
    if state.is_over and state.shown:
        revealed = tuple(tuple(str(c) for c in h) for h in state.hands)
    in_lance = state.phase == "lance"
    senas: dict[str, list[tuple[int, str]]] = {}
    if seat is not None and state.senas_sent:
        senas = senas_play.view_fields(state, seat)
    return MusView(
        seat=seat,
        phase=state.phase,
        hand=state.hand_number,
        mano=state.mano,
        postre=state.postre,
        lance=state.lance if in_lance else None,
        to_act=state.to_act,
        score=state.score,
        juegos=state.juegos,
        target=opts.target,
        juegos_to_win=opts.juegos,
        reyes=opts.reyes,
        real=opts.real,
        cards=None if seat is None else tuple(str(c) for c in state.hands[seat]),
        bet=state.bet if in_lance else None,
        ordago=state.ordago if in_lance else False,
        bet_pair=state.bet_pair if in_lance else None,
        accepted=state.accepted if in_lance else 0,
        players=state.players if in_lance else (),
        lances=state.results,
        declarations={
            "pares": None if state.pares_has is None else list(state.pares_has),
            "juego": None if state.juego_has is None else list(state.juego_has),
        },
        discarded=tuple(d is not None for d in state.discarding),
        mus_round=state.mus_round,
        revealed=revealed,
        winner=state.winner,
        history=state.history,
        senas_received=tuple(senas.get("senas_received", ())),
        senas_caught=tuple(senas.get("senas_caught", ())),
    )
