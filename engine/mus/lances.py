"""The four lances (rules/mus.md M3, M4): which are played, the words of each, and how a lance
closes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.core import Action, IllegalAction
from engine.mus.draft import NO_CARDS, ORDERS, PLAYERS, Events, new_state, set_fields
from engine.mus.evaluation import LANCES, lance_winners
from engine.mus.scoring import add_points, end_hand, showdown, values, win_juego
from engine.mus.state import LanceResult, MusState

MIN_BET = 2
"""M4: ``envido`` alone is 2, and no bet or raise may be smaller."""


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
    "discarding": NO_CARDS,
}
"""The betting fields of a lance that opens."""


def next_lance(st: MusState, events: Events) -> MusState:
    """Open the next lance that is played, recording the skipped ones; end the hand after
    juego/punto."""
    results = st.results
    # Every lance, played or skipped, adds one result in playing order (punto's stands for
    # juego's): the results so far say which lance comes next.
    done = len(results)
    if done < 2:
        return _open(st, _LANCE_ORDER[done], ORDERS[st.mano], results, events)
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
            order = ORDERS[st.mano]
            return _open(st, lance, tuple([s for s in order if has[s]]), results, events)
        if not (even or odd):
            if events is not None:
                events.append(
                    ("lance_skipped", {"lance": lance, "reason": "nobody", "pair": None}, None)
                )
            if lance == "juego":
                return _open(st, "punto", ORDERS[st.mano], results, events)
            results = (*results, _result(lance, "nobody", None, None))
        else:
            pair = 0 if even else 1
            if events is not None:
                events.append(
                    ("lance_skipped", {"lance": lance, "reason": "one_pair", "pair": pair}, None)
                )
            results = (*results, _result(lance, "one_pair", None, pair))
        st.__dict__["results"] = results
    return end_hand(st, events, vals)


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


def speak(state: MusState, seat: int, act: Action, own: str | None, events: Events) -> MusState:
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
    fields["history"] = state.history + ((lance, seat, text, said),)  # noqa: RUF005 (see draft_said)
    new = new_state(MusState)
    set_fields(new, fields)
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
        score = add_points(st.score, pair, bet)
        if events is not None:
            events.append(
                ("scored", {"pair": pair, "points": bet, "lance": lance, "why": "no_querido"}, None)
            )
        fields["score"] = score
        if score[pair] >= st.options.target:
            return win_juego(st, pair, events)
    return next_lance(st, events)


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
        events.append(showdown(st, values(st)))
        parts = [[winner, points]] if winner is not None else []
        data = {"pair": pair, "points": points, "lance": lance, "why": "ordago", "parts": parts}
        events.append(("scored", data, None))
    fields = st.__dict__
    fields["results"] = (*st.results, _result(lance, "ordago", None, pair))
    fields["score"] = add_points(st.score, pair, points)
    fields["shown"] = True
    return win_juego(st, pair, events)
