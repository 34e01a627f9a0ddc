"""What every step of a Mus transition shares: the seats' orders, the events it records, and
the draft, the one copy of the state that a legal action changes in place (rules/mus.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import MISSING, fields
from typing import Any

from engine.cards import Card
from engine.core import RawEvent
from engine.mus.state import Hand, MusState

PLAYERS = 4
NO_CARDS: tuple[Hand | None, ...] = (None, None, None, None)

ORDERS = tuple(tuple((mano + i) % PLAYERS for i in range(PLAYERS)) for mano in range(PLAYERS))
ONLY = tuple(frozenset((s,)) for s in range(PLAYERS))


def card_texts(cards: Sequence[Card]) -> list[str]:
    """The cards' texts (a Mus hand has four: spelt out, it is the hot path)."""
    if len(cards) == 4:
        a, b, c, d = cards
        return [a._text, b._text, c._text, d._text]
    return [c._text for c in cards]


# Events are built as ``(kind, data, to)`` (engine.core.RawEvent) and become Event objects when
# the transition's events are first read (engine.core.transition). ``apply`` itself makes the new
# state only (``events`` is None): when the events are first read, the same transition runs
# again with a list to record them (``_replayed`` in engine.mus.game). Simulations that play
# hands out never read them, and the bot reads every one of them once: the same events either
# way, since a transition is a pure function of the state, the seat and the action.

Events = list[RawEvent] | None
"""Where a transition records its events; None while ``apply`` makes the new state only."""


# --------------------------------------------------------------------------- the draft
#
# A legal action copies the state's fields once (``draft_said``, ``draft``), and the steps of the
# transition change that copy in place (``update``) until it is returned: nobody else has seen it
# yet, so it is still immutable for everyone else, and a refused action leaves the given state
# untouched. The copy is made with the word in the hand's history: if the hand ends and the next
# one is dealt, the copy is dropped, and so is the word (a new hand starts a new history).

DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(MusState) if f.default is not MISSING}
"""The fields' defaults (all immutable values: no field has a default factory)."""
new_state = object.__new__
set_fields = vars(MusState)["__dict__"].__set__


def made(fields: dict[str, Any]) -> MusState:
    """The state with these fields (without the frozen ``__init__``: they are the dict)."""
    new = new_state(MusState)
    set_fields(new, fields)
    return new


def draft(st: MusState) -> MusState:
    """A copy of ``st`` that this transition may change with :func:`update` before returning it
    (``dataclasses.replace`` without re-running the frozen ``__init__``: one dict copy)."""
    new = new_state(MusState)
    set_fields(new, st.__dict__.copy())
    return new


def draft_said(
    state: MusState,
    stage: str,
    seat: int,
    text: str,
    amount: int | None,
    events: Events,
) -> MusState:
    """A draft copy of ``state`` with ``seat``'s word in the history (to change with
    :func:`update` or its ``__dict__``), and the ``spoke`` event (``amount``: its ``bet``)."""
    if events is not None:
        events.append(("spoke", {"seat": seat, "action": text, "bet": amount}, None))
    fields = state.__dict__.copy()
    # A concatenation makes the new tuple at once ((*history, word) goes through a list).
    fields["history"] = state.history + ((stage, seat, text, amount),)  # noqa: RUF005
    new = new_state(MusState)
    set_fields(new, fields)
    return new


def update(st: MusState, **changes: Any) -> MusState:
    """Change the draft ``st`` (made by :func:`draft` in this transition) in place."""
    st.__dict__.update(changes)
    return st
