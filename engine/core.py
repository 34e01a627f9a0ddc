"""What every game engine shares: actions, events, transitions and refusals.

Each game package (``engine.mus``, ``engine.piedras``, ``engine.envite``) exposes the same verbs:
``new_game``, ``legal_actions``, ``apply``, ``parse_action`` and ``view``; ``apply`` returns a
:class:`Transition` and refuses illegal moves with :class:`IllegalAction`.

>>> a = Action("envido", amount=5)
>>> str(a)
'envido 5'
>>> Action.parse_text("descarto 12o 3c") == Action("descarto", cards=parse_cards("12o 3c"))
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Generic, TypeVar

from engine.cards import Card, InvalidCard, format_cards, parse_cards

MAX_AMOUNT = 999
"""No bet in any game may name more than this many stones/points (anything larger is malformed)."""


class IllegalAction(Exception):
    """A refused action: ``reason`` is a stable code the bot turns into a localized sentence.

    ``params`` carries the values the sentence needs (never a hidden card of another player).

    >>> e = IllegalAction("not_your_turn", seat=2)
    >>> e.reason, e.params
    ('not_your_turn', {'seat': 2})
    """

    def __init__(self, reason: str, /, **params: Any) -> None:
        self.reason = reason
        self.params = params
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{reason}({detail})" if detail else reason)


@dataclass(frozen=True, slots=True, init=False)
class Action:
    """One move. ``kind`` is the Spanish word with underscores (``no_quiero``, ``chico_fuera``).

    ``amount`` is set for bets that name a number, ``cards`` for discards and card plays,
    ``name`` for a seña (kind ``sena``: ``str()`` gives ``"seña dos reyes"``, rules/senas.md).
    ``str(action)`` is the canonical Spanish text, which ``parse_action`` reads back.
    """

    kind: str
    amount: int | None = None
    cards: tuple[Card, ...] = ()
    name: str | None = field(default=None, repr=False)

    def __init__(
        self,
        kind: str,
        amount: int | None = None,
        cards: tuple[Card, ...] = (),
        name: str | None = None,
    ) -> None:
        # The frozen dataclass's __init__ without a generic object.__setattr__ per field.
        _set_action_kind(self, kind)
        _set_amount(self, amount)
        _set_cards(self, cards)
        _set_name(self, name)

    def __str__(self) -> str:
        if self.name is not None:
            return f"seña {self.name}"
        parts = [self.kind.replace("_", " ")]
        if self.amount is not None:
            parts.append(str(self.amount))
        if self.cards:
            parts.append(format_cards(self.cards))
        return " ".join(parts)

    @staticmethod
    def parse_text(text: str) -> Action:
        """Read back the canonical form produced by ``str(action)`` (no aliases)."""
        return parse_words(text, {k.replace("_", " "): k for k in _CANONICAL_KINDS})


_ACTION_SLOTS: dict[str, Any] = dict(Action.__dict__)
_set_action_kind = _ACTION_SLOTS["kind"].__set__
_set_amount = _ACTION_SLOTS["amount"].__set__
_set_cards = _ACTION_SLOTS["cards"].__set__
_set_name = _ACTION_SLOTS["name"].__set__


class _ActionSlots:
    """The layout of an :class:`Action` without its guard against assignment (as
    :class:`_TransitionSlots` for a :class:`Transition`: filled, then made an ``Action``)."""

    __slots__ = ("amount", "cards", "kind", "name")
    kind: str
    amount: int | None
    cards: tuple[Card, ...]
    name: str | None


def card_actions(kind: str, choices: Iterable[tuple[Card, ...]]) -> tuple[Action, ...]:
    """``Action(kind, cards=cards)`` for each of ``choices``, in order, at half the cost of
    the constructor (its four slot setter calls): for the lists of discards that
    ``legal_actions`` makes for every new hand.

    >>> card_actions("descarto", [parse_cards("1o"), parse_cards("12c 3e")])
    (Action(kind='descarto', amount=None, cards=(Card('1o'),)), \
Action(kind='descarto', amount=None, cards=(Card('12c'), Card('3e'))))
    >>> _ == tuple(Action("descarto", cards=parse_cards(t)) for t in ("1o", "12c 3e"))
    True
    """
    made = []
    for cards in choices:
        action = _ActionSlots()
        action.kind = kind
        action.amount = None
        action.cards = cards
        action.name = None
        action.__class__ = Action  # type: ignore[assignment]  # the same layout
        made.append(action)
    return tuple(made)  # type: ignore[arg-type]  # Actions now


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened. ``to`` is ``None`` for a public event, else the seats that see it.

    ``data`` holds plain JSON values (cards as text), ready for rendering with a locale string
    named after ``kind``.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def __init__(
        self, kind: str, data: Mapping[str, Any] | None = None, to: frozenset[int] | None = None
    ) -> None:
        # The frozen dataclass's own __init__, without its generic object.__setattr__ per field:
        # every transition of every game builds several events.
        _set_kind(self, kind)
        _set_data(self, {} if data is None else data)
        _set_to(self, to)

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int) -> bool:
        return self.to is None or seat in self.to


class _EventSlots:
    """The layout of an :class:`Event` without its guard against assignment (see
    :class:`_TransitionSlots`): ``Transition.events`` makes every event from one."""

    __slots__ = ("data", "kind", "to")
    kind: str
    data: Mapping[str, Any]
    to: frozenset[int] | None


_EVENT_SLOTS: dict[str, Any] = dict(Event.__dict__)
_set_kind = _EVENT_SLOTS["kind"].__set__
_set_data = _EVENT_SLOTS["data"].__set__
_set_to = _EVENT_SLOTS["to"].__set__

S = TypeVar("S")

RawEvent = tuple[str, Mapping[str, Any], "frozenset[int] | None"]
"""An event not yet built: ``(kind, data, to)``, the arguments of :class:`Event`."""

RawEvents = list[RawEvent] | Callable[[], list[RawEvent]] | tuple[Any, ...]
"""The events of a :func:`transition`: a list of raw events, a function of no arguments that
makes it, or a tuple ``(function, *arguments)`` whose function makes it from those arguments
(nothing to build on every move: neither a closure nor a ``functools.partial``)."""


class _TransitionSlots:
    """The layout of a :class:`Transition` without its guard against assignment.

    :func:`transition` fills one with plain attribute stores (the fast path of the interpreter)
    and then makes it a ``Transition``: an object may change its class to another of the same
    layout. That is half the cost of setting the slots of a frozen object one setter call at a
    time, and every move of every game makes one.
    """

    __slots__ = ("_events", "_raw", "state")
    state: Any
    _events: tuple[Event, ...]
    """The events once built (unset until then)."""
    _raw: RawEvents
    """What the events are built from (see :func:`transition`)."""


class Transition(_TransitionSlots, Generic[S]):
    """The result of ``apply``: the new state and the events that lead to it, in order.

    Immutable, compared and hashed by ``(state, events)`` like a frozen dataclass. The engines
    build ``events`` when they are first read (:func:`transition`): a caller that only wants
    the next state, such as a computer player playing hands out, never pays for them. They are
    the same events either way.

    >>> t = transition(1, [("spoke", {"seat": 0}, None)])
    >>> t.events == (Event("spoke", {"seat": 0}),), t == Transition(1, t.events)
    (True, True)
    >>> t.state = 2
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'state'
    """

    __slots__ = ()
    state: S

    def __init__(self, state: S, events: tuple[Event, ...] = ()) -> None:
        _set_state(self, state)
        _set_events(self, events)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events, in order (built on the first read, then kept)."""
        try:
            return self._events
        except AttributeError:
            pass
        raw = self._raw
        if type(raw) is tuple:
            raw = raw[0](*raw[1:])
        elif callable(raw):
            raw = raw()
        built = []
        for kind, data, to in raw:  # Event(kind, data, to), made as transition() makes self
            event = _EventSlots()
            event.kind = kind
            event.data = data
            event.to = to
            event.__class__ = Event  # type: ignore[assignment]  # the same layout
            built.append(event)
        events: tuple[Event, ...] = tuple(built)  # type: ignore[arg-type]  # Events now
        _set_events(self, events)
        return events

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Transition)
        return (self.state, self.events) == (other.state, other.events)

    def __hash__(self) -> int:
        return hash((self.state, self.events))

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(state={self.state!r}, events={self.events!r})"

    def __getstate__(self) -> list[Any]:  # copy and pickle, as for a slots dataclass
        return [self.state, self.events]

    def __setstate__(self, fields: list[Any]) -> None:
        _set_state(self, fields[0])
        _set_events(self, fields[1])


_TRANSITION_SLOTS: dict[str, Any] = dict(_TransitionSlots.__dict__)
_set_state = _TRANSITION_SLOTS["state"].__set__
_set_events = _TRANSITION_SLOTS["_events"].__set__


def transition(state: S, raw: RawEvents) -> Transition[S]:
    """The :class:`Transition` to ``state`` whose events are built from ``raw`` when first read.

    ``raw`` must not change afterwards (the engines hand over a list they no longer touch; the
    data in it are plain values that nobody changes). It may also be a function of no arguments
    that returns that list, or a tuple ``(function, *arguments)``, for events that cost more to
    describe than the move itself: the function is called once, on the first read, and must
    depend only on immutable values.

    >>> t = transition(2, lambda: [("dealt", {"seat": 1}, frozenset((1,)))])
    >>> [(e.kind, e.to) for e in t.events]
    [('dealt', frozenset({1}))]
    >>> t = transition(3, (lambda seat: [("dealt", {"seat": seat}, None)], 0))
    >>> t.events[0].data, type(t) is Transition
    ({'seat': 0}, True)
    """
    t = _TransitionSlots()
    t.state = state
    t._raw = raw
    t.__class__ = Transition
    return t  # type: ignore[return-value]  # a Transition now


_CANONICAL_KINDS = (
    "mus", "corto", "descarto", "paso", "envido", "quiero", "no_quiero", "ordago", "tiro",
    "siete", "nueve", "chico_fuera", "tumbo", "no_tumbo", "renuncio", "timeout",
)  # fmt: skip

MUS_BETTING_PHRASES: dict[str, str] = {
    "descarto": "descarto",
    "paso": "paso",
    "envido": "envido",
    "quiero": "quiero",
    "no quiero": "no_quiero",
    "ordago": "ordago",
    "discard": "descarto",
    "pass": "paso",
    "bet": "envido",
    "raise": "envido",
    "accept": "quiero",
    "fold": "no_quiero",
    "allin": "ordago",
    "all in": "ordago",
}
"""The words both Mus games share (rules/mus.md M6, rules/piedras.md P6), normalized, to kinds."""

_AMOUNT_RE = re.compile(r"^[+-]?\d+$")


def normalize(text: str) -> str:
    """Lower-case, strip accents and punctuation at the ends, collapse spaces.

    >>> normalize("  Órdago!! ")
    'ordago'
    >>> normalize("No   QUIERO")
    'no quiero'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.lower().replace(",", " ").strip(" \t\r\n.!¡?¿;:")
    return re.sub(r"\s+", " ", plain)


def parse_amount(token: str) -> int:
    """A bet amount: a whole number from 1 to :data:`MAX_AMOUNT`, else ``bad_amount``."""
    if not _AMOUNT_RE.match(token):
        raise IllegalAction("bad_amount", text=token[:20])
    value = int(token)
    if value < 1 or value > MAX_AMOUNT:
        raise IllegalAction("bad_amount", text=token[:20])
    return value


def parse_words(text: str, phrases: Mapping[str, str]) -> Action:
    """Parse ``<phrase> [N] [cards...]`` or ``N más`` using a game's phrase table.

    ``phrases`` maps normalized words (``"no quiero"``, ``"fold"``) to action kinds. The longest
    phrase that starts the text wins. ``N mas`` / ``raise N`` / ``bet N`` become
    ``Action("envido", amount=N)``.

    >>> parse_words("5 más", {"envido": "envido"})
    Action(kind='envido', amount=5, cards=())
    """
    words = normalize(text).split(" ")
    if not words or words == [""]:
        raise IllegalAction("unknown_action", text="")
    if len(words) == 2 and words[1] == "mas" and "envido" in phrases.values():
        return Action("envido", amount=parse_amount(words[0]))
    for size in range(min(3, len(words)), 0, -1):
        kind = phrases.get(" ".join(words[:size]))
        if kind is None:
            continue
        rest = words[size:]
        amount: int | None = None
        cards: tuple[Card, ...] = ()
        if rest and rest[-1] == "mas" and kind == "envido":
            rest = rest[:-1]
        if rest and kind in ("descarto", "tiro"):
            try:
                cards = parse_cards(" ".join(rest))
            except InvalidCard as exc:
                raise IllegalAction("bad_card", text=str(exc)[:20]) from None
            if len(set(cards)) != len(cards):
                raise IllegalAction("bad_card", text=" ".join(rest)[:20])
        elif len(rest) == 1 and kind == "envido":
            amount = parse_amount(rest[0])
        elif rest:
            raise IllegalAction("unknown_action", text=text.strip()[:40])
        return Action(kind, amount, cards)
    raise IllegalAction("unknown_action", text=text.strip()[:40])


def seats_from(start: int, n: int) -> Iterable[int]:
    """Seats in playing order starting at ``start``: ``seats_from(2, 4)`` gives 2, 3, 0, 1."""
    return ((start + i) % n for i in range(n))


# ---- argument checks of the public functions ---------------------------------------------------


class NoSuchSeat(IllegalAction, ValueError):
    """A seat that does not exist at this table: an :class:`IllegalAction` (the bot answers it
    like any refusal) and a ``ValueError`` (a caller's mistake).

    >>> isinstance(NoSuchSeat("no_such_seat", seat=9), ValueError)
    True
    """


def is_seat(seat: object, players: int) -> bool:
    """Whether ``seat`` is a seat of a table of ``players`` (an int in ``0..players-1``).

    >>> is_seat(0, 4), is_seat(-1, 4), is_seat(True, 4), is_seat(1.0, 4)
    (True, False, False, False)
    """
    return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < players


def check_seat(seat: object, players: int, *, reason: str = "no_such_seat") -> int:
    """``seat`` if it is a seat of a table of ``players``; else :class:`NoSuchSeat`.

    A negative index is not a seat (it would reach the last seats from the end), nor a bool.

    >>> check_seat(3, 4)
    3
    >>> check_seat(-1, 4)
    Traceback (most recent call last):
    ...
    engine.core.NoSuchSeat: no_such_seat(seat=-1)
    """
    if not is_seat(seat, players):
        raise NoSuchSeat(reason, seat=seat if isinstance(seat, int) else str(seat)[:20])
    assert isinstance(seat, int)
    return seat


def check_action(action: object) -> None:
    """Refuse (``IllegalAction``) an action object that no text could have produced: not an
    :class:`Action`, an amount outside 1..:data:`MAX_AMOUNT`, cards that are not cards.

    >>> check_action(Action("envido", amount=0))
    Traceback (most recent call last):
    ...
    engine.core.IllegalAction: bad_amount(text=0)
    """
    if type(action) is Action:  # the usual case, decided without the generic checks below
        amount = action.amount
        cards = action.cards
        if (
            type(action.kind) is str
            and (amount is None or (type(amount) is int and 1 <= amount <= MAX_AMOUNT))
            and type(cards) is tuple
        ):
            for card in cards:  # a plain loop: all(...) would build a generator for one card
                if type(card) is not Card:
                    break
            else:
                return
    elif isinstance(action, str):
        return
    if not isinstance(action, Action) or not isinstance(action.kind, str):
        raise IllegalAction("unknown_action", text=str(getattr(action, "kind", action))[:40])
    amount = action.amount
    if amount is not None and (
        isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT
    ):
        raise IllegalAction("bad_amount", text=str(amount)[:20])
    if not isinstance(action.cards, tuple) or not all(isinstance(c, Card) for c in action.cards):
        raise IllegalAction("unknown_action", text=str(action.kind)[:40])
