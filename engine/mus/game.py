"""The Mus state machine's public API: the new vaca, the legal and default actions, and ``apply``.

Rules: rules/mus.md M1-M6; each step of a transition lives in its module: the deal
(engine.mus.deal), mus and discards (engine.mus.discards), the lances (engine.mus.lances),
scoring (engine.mus.scoring). ``apply`` is a pure function returning a
:class:`~engine.core.Transition`; illegal moves raise :class:`~engine.core.IllegalAction`.

>>> s = new_game(seed=1, hands=["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"])
>>> t = apply(s, 0, "no hay mus")
>>> t.state.phase, t.state.lance, t.state.to_act
('lance', 'grande', (0,))
>>> [e.kind for e in t.events]
['spoke', 'lance_started']
>>> apply(t.state, 1, "paso")
Traceback (most recent call last):
...
engine.core.IllegalAction: not_your_turn(seat=1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations

from engine.cards import DECK, Card
from engine.core import (
    Action,
    IllegalAction,
    RawEvent,
    Transition,
    card_actions,
    check_action,
    check_seat,
    is_seat,
    transition,
)
from engine.mus import senas_play
from engine.mus.actions import parse_action
from engine.mus.deal import deal
from engine.mus.discards import discard, speak_mus
from engine.mus.draft import PLAYERS
from engine.mus.lances import MIN_BET, speak
from engine.mus.options import Options
from engine.mus.scoring import PARES_VALUE, hand_scores, score_parts, values
from engine.mus.state import MusState
from engine.senas_play import SENA

__all__ = [
    "BET_AMOUNTS",
    "MIN_BET",
    "PARES_VALUE",
    "PLAYERS",
    "apply",
    "default_action",
    "hand_scores",
    "legal_actions",
    "new_game",
    "score_parts",
    "values",
]

BET_AMOUNTS = (3, 4, 5, 10)
"""The amounts :func:`legal_actions` lists besides ``envido`` (2): the ones players use."""

_MUS_KINDS = frozenset({"mus", "corto"})
_LANCE_KINDS = frozenset({"paso", "envido", "quiero", "no_quiero", "ordago"})

_A_MUS = Action("mus")
_A_CORTO = Action("corto")
_A_PASO = Action("paso")
_A_ENVIDO = Action("envido")
_A_ENVIDO5 = Action("envido", amount=5)
_A_AMOUNTS = tuple(Action("envido", amount=n) for n in BET_AMOUNTS)
_A_ORDAGO = Action("ordago")
_A_QUIERO = Action("quiero")
_A_NO_QUIERO = Action("no_quiero")
_OPEN_ACTIONS = (_A_PASO, _A_ENVIDO, *_A_AMOUNTS, _A_ORDAGO)
_ANSWER_ACTIONS = (_A_QUIERO, _A_NO_QUIERO, _A_ENVIDO, *_A_AMOUNTS, _A_ORDAGO)
_ORDAGO_ANSWERS = (_A_QUIERO, _A_NO_QUIERO)
_TEXTS = {id(a): str(a) for a in (_A_MUS, _A_CORTO, _A_PASO, *_ANSWER_ACTIONS)}
"""The texts of the module's own actions, by identity (they live as long as the module, so
no other object has their ids): :func:`apply` takes them as they are."""


_DEFAULT_OPTIONS = Options()


def new_game(
    players: int = PLAYERS,
    options: Options | None = None,
    seed: int = 0,
    hands: Sequence[Iterable[str | Card] | str] | None = None,
    stock: Iterable[str | Card] | str | None = None,
) -> MusState:
    """A new vaca: hand 1 dealt (from ``seed``, or the explicit ``hands``/``stock``), mano seat 0.

    ``hands`` are in seat order; ``stock`` (drawn from its start) is followed by the remaining
    cards in seeded order. Later hands are dealt from ``seed``.

    >>> s = new_game(seed=3)
    >>> [len(h) for h in s.hands], len(s.stock)
    ([4, 4, 4, 4], 24)
    """
    if players != PLAYERS:
        raise ValueError("classic Mus is played by four players")
    return deal(options or _DEFAULT_OPTIONS, seed, 1, 0, (0, 0), (0, 0), hands, stock)


# --------------------------------------------------------------------------- public API


def legal_actions(state: MusState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now (empty when it is not his turn).

    Discards enumerate every non-empty subset of the hand (15). Bets list ``envido`` (2, or 2
    more), the amounts players use (``envido 3``, ``4``, ``5``, ``10``: to bet, or that many
    more facing a bet) and ``ordago``; any other amount of 2 or more is legal too.

    >>> s = new_game(seed=3)
    >>> [str(a) for a in legal_actions(s, 0)], legal_actions(s, 1)
    (['mus', 'corto'], [])
    """
    # An int in to_act is a seat (other types are checked: a bool or 1.0 would compare equal).
    if type(seat) is not int and not is_seat(seat, PLAYERS):
        return []
    if seat not in state.to_act:
        return []
    phase = state.phase
    if phase == "lance":
        if state.bet_pair is None:
            return [*_OPEN_ACTIONS]
        return [*(_ORDAGO_ANSWERS if state.ordago else _ANSWER_ACTIONS)]
    if phase == "mus":
        return [_A_MUS, _A_CORTO]
    if phase == "discard":
        return [*_discards(tuple([c.index for c in state.hands[seat]]))]
    return []


@lru_cache(maxsize=4096)
def _discards(hand: tuple[int, ...]) -> tuple[Action, ...]:
    """Every discard from the hand with these cards (by :attr:`Card.index`, in hand order)."""
    cards = tuple([DECK[i] for i in hand])
    return card_actions(
        "descarto",
        [combo for size in range(1, len(cards) + 1) for combo in combinations(cards, size)],
    )


def default_action(state: MusState, seat: int) -> Action:
    """The safe move when a turn timer runs out: corto; discard all but reyes and ases; paso
    without a bet; no quiero facing one.

    >>> s = new_game(seed=1, hands=["12o 3c 5b 4e", "7o 6c 5e 4b", "12c 11c 7e 4o", "10o 7c 6e 5o"])
    >>> str(default_action(s, 0))
    'corto'
    """
    check_seat(seat, PLAYERS)
    phase = state.phase
    if phase == "mus":
        return _A_CORTO
    if phase == "discard":
        hand = state.hands[seat]
        reyes = state.options.reyes
        keep = {12, 1} | ({3, 2} if reyes == 8 else set())
        out = tuple(c for c in hand if c.rank not in keep)
        return Action("descarto", cards=out or hand[-1:])
    if phase == "lance":
        return _A_PASO if state.bet_pair is None else _A_NO_QUIERO
    raise IllegalAction("game_over")


def apply(state: MusState, seat: int, action: Action | str) -> Transition[MusState]:
    """Play ``action`` (an :class:`Action` or its text) for ``seat``; returns the new state and
    the events. Raises :class:`IllegalAction` (state unchanged) when it is not allowed.

    >>> s = new_game(seed=5)
    >>> t = apply(s, 0, "mus")
    >>> t.state.to_act, t.events[0].data
    ((1,), {'seat': 0, 'action': 'mus', 'bet': None})
    """
    if not (type(seat) is int and 0 <= seat < PLAYERS):
        check_seat(seat, PLAYERS, reason="not_your_turn")
    act: Action
    own = _TEXTS.get(id(action))
    if own is not None:
        act = action  # type: ignore[assignment]  # one of the words legal_actions offers
    elif type(action) is Action and action.amount is None and not action.cards:
        act = action  # a word without amount or cards (check_action's fast path, inlined)
        if type(act.kind) is not str or type(act.cards) is not tuple:
            check_action(act)
    else:
        check_action(action)
        act = parse_action(action) if isinstance(action, str) else action
    phase = state.phase
    kind = act.kind
    if phase == "lance" and kind in _LANCE_KINDS:  # most moves: a word in a lance
        new = speak(state, seat, act, own, None)
    elif phase == "over":
        raise IllegalAction("game_over")
    elif kind == SENA:  # at any moment of its window, in turn or not (rules/senas.md S1)
        return senas_play.send(state, seat, act)
    elif phase == "lance":
        raise IllegalAction("wrong_phase", phase=phase, action=kind)
    elif phase == "mus":
        if kind not in _MUS_KINDS:
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        if seat not in state.to_act:
            raise IllegalAction("not_your_turn", seat=seat)
        new = speak_mus(state, seat, kind, None)
    else:
        if kind != "descarto":
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        if seat not in state.to_act:
            raise IllegalAction("not_your_turn", seat=seat)
        new = discard(state, seat, act.cards, None)
    return transition(new, (_replayed, state, seat, act))


def _replayed(state: MusState, seat: int, act: Action) -> list[RawEvent]:
    """The events of the legal action ``act`` of ``seat`` from ``state``: its transition again,
    recording them."""
    events: list[RawEvent] = []
    phase = state.phase
    if phase == "lance":
        speak(state, seat, act, _TEXTS.get(id(act)), events)
    elif phase == "mus":
        speak_mus(state, seat, act.kind, events)
    else:
        discard(state, seat, act.cards, events)
    return events
