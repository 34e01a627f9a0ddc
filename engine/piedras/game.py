"""Mus a piedras: new game, legal actions, apply, default action (rules/piedras.md).

>>> s = new_game(players=3, hands=[["12o", "12c", "1e", "4b", "5b"],
...                               ["7o", "6c", "5e", "4o", "10b"],
...                               ["3o", "11c", "10e", "7c", "1b"]])
>>> s.to_act
(0, 1, 2)
>>> for seat, text in [(0, "descarto 5b"), (1, "descarto 10b"), (2, "descarto 1b")]:
...     s = apply(s, seat, text).state
>>> s.lance, s.to_act, [str(a) for a in legal_actions(s, 0)][:3]
('grande', (0,), ['paso', 'envido 2', 'envido 3'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from engine.cards import DECK, Card
from engine.core import (
    Action,
    IllegalAction,
    RawEvent,
    Transition,
    check_action,
    check_seat,
    is_seat,
    transition,
)
from engine.piedras.actions import parse_action
from engine.piedras.betting import BETTING_ACTIONS, act, advance, legal, spoke_event
from engine.piedras.deal import start_hand, start_juego
from engine.piedras.options import Options
from engine.piedras.state import Betting, PiedrasState
from engine.piedras.table import _ONLY, Table, card_text

MIN_PLAYERS, MAX_PLAYERS = 3, 8
_DESCARTO = [Action("descarto", cards=(c,)) for c in DECK]
"""One shared (immutable) discard action per card, by ``Card.index``."""
_CHECKED = frozenset(map(id, [*_DESCARTO, *BETTING_ACTIONS]))
"""The ids of the shared actions ``legal_actions`` hands out: valid actions, so ``apply`` skips
``check_action`` for them (they live as long as the module, so their ids stay theirs)."""


def new_game(
    players: int = 4,
    options: Options | None = None,
    seed: int = 0,
    hands: Sequence[Sequence[str | Card] | str] | None = None,
) -> PiedrasState:
    """A new match (P1): everyone gets the starting stones, seat 0 is mano, five cards dealt.

    ``hands`` (one five-card hand per seat) forces the first deal; later hands come from ``seed``.

    >>> s = new_game(players=4, options=Options(stones=5), seed=3)
    >>> s.score, s.mano, s.phase, [len(h) for h in s.hands]
    ((5, 5, 5, 5), 0, 'discard', [5, 5, 5, 5])
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Mus a piedras is for 3 to 8 players, not {players}")
    options = options or Options()
    forced: list[tuple[Card, ...]] | None = None
    if hands is not None:
        forced = [_parse_hand(h) for h in hands]
        if len(forced) != players or any(len(h) != 5 for h in forced):
            raise ValueError("hands: one hand of five cards per seat")
        cards = [c for h in forced for c in h]
        if len(set(cards)) != len(cards):
            raise ValueError("hands: a card is dealt twice")
    empty = PiedrasState(
        players=players,
        options=options,
        seed=seed,
        phase="discard",
        juego=0,
        hand_number=0,
        mano=0,
        piles=(0,) * players,
        plate=0,
        deposits=(0, 0, 0, 0),
        losses=(0,) * players,
        seated=(),
        free=(),
        in_hand=(),
        hands=((),) * players,
    )
    t = Table(empty)
    start_juego(t)
    start_hand(t, 0, forced)
    return t.freeze()


def _parse_hand(hand: Sequence[str | Card] | str) -> tuple[Card, ...]:
    if isinstance(hand, str):
        return tuple(Card.parse(c) for c in hand.split())
    return tuple(Card.parse(c) for c in hand)


def legal_actions(state: PiedrasState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; discards list each of his five cards.

    >>> s = new_game(players=3, seed=2)
    >>> len(legal_actions(s, 1)), legal_actions(s, 1)[0].kind
    (5, 'descarto')
    """
    phase = state.phase
    if phase == "lance":
        b = state.betting
        if b is None or not b.queue or b.queue[0] != seat:
            return []  # not the one who speaks
        if type(seat) is not int and not is_seat(seat, state.players):
            return []
        return legal(state, seat)
    if phase == "discard" and is_seat(seat, state.players):
        hand = state.hands[seat]
        if len(hand) != 5 or seat not in state.in_hand:
            return []
        return [_DESCARTO[c.index] for c in hand]
    return []


def default_action(state: PiedrasState, seat: int) -> Action:
    """The safe move when a turn timer runs out: discard the last card, pass, or answer safely.

    Refusing a first envite costs nothing; a numbered raise is matched (refusing it would take
    the whole deposit); an órdago is refused.

    >>> default_action(new_game(players=3, seed=2), 0).kind
    'descarto'
    """
    check_seat(seat, state.players)
    options = legal_actions(state, seat)
    if not options:
        raise IllegalAction("not_your_turn", seat=seat)
    if state.phase == "discard":
        return options[-1]
    b = state.betting
    assert b is not None
    kinds = [a.kind for a in options]
    if "paso" in kinds:
        return Action("paso")
    if b.stage == "envite" or b.ordago is not None:
        return Action("no_quiero")
    return Action("quiero")


def apply(state: PiedrasState, seat: int, action: Action | str) -> Transition[PiedrasState]:
    """Apply ``seat``'s action (an :class:`Action` or its text); illegal moves raise.

    >>> s = new_game(players=3, seed=2)
    >>> apply(s, 0, "paso")
    Traceback (most recent call last):
    ...
    engine.core.IllegalAction: wrong_phase(action=paso)
    """
    if type(seat) is not int or not 0 <= seat < state.players:  # check_seat's quick answer
        check_seat(seat, state.players, reason="not_in_game")
    if id(action) in _CHECKED:
        move = cast(Action, action)
    else:
        check_action(action)
        move = parse_action(action) if isinstance(action, str) else action
    phase = state.phase
    if phase == "lance":
        b = state.betting
        assert b is not None
        if move.kind == "descarto":
            raise IllegalAction("wrong_phase", action=str(move))
        queue = b.queue
        if not queue or queue[0] != seat:  # not the one who speaks (``to_act``)
            playing = b.entitled if b.stage == "open" else (*b.in_lance, *queue)
            if seat not in playing:
                raise IllegalAction("not_in_lance", seat=seat, lance=b.lance)
            raise IllegalAction("not_your_turn", seat=seat)
        if len(queue) > 1:
            quick = _quiet_word(state, b, seat, move)
            if quick is not None:
                return quick
        t = Table(state)
        act(t, seat, move)
        return transition(t.freeze(), t.raw)
    if phase == "discard":
        return _discard(state, seat, move)
    raise IllegalAction("game_over")


def _quiet_word(
    state: PiedrasState, b: Betting, seat: int, action: Action
) -> Transition[PiedrasState] | None:
    """The common words that close nothing, applied without the working table: a ``paso`` at
    the opening, a ``no quiero`` or a numbered ``quiero`` in the first envite, when others are
    still to speak (the caller checked that). The same new state and events as
    :func:`~engine.piedras.betting.act`."""
    kind, stage = action.kind, b.stage
    if stage == "open":
        if kind != "paso":
            return None
        text = "paso"
    elif stage == "envite" and kind == "no_quiero":
        text = "no quiero"
    elif stage == "envite" and kind == "quiero" and b.ordago is None:
        text = "quiero"
    else:
        return None
    lance = b.lance
    events: list[RawEvent] = []
    # The new betting and state are copies whose field dictionaries are filled in place (a
    # C-level copy plus item stores: cheaper than ``dataclasses.replace`` or keywords).
    nb = object.__new__(Betting)
    bet = nb.__dict__
    bet.update(b.__dict__)
    bet["queue"] = b.queue[1:]
    new = object.__new__(PiedrasState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields["betting"] = nb
    if kind == "quiero":
        level = b.level
        count = level - b.put[seat]
        if count:
            assert 0 < count <= state.piles[seat]
            slot = len(state.lances)
            piles = list(state.piles)
            piles[seat] -= count
            deposits = list(state.deposits)
            deposits[slot] += count
            fields["piles"] = tuple(piles)
            fields["deposits"] = tuple(deposits)
            data = {"seat": seat, "lance": lance, "count": count, "deposit": deposits[slot]}
            events.append(("deposited", data, None))
        put = list(b.put)
        put[seat] = level
        bet["in_lance"] = tuple(sorted((*b.in_lance, seat)))
        bet["put"] = tuple(put)
        bet["accepted"] = ()
    events.append(spoke_event(b, seat, text))
    if kind == "no_quiero":
        events.append(("left_lance", {"seat": seat, "lance": lance}, None))
    fields["spoken"] = (*state.spoken, (seat, lance, text))
    return transition(new, events)


def _discard(state: PiedrasState, seat: int, action: Action) -> Transition[PiedrasState]:
    """P2: every player discards exactly one card, privately, all at the same time."""
    if action.kind != "descarto":
        raise IllegalAction("wrong_phase", action=str(action))
    if seat not in state.in_hand:
        raise IllegalAction("not_in_hand", seat=seat)
    hand = state.hands[seat]
    if len(hand) != 5:  # already discarded: no longer in ``to_act``
        raise IllegalAction("not_your_turn", seat=seat)
    if len(action.cards) != 1:
        raise IllegalAction("bad_discard", count=len(action.cards))
    card = action.cards[0]
    kept = tuple([c for c in hand if c is not card])  # cards are interned: found by identity
    if len(kept) != 4:  # not the deck's own object: compare by value (``Card.__eq__``)
        try:
            i = hand.index(card)
        except ValueError:
            raise IllegalAction("card_not_in_hand", card=str(card)) from None
        kept = hand[:i] + hand[i + 1 :]
    events: list[RawEvent] = [
        ("discarded", {"seat": seat}, None),
        ("dealt", {"seat": seat, "cards": list(map(card_text, kept))}, _ONLY[seat]),
    ]
    hands = state.hands
    for s in state.in_hand:
        if len(hands[s]) == 5 and s != seat:
            # Others still to discard: only this hand changes (no lance opens yet).
            new_hands = list(hands)
            new_hands[seat] = kept
            new = object.__new__(PiedrasState)
            fields = new.__dict__
            fields.update(state.__dict__)  # as in ``_quiet_word``
            fields["hands"] = tuple(new_hands)
            return transition(new, events)
    t = Table(state)
    t.hands[seat] = kept
    t.raw = events
    if all(len(t.hands[s]) == 4 for s in t.in_hand):
        t.phase = "lance"
        advance(t)
    return transition(t.freeze(), t.raw)
