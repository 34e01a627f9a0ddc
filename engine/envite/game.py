"""The envite state machine: new games, legal actions and ``apply`` (rules/envite.md E1-E6).

A round is at most three tricks and ends as soon as a team has two (E4). Cards never tie (E3), so
after one trick each the third always decides. A bet (E5) interrupts the turn of the player who
makes it: the phase becomes ``"bet"`` and the other team's mandador answers (every later answer
too comes from a mandador); after ``quiero`` the same player plays his card. With a team at 11 the
round opens in phase ``"tumbo"`` for its mandador's decision (E6). Each step lives in its
module: the deal (engine.envite.deal), the cards and tricks (engine.envite.tricks), the bets
(engine.envite.betting), scoring (engine.envite.scoring).

>>> s = new_game(players=4, seed=3, dealer=0, hands=[["1c", "4c", "5e"], ["2o", "6e", "7e"],
...     ["12b", "3o", "4b"], ["11c", "6c", "7c"]], vira="1e")
>>> s.to_act, s.mano, str(s.vira)
((1,), 1, '1e')
>>> [str(a) for a in legal_actions(s, 1)]
['tiro 2o', 'tiro 6e', 'tiro 7e', 'envido']
>>> t = apply(s, 1, "envido")
>>> t.state.to_act, [e.kind for e in t.events]
((0,), ['bet'])
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import DECK, Card
from engine.core import Action, IllegalAction, check_action, check_seat, is_seat
from engine.envite import senas_play
from engine.envite.betting import apply_answer, apply_play, apply_tumbo, out_of_turn
from engine.envite.deal import new_game, opening_events, shuffled_deck
from engine.envite.parse import parse_action
from engine.envite.ranking import card_key, plain_key, ranker, suit_of
from engine.envite.scoring import EnviteTransition
from engine.envite.state import BET_KINDS, CHICO_FUERA, TUMBO_AT, EnviteState
from engine.envite.tricks import (
    call_renuncio,
    follow,
    may_call_renuncio,
    play_card,
    play_cards,
    playable,
)
from engine.senas_play import SENA

__all__ = [
    "EnviteTransition",
    "apply",
    "default_action",
    "legal_actions",
    "new_game",
    "opening_events",
    "playable",
    "shuffled_deck",
]

_TIRO: dict[str, Action] = {str(c): Action("tiro", cards=(c,)) for c in DECK}
"""One shared (immutable) card-play action per card: legal_actions lists them without building."""
_ENVIDO = Action("envido")


def _bets_open(state: EnviteState) -> bool:
    return not state.bet_closed and not any(state.en_tumbo)


def legal_actions(state: EnviteState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; card plays are listed one by one.

    In modo renuncio every card in hand is playable and ``renuncio`` is listed (even out of turn)
    for every player once an opponent was seen not to follow suit or trump this round: whether
    that play was really illegal stays hidden until someone calls it.

    >>> s = new_game(players=4, dealer=3, hands=[["12c", "1o", "2o"], ["3c", "7o", "12b"],
    ...     ["4o", "5o", "6o"], ["4b", "5b", "6b"]], vira="4c")
    >>> s = apply(s, 0, "tiro 12c").state
    >>> [str(a) for a in legal_actions(s, 1)], legal_actions(s, 2)
    (['tiro 3c', 'envido'], [])
    """
    if state.phase == "play" and not state.options.renuncio:  # the common case, kept quick
        turn = state.turn
        # type(seat) is int: never a bool, whatever it equals (is_seat below decides the rest).
        if type(seat) is int and seat == (
            state.mandadores[turn % 2] if turn == state.ghost else turn
        ):
            trick = state.trick
            cards: Sequence[Card] = state.hands[turn]
            if trick:
                cards = follow(ranker(state.vira, state.players // 2), state.hands[turn], trick[0])
            plays = []
            for card in cards:  # not a comprehension: see tricks.follow
                plays.append(_TIRO[card._text])
            score = state.score
            if not state.bet_closed and score[0] < TUMBO_AT and score[1] < TUMBO_AT:
                plays.append(_ENVIDO)
            return plays
    if state.phase == "over" or not is_seat(seat, state.players):
        return []
    actions: list[Action] = []
    if seat in state.to_act:
        if state.phase == "tumbo":
            actions = [Action("tumbo"), Action("no_tumbo")]
        elif state.phase == "bet":
            assert state.raised is not None
            actions = [Action("quiero"), Action("no_quiero")]
            if state.raised < CHICO_FUERA:
                actions.append(Action(BET_KINDS[state.raised + 1]))
        else:
            cards = (
                state.hands[state.turn] if state.options.renuncio else playable(state, state.turn)
            )
            actions = [_TIRO[c._text] for c in cards]
            if _bets_open(state):
                actions.append(_ENVIDO)
    if may_call_renuncio(state, seat):
        actions.append(Action("renuncio"))
    return actions


def default_action(state: EnviteState, seat: int) -> Action:
    """The move the bot makes when a turn timer runs out: never a bet, never a risk.

    ``no tumbo`` at tumbo, ``no quiero`` to a bet, else the lowest lawful card.

    >>> s = new_game(players=4, dealer=3, hands=[["12c", "1o", "2o"], ["3c", "7o", "12b"],
    ...     ["4o", "5o", "6o"], ["4b", "5b", "6b"]], vira="4c")
    >>> str(default_action(s, 0))
    'tiro 2o'
    """
    check_seat(seat, state.players)
    if seat not in state.to_act:
        raise IllegalAction("not_your_turn", seat=seat)
    if state.phase == "tumbo":
        return Action("no_tumbo")
    if state.phase == "bet":
        return Action("no_quiero")
    cards = playable(state, state.turn)
    k, vira = state.k, state.vira
    if state.trick:
        led = suit_of(state.trick[0], vira, k)
        lowest = min(cards, key=lambda c: (card_key(c, led, vira, k), plain_key(c)))
    else:
        lowest = min(cards, key=lambda c: card_key(c, suit_of(c, vira, k), vira, k))
    return Action("tiro", cards=(lowest,))


# --------------------------------------------------------------------------- apply
#
# Events are built as ``(kind, data, to)`` (engine.core.RawEvent) and become Event objects when
# a caller first reads ``Transition.events`` (a computer player playing rounds out never does).


def apply(state: EnviteState, seat: int, action: Action | str) -> EnviteTransition:
    """Play ``action`` (or its text) for ``seat``; illegal moves raise :class:`IllegalAction`.

    >>> s = new_game(players=4, dealer=3, hands=[["3b", "4o", "1c"], ["5e", "6e", "7e"],
    ...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
    >>> apply(s, 1, "tiro 5e").state.turn
    Traceback (most recent call last):
    ...
    engine.core.IllegalAction: not_your_turn(seat=1)
    """
    if type(action) is Action and action.kind == "tiro" and state.phase == "play":
        # The common case, kept quick: the checks of check_seat and check_action below, on the
        # spot, for the seat whose turn it is playing one card.
        turn = state.turn
        cards = action.cards
        if (
            type(seat) is int
            and seat == (state.mandadores[turn % 2] if turn == state.ghost else turn)
            and action.amount is None
            and type(cards) is tuple
            and len(cards) == 1
            and type(cards[0]) is Card
        ):
            return play_card(state, seat, cards[0])
    check_seat(seat, state.players, reason="not_your_turn")
    check_action(action)
    if isinstance(action, str):
        action = parse_action(action)
    if state.phase == "play" and action.kind == "tiro":
        turn = state.turn
        if seat != (state.mandadores[turn % 2] if turn == state.ghost else turn):
            raise IllegalAction("not_your_turn", seat=seat)
        return play_cards(state, seat, action)
    if state.phase == "over":
        raise IllegalAction("game_over")
    if seat == state.ghost:
        raise IllegalAction("not_your_turn", seat=seat)
    if action.kind == SENA:  # at any moment of the round, in turn or not (rules/senas.md S1)
        return senas_play.send(state, seat, action)
    if action.kind == "renuncio":
        return call_renuncio(state, seat)
    if seat not in state.to_act:
        raise out_of_turn(state, seat, action)
    if state.phase == "tumbo":
        return apply_tumbo(state, seat, action)
    if state.phase == "bet":
        return apply_answer(state, seat, action)
    return apply_play(state, seat, action)
