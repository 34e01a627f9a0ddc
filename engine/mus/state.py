"""The state of a Mus vaca: one immutable value, serialised to JSON without loss (rules/mus.md).

>>> from engine.mus.game import new_game
>>> s = new_game(seed=7)
>>> s.phase, s.to_act, s.hand_number, s.mano, s.score, s.juegos
('mus', (0,), 1, 0, (0, 0), (0, 0))
>>> from_json(to_json(s)) == s
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from engine.mus.options import Options

Hand = tuple[Card, ...]

Spoken = tuple[str, int, str, int | None]
"""One entry of a hand's public history: ``(stage, seat, action, amount)``.

``stage`` is ``"mus"`` (mus, corto and discards) or the lance; ``action`` is the canonical text
of what was said (``"mus"``, ``"corto"``, ``"descarto"``, ``"paso"``, ``"envido 5"``,
``"quiero"``, ``"no quiero"``, ``"ordago"``); ``amount`` is the total at stake after a bet,
raise or quiero (as in the ``spoke`` event), the number of cards for ``"descarto"``, else None.
"""

PHASES = ("mus", "discard", "lance", "over")


@dataclass(frozen=True, slots=True, init=False)
class LanceResult:
    """How one lance of the current hand ended (M4, M5).

    ``outcome``: ``en_paso``, ``querido`` (``bet`` accepted), ``no_querido`` (``pair`` collected
    the refusal), ``ordago`` (``pair`` won it), ``one_pair`` (only ``pair`` held pares/juego, no
    betting) or ``nobody`` (nobody held pares).
    """

    lance: str
    outcome: str
    bet: int | None = None
    pair: int | None = None

    def __init__(
        self, lance: str, outcome: str, bet: int | None = None, pair: int | None = None
    ) -> None:
        # The frozen dataclass's __init__ without a generic object.__setattr__ per field.
        _set_lance(self, lance)
        _set_outcome(self, outcome)
        _set_bet(self, bet)
        _set_pair(self, pair)

    def to_dict(self) -> dict[str, Any]:
        return {"lance": self.lance, "outcome": self.outcome, "bet": self.bet, "pair": self.pair}


_SLOTS: dict[str, Any] = dict(LanceResult.__dict__)
_set_lance = _SLOTS["lance"].__set__
_set_outcome = _SLOTS["outcome"].__set__
_set_bet = _SLOTS["bet"].__set__
_set_pair = _SLOTS["pair"].__set__


@dataclass(frozen=True)
class MusState:
    """Everything about a Mus vaca. Read ``to_act``, ``phase``, ``score``...; never mutate.

    Betting fields describe the current lance: ``players`` are the seats entitled to speak, in
    speaking order; ``passes`` counts the passes so far while no bet is on the table; ``bet`` is
    the total proposed by pair ``bet_pair`` (``ordago`` when it is an órdago), ``accepted`` the
    amount accepted before it (0 for a first bet); ``refused`` the seats that said no quiero.
    """

    options: Options
    seed: int
    hand_number: int
    mano: int
    score: tuple[int, int]
    juegos: tuple[int, int]
    phase: str
    to_act: tuple[int, ...]
    hands: tuple[Hand, ...]
    stock: Hand
    pile: Hand
    """Discards of earlier mus rounds of this hand, waiting to be reshuffled into the stock."""
    reshuffles: int = 0
    mus_round: int = 1
    discarding: tuple[Hand | None, ...] = (None, None, None, None)
    """This round's discards, per seat (``None``: not yet discarded)."""
    lance: str | None = None
    players: tuple[int, ...] = ()
    passes: int = 0
    bet: int | None = None
    ordago: bool = False
    accepted: int = 0
    bet_pair: int | None = None
    bettor: int | None = None
    refused: tuple[int, ...] = ()
    results: tuple[LanceResult, ...] = ()
    pares_has: tuple[bool, ...] | None = None
    juego_has: tuple[bool, ...] | None = None
    winner: int | None = None
    shown: bool = False
    """The final hand of a finished vaca was shown (showdown)."""
    history: tuple[Spoken, ...] = ()
    """Everything said in the current hand, in order (public; reset with each new deal)."""
    senas_sent: tuple[tuple[str, ...], ...] = ()
    """rules/senas.md: the señas each seat sent this hand, in order (private to the partners;
    empty until the first one; reset with each new deal)."""

    is_over = False
    """The vaca is over (``phase == "over"``): not a field, kept in each state's ``__dict__``.

    Every simulated move reads it, as fast as a field (a plain class attribute, unlike a
    descriptor, lets the interpreter's attribute cache look in the instance's ``__dict__``
    directly). ``__post_init__`` sets it in the states made by the constructor (and
    ``dataclasses.replace``); engine.mus's transitions set it in the states they make themselves.
    """

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_over", self.phase == "over")

    @property
    def postre(self) -> int:
        """The dealer: the seat before the mano (M1)."""
        return (self.mano - 1) % 4

    @property
    def hand(self) -> int:
        return self.hand_number


def _cards(cs: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cs)


def _uncards(text: str) -> Hand:
    return tuple(Card.parse(t) for t in text.split()) if text else ()


def to_json(state: MusState) -> str:
    """The state as a compact JSON document (lossless; see :func:`from_json`)."""
    d: dict[str, Any] = {
        "v": 1,
        "options": state.options.model_dump(),
        "seed": state.seed,
        "hand_number": state.hand_number,
        "mano": state.mano,
        "score": list(state.score),
        "juegos": list(state.juegos),
        "phase": state.phase,
        "to_act": list(state.to_act),
        "hands": [_cards(h) for h in state.hands],
        "stock": _cards(state.stock),
        "pile": _cards(state.pile),
        "reshuffles": state.reshuffles,
        "mus_round": state.mus_round,
        "discarding": [None if d is None else _cards(d) for d in state.discarding],
        "lance": state.lance,
        "players": list(state.players),
        "passes": state.passes,
        "bet": state.bet,
        "ordago": state.ordago,
        "accepted": state.accepted,
        "bet_pair": state.bet_pair,
        "bettor": state.bettor,
        "refused": list(state.refused),
        "results": [[r.lance, r.outcome, r.bet, r.pair] for r in state.results],
        "pares_has": None if state.pares_has is None else list(state.pares_has),
        "juego_has": None if state.juego_has is None else list(state.juego_has),
        "winner": state.winner,
        "shown": state.shown,
        "history": [list(h) for h in state.history],
        "senas_sent": [list(x) for x in state.senas_sent],
    }
    return json.dumps(d, separators=(",", ":"), ensure_ascii=False)


def from_json(text: str) -> MusState:
    """Read back a state written by :func:`to_json`."""
    d = json.loads(text)
    if d.get("v") != 1:
        raise ValueError("unknown Mus state version")
    return MusState(
        options=Options(**d["options"]),
        seed=int(d["seed"]),
        hand_number=int(d["hand_number"]),
        mano=int(d["mano"]),
        score=(int(d["score"][0]), int(d["score"][1])),
        juegos=(int(d["juegos"][0]), int(d["juegos"][1])),
        phase=str(d["phase"]),
        to_act=tuple(int(x) for x in d["to_act"]),
        hands=tuple(_uncards(h) for h in d["hands"]),
        stock=_uncards(d["stock"]),
        pile=_uncards(d["pile"]),
        reshuffles=int(d["reshuffles"]),
        mus_round=int(d["mus_round"]),
        discarding=tuple(None if x is None else _uncards(x) for x in d["discarding"]),
        lance=d["lance"],
        players=tuple(int(x) for x in d["players"]),
        passes=int(d["passes"]),
        bet=d["bet"],
        ordago=bool(d["ordago"]),
        accepted=int(d["accepted"]),
        bet_pair=d["bet_pair"],
        bettor=d["bettor"],
        refused=tuple(int(x) for x in d["refused"]),
        results=tuple(LanceResult(r[0], r[1], r[2], r[3]) for r in d["results"]),
        pares_has=None if d["pares_has"] is None else tuple(bool(x) for x in d["pares_has"]),
        juego_has=None if d["juego_has"] is None else tuple(bool(x) for x in d["juego_has"]),
        winner=d["winner"],
        shown=bool(d["shown"]),
        history=tuple(
            (str(h[0]), int(h[1]), str(h[2]), None if h[3] is None else int(h[3]))
            for h in d.get("history", ())
        ),
        senas_sent=tuple(tuple(str(n) for n in x) for x in d.get("senas_sent", ())),
    )
