"""The immutable state of a Mus a piedras match and its JSON form.

A state holds everything needed to continue the match: the piles, the plate, the deposit of each
lance, the hands, the betting of the current lance and the seed every shuffle derives from.

>>> from engine.piedras.game import new_game
>>> s = new_game(players=3, seed=1)
>>> s.score, s.plate, s.deposits, s.to_act
((8, 8, 8), 0, (0, 0, 0, 0), (0, 1, 2))
>>> from_json(to_json(s)) == s
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import TypeAdapter

from engine.cards import Card
from engine.piedras.options import Options

Phase = Literal["discard", "lance", "over"]
Stage = Literal["open", "envite", "reenvite"]
Outcome = Literal["skipped", "en_paso", "refused", "equal", "ordago", "ordago_pending"]

SLOTS: tuple[str, str, str, str] = ("grande", "chica", "pares", "juego")
"""The four lances in order; the last one is played as ``punto`` when nobody has juego."""
LAST_LANCES = ("juego", "punto")


@dataclass(frozen=True, slots=True)
class LanceRecord:
    """How a lance of the current hand closed (what the end-of-hand settlement needs).

    ``players``: for ``en_paso`` the players entitled to the lance; for ``equal`` and
    ``ordago_pending`` the players still in it. ``winner``: the player who won by refusal, or
    the only holder of pares/juego (public); ``None`` when only the cards decide.
    """

    lance: str
    outcome: Outcome
    players: tuple[int, ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class Betting:
    """The betting of the lance being played (P4).

    ``put[seat]`` counts what each player has bet in this lance (the level he has matched);
    the deposit itself is ``PiedrasState.deposits``: after a refused raise the refuser takes the
    deposit while the others' ``put`` still counts for matching. ``queue`` lists who speaks next
    in the current round; ``direction`` is +1 (to the right) or -1 (to the left).
    ``ordago`` is the seat that called an órdago (``accepted`` those who took it), else ``None``.
    """

    lance: str
    stage: Stage
    entitled: tuple[int, ...]
    in_lance: tuple[int, ...]
    put: tuple[int, ...]
    queue: tuple[int, ...]
    level: int = 0
    bettor: int | None = None
    ordago: int | None = None
    accepted: tuple[int, ...] = ()
    direction: int = 1
    raised: bool = False
    last_raiser: int | None = None


@dataclass(frozen=True)
class PiedrasState:
    """A Mus a piedras match. ``score`` is each seat's pile; ``winner`` the seat that won."""

    players: int
    options: Options
    seed: int
    phase: Phase
    juego: int
    """1-based number of the current juego."""
    hand_number: int
    """1-based number of the hand in the match (it also names the shuffle)."""
    mano: int
    piles: tuple[int, ...]
    plate: int
    deposits: tuple[int, int, int, int]
    """Stones in the deposit of grande, chica, pares and juego/punto."""
    losses: tuple[int, ...]
    """Juegos each seat has lost."""
    seated: tuple[int, ...]
    """Seats playing the current juego (not out of the match)."""
    free: tuple[int, ...]
    """Seats of the current juego that got rid of their stones (they sit out until it ends)."""
    in_hand: tuple[int, ...]
    """Seats still playing this hand (dealt in, not freed by an órdago)."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards: five before his discard, four after, none when not dealt in."""
    lances: tuple[LanceRecord, ...] = ()
    """The lances of this hand already closed, in order."""
    betting: Betting | None = None
    revealed: tuple[int, ...] = ()
    """Seats whose hands were shown this hand (an órdago)."""
    winner: int | None = None
    spoken: tuple[tuple[int, str, str], ...] = ()
    """What was said in this hand, in order: (seat, lance, action text as in the ``spoke``
    event: "paso", "envido 4", "3 más", "quiero", "no quiero", "ordago"). Public."""

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: every seat still to discard, or the one who speaks."""
        phase = self.phase
        if phase == "lance":
            b = self.betting
            return b.queue[:1] if b is not None else ()
        if phase == "discard":
            hands, in_hand = self.hands, self.in_hand
            for s in in_hand:  # usually nobody has discarded yet: the hand's players as they are
                if len(hands[s]) != 5:
                    return tuple([s for s in in_hand if len(hands[s]) == 5])
            return in_hand
        return ()

    @property
    def score(self) -> tuple[int, ...]:
        """Each seat's pile of stones."""
        return self.piles

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def lance(self) -> str | None:
        """The lance being played, or ``None``."""
        return self.betting.lance if self.betting is not None else None

    @property
    def out(self) -> tuple[int, ...]:
        """Seats out of the match (they lost ``options.losses`` juegos)."""
        return tuple(s for s in range(self.players) if self.losses[s] >= self.options.losses)

    @property
    def stones_in_play(self) -> int:
        """Stones handed out at the start of the current juego (P5 conservation)."""
        return self.options.stones * len(self.seated)


def betting_with(b: Betting, **changes: Any) -> Betting:
    """A copy of ``b`` with some fields changed (a faster ``dataclasses.replace``: the class keeps
    its fields in an instance ``__dict__`` so the copy is two C-level dictionary updates)."""
    new = object.__new__(Betting)
    attrs = new.__dict__
    attrs.update(b.__dict__)
    attrs.update(changes)
    return new


_BETTING_DEFAULTS: dict[str, Any] = {
    "level": 0,
    "bettor": None,
    "ordago": None,
    "accepted": (),
    "direction": 1,
    "raised": False,
    "last_raiser": None,
}


def make_betting(**fields: Any) -> Betting:
    """A :class:`Betting` like ``Betting(**fields)`` without the per-field ``__init__`` cost.

    >>> make_betting(lance="grande", stage="open", entitled=(0, 1), in_lance=(0, 1),
    ...     put=(0, 0), queue=(0, 1)) == Betting("grande", "open", (0, 1), (0, 1), (0, 0), (0, 1))
    True
    """
    new = object.__new__(Betting)
    attrs = new.__dict__
    attrs.update(_BETTING_DEFAULTS)
    attrs.update(fields)
    return new


_RECORD_SLOTS: dict[str, Any] = dict(LanceRecord.__dict__)
_set_lance = _RECORD_SLOTS["lance"].__set__
_set_outcome = _RECORD_SLOTS["outcome"].__set__
_set_players = _RECORD_SLOTS["players"].__set__
_set_winner = _RECORD_SLOTS["winner"].__set__


def make_record(
    lance: str, outcome: Outcome, players: tuple[int, ...], winner: int | None
) -> LanceRecord:
    """``LanceRecord(lance, outcome, players, winner)`` without the frozen dataclass's
    ``object.__setattr__`` per field (several lances close in every hand).

    >>> make_record("grande", "en_paso", (0, 1), None) == LanceRecord("grande", "en_paso", (0, 1))
    True
    """
    new: LanceRecord = object.__new__(LanceRecord)
    _set_lance(new, lance)
    _set_outcome(new, outcome)
    _set_players(new, players)
    _set_winner(new, winner)
    return new


_ADAPTER = TypeAdapter(PiedrasState)


def to_json(state: PiedrasState) -> str:
    """The state as compact JSON text (lossless)."""
    return _ADAPTER.dump_json(state).decode()


def from_json(text: str | bytes) -> PiedrasState:
    """Read a state written by :func:`to_json`."""
    return _ADAPTER.validate_json(text)
