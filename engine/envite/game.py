"""The envite state machine: new games, legal actions and ``apply`` (rules/envite.md E1-E6).

A round is at most three tricks and ends as soon as a team has two (E4). Cards never tie (E3), so
after one trick each the third always decides. A bet (E5) interrupts the turn of the player who
makes it: the phase becomes ``"bet"`` and the other team's mandador answers (every later answer
too comes from a mandador); after ``quiero`` the same player plays his card. With a team at 11 the
round opens in phase ``"tumbo"`` for its mandador's decision (E6).

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

import random
from collections.abc import Sequence

from engine.cards import DECK, SUIT_NAMES, Card, parse_cards, shuffled
from engine.core import (
    Action,
    Event,
    IllegalAction,
    RawEvent,
    Transition,
    check_action,
    check_seat,
    is_seat,
    transition,
)
from engine.envite import senas_play
from engine.envite.options import Options
from engine.envite.parse import parse_action
from engine.envite.ranking import (
    TRUMP,
    Ranker,
    card_key,
    plain_key,
    ranker,
    suit_of,
    trick_winner,
)
from engine.envite.state import (
    BET_KINDS,
    CHICO_FUERA,
    LADDER,
    RENUNCIO_EXTRA,
    TUMBO_AT,
    TUMBO_LOSS,
    EnviteState,
    copy_state,
    make_trick,
    replace,
)
from engine.senas_play import SENA

EnviteTransition = Transition[EnviteState]
_BET_ACTIONS = frozenset(BET_KINDS[1:])
_TIRO: dict[str, Action] = {str(c): Action("tiro", cards=(c,)) for c in DECK}
"""One shared (immutable) card-play action per card: legal_actions lists them without building."""
_ENVIDO = Action("envido")
_ONLY = tuple(frozenset((seat,)) for seat in range(12))
"""Shared (immutable) event audiences of one seat."""
_ROUND_RESET: dict[str, object] = {
    "trick": (),
    "tricks": (),
    "step": 0,
    "raised": None,
    "raised_by": None,
    "bet_closed": False,
    "renuncios": (),
    "spoken": (),
    "senas_sent": (),
}
"""The fields every deal starts afresh (E4, E5; rules/senas.md S1)."""


def _step_text(step: int) -> int | str:
    return "chico fuera" if step == CHICO_FUERA else LADDER[step]


# --------------------------------------------------------------------------- new game and deal


def _draw_dealer(
    seed: int, mandadores: tuple[int, int]
) -> tuple[int, tuple[tuple[Card, Card], ...]]:
    """E1: each mandador draws a card; the higher deals first; equal ranks draw again."""
    draws: list[tuple[Card, Card]] = []
    for attempt in range(1000):
        a, b = random.Random(f"{seed}/draw/{attempt}").sample(DECK, 2)
        draws.append((a, b))
        if plain_key(a) != plain_key(b):
            return (mandadores[0] if plain_key(a) > plain_key(b) else mandadores[1]), tuple(draws)
    raise AssertionError("unreachable: the draw always separates within 1000 attempts")


def shuffled_deck(seed: str) -> list[Card]:
    """The deck as ``random.Random(seed).shuffle`` leaves it (:func:`engine.cards.shuffled`).

    >>> deck = list(DECK)
    >>> random.Random("7/1").shuffle(deck)
    >>> shuffled_deck("7/1") == deck
    True
    """
    return shuffled(seed, DECK)


def _deal(
    seed: int, number: int, dealer: int, seats: int
) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """E2: three cards at once to each seat from the dealer's right, then the vira."""
    deck = shuffled_deck(f"{seed}/{number}")
    threes = iter(deck)  # the deck in threes, in dealing order (the mano's first); 40 = 13 x 3 + 1
    dealt = list(zip(threes, threes, threes, strict=False))[:seats]
    mano = (dealer + 1) % seats
    # Seat s gets dealt[(s - mano) % seats]: the last ``mano`` hands belong to seats 0..mano-1.
    return tuple(dealt[seats - mano :] + dealt[: seats - mano]), deck[3 * seats]


def new_game(
    players: int = 4,
    options: Options | None = None,
    seed: int = 0,
    *,
    hands: Sequence[Sequence[str | Card] | str] | None = None,
    vira: str | Card | None = None,
    stock: Sequence[str | Card] | str | None = None,
    dealer: int | None = None,
    mandadores: tuple[int, int] | None = None,
    score: tuple[int, int] = (0, 0),
    chicos: tuple[int, int] = (0, 0),
) -> EnviteState:
    """A new game for ``players`` people (4..12; odd counts need ``Options(mocho=True)``).

    ``hands`` (one per seat, the mocho's last) and ``vira`` fix the first deal; later deals come
    from ``seed``. ``stock`` (the undealt pack) is accepted for API symmetry and only checked:
    envite draws nothing after the deal. ``dealer`` skips the mandadores' draw. ``mandadores``
    defaults to seats 0 and 1.
    ``score`` and ``chicos`` start a game part-way (tests, resumed tables); 11 is en tumbo.

    >>> s = new_game(players=5, options=Options(mocho=True), seed=1)
    >>> s.players, s.ghost, s.k
    (6, 5, 3)
    """
    options = options or Options()
    if not 4 <= players <= 12:
        raise ValueError("envite needs 4 to 12 players")
    if not all(0 <= x <= TUMBO_AT for x in score) or not all(
        0 <= x < options.chicos for x in chicos
    ):
        raise ValueError("scores must be 0..11 and chicos below the chicos to win")
    if players % 2 and not options.mocho:
        raise ValueError("an odd number of players needs the mocho option")
    seats = players + players % 2
    ghost = seats - 1 if players % 2 else None
    mandadores = mandadores or (0, 1)
    for team, seat in enumerate(mandadores):
        if not 0 <= seat < seats or seat % 2 != team or seat == ghost:
            raise ValueError(f"mandador of team {team} must be a player of that team")
    draws: tuple[tuple[Card, Card], ...] = ()
    if dealer is None:
        dealer, draws = _draw_dealer(seed, mandadores)
    elif not 0 <= dealer < seats:
        raise ValueError("dealer must be a seat")
    if hands is not None or vira is not None:
        if hands is None or vira is None:
            raise ValueError("an explicit deal needs both hands and vira")
        dealt = tuple(parse_cards(h) for h in hands)
        the_vira = Card.parse(vira)
        every = [c for h in dealt for c in h] + [the_vira]
        if len(dealt) != seats or any(len(h) != 3 for h in dealt) or len(set(every)) != len(every):
            raise ValueError(f"an explicit deal needs {seats} hands of 3 distinct cards")
        if stock is not None and set(parse_cards(stock)) & set(every):
            raise ValueError("the stock repeats a dealt card or the vira")
    else:
        dealt, the_vira = _deal(seed, 1, dealer, seats)
    base = EnviteState(
        players=seats,
        options=options,
        seed=seed,
        mandadores=mandadores,
        ghost=ghost,
        draws=draws,
        round=1,
        dealer=dealer,
        vira=the_vira,
        hands=dealt,
        phase="play",
        turn=0,
        leader=0,
        trick=(),
        tricks=(),
        step=0,
        raised=None,
        raised_by=None,
        bet_closed=False,
        tumbo=False,
        renuncios=(),
        score=(score[0], score[1]),
        chicos=(chicos[0], chicos[1]),
        winner=None,
    )
    return _open_round(base)


def _open_round(state: EnviteState, **changes: object) -> EnviteState:
    """``state`` with ``changes`` (a new deal, a new score) and the round fields reset for that
    deal, its first phase picked (E6); one copy of the state."""
    new, attrs = copy_state(state)
    attrs.update(changes)
    attrs.update(_ROUND_RESET)
    score: tuple[int, int] = attrs["score"]
    at_0, at_1 = score[0] >= TUMBO_AT, score[1] >= TUMBO_AT
    mano = (attrs["dealer"] + 1) % state.players
    attrs["phase"] = "tumbo" if at_0 != at_1 else "play"
    attrs["turn"] = attrs["leader"] = mano
    attrs["tumbo"] = at_0 and at_1
    return new


def opening_events(state: EnviteState) -> tuple[Event, ...]:
    """The events of the current deal (and the first dealer's draw on round 1), for a new game.

    >>> s = new_game(players=4, seed=5)
    >>> [e.kind for e in opening_events(s)]
    ['dealer_drawn', 'round_started', 'dealt', 'dealt', 'dealt', 'dealt']
    """
    return tuple([Event(kind, data, to) for kind, data, to in _opening_raw(state)])


def _opening_raw(state: EnviteState) -> list[RawEvent]:
    """:func:`opening_events`, not yet built (engine.core.RawEvent)."""
    events: list[RawEvent] = []
    if state.round == 1 and state.draws:
        events.append(
            (
                "dealer_drawn",
                {
                    "draws": [[str(a), str(b)] for a, b in state.draws],
                    "mandadores": list(state.mandadores),
                    "dealer": state.dealer,
                },
                None,
            )
        )
    events.append(
        (
            "round_started",
            {
                "round": state.round,
                "dealer": state.dealer,
                "mano": state.mano,
                "vira": str(state.vira),
                "score": list(state.score),
                "chicos": list(state.chicos),
                "en_tumbo": list(state.en_tumbo),
                "tumbo": state.tumbo,
            },
            None,
        )
    )
    n, mano, hands = state.players, state.mano, state.hands
    ghost = state.ghost
    mandador = state.mandadores[ghost % 2] if ghost is not None else -1
    for i in range(n):
        seat = (mano + i) % n
        cards = hands[seat]
        events.append(
            (
                "dealt",
                {"seat": seat, "cards": [c._text for c in cards]},
                _ONLY[mandador if seat == ghost else seat],
            )
        )
    return events


# --------------------------------------------------------------------------- card legality


def playable(state: EnviteState, seat: int) -> list[Card]:
    """The cards ``seat`` may lawfully play now (E4: follow suit, arrastre, top-card exemption).

    >>> s = new_game(players=4, dealer=3, hands=[["3b", "4o", "1c"], ["5e", "6e", "7e"],
    ...     ["10b", "11b", "12b"], ["1e", "2e", "3e"]], vira="7o")
    >>> [str(c) for c in playable(s, 0)]
    ['3b', '4o', '1c']
    """
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    return _follow(ranker(state.vira, state.players // 2), hand, state.trick[0])


def _follow(r: Ranker, hand: tuple[Card, ...], led_card: Card) -> list[Card]:
    """The cards of ``hand`` that may answer a trick led with ``led_card`` (E4)."""
    # Plain loops: on the hottest path, and a comprehension is a call of its own in CPython 3.11.
    suits = r.suits
    led = suits[led_card._text]
    same = []
    for card in hand:
        if suits[card._text] == led:
            same.append(card)
    if not same:
        return list(hand)
    if led == TRUMP and len(same) == 1 and same[0]._text == r.top._text:
        return list(hand)  # only the top card: never forced out by an arrastre
    return same


def _play_refusal(state: EnviteState) -> IllegalAction:
    led = suit_of(state.trick[0], state.vira, state.k)
    if led == TRUMP:
        return IllegalAction("must_play_trump")
    return IllegalAction("must_follow_suit", suit=led, name=SUIT_NAMES[led])


# --------------------------------------------------------------------------- legal actions


def _bets_open(state: EnviteState) -> bool:
    return not state.bet_closed and not any(state.en_tumbo)


def _seen_not_following(state: EnviteState, team: int) -> bool:
    """Whether a seat of ``team`` was seen not to follow this round (E4): public, whatever
    their hands were.

    A card not of the suit led (or not a trump at an arrastre) may be a renuncio or lawful (no
    card of that suit, the top card kept); the table only learns which when someone calls it.
    """
    suits = ranker(state.vira, state.players // 2).suits
    seen = [(state.leader, state.trick)] if state.trick else []
    for trick in state.tricks:
        seen.append((trick.leader, trick.cards))
    for leader, cards in seen:
        led = suits[cards[0]._text]
        # The cards after the lead played by ``team`` (seats alternate teams; players is even).
        for card in cards[1 if (leader + 1) % 2 == team else 2 :: 2]:
            if suits[card._text] != led:
                return True
    return False


def _may_call_renuncio(state: EnviteState, seat: int) -> bool:
    """E4 modo renuncio: any player, in or out of turn, once an opponent was seen not to follow.

    Decided only from what the whole table saw, so the offer never tells whether a renuncio
    really happened.
    """
    return (
        state.options.renuncio
        and state.phase in ("play", "bet")
        and seat != state.ghost
        and _seen_not_following(state, 1 - seat % 2)
    )


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
                cards = _follow(ranker(state.vira, state.players // 2), state.hands[turn], trick[0])
            plays = []
            for card in cards:  # not a comprehension: see _follow
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
    if _may_call_renuncio(state, seat):
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
            return _play_card(state, seat, cards[0])
    check_seat(seat, state.players, reason="not_your_turn")
    check_action(action)
    if isinstance(action, str):
        action = parse_action(action)
    if state.phase == "play" and action.kind == "tiro":
        turn = state.turn
        if seat != (state.mandadores[turn % 2] if turn == state.ghost else turn):
            raise IllegalAction("not_your_turn", seat=seat)
        return _play_cards(state, seat, action)
    if state.phase == "over":
        raise IllegalAction("game_over")
    if seat == state.ghost:
        raise IllegalAction("not_your_turn", seat=seat)
    if action.kind == SENA:  # at any moment of the round, in turn or not (rules/senas.md S1)
        return senas_play.send(state, seat, action)
    if action.kind == "renuncio":
        return _call_renuncio(state, seat)
    if seat not in state.to_act:
        raise _out_of_turn(state, seat, action)
    if state.phase == "tumbo":
        return _apply_tumbo(state, seat, action)
    if state.phase == "bet":
        return _apply_answer(state, seat, action)
    return _apply_play(state, seat, action)


def _out_of_turn(state: EnviteState, seat: int, action: Action) -> IllegalAction:
    answering = (state.phase == "tumbo" and action.kind in ("tumbo", "no_tumbo")) or (
        state.phase == "bet" and action.kind in ("quiero", "no_quiero", *_BET_ACTIONS)
    )
    if answering and state.to_act and state.to_act[0] % 2 == seat % 2:
        return IllegalAction("not_mandador", seat=seat, mandador=state.to_act[0])
    if state.phase == "bet" and state.raised_by == seat % 2 and action.kind in _BET_ACTIONS:
        return IllegalAction("cannot_raise_own_bet")
    return IllegalAction("not_your_turn", seat=seat)


def _apply_tumbo(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    if action.kind in _BET_ACTIONS:
        raise IllegalAction("no_bets_en_tumbo")
    if action.kind not in ("tumbo", "no_tumbo"):
        raise IllegalAction("must_decide_tumbo")
    team = seat % 2
    play = action.kind == "tumbo"
    events: list[RawEvent] = [("tumbo_decided", {"seat": seat, "team": team, "play": play}, None)]
    if play:
        return transition(replace(state, phase="play", tumbo=True), events)
    return _score_round(state, 1 - team, 1, "no_tumbo", events)


def _bet_step(state: EnviteState, action: Action, expected: int) -> None:
    """Check that a bet action names the next step of the ladder (E5)."""
    if action.kind == "envido":
        if action.amount is None or action.amount == LADDER[expected]:
            return
    elif action.kind == BET_KINDS[expected]:
        return
    raise IllegalAction("wrong_bet_step", expected=_step_text(expected))


def _apply_answer(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    raised, by = state.raised, state.raised_by
    assert raised is not None and by is not None
    team = seat % 2
    events: list[RawEvent]
    if action.kind == "quiero":
        events = [("bet_accepted", {"seat": seat, "team": team, "stake": _step_text(raised)}, None)]
        new = replace(
            state,
            phase="play",
            step=raised,
            raised=None,
            bet_closed=True,
            spoken=(*state.spoken, (seat, "quiero")),
        )
        return transition(new, events)
    if action.kind == "no_quiero":
        paid = LADDER[raised - 1]
        data = {"seat": seat, "team": team, "paid": paid, "to_team": by}
        return _score_round(state, by, paid, "no_quiero", [("bet_refused", data, None)])
    if action.kind in _BET_ACTIONS:
        if raised == CHICO_FUERA:
            raise IllegalAction("no_higher_bet")
        _bet_step(state, action, raised + 1)
        events = [_bet_event(state, seat, raised + 1)]
        spoken = (*state.spoken, (seat, BET_KINDS[raised + 1]))
        new = replace(state, raised=raised + 1, raised_by=team, spoken=spoken)
        return transition(new, events)
    if action.kind == "tiro":
        raise IllegalAction("must_answer_bet")
    raise IllegalAction("wrong_phase", phase=state.phase)


def _bet_event(state: EnviteState, seat: int, step: int) -> RawEvent:
    data = {
        "seat": seat,
        "team": seat % 2,
        "action": BET_KINDS[step].replace("_", " "),
        "step": _step_text(step),
        "for_seat": state.turn if state.phase == "play" else seat,
    }
    return ("bet", data, None)


def _apply_play(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    if action.kind in _BET_ACTIONS:
        if any(state.en_tumbo):
            raise IllegalAction("no_bets_en_tumbo")
        if state.bet_closed:
            raise IllegalAction("bet_already_settled")
        _bet_step(state, action, 1)
        new = replace(
            state,
            phase="bet",
            raised=1,
            raised_by=state.turn % 2,
            spoken=(*state.spoken, (seat, BET_KINDS[1])),
        )
        return transition(new, [_bet_event(state, seat, 1)])
    if action.kind in ("quiero", "no_quiero"):
        raise IllegalAction("no_bet_to_answer")
    if action.kind != "tiro":
        raise IllegalAction("wrong_phase", phase=state.phase)
    return _play_cards(state, seat, action)


def _play_cards(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    """A ``tiro`` action: exactly one card."""
    if len(action.cards) != 1:
        raise IllegalAction("play_one_card", count=len(action.cards))
    return _play_card(state, seat, action.cards[0])


def _play_card(state: EnviteState, seat: int, card: Card) -> EnviteTransition:
    """E4: ``seat`` (the player, or the mandador for the mocho) plays ``card`` for
    ``state.turn``."""
    who = state.turn
    hand = state.hands[who]
    try:
        i = hand.index(card)
    except ValueError:
        raise IllegalAction("card_not_in_hand", card=str(card)) from None
    players = state.players
    trick = state.trick
    renuncios = state.renuncios
    if trick:
        r = ranker(state.vira, players // 2)
        suits = r.suits
        if suits[card._text] != suits[trick[0]._text] and card not in _follow(r, hand, trick[0]):
            if not state.options.renuncio:
                raise _play_refusal(state)
            renuncios = (*renuncios, who)
    hands = list(state.hands)
    hands[who] = hand[:i] + hand[i + 1 :]
    trick = (*trick, card)
    number = len(state.tricks) + 1
    events: list[RawEvent] = [
        ("card_played", {"seat": who, "card": card._text, "trick": number, "by": seat}, None)
    ]
    new, attrs = copy_state(state)
    attrs["hands"] = tuple(hands)
    attrs["renuncios"] = renuncios
    if len(trick) < players:
        attrs["trick"] = trick
        attrs["turn"] = (who + 1) % players
        return transition(new, events)
    index = trick_winner(trick, state.vira, players // 2)
    leader = state.leader
    winner = (leader + index) % players
    tricks = (*state.tricks, make_trick(leader, trick, winner))
    attrs["trick"] = ()
    attrs["tricks"] = tricks
    attrs["leader"] = attrs["turn"] = winner
    won = [0, 0]
    for t in tricks:
        won[t.winner % 2] += 1
    data = {
        "trick": number,
        "seat": winner,
        "team": winner % 2,
        "card": trick[index]._text,
        "tricks": won,
    }
    events.append(("trick_won", data, None))
    if won[0] < 2 and won[1] < 2:
        return transition(new, events)
    return _round_won(new, winner % 2, "tricks", events)


def _call_renuncio(state: EnviteState, seat: int) -> EnviteTransition:
    """E4 modo renuncio: ``seat`` says an opponent broke follow-suit or arrastre this round.

    A true call wins the round for the caller's team (stake + 2). A false one (every suspected
    play was lawful) is the caller's foul: the accused team wins the round with stake + 2. The
    rules are silent on false calls; this keeps a call from being a free look at the hands.
    """
    if not state.options.renuncio:
        raise IllegalAction("renuncio_off")
    if not _may_call_renuncio(state, seat):
        raise IllegalAction("no_renuncio")
    team = seat % 2
    offender = next((s for s in state.renuncios if s % 2 != team), None)
    data = {"seat": seat, "team": team, "offender": offender, "valid": offender is not None}
    events: list[RawEvent] = [("renuncio_called", data, None)]
    if offender is None:
        return _round_won(state, 1 - team, "false_renuncio", events)
    return _round_won(state, team, "renuncio", events)


# --------------------------------------------------------------------------- scoring


def _round_won(state: EnviteState, team: int, why: str, events: list[RawEvent]) -> EnviteTransition:
    """``team`` won the round: by its tricks (``why="tricks"``), or by a renuncio call, true
    (``"renuncio"``) or false (``"false_renuncio"``), which adds 2 to the stake (E4, E5, E6)."""
    foul = why != "tricks"
    extra = RENUNCIO_EXTRA if foul else 0
    if state.step == CHICO_FUERA:
        return _win_chico(state, team, why if foul else "chico_fuera", events)
    if state.tumbo:
        at = state.en_tumbo
        if at[0] and at[1]:
            return _win_chico(state, team, why if foul else "both_at_11", events)
        if at[team]:
            return _win_chico(state, team, why if foul else "tumbo", events)
        return _score_round(state, team, TUMBO_LOSS + extra, why if foul else "tumbo", events)
    return _score_round(state, team, state.stake + extra, why, events)


def _score_round(
    state: EnviteState, team: int, points: int, why: str, events: list[RawEvent]
) -> EnviteTransition:
    """``team`` scores ``points`` capped at 11 (E6); then the next deal."""
    score = list(state.score)
    gained = min(TUMBO_AT, score[team] + points) - score[team]
    score[team] += gained
    data = {"round": state.round, "team": team, "points": gained, "why": why, "score": score}
    events.append(("round_scored", data, None))
    return _next_round(state, events, score=(score[0], score[1]))


def _win_chico(state: EnviteState, team: int, why: str, events: list[RawEvent]) -> EnviteTransition:
    chicos = list(state.chicos)
    chicos[team] += 1
    events.append(("chico_won", {"team": team, "chicos": chicos, "why": why}, None))
    if chicos[team] >= state.options.chicos:
        events.append(("game_won", {"team": team, "chicos": chicos}, None))
        over = replace(
            state,
            score=(0, 0),
            chicos=(chicos[0], chicos[1]),
            phase="over",
            winner=team,
            raised=None,
            turn=state.turn,
        )
        return transition(over, events)
    return _next_round(state, events, score=(0, 0), chicos=(chicos[0], chicos[1]))


def _next_round(state: EnviteState, events: list[RawEvent], **changes: object) -> EnviteTransition:
    """E1/E2: the deal moves one seat to the right; shuffle from the seed and the round number.

    ``changes`` (the new score or chicos) go into the same copy of the state. The new deal's
    events (one per seat) are described only if someone reads them."""
    number = state.round + 1
    dealer = (state.dealer + 1) % state.players
    hands, vira = _deal(state.seed, number, dealer, state.players)
    new = _open_round(state, **changes, round=number, dealer=dealer, hands=hands, vira=vira)
    return transition(new, lambda: [*events, *_opening_raw(new)])
