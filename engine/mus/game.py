"""The Mus state machine: deal, mus and discards, the four lances, scoring, juegos and the vaca.

Rules: rules/mus.md M1-M6. ``apply`` is a pure function returning a
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

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from engine.cards import DECK, Card, parse_cards
from engine.core import Action, Event, IllegalAction, Transition, check_action, check_seat, is_seat
from engine.mus import senas_play
from engine.mus.actions import parse_action
from engine.mus.evaluation import LANCES, HandValue, hand_value, lance_winners
from engine.mus.options import Options
from engine.mus.state import Hand, LanceResult, MusState
from engine.senas_play import SENA

PLAYERS = 4
PARES_VALUE = {"par": 1, "medias": 2, "duples": 3}
"""M5: what each player of the pair winning pares collects."""
MIN_BET = 2
"""M4: ``envido`` alone is 2, and no bet or raise may be smaller."""
BET_AMOUNTS = (3, 4, 5, 10)
"""The amounts :func:`legal_actions` lists besides ``envido`` (2): the ones players use."""

_MUS_KINDS = frozenset({"mus", "corto"})
_LANCE_KINDS = frozenset({"paso", "envido", "quiero", "no_quiero", "ordago"})
_NO_CARDS: tuple[Hand | None, ...] = (None, None, None, None)

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


_ORDERS = tuple(tuple((mano + i) % PLAYERS for i in range(PLAYERS)) for mano in range(PLAYERS))
_ONLY = tuple(frozenset((s,)) for s in range(PLAYERS))


def _order(mano: int) -> tuple[int, ...]:
    return _ORDERS[mano]


def _card_texts(cards: Iterable[Card]) -> list[str]:
    return [c._text for c in cards]


# --------------------------------------------------------------------------- deal (M1, M2)


def _shuffle(rng: random.Random, cards: list[Card]) -> None:
    """Exactly ``rng.shuffle(cards)`` (same draws, same order), without a method call per card.

    >>> a, b = list(range(40)), list(range(40))
    >>> random.Random("7/1/deal").shuffle(a); _shuffle(random.Random("7/1/deal"), b)
    >>> a == b
    True
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _deal(
    options: Options,
    seed: int,
    hand_number: int,
    mano: int,
    score: tuple[int, int],
    juegos: tuple[int, int],
    hands: Sequence[Iterable[str | Card] | str] | None = None,
    stock: Iterable[str | Card] | str | None = None,
) -> MusState:
    if hands is None:
        deck = list(DECK)
        _shuffle(random.Random(f"{seed}/{hand_number}/deal"), deck)
        dealt: list[list[Card]] = [[], [], [], []]
        for i in range(4 * PLAYERS):  # one at a time, starting with the mano (M2)
            dealt[(mano + i) % PLAYERS].append(deck[i])
        held = tuple(tuple(h) for h in dealt)
        rest = tuple(deck[4 * PLAYERS :])
    else:
        held = tuple(parse_cards(h) for h in hands)
        if len(held) != PLAYERS or any(len(h) != 4 for h in held):
            raise ValueError("an explicit Mus deal is four hands of four cards")
        given = parse_cards(stock) if stock is not None else ()
        used = [c for h in held for c in h] + list(given)
        if len(set(used)) != len(used):
            raise ValueError("a card appears twice in the explicit deal")
        others = [c for c in DECK if c not in set(used)]
        _shuffle(random.Random(f"{seed}/{hand_number}/deal"), others)
        rest = tuple(given) + tuple(others)
    return MusState(
        options=options,
        seed=seed,
        hand_number=hand_number,
        mano=mano,
        score=score,
        juegos=juegos,
        phase="mus",
        to_act=(mano,),
        hands=held,
        stock=rest,
        pile=(),
    )


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
    return _deal(options or Options(), seed, 1, 0, (0, 0), (0, 0), hands, stock)


def _hand_events(st: MusState) -> list[Event]:
    events = [
        Event(
            "hand_started",
            {
                "hand": st.hand_number,
                "mano": st.mano,
                "postre": st.postre,
                "score": list(st.score),
                "juegos": list(st.juegos),
            },
        )
    ]
    events.extend(_dealt_events(st))
    return events


def _dealt_events(st: MusState) -> list[Event]:
    return [
        Event("dealt", {"seat": s, "cards": _card_texts(st.hands[s])}, _ONLY[s])
        for s in range(PLAYERS)
    ]


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
    if not is_seat(seat, PLAYERS):
        return []
    if seat not in state.to_act:
        return []
    phase = state.phase
    if phase == "mus":
        return [_A_MUS, _A_CORTO]
    if phase == "discard":
        hand = state.hands[seat]
        return [
            Action("descarto", cards=combo)
            for size in range(1, len(hand) + 1)
            for combo in combinations(hand, size)
        ]
    if phase == "lance":
        if state.bet_pair is None:
            return list(_OPEN_ACTIONS)
        return list(_ORDAGO_ANSWERS if state.ordago else _ANSWER_ACTIONS)
    return []


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
    check_seat(seat, PLAYERS, reason="not_your_turn")
    check_action(action)
    act = parse_action(action) if isinstance(action, str) else action
    phase = state.phase
    if phase == "over":
        raise IllegalAction("game_over")
    kind = act.kind
    if kind == SENA:  # at any moment of its window, in turn or not (rules/senas.md S1)
        return senas_play.send(state, seat, act)
    events: list[Event] = []
    if phase == "mus":
        if kind not in _MUS_KINDS:
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        if seat not in state.to_act:
            raise IllegalAction("not_your_turn", seat=seat)
        new = _mus(state, seat, kind, events)
    elif phase == "discard":
        if kind != "descarto":
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        if seat not in state.to_act:
            raise IllegalAction("not_your_turn", seat=seat)
        new = _discard(state, seat, act.cards, events)
    else:
        if kind not in _LANCE_KINDS:
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        new = _bet(state, seat, act, events)
    if new.hand_number == state.hand_number:
        first = events[0].data
        if phase == "lance":
            said = (state.lance or "", seat, first["action"], first["bet"])
        elif phase == "mus":
            said = ("mus", seat, first["action"], None)
        else:
            said = ("mus", seat, "descarto", first["count"])
        # ``new`` was built by this call and has not escaped: finish it in place (no copy).
        object.__setattr__(new, "history", (*state.history, said))
    return Transition(new, tuple(events))


# --------------------------------------------------------------------------- mus and discards (M2)


def _spoke(seat: int, text: str, bet: int | None = None) -> Event:
    return Event("spoke", {"seat": seat, "action": text, "bet": bet})


def _mus(st: MusState, seat: int, kind: str, events: list[Event]) -> MusState:
    events.append(_spoke(seat, kind))
    if kind == "corto":
        return _next_lance(st, events)
    if (seat - st.mano) % PLAYERS == PLAYERS - 1:
        return _replace(st, phase="discard", to_act=_order(st.mano), discarding=_NO_CARDS)
    return _replace(st, to_act=((seat + 1) % PLAYERS,))


def _discard(st: MusState, seat: int, cards: tuple[Card, ...], events: list[Event]) -> MusState:
    if not 1 <= len(cards) <= 4 or len(set(cards)) != len(cards):
        raise IllegalAction("bad_discard", count=len(cards))
    hand = st.hands[seat]
    for c in cards:
        if c not in hand:
            raise IllegalAction("card_not_in_hand", card=str(c))
    events.append(Event("discarded", {"seat": seat, "count": len(cards)}))
    discarding = list(st.discarding)
    discarding[seat] = cards
    waiting = tuple(s for s in st.to_act if s != seat)
    if waiting:
        return _replace(st, to_act=waiting, discarding=tuple(discarding))
    return _draw(st, tuple(discarding), events)


def _draw(st: MusState, discarding: tuple[Hand | None, ...], events: list[Event]) -> MusState:
    """Everybody has discarded: serve each player from the stock, starting with the mano."""
    order = _order(st.mano)
    hands = list(st.hands)
    pile = list(st.pile)
    for s in order:
        out = discarding[s] or ()
        hands[s] = tuple(c for c in hands[s] if c not in out)
        pile.extend(out)
    stock = list(reversed(st.stock))  # pop() serves the stock's first card
    reshuffles = st.reshuffles
    for i, s in enumerate(order):
        need = len(discarding[s] or ())
        got: list[Card] = []
        while len(got) < need:
            if not stock:
                # M2: nobody still to be served may get back what he just discarded.
                waiting = {c for w in order[i:] for c in discarding[w] or ()}
                others = [c for c in pile if c not in waiting] or pile
                reshuffles += 1
                _shuffle(random.Random(f"{st.seed}/{st.hand_number}/r{reshuffles}"), others)
                taken = set(others)
                pile = [c for c in pile if c not in taken]
                stock = others
                events.append(Event("stock_reshuffled", {}))
            got.append(stock.pop())
        hands[s] = hands[s] + tuple(got)
    new = _replace(
        st,
        phase="mus",
        to_act=(st.mano,),
        hands=tuple(hands),
        stock=tuple(reversed(stock)),
        pile=tuple(pile),
        reshuffles=reshuffles,
        mus_round=st.mus_round + 1,
        discarding=_NO_CARDS,
    )
    events.extend(_dealt_events(new))
    return new


# --------------------------------------------------------------------------- lances (M3, M4)


def values(state: MusState) -> tuple[HandValue, ...]:
    """The evaluation of every seat's current hand (M3), in seat order."""
    opts = state.options
    return tuple(hand_value(h, opts) for h in state.hands)


def _next_lance(st: MusState, events: list[Event]) -> MusState:
    """Open the next lance that is played, recording the skipped ones; end the hand after
    juego/punto."""
    done = {r.lance for r in st.results}
    results = st.results
    vals: tuple[HandValue, ...] | None = None
    order = _order(st.mano)
    for lance in ("grande", "chica", "pares", "juego"):
        if lance in done or (lance == "juego" and "punto" in done):
            continue
        if lance in ("grande", "chica"):
            return _open(st, lance, order, results, events)
        if vals is None:
            vals = values(st)
        has = (
            tuple(bool(v.pares) for v in vals) if lance == "pares" else tuple(v.juego for v in vals)
        )
        events.append(Event("declared", {"lance": lance, "has": list(has)}))
        st = _replace(st, **{f"{lance}_has": has})
        pairs = {s % 2 for s in range(PLAYERS) if has[s]}
        if not pairs:
            events.append(
                Event("lance_skipped", {"lance": lance, "reason": "nobody", "pair": None})
            )
            if lance == "juego":
                return _open(st, "punto", order, results, events)
            results = (*results, LanceResult(lance, "nobody"))
            st = _replace(st, results=results)
            continue
        if len(pairs) == 1:
            pair = pairs.pop()
            events.append(
                Event("lance_skipped", {"lance": lance, "reason": "one_pair", "pair": pair})
            )
            results = (*results, LanceResult(lance, "one_pair", None, pair))
            st = _replace(st, results=results)
            continue
        return _open(st, lance, tuple(s for s in order if has[s]), results, events)
    return _end_hand(st, events)


def _open(
    st: MusState,
    lance: str,
    players: tuple[int, ...],
    results: tuple[LanceResult, ...],
    events: list[Event],
) -> MusState:
    events.append(Event("lance_started", {"lance": lance, "players": list(players)}))
    return _replace(
        st,
        phase="lance",
        lance=lance,
        players=players,
        to_act=(players[0],),
        passes=0,
        bet=None,
        ordago=False,
        accepted=0,
        bet_pair=None,
        bettor=None,
        refused=(),
        results=results,
        discarding=_NO_CARDS,
    )


def _answerers(st: MusState, bettor: int, refused: tuple[int, ...]) -> tuple[int, ...]:
    """Entitled opponents of ``bettor`` who may still answer, in playing order after him."""
    players = st.players
    return tuple(
        s
        for s in ((bettor + i) % PLAYERS for i in range(1, PLAYERS))
        if (s - bettor) % 2 and s in players and s not in refused
    )


def _bet(st: MusState, seat: int, act: Action, events: list[Event]) -> MusState:
    kind = act.kind
    facing = st.bet_pair is not None
    if seat not in st.to_act:
        if seat not in st.players:
            raise IllegalAction("not_in_lance", seat=seat, lance=st.lance)
        if facing and seat % 2 == st.bet_pair and kind in ("envido", "ordago"):
            raise IllegalAction("cannot_raise_own_bet", seat=seat)
        if not facing and kind in ("quiero", "no_quiero"):
            raise IllegalAction("no_bet_to_answer")
        raise IllegalAction("not_your_turn", seat=seat)
    if not facing:
        if kind == "paso":
            events.append(_spoke(seat, "paso"))
            passes = st.passes + 1
            if passes == len(st.players):
                return _close(st, "en_paso", None, None, events)
            return _replace(st, passes=passes, to_act=(st.players[passes],))
        if kind in ("quiero", "no_quiero"):
            raise IllegalAction("no_bet_to_answer")
        if kind == "envido":
            amount = MIN_BET if act.amount is None else act.amount
            if amount < MIN_BET:
                raise IllegalAction("bet_too_small", minimum=MIN_BET)
            return _raise(st, seat, amount, 0, False, str(act), events)
        return _raise(st, seat, None, 0, True, "ordago", events)
    if kind == "quiero":
        if st.ordago:
            return _ordago_accepted(st, seat, events)
        events.append(_spoke(seat, "quiero", st.bet))
        return _close(st, "querido", st.bet, None, events)
    if kind in ("no_quiero", "paso"):  # "paso" facing a bet is a refusal
        events.append(_spoke(seat, "no quiero"))
        refused = (*st.refused, seat)
        bettor = st.bettor if st.bettor is not None else seat
        left = _answerers(st, bettor, refused)
        if left:  # M4: "no quiero" stands only when every entitled opponent has refused
            return _replace(st, refused=refused, to_act=left)
        # M5: a first bet refused pays 1, a raise refused the amount accepted before it.
        return _close(st, "no_querido", st.accepted or 1, st.bet_pair, events)
    if st.ordago:
        raise IllegalAction("cannot_raise_ordago")
    current = st.bet or 0
    if kind == "envido":
        amount = MIN_BET if act.amount is None else act.amount
        if amount < MIN_BET:
            raise IllegalAction("bet_too_small", minimum=MIN_BET)
        return _raise(st, seat, current + amount, current, False, str(act), events)
    return _raise(st, seat, None, current, True, "ordago", events)


def _raise(
    st: MusState,
    seat: int,
    bet: int | None,
    accepted: int,
    ordago: bool,
    text: str,
    events: list[Event],
) -> MusState:
    events.append(_spoke(seat, text, bet))
    left = _answerers(st, seat, ())
    return _replace(
        st,
        bet=bet,
        accepted=accepted,
        ordago=ordago,
        bet_pair=seat % 2,
        bettor=seat,
        refused=(),
        to_act=left,  # M4: either entitled opponent may answer; a quiero or raise stands at once
    )


def _close(
    st: MusState,
    outcome: str,
    bet: int | None,
    pair: int | None,
    events: list[Event],
) -> MusState:
    lance = st.lance or ""
    result = LanceResult(lance, outcome, bet, pair)
    events.append(
        Event("lance_closed", {"lance": lance, "outcome": outcome, "bet": bet, "pair": pair})
    )
    st = _replace(st, results=(*st.results, result), to_act=(), phase="lance")
    if outcome == "no_querido" and pair is not None and bet is not None:
        score = _add(st.score, pair, bet)
        events.append(
            Event("scored", {"pair": pair, "points": bet, "lance": lance, "why": "no_querido"})
        )
        st = _replace(st, score=score)
        if score[pair] >= st.options.target:
            return _win_juego(st, pair, events)
    return _next_lance(st, events)


def _ordago_accepted(st: MusState, seat: int, events: list[Event]) -> MusState:
    """M5: cards are shown at once and the winner of the lance wins the juego."""
    events.append(_spoke(seat, "quiero"))
    lance = st.lance or ""
    # Non-holders have key 0 in pares and juego, so the best of all four is the best player.
    winner = lance_winners(values(st), st.mano)[LANCES.index(lance)]
    pair = (winner if winner is not None else st.mano) % 2
    events.append(
        Event("lance_closed", {"lance": lance, "outcome": "ordago", "bet": None, "pair": pair})
    )
    events.append(_showdown(st))
    points = max(0, st.options.target - st.score[pair])
    data = {"pair": pair, "points": points, "lance": lance, "why": "ordago"}
    events.append(
        Event("scored", {**data, "parts": [[winner, points]] if winner is not None else []})
    )
    st = _replace(
        st,
        results=(*st.results, LanceResult(lance, "ordago", None, pair)),
        score=_add(st.score, pair, points),
        shown=True,
    )
    return _win_juego(st, pair, events)


# --------------------------------------------------------------------------- scoring (M5)


def _add(score: tuple[int, int], pair: int, points: int) -> tuple[int, int]:
    return (score[0] + points, score[1]) if pair == 0 else (score[0], score[1] + points)


def hand_scores(state: MusState) -> list[tuple[int, int, str, str]]:
    """What the end of the hand collects, in lance order: ``(pair, points, lance, why)`` (M5).

    Refusals are not listed (they were collected at once).
    """
    vals = values(state)
    mano = state.mano
    winners = lance_winners(vals, mano)
    items: list[tuple[int, int, str, str]] = []
    for r in state.results:
        lance = r.lance
        if r.outcome in ("nobody", "no_querido") and lance in ("grande", "chica"):
            continue
        if r.outcome == "nobody" or r.outcome == "ordago":
            continue
        if r.pair is not None:
            pair = r.pair
        else:
            winner = winners[LANCES.index(lance)]
            pair = (winner if winner is not None else mano) % 2
        if lance in ("grande", "chica"):
            if r.outcome == "en_paso":
                items.append((pair, 1, lance, "en_paso"))
            elif r.bet:
                items.append((pair, r.bet, lance, "envite"))
            continue
        if r.outcome == "querido" and r.bet:
            items.append((pair, r.bet, lance, "envite"))
        if lance in ("pares", "juego"):
            pts = sum(points for _seat, points in _pair_parts(vals, pair, lance))
            items.append((pair, pts, lance, lance))
        else:
            items.append((pair, 1, lance, "punto"))
    return items


def _pair_parts(vals: Sequence[HandValue], pair: int, lance: str) -> list[tuple[int, int]]:
    """M5: what each player of ``pair`` brings to its pares or juego: ``(seat, points)``."""
    seats = (pair, pair + 2)
    if lance == "pares":
        return [(s, PARES_VALUE[vals[s].pares or ""]) for s in seats if vals[s].pares]
    return [(s, 3 if vals[s].points == 31 else 2) for s in seats if vals[s].juego]


def score_parts(state: MusState, pair: int, points: int, lance: str, why: str) -> list[list[int]]:
    """Whose hands make an end-of-hand score, as ``[[seat, points], ...]`` (the ``parts`` of
    a ``scored`` event): each holder of pares or juego of ``pair`` with what he brings, else the
    seat whose hand won the lance (with the whole ``points``)."""
    vals = values(state)
    if why in ("pares", "juego"):
        return [[s, p] for s, p in _pair_parts(vals, pair, lance)]
    winner = lance_winners(vals, state.mano)[LANCES.index(lance)]
    return [[winner, points]] if winner is not None else []


def _showdown(st: MusState) -> Event:
    """Every hand shown, with what each is worth (pares kind and juego/punto total)."""
    vals = values(st)
    return Event(
        "showdown",
        {
            "hands": [_card_texts(h) for h in st.hands],
            "pares": [v.pares for v in vals],
            "points": [v.points for v in vals],
        },
    )


def _end_hand(st: MusState, events: list[Event]) -> MusState:
    events.append(_showdown(st))
    score = st.score
    target = st.options.target
    for pair, points, lance, why in hand_scores(st):
        score = _add(score, pair, points)
        parts = score_parts(st, pair, points, lance, why)
        data = {"pair": pair, "points": points, "lance": lance, "why": why, "parts": parts}
        events.append(Event("scored", data))
        if score[pair] >= target:  # M5: nothing more is counted
            return _win_juego(_replace(st, score=score, shown=True), pair, events)
    st = _replace(st, score=score, shown=True)
    events.append(
        Event(
            "hand_over",
            {"hand": st.hand_number, "score": list(score), "juegos": list(st.juegos)},
        )
    )
    return _next_hand(st, st.score, events)


def _win_juego(st: MusState, pair: int, events: list[Event]) -> MusState:
    juegos = _add(st.juegos, pair, 1)
    events.append(
        Event(
            "hand_over",
            {"hand": st.hand_number, "score": list(st.score), "juegos": list(juegos)},
        )
    )
    events.append(Event("juego_won", {"pair": pair, "juegos": list(juegos)}))
    if juegos[pair] >= st.options.juegos:
        events.append(Event("vaca_won", {"pair": pair}))
        return _replace(st, juegos=juegos, phase="over", to_act=(), winner=pair, lance=None)
    return _next_hand(_replace(st, juegos=juegos), (0, 0), events)


def _next_hand(st: MusState, score: tuple[int, int], events: list[Event]) -> MusState:
    new = _deal(st.options, st.seed, st.hand_number + 1, (st.mano + 1) % PLAYERS, score, st.juegos)
    events.extend(_hand_events(new))
    return new


def _replace(st: MusState, **changes: Any) -> MusState:
    """A copy of ``st`` with ``changes`` (like ``dataclasses.replace``, without re-running the
    frozen ``__init__``: the state has a plain ``__dict__``, copied in one step)."""
    new = _new(MusState)
    d = new.__dict__
    d.update(st.__dict__)
    d.update(changes)
    return new


_new = object.__new__
