"""The immutable state of an envite game and its JSON form (rules/envite.md E1-E6).

Seats ``0..players-1`` in playing order (to the right); team = ``seat % 2``. With the mocho
option (E1) and an odd number of people, ``players`` counts one more seat: the last one,
``ghost``, is the mocho, whose cards its team's mandador plays: when it is the ghost's turn,
``to_act`` holds that mandador and ``turn`` the ghost seat.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from pydantic import TypeAdapter

from engine.cards import Card
from engine.envite.options import Options

Phase = Literal["tumbo", "play", "bet", "over"]

LADDER: tuple[int, ...] = (2, 4, 7, 9, 0)
"""Stake of each bet step (E5); the last step, chico fuera, is marked 0: it decides the chico."""
CHICO_FUERA = 4
"""Index of chico fuera in :data:`LADDER`."""
BET_KINDS: tuple[str, ...] = ("", "envido", "siete", "nueve", "chico_fuera")
"""Canonical action kind that raises to each step of :data:`LADDER`."""
TUMBO_AT = 11
"""Stones that put a team en tumbo; ordinary scoring never passes it (E6)."""
TUMBO_LOSS = 3
"""What the other team scores when a team plays at tumbo and loses (E6)."""
RENUNCIO_EXTRA = 2
"""Stones added to the stake when a renuncio is called (E4, modo renuncio)."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in playing order, and the seat that won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True)
class EnviteState:
    """Everything about a game of envite. Build it with ``new_game``; never mutate it."""

    players: int
    """Seats at the table, the mocho's included."""
    options: Options
    seed: int
    mandadores: tuple[int, int]
    """The mandador (captain) of team 0 and of team 1."""
    ghost: int | None
    """The mocho's seat (E1 odd numbers), else None."""
    draws: tuple[tuple[Card, Card], ...]
    """The mandadores' draws for the first dealer (E1), one pair per attempt; empty if given."""
    round: int
    """1-based number of the current deal; every shuffle is derived from ``seed`` and it."""
    dealer: int
    vira: Card
    hands: tuple[tuple[Card, ...], ...]
    """Cards still held by each seat."""
    phase: Phase
    turn: int
    """The seat whose card is due (the mocho's seat when it plays)."""
    leader: int
    """The seat that led the current trick."""
    trick: tuple[Card, ...]
    """Cards played in the current trick, from the leader on."""
    tricks: tuple[Trick, ...]
    """Finished tricks of this round."""
    step: int
    """Index in :data:`LADDER` of the accepted stake (0: the round is worth 2)."""
    raised: int | None
    """Pending bet step waiting for an answer, else None."""
    raised_by: int | None
    """Team that made the pending bet (or the last accepted one)."""
    bet_closed: bool
    """E5: one betting sequence per round; True once a bet was accepted."""
    tumbo: bool
    """This round is played at tumbo (a team at 11 chose to play, or both are at 11)."""
    renuncios: tuple[int, ...]
    """Seats that made an illegal card play this round (modo renuncio, E4). Hidden: never in a
    view or event until a call reveals the first offender."""
    score: tuple[int, int]
    """Stones of team 0 and team 1 in the current chico."""
    chicos: tuple[int, int]
    winner: int | None
    """The team that won the game, else None."""
    spoken: tuple[tuple[int, str], ...] = ()
    """The betting of this round in order: (seat that spoke, action kind) for every bet, raise
    and answer (``envido``, ``siete``, ``nueve``, ``chico_fuera``, ``quiero``). Public."""
    senas_sent: tuple[tuple[str, ...], ...] = ()
    """rules/senas.md: the señas each seat sent this round, in order (private to its team;
    empty until the first one; reset with each deal)."""

    @property
    def k(self) -> int:
        """Team size (2..6), which sets the card ranking (E3)."""
        return self.players // 2

    @property
    def hand_number(self) -> int:
        """Same as ``round`` (the name the Mus engine uses)."""
        return self.round

    @property
    def mano(self) -> int:
        """The seat to the dealer's right: leads the first trick (E2)."""
        return (self.dealer + 1) % self.players

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def stake(self) -> int:
        """Stones the round is worth now (2, 4, 7 or 9); 0 once chico fuera was accepted."""
        return LADDER[self.step]

    @property
    def en_tumbo(self) -> tuple[bool, bool]:
        """Which teams are at 11 (E6)."""
        return (self.score[0] >= TUMBO_AT, self.score[1] >= TUMBO_AT)

    @property
    def tricks_won(self) -> tuple[int, int]:
        won = [0, 0]
        for trick in self.tricks:
            won[trick.winner % 2] += 1
        return (won[0], won[1])

    def controller(self, seat: int) -> int:
        """The seat that acts for ``seat``: its mandador for the mocho, else itself."""
        if seat == self.ghost:
            return self.mandadores[seat % 2]
        return seat

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (one at a time in envite; empty when the game is over)."""
        if self.phase == "play":
            turn = self.turn
            return (self.mandadores[turn % 2] if turn == self.ghost else turn,)
        if self.phase == "bet":
            assert self.raised_by is not None
            return (self.mandadores[1 - self.raised_by],)
        if self.phase == "tumbo":
            team = 0 if self.score[0] >= TUMBO_AT else 1
            return (self.mandadores[team],)
        return ()


_FIELD_SET = frozenset(f.name for f in fields(EnviteState))


def replace(state: EnviteState, **changes: Any) -> EnviteState:
    """A copy of ``state`` with some fields changed (a faster ``dataclasses.replace``).

    The state keeps its fields in an instance ``__dict__`` (no slots) so that a copy is a
    C-level dictionary copy and update instead of one Python call per field.
    """
    assert _FIELD_SET.issuperset(changes), f"unknown fields {set(changes) - _FIELD_SET}"
    new, attrs = copy_state(state)
    attrs.update(changes)
    return new


def copy_state(state: EnviteState) -> tuple[EnviteState, dict[str, Any]]:
    """A copy of ``state`` and its field dictionary, which the caller fills in before anyone
    sees the copy: :func:`replace` without keyword arguments or the field-name check, for the
    moves every round makes (playing a card, dealing).

    The copy gets a plain dictionary of its own, copied in one go: CPython reads attributes
    much faster from such an instance dictionary than from the key-sharing one an instance
    gets from ``__init__``, and copies it faster too.
    """
    new = _new_state(EnviteState)
    attrs = dict(state.__dict__)
    _set_dict(new, attrs)
    return new, attrs


_new_state = object.__new__
_set_dict = EnviteState.__dict__["__dict__"].__set__


_new_trick = object.__new__
_TRICK_SLOTS: dict[str, Any] = dict(Trick.__dict__)
_set_leader = _TRICK_SLOTS["leader"].__set__
_set_cards = _TRICK_SLOTS["cards"].__set__
_set_winner = _TRICK_SLOTS["winner"].__set__


def make_trick(leader: int, cards: tuple[Card, ...], winner: int) -> Trick:
    """``Trick(leader, cards, winner)`` without the frozen dataclass's generic
    ``object.__setattr__`` per field (the dataclass keeps its own ``__init__`` for pydantic).

    >>> make_trick(1, (Card.parse("3b"),), 1) == Trick(1, (Card.parse("3b"),), 1)
    True
    """
    trick: Trick = _new_trick(Trick)
    _set_leader(trick, leader)
    _set_cards(trick, cards)
    _set_winner(trick, winner)
    return trick


_ADAPTER: TypeAdapter[EnviteState] = TypeAdapter(EnviteState)


def to_json(state: EnviteState) -> str:
    """The state as compact JSON; :func:`from_json` gives back an equal state."""
    return _ADAPTER.dump_json(state).decode()


def from_json(text: str | bytes) -> EnviteState:
    """Read a state written by :func:`to_json`."""
    return _ADAPTER.validate_json(text)
