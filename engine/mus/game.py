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

from collections.abc import Iterable, Sequence
from dataclasses import MISSING, fields
from functools import lru_cache
from itertools import combinations
from typing import Any

from engine.cards import DECK, Card, parse_cards, shuffled
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
from engine.mus.evaluation import (
    LANCES,
    HandValue,
    card_tables,
    hand_value,
    lance_winners,
)
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
_TEXTS = {id(a): str(a) for a in (_A_MUS, _A_CORTO, _A_PASO, *_ANSWER_ACTIONS)}
"""The texts of the module's own actions, by identity (they live as long as the module, so
no other object has their ids): :func:`apply` takes them as they are."""


_ORDERS = tuple(tuple((mano + i) % PLAYERS for i in range(PLAYERS)) for mano in range(PLAYERS))
_ONLY = tuple(frozenset((s,)) for s in range(PLAYERS))


def _order(mano: int) -> tuple[int, ...]:
    return _ORDERS[mano]


def _card_texts(cards: Sequence[Card]) -> list[str]:
    """The cards' texts (a Mus hand has four: spelt out, it is the hot path)."""
    if len(cards) == 4:
        a, b, c, d = cards
        return [a._text, b._text, c._text, d._text]
    return [c._text for c in cards]


# Events are built as ``(kind, data, to)`` (engine.core.RawEvent) and become Event objects when
# the transition's events are first read (engine.core.transition). ``apply`` itself makes the new
# state only (``events`` is None): when the events are first read, the same transition runs
# again with a list to record them (``_replayed``). Simulations that play hands out never read
# them, and the bot reads every one of them once: the same events either way, since a transition
# is a pure function of the state, the seat and the action.

Events = list[RawEvent] | None
"""Where a transition records its events; None while ``apply`` makes the new state only."""


# --------------------------------------------------------------------------- deal (M1, M2)


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
    held: tuple[Hand, ...]
    if hands is None:
        deck = tuple(shuffled(f"{seed}/{hand_number}/deal", DECK))
        # One card at a time, starting with the mano (M2): seat s gets every fourth card from
        # its place after the mano.
        a, b, c, d = _DEAL_STARTS[mano]
        held = (deck[a:16:4], deck[b:16:4], deck[c:16:4], deck[d:16:4])
        rest = deck[16:]
    else:
        held = tuple(parse_cards(h) for h in hands)
        if len(held) != PLAYERS or any(len(h) != 4 for h in held):
            raise ValueError("an explicit Mus deal is four hands of four cards")
        given = parse_cards(stock) if stock is not None else ()
        used = [c for h in held for c in h] + list(given)
        if len(set(used)) != len(used):
            raise ValueError("a card appears twice in the explicit deal")
        others = shuffled(f"{seed}/{hand_number}/deal", [c for c in DECK if c not in set(used)])
        rest = tuple(given) + tuple(others)
    # MusState(...) without its frozen __init__ (one object.__setattr__ per field): the fields'
    # defaults, then the deal.
    return _made(
        {
            **_DEFAULTS,
            "options": options,
            "seed": seed,
            "hand_number": hand_number,
            "mano": mano,
            "score": score,
            "juegos": juegos,
            "phase": "mus",
            "is_over": False,  # see MusState.is_over: it changes with phase "over" (_win_juego)
            "to_act": (mano,),
            "hands": held,
            "stock": rest,
            "pile": (),
        }
    )


_DEAL_STARTS = tuple(tuple((s - mano) % PLAYERS for s in range(PLAYERS)) for mano in range(PLAYERS))
"""Per mano, where each seat's cards start in the shuffled deck (every fourth card after)."""


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
    return _deal(options or _DEFAULT_OPTIONS, seed, 1, 0, (0, 0), (0, 0), hands, stock)


def _hand_events(st: MusState, events: list[RawEvent]) -> None:
    mano = st.mano
    data = {
        "hand": st.hand_number,
        "mano": mano,
        "postre": (mano - 1) % PLAYERS,
        "score": list(st.score),
        "juegos": list(st.juegos),
    }
    events.append(("hand_started", data, None))
    _dealt_events(st, events)


def _dealt_events(st: MusState, events: list[RawEvent]) -> None:
    for s, hand in enumerate(st.hands):
        events.append(("dealt", {"seat": s, "cards": _card_texts(hand)}, _ONLY[s]))


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
        new = _bet(state, seat, act, own, None)
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
        new = _mus(state, seat, kind, None)
    else:
        if kind != "descarto":
            raise IllegalAction("wrong_phase", phase=phase, action=kind)
        if seat not in state.to_act:
            raise IllegalAction("not_your_turn", seat=seat)
        new = _discard(state, seat, act.cards, None)
    return transition(new, (_replayed, state, seat, act))


def _replayed(state: MusState, seat: int, act: Action) -> list[RawEvent]:
    """The events of the legal action ``act`` of ``seat`` from ``state``: its transition again,
    recording them."""
    events: list[RawEvent] = []
    phase = state.phase
    if phase == "lance":
        _bet(state, seat, act, _TEXTS.get(id(act)), events)
    elif phase == "mus":
        _mus(state, seat, act.kind, events)
    else:
        _discard(state, seat, act.cards, events)
    return events


# --------------------------------------------------------------------------- the draft
#
# A legal action copies the state's fields once (``_said``, ``_draft``), and the steps of the
# transition change that copy in place (``_set``) until it is returned: nobody else has seen it
# yet, so it is still immutable for everyone else, and a refused action leaves the given state
# untouched. The copy is made with the word in the hand's history: if the hand ends and the next
# one is dealt, the copy is dropped, and so is the word (a new hand starts a new history).

_DEFAULTS: dict[str, Any] = {
    f.name: f.default for f in fields(MusState) if f.default is not MISSING
}
"""The fields' defaults (all immutable values: no field has a default factory)."""
_new = object.__new__
_set_dict = vars(MusState)["__dict__"].__set__


def _made(fields: dict[str, Any]) -> MusState:
    """The state with these fields (without the frozen ``__init__``: they are the dict)."""
    new = _new(MusState)
    _set_dict(new, fields)
    return new


def _draft(st: MusState) -> MusState:
    """A copy of ``st`` that this transition may change with :func:`_set` before returning it
    (``dataclasses.replace`` without re-running the frozen ``__init__``: one dict copy)."""
    new = _new(MusState)
    _set_dict(new, st.__dict__.copy())
    return new


def _said(
    state: MusState,
    stage: str,
    seat: int,
    text: str,
    amount: int | None,
    events: Events,
) -> MusState:
    """A draft copy of ``state`` with ``seat``'s word in the history (to change with
    :func:`_set` or its ``__dict__``), and the ``spoke`` event (``amount``: its ``bet``)."""
    if events is not None:
        events.append(("spoke", {"seat": seat, "action": text, "bet": amount}, None))
    fields = state.__dict__.copy()
    # A concatenation makes the new tuple at once ((*history, word) goes through a list).
    fields["history"] = state.history + ((stage, seat, text, amount),)  # noqa: RUF005
    new = _new(MusState)
    _set_dict(new, fields)
    return new


def _set(st: MusState, **changes: Any) -> MusState:
    """Change the draft ``st`` (made by :func:`_draft` in this transition) in place."""
    st.__dict__.update(changes)
    return st


# --------------------------------------------------------------------------- mus and discards (M2)


def _mus(state: MusState, seat: int, kind: str, events: Events) -> MusState:
    new = _said(state, "mus", seat, kind, None, events)
    if kind == "corto":
        return _next_lance(new, events)
    mano = state.mano
    fields = new.__dict__
    if (seat - mano) % PLAYERS == PLAYERS - 1:
        fields["phase"] = "discard"
        fields["to_act"] = _ORDERS[mano]
        fields["discarding"] = _NO_CARDS
    else:
        fields["to_act"] = ((seat + 1) % PLAYERS,)
    return new


def _discard(state: MusState, seat: int, cards: tuple[Card, ...], events: Events) -> MusState:
    count = len(cards)
    # Cards compared by index (the same as by text, without Card.__eq__ and __hash__).
    out = {c.index for c in cards}
    if not 1 <= count <= 4 or len(out) != count:
        raise IllegalAction("bad_discard", count=count)
    held = [c.index for c in state.hands[seat]]
    for c in cards:
        if c.index not in held:
            raise IllegalAction("card_not_in_hand", card=str(c))
    if events is not None:
        events.append(("discarded", {"seat": seat, "count": count}, None))
    st = _draft(state)
    st.__dict__["history"] = state.history + (("mus", seat, "descarto", count),)  # noqa: RUF005
    discarding = list(st.discarding)
    discarding[seat] = cards
    waiting = tuple(s for s in st.to_act if s != seat)
    if waiting:
        return _set(st, to_act=waiting, discarding=tuple(discarding))
    return _draw(st, tuple(discarding), events)


def _draw(st: MusState, discarding: tuple[Hand | None, ...], events: Events) -> MusState:
    """Everybody has discarded: serve each player from the stock, starting with the mano."""
    order = _order(st.mano)
    hands = list(st.hands)
    pile = list(st.pile)
    for s in order:
        out = discarding[s] or ()
        gone = {c.index for c in out}
        hands[s] = tuple([c for c in hands[s] if c.index not in gone])
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
                others = shuffled(f"{st.seed}/{st.hand_number}/r{reshuffles}", others)
                taken = set(others)
                pile = [c for c in pile if c not in taken]
                stock = others
                if events is not None:
                    events.append(("stock_reshuffled", {}, None))
            got.append(stock.pop())
        hands[s] = hands[s] + tuple(got)
    _set(
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
    if events is not None:
        _dealt_events(st, events)
    return st


# --------------------------------------------------------------------------- lances (M3, M4)


def values(state: MusState) -> tuple[HandValue, ...]:
    """The evaluation of every seat's current hand (M3), in seat order."""
    opts = state.options
    hands = state.hands
    try:
        (a, b, c, d), (e, f, g, h), (i, j, k, m), (n, o, p, q) = hands
    except ValueError:  # not four hands of four cards: hand_value says what is wrong
        return tuple(hand_value(h, opts) for h in hands)
    # hand_value of each hand, spelt out: a hand class is the sum of its cards' weights.
    weights, table = card_tables(opts.reyes, opts.real)
    return (
        table[weights[a.index] + weights[b.index] + weights[c.index] + weights[d.index]],
        table[weights[e.index] + weights[f.index] + weights[g.index] + weights[h.index]],
        table[weights[i.index] + weights[j.index] + weights[k.index] + weights[m.index]],
        table[weights[n.index] + weights[o.index] + weights[p.index] + weights[q.index]],
    )


_result = lru_cache(maxsize=1024)(LanceResult)
"""``LanceResult(lance, outcome, bet, pair)`` (arguments by position), shared: they are
immutable values, and the usual ones are few (finding one costs a fraction of making it)."""

_LANCE_ORDER = ("grande", "chica", "pares", "juego")
"""The lances in playing order; juego is replaced by punto when nobody has juego (M3)."""
_OPEN_LANCE: dict[str, Any] = {
    "phase": "lance",
    "passes": 0,
    "bet": None,
    "ordago": False,
    "accepted": 0,
    "bet_pair": None,
    "bettor": None,
    "refused": (),
    "discarding": _NO_CARDS,
}
"""The betting fields of a lance that opens."""


def _next_lance(st: MusState, events: Events) -> MusState:
    """Open the next lance that is played, recording the skipped ones; end the hand after
    juego/punto."""
    results = st.results
    # Every lance, played or skipped, adds one result in playing order (punto's stands for
    # juego's): the results so far say which lance comes next.
    done = len(results)
    if done < 2:
        return _open(st, _LANCE_ORDER[done], _ORDERS[st.mano], results, events)
    vals = values(st)
    for lance in _LANCE_ORDER[done:]:
        if lance == "pares":
            has = tuple([v.pares is not None for v in vals])
            st.__dict__["pares_has"] = has
        else:
            has = tuple([v.juego for v in vals])
            st.__dict__["juego_has"] = has
        if events is not None:
            events.append(("declared", {"lance": lance, "has": list(has)}, None))
        even, odd = has[0] or has[2], has[1] or has[3]
        if even and odd:
            order = _ORDERS[st.mano]
            return _open(st, lance, tuple([s for s in order if has[s]]), results, events)
        if not (even or odd):
            if events is not None:
                events.append(
                    ("lance_skipped", {"lance": lance, "reason": "nobody", "pair": None}, None)
                )
            if lance == "juego":
                return _open(st, "punto", _ORDERS[st.mano], results, events)
            results = (*results, _result(lance, "nobody", None, None))
        else:
            pair = 0 if even else 1
            if events is not None:
                events.append(
                    ("lance_skipped", {"lance": lance, "reason": "one_pair", "pair": pair}, None)
                )
            results = (*results, _result(lance, "one_pair", None, pair))
        st.__dict__["results"] = results
    return _end_hand(st, events, vals)


def _open(
    st: MusState,
    lance: str,
    players: tuple[int, ...],
    results: tuple[LanceResult, ...],
    events: Events,
) -> MusState:
    if events is not None:
        events.append(("lance_started", {"lance": lance, "players": list(players)}, None))
    fields = st.__dict__
    fields.update(_OPEN_LANCE)
    fields["lance"] = lance
    fields["players"] = players
    fields["to_act"] = (players[0],)
    fields["results"] = results
    return st


def _answerers(players: tuple[int, ...], bettor: int, refused: tuple[int, ...]) -> tuple[int, ...]:
    """Entitled opponents of ``bettor`` who may still answer, in playing order after him."""
    first, second = _OPPONENTS[bettor]
    if first in players and first not in refused:
        if second in players and second not in refused:
            return (first, second)
        return (first,)
    if second in players and second not in refused:
        return (second,)
    return ()


_OPPONENTS = tuple(((s + 1) % PLAYERS, (s + 3) % PLAYERS) for s in range(PLAYERS))
"""Each seat's opponents in playing order after him."""


def _bet(state: MusState, seat: int, act: Action, own: str | None, events: Events) -> MusState:
    """A word in a lance (M4). ``state`` is the given state: its fields are copied, changed
    and made the new state (one copy, the hot path of every simulation), then the lance is
    closed if the word ends it. ``own``: the text of ``act`` if :func:`legal_actions` made it."""
    kind = act.kind
    bet_pair = state.bet_pair
    if seat not in state.to_act:
        if seat not in state.players:
            raise IllegalAction("not_in_lance", seat=seat, lance=state.lance)
        if bet_pair is not None and seat % 2 == bet_pair and kind in ("envido", "ordago"):
            raise IllegalAction("cannot_raise_own_bet", seat=seat)
        if bet_pair is None and kind in ("quiero", "no_quiero"):
            raise IllegalAction("no_bet_to_answer")
        raise IllegalAction("not_your_turn", seat=seat)
    players = state.players
    fields = state.__dict__.copy()
    outcome: str | None = None
    """How the lance ends with this word (None: it goes on)."""
    if kind == "envido" or kind == "ordago":  # a bet, or a raise of the bet on the table (M4)
        if bet_pair is None:
            current = 0
        elif state.ordago:
            raise IllegalAction("cannot_raise_ordago")
        else:
            current = state.bet or 0
        if kind == "envido":
            amount = MIN_BET if act.amount is None else act.amount
            if amount < MIN_BET:
                raise IllegalAction("bet_too_small", minimum=MIN_BET)
            text, said = own or str(act), current + amount
        else:
            text, said = "ordago", None
        fields["bet"] = said
        fields["accepted"] = current
        fields["ordago"] = said is None
        fields["bet_pair"] = seat % 2
        fields["bettor"] = seat
        fields["refused"] = ()
        # M4: either entitled opponent may answer; a quiero or raise stands at once.
        if len(players) == PLAYERS:
            fields["to_act"] = _OPPONENTS[seat]
        else:
            fields["to_act"] = _answerers(players, seat, ())
    elif bet_pair is None:
        if kind != "paso":
            raise IllegalAction("no_bet_to_answer")
        text, said = "paso", None
        passes = state.passes + 1
        if passes == len(players):
            outcome = "en_paso"
        else:
            fields["passes"] = passes
            fields["to_act"] = (players[passes],)
    elif kind == "quiero":
        text = "quiero"
        if state.ordago:
            said, outcome = None, "ordago"
        else:
            said, outcome = state.bet, "querido"
    else:  # "no quiero", or "paso" facing a bet (a refusal)
        text, said = "no quiero", None
        refused = (*state.refused, seat)
        bettor = state.bettor if state.bettor is not None else seat
        left = _answerers(players, bettor, refused)
        if left:  # M4: "no quiero" stands only when every entitled opponent has refused
            fields["refused"] = refused
            fields["to_act"] = left
        else:
            outcome = "no_querido"
    lance = state.lance or ""
    if events is not None:
        events.append(("spoke", {"seat": seat, "action": text, "bet": said}, None))
    fields["history"] = state.history + ((lance, seat, text, said),)  # noqa: RUF005 (see _said)
    new = _new(MusState)
    _set_dict(new, fields)
    if outcome is None:
        return new
    if outcome == "ordago":
        return _ordago_accepted(new, events)
    if outcome == "no_querido":
        # M5: a first bet refused pays 1, a raise refused the amount accepted before it.
        return _close(new, outcome, state.accepted or 1, bet_pair, events)
    return _close(new, outcome, said, None, events)


def _close(
    st: MusState,
    outcome: str,
    bet: int | None,
    pair: int | None,
    events: Events,
) -> MusState:
    lance = st.lance or ""
    result = _result(lance, outcome, bet, pair)
    if events is not None:
        events.append(
            ("lance_closed", {"lance": lance, "outcome": outcome, "bet": bet, "pair": pair}, None)
        )
    fields = st.__dict__
    fields["results"] = (*st.results, result)
    fields["to_act"] = ()
    if outcome == "no_querido" and pair is not None and bet is not None:
        score = _add(st.score, pair, bet)
        if events is not None:
            events.append(
                ("scored", {"pair": pair, "points": bet, "lance": lance, "why": "no_querido"}, None)
            )
        fields["score"] = score
        if score[pair] >= st.options.target:
            return _win_juego(st, pair, events)
    return _next_lance(st, events)


def _ordago_accepted(st: MusState, events: Events) -> MusState:
    """M5: cards are shown at once and the winner of the lance wins the juego."""
    lance = st.lance or ""
    mano = st.mano
    options = st.options
    # Non-holders have key 0 in pares and juego, so the best of all four is the best player
    # (from the cards: the hands' values are only needed for the showdown event).
    winner = lance_winners(st.hands, mano, options)[LANCES.index(lance)]
    pair = (winner if winner is not None else mano) % 2
    points = max(0, options.target - st.score[pair])
    if events is not None:
        events.append(
            ("lance_closed", {"lance": lance, "outcome": "ordago", "bet": None, "pair": pair}, None)
        )
        events.append(_showdown(st, values(st)))
        parts = [[winner, points]] if winner is not None else []
        data = {"pair": pair, "points": points, "lance": lance, "why": "ordago", "parts": parts}
        events.append(("scored", data, None))
    fields = st.__dict__
    fields["results"] = (*st.results, _result(lance, "ordago", None, pair))
    fields["score"] = _add(st.score, pair, points)
    fields["shown"] = True
    return _win_juego(st, pair, events)


# --------------------------------------------------------------------------- scoring (M5)


def _add(score: tuple[int, int], pair: int, points: int) -> tuple[int, int]:
    return (score[0] + points, score[1]) if pair == 0 else (score[0], score[1] + points)


def hand_scores(state: MusState) -> list[tuple[int, int, str, str]]:
    """What the end of the hand collects, in lance order: ``(pair, points, lance, why)`` (M5).

    Refusals are not listed (they were collected at once).
    """
    vals = values(state)
    return _hand_scores(state, vals, lance_winners(vals, state.mano))


Winners = tuple[int | None, ...]
"""The winner of each lance (:func:`lance_winners`), in :data:`LANCES` order."""


def _hand_scores(
    state: MusState, vals: tuple[HandValue, ...], winners: Winners
) -> list[tuple[int, int, str, str]]:
    mano = state.mano
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
    return _score_parts(vals, lance_winners(vals, state.mano), pair, points, lance, why)


def _score_parts(
    vals: tuple[HandValue, ...],
    winners: Winners,
    pair: int,
    points: int,
    lance: str,
    why: str,
) -> list[list[int]]:
    if why in ("pares", "juego"):
        return [[s, p] for s, p in _pair_parts(vals, pair, lance)]
    winner = winners[LANCES.index(lance)]
    return [[winner, points]] if winner is not None else []


def _showdown(st: MusState, vals: tuple[HandValue, ...]) -> RawEvent:
    """Every hand shown, with what each is worth (pares kind and juego/punto total)."""
    data = {
        "hands": [_card_texts(h) for h in st.hands],
        "pares": [v.pares for v in vals],
        "points": [v.points for v in vals],
    }
    return ("showdown", data, None)


def _end_hand(st: MusState, events: Events, vals: tuple[HandValue, ...] | None) -> MusState:
    if vals is None:
        vals = values(st)
    if events is not None:
        events.append(_showdown(st, vals))
    score = st.score
    target = st.options.target
    winners = lance_winners(vals, st.mano)
    fields = st.__dict__
    for pair, points, lance, why in _hand_scores(st, vals, winners):
        score = _add(score, pair, points)
        if events is not None:
            parts = _score_parts(vals, winners, pair, points, lance, why)
            data = {"pair": pair, "points": points, "lance": lance, "why": why, "parts": parts}
            events.append(("scored", data, None))
        if score[pair] >= target:  # M5: nothing more is counted
            fields["score"] = score
            fields["shown"] = True
            return _win_juego(st, pair, events)
    fields["score"] = score
    fields["shown"] = True
    if events is not None:
        data = {"hand": st.hand_number, "score": list(score), "juegos": list(st.juegos)}
        events.append(("hand_over", data, None))
    return _next_hand(st, st.score, events)


def _win_juego(st: MusState, pair: int, events: Events) -> MusState:
    juegos = _add(st.juegos, pair, 1)
    if events is not None:
        data = {"hand": st.hand_number, "score": list(st.score), "juegos": list(juegos)}
        events.append(("hand_over", data, None))
        events.append(("juego_won", {"pair": pair, "juegos": list(juegos)}, None))
    if juegos[pair] >= st.options.juegos:
        if events is not None:
            events.append(("vaca_won", {"pair": pair}, None))
        return _set(
            st, juegos=juegos, phase="over", is_over=True, to_act=(), winner=pair, lance=None
        )
    st.__dict__["juegos"] = juegos
    return _next_hand(st, (0, 0), events)


def _next_hand(st: MusState, score: tuple[int, int], events: Events) -> MusState:
    new = _deal(st.options, st.seed, st.hand_number + 1, (st.mano + 1) % PLAYERS, score, st.juegos)
    if events is not None:
        _hand_events(new, events)
    return new
