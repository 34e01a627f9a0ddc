"""A mutable working copy of a state: transitions edit it, then freeze a new state.

Every stone movement goes through a method here, so conservation (piles + deposits + plate =
stones handed out in the juego) is kept in one place and every movement emits its event.
"""

from __future__ import annotations

from functools import cache
from operator import attrgetter
from typing import Any, Literal

from engine.cards import Card
from engine.core import Event, RawEvent
from engine.mus.evaluation import HandValue, card_weights, hand_classes
from engine.piedras.options import Options
from engine.piedras.state import (
    Betting,
    Phase,
    PiedrasState,
)

_ONLY = tuple(frozenset((seat,)) for seat in range(8))
"""Shared (immutable) event audiences of one seat."""
card_text = attrgetter("_text")
"""A card's text, for ``list(map(card_text, cards))`` (C-level, no comprehension frame)."""


@cache
def _valuer(reyes: Literal[8, 4], real: bool) -> tuple[tuple[int, ...], dict[int, HandValue]]:
    """The card weights and hand classes of ``engine.mus.evaluation.hand_value`` for these card
    rules, looked up once per transition instead of once per hand."""
    return card_weights(reyes), hand_classes(Options(reyes=reyes, real=real))


_PLACE = tuple(
    tuple(tuple((seat - mano) % n for seat in range(n)).__getitem__ for mano in range(n))
    for n in range(9)
)
"""``_PLACE[players][mano](seat)``: the seat's place in playing order from the mano (0 for the
mano), a C-level sort key."""


class Table:
    """Mutable mirror of :class:`PiedrasState` plus the events of the transition in progress.

    Only ``piles``, ``deposits`` and ``hands`` are lists edited in place; the other sequences
    stay tuples and are replaced when they change (most transitions change none of them, so
    neither copying them in nor freezing them out costs anything).
    """

    def __init__(self, s: PiedrasState) -> None:
        self.players = s.players
        self.options: Options = s.options
        self.seed = s.seed
        self.phase: Phase = s.phase
        self.juego = s.juego
        self.hand_number = s.hand_number
        self.mano = s.mano
        self.piles = list(s.piles)
        self.plate = s.plate
        self.deposits = list(s.deposits)
        self.losses = s.losses
        self.seated = s.seated
        self.free = s.free
        """Kept sorted, as stored."""
        self.in_hand = s.in_hand
        self.hands: list[tuple[Card, ...]] = list(s.hands)
        self.lances = s.lances
        self.betting: Betting | None = s.betting
        self.revealed = s.revealed
        """Kept sorted, as stored."""
        self.winner = s.winner
        self.spoken = s.spoken
        self.raw: list[RawEvent] = []
        """The events of the transition, built as :class:`Event` only when read (``events``)."""
        self._values: list[HandValue | None] | None = None
        """Cache of :meth:`values`; reset when new hands are dealt."""

    def freeze(self) -> PiedrasState:
        new = object.__new__(PiedrasState)
        d = self.deposits
        new.__dict__.update(
            players=self.players,
            options=self.options,
            seed=self.seed,
            phase=self.phase,
            juego=self.juego,
            hand_number=self.hand_number,
            mano=self.mano,
            piles=tuple(self.piles),
            plate=self.plate,
            deposits=(d[0], d[1], d[2], d[3]),
            losses=self.losses,
            seated=self.seated,
            free=self.free,
            in_hand=self.in_hand,
            hands=tuple(self.hands),
            lances=self.lances,
            betting=self.betting,
            revealed=self.revealed,
            winner=self.winner,
            spoken=self.spoken,
        )
        return new

    # -- events -------------------------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        return [Event(kind, data, to) for kind, data, to in self.raw]

    def emit(self, kind: str, to: int | None = None, /, **data: Any) -> None:
        self.raw.append((kind, data, None if to is None else _ONLY[to]))

    # -- seats --------------------------------------------------------------------------------

    def from_mano(self, seats: list[int] | tuple[int, ...]) -> list[int]:
        """``seats`` in playing order starting at the mano."""
        return sorted(seats, key=_PLACE[self.players][self.mano])

    def values(self) -> list[HandValue | None]:
        """Each seat's hand value (``None`` unless he holds four cards), computed once."""
        found = self._values
        if found is None:
            options = self.options
            w, classes = _valuer(options.reyes, options.real)
            found = self._values = [
                classes[w[h[0].index] + w[h[1].index] + w[h[2].index] + w[h[3].index]]
                if len(h) == 4
                else None
                for h in self.hands
            ]
        return found

    def value(self, seat: int) -> HandValue:
        v = self.values()[seat]
        assert v is not None
        return v

    # -- stones -------------------------------------------------------------------------------

    def to_plate(self, seat: int, count: int, lance: str, why: str) -> int:
        """``seat`` puts up to ``count`` stones on the plate (never more than he has)."""
        moved = min(count, self.piles[seat])
        if moved > 0:
            self.piles[seat] -= moved
            self.plate += moved
            self.raw.append(
                ("to_plate", {"seat": seat, "count": moved, "lance": lance, "why": why}, None)
            )
        return moved

    def to_deposit(self, seat: int, slot: int, count: int, lance: str) -> None:
        assert 0 <= count <= self.piles[seat], (seat, count, self.piles[seat])
        if count:
            self.piles[seat] -= count
            self.deposits[slot] += count
            data = {"seat": seat, "lance": lance, "count": count, "deposit": self.deposits[slot]}
            self.raw.append(("deposited", data, None))

    def take_deposit(self, seat: int, slot: int, lance: str, why: str) -> int:
        count = self.deposits[slot]
        self.deposits[slot] = 0
        self.piles[seat] += count
        data = {"seat": seat, "lance": lance, "count": count, "why": why}
        self.raw.append(("deposit_taken", data, None))
        return count

    def take_pile(self, taker: int, seat: int, lance: str) -> int:
        count = self.piles[seat]
        self.piles[seat] = 0
        self.piles[taker] += count
        if count:
            self.emit("pile_taken", seat=taker, frm=seat, lance=lance, count=count)
        return count

    def with_betting(self, **changes: Any) -> None:
        """Replace the betting by a copy with some fields changed (``betting_with``, inlined)."""
        b = self.betting
        assert b is not None
        new = object.__new__(Betting)
        attrs = new.__dict__
        attrs.update(b.__dict__)
        attrs.update(changes)
        self.betting = new
