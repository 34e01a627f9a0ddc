"""Señas at an envite table: who may send which, when, and to whom (rules/senas.md S1, S3, S4).

The window (S1) is the whole round, from the deal until the round ends (every phase but
``over``). A seña is made of the cards the player holds now and goes to every other member of
his team, the mandador included; the mocho (a seat nobody sits at) neither sends nor receives.
The opposing players may catch it with ``senasvistas`` (S4).

>>> from engine.envite.game import new_game, apply
>>> s = new_game(players=4, dealer=3, hands=[["2c", "12c", "4o"], ["3e", "7o", "12b"],
...     ["4e", "5o", "6o"], ["4b", "5b", "6b"]], vira="5c")
>>> [str(a) for a in legal_senas(s, 0)]
['seña malilla', 'seña rey', 'seña envido']
>>> t = apply(s, 2, "seña envido")
>>> [(e.kind, dict(e.data), sorted(e.to or ())) for e in t.events]
[('sena', {'seat': 2, 'name': 'envido'}, [0])]
"""

from __future__ import annotations

from engine import senas_play
from engine.core import Action, IllegalAction, Transition
from engine.envite.senas import ENVITE_SENAS, senas
from engine.envite.state import EnviteState, replace


def in_window(state: EnviteState) -> bool:
    """S1: from the deal until the round ends; never with ``sinsenas``."""
    return state.phase != "over" and not state.options.sinsenas


def partners(state: EnviteState, seat: int) -> tuple[int, ...]:
    """The other members of ``seat``'s team who sit at the table (not the mocho)."""
    return tuple(
        s for s in range(state.players) if s % 2 == seat % 2 and s != seat and s != state.ghost
    )


def opponents(state: EnviteState, seat: int) -> tuple[int, ...]:
    return tuple(s for s in range(state.players) if s % 2 != seat % 2 and s != state.ghost)


def _valid_seat(state: EnviteState, seat: int) -> bool:
    return 0 <= seat < state.players and seat != state.ghost


def _supported(state: EnviteState, seat: int) -> frozenset[str]:
    return senas(state.hands[seat], state.vira, state.k)


def legal_senas(state: EnviteState, seat: int) -> list[Action]:
    """The señas ``seat`` may send now: true of the cards he holds (S3), not yet sent this
    round, inside the window (S1). Whether or not it is his turn."""
    if not in_window(state) or not _valid_seat(state, seat):
        return []
    return senas_play.offered(
        _supported(state, seat), ENVITE_SENAS, senas_play.sent_by(state.senas_sent, seat)
    )


def send(state: EnviteState, seat: int, action: Action) -> Transition[EnviteState]:
    """Apply a seña: recorded in the state, events to the team (and catchers)."""
    if not _valid_seat(state, seat):
        raise IllegalAction("not_your_turn", seat=seat)
    if state.options.sinsenas:
        raise IllegalAction("senas_off")
    if not in_window(state):
        raise IllegalAction("sena_closed")
    already = senas_play.sent_by(state.senas_sent, seat)
    name = senas_play.check(action, _supported(state, seat), already)
    opts = state.options
    events = senas_play.events(
        state.seed,
        state.round,
        seat,
        name,
        partners(state, seat),
        opponents(state, seat),
        vistas=opts.senasvistas,
        pillar=opts.pillar,
    )
    sent = senas_play.record(state.senas_sent, seat, name, state.players)
    return Transition(replace(state, senas_sent=sent), events)


def view_fields(state: EnviteState, seat: int) -> dict[str, list[list[object]]]:
    """A seat's view of the señas: those its team sent it this round, and the opponents' it
    caught (S4); ``[[from_seat, name], ...]``."""
    opts = state.options
    got = senas_play.received(state.senas_sent, seat, partners(state, seat))
    seen = senas_play.caught_by(
        state.seed,
        state.round,
        state.senas_sent,
        seat,
        opponents(state, seat) if opts.senasvistas else (),
        opts.pillar,
    )
    return {
        "senas_received": [list(x) for x in got],
        "senas_caught": [list(x) for x in seen],
    }
