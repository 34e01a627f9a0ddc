"""Señas at a Mus table: who may send which, when, and to whom (rules/senas.md S1, S2, S4).

The window (S1) is the lances: from the mus cut (phase ``lance``) until the hand's last lance
ends (the hand is scored and the next one dealt in the same transition). A seña goes to the
partner (seat + 2); the two opponents may catch it with ``senasvistas`` (S4).

>>> from engine.mus.game import new_game, apply
>>> s = new_game(seed=1, hands=["12o 12c 1e 4b", "7o 6c 5e 4o", "12e 11c 7e 5o", "10o 7c 6e 5b"])
>>> legal_senas(s, 0)  # before the cut: none
[]
>>> s = apply(s, 0, "corto").state
>>> [str(a) for a in legal_senas(s, 0)]
['seña dos reyes']
>>> t = apply(s, 0, "seña dos reyes")
>>> [(e.kind, dict(e.data), sorted(e.to or ())) for e in t.events]
[('sena', {'seat': 0, 'name': 'dos reyes'}, [2])]
>>> legal_senas(t.state, 0), t.state.to_act
([], (0,))
"""

from __future__ import annotations

from dataclasses import replace

from engine import senas_play
from engine.core import Action, IllegalAction, Transition
from engine.mus.senas import MUS_SENAS, senas
from engine.mus.state import MusState

PLAYERS = 4


def in_window(state: MusState) -> bool:
    """S1: from the mus cut until the hand's last lance ends; never with ``sinsenas``."""
    return state.phase == "lance" and not state.options.sinsenas


def partner(seat: int) -> int:
    return (seat + 2) % PLAYERS


def opponents(seat: int) -> tuple[int, int]:
    return (seat + 1) % PLAYERS, (seat + 3) % PLAYERS


def legal_senas(state: MusState, seat: int) -> list[Action]:
    """The señas ``seat`` may send now: true of his hand (S2), not yet sent this hand, inside
    the window (S1). Whether or not it is his turn."""
    return coming_senas(state, seat) if in_window(state) else []


def coming_senas(state: MusState, seat: int) -> list[Action]:
    """The señas ``seat``'s cards allow this hand, not yet sent, also before the window opens
    (for showing them ahead: a hand message dealt with them needs no change at the cut; sent
    before the cut they are refused with ``sena_not_yet``). None once the hand is over or with
    ``sinsenas``.

    >>> from engine.mus.game import new_game
    >>> s = new_game(seed=1, hands=["12o 12c 1e 4b", "7o 6c 5e 4o", "12e 11c 7e 5o", "10o 7c 6e"
    ...     " 5b"])
    >>> [str(a) for a in coming_senas(s, 0)], legal_senas(s, 0)
    (['seña dos reyes'], [])
    """
    if state.options.sinsenas or state.phase not in _BEFORE_OR_IN_WINDOW:
        return []
    if not 0 <= seat < PLAYERS:
        return []
    mine = senas(state.hands[seat], state.options)
    return senas_play.offered(mine, MUS_SENAS, senas_play.sent_by(state.senas_sent, seat))


_BEFORE_OR_IN_WINDOW = frozenset({"mus", "discard", "lance"})


def send(state: MusState, seat: int, action: Action) -> Transition[MusState]:
    """Apply a seña: recorded in the state, events to the partner (and catchers)."""
    if not 0 <= seat < PLAYERS:
        raise IllegalAction("not_your_turn", seat=seat)
    if state.options.sinsenas:
        raise IllegalAction("senas_off")
    if not in_window(state):
        before_cut = state.phase in ("mus", "discard")
        raise IllegalAction("sena_not_yet" if before_cut else "sena_closed")
    mine = senas(state.hands[seat], state.options)
    name = senas_play.check(action, mine, senas_play.sent_by(state.senas_sent, seat))
    opts = state.options
    events = senas_play.events(
        state.seed,
        state.hand_number,
        seat,
        name,
        (partner(seat),),
        opponents(seat),
        vistas=opts.senasvistas,
        pillar=opts.pillar,
    )
    sent = senas_play.record(state.senas_sent, seat, name, PLAYERS)
    return Transition(replace(state, senas_sent=sent), events)


def view_fields(state: MusState, seat: int) -> dict[str, list[tuple[int, str]]]:
    """What a seat's view shows of the señas: those its partner sent it this hand, and those
    of the opponents it caught (S4)."""
    opts = state.options
    return {
        "senas_received": senas_play.received(state.senas_sent, seat, (partner(seat),)),
        "senas_caught": senas_play.caught_by(
            state.seed,
            state.hand_number,
            state.senas_sent,
            seat,
            opponents(seat) if opts.senasvistas else (),
            opts.pillar,
        ),
    }
