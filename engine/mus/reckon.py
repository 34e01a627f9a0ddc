"""Betting by expected points for the ``normal`` Mus computer player (rules/mus.md M4, M5).

Every lance decision weighs the deals :mod:`engine.mus.infer` samples for what the table has
shown. For each candidate action it reckons the points our pair gains minus what the other
pair gains in this lance: passing (the lance en paso), betting (folded to by an opponent whose
best hand in the lance is below an answering level, else played out), accepting (the bet
played out, the lance's pares/juego values to the winner), refusing (the amount accepted
before, and the bettor pair's values), raising (refused: the bet on the table; accepted: the
raise played out). The órdago is judged by the chance of winning the juego instead: made when
it wins something (the other pair near the target, a lance that must be won now), accepted
only when the lance is a better chance than playing the juego on.

>>> import random
>>> from engine.mus import new_game, view, apply, legal_actions
>>> s = new_game(seed=1, hands=["12o 12c 3e 12b", "4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"])
>>> s = apply(s, 0, "corto").state
>>> round(outlook(view(s, 0), random.Random(1)).p, 2)
1.0
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Action
from engine.mus.evaluation import LANCES, HandValue, lance_winners
from engine.mus.infer import PARES_VALUE, read, sample, tables
from engine.mus.view import MusView

SAMPLES = 300
"""Deals sampled for one lance decision."""
EDGE = 0.6
"""Points we still need count as this share of theirs when judging an órdago: we expect to
outplay the table over a juego, so a coin-flip órdago early in it is refused."""
CALL_AT = 0.5
"""An opponent is taken to answer a bet when his best hand in the lance beats this share of
the hands playing it (higher for bigger bets)."""
CALL_RAISE_AT = 0.7
"""The same for a raise of his own bet."""
MIN_CALL = 0.3
"""Never accept a bet with a lower chance of winning the lance, whatever the points say: the
estimate has an error, and a long shot called over and over is how a player gets farmed."""


@dataclass(frozen=True, slots=True)
class Outlook:
    """The sampled deals, reduced to what the lance's reckoning needs."""

    p: float
    """Chance that our pair wins the lance."""
    weights: tuple[float, ...]
    won: tuple[bool, ...]
    ours: tuple[int, ...]
    """Per deal: the values (pares, juego, punto) our pair collects when it wins the lance."""
    theirs: tuple[int, ...]
    """The same for the other pair."""
    best_q: tuple[float, ...]
    """Per deal: the other pair's best hand in the lance, as a share of hands it beats."""

    def mean(self, values: Sequence[float]) -> float:
        total = sum(self.weights)
        return sum(w * x for w, x in zip(self.weights, values, strict=True)) / total


def _values(lance: str, v: HandValue) -> int:
    if lance == "pares":
        return PARES_VALUE[v.pares]
    if lance == "juego":
        return (3 if v.points == 31 else 2) if v.juego else 0
    return 0


def outlook(view: MusView, rng: random.Random, samples: int = SAMPLES) -> Outlook:
    """The deals sampled for ``view`` and what each means in the current lance."""
    me = view.seat or 0
    lance = view.lance or "grande"
    li = LANCES.index(lance)
    reading = read(view)
    t = tables(view.reyes, view.real)
    deals = sample(reading, rng, samples)
    if not deals:  # cannot happen for a view of a real game; be neutral rather than fail
        deals = [(1.0, (reading.mine,) * 4)]
    ws: list[float] = []
    won: list[bool] = []
    ours: list[int] = []
    theirs: list[int] = []
    best: list[float] = []
    mine, other = me % 2, 1 - me % 2
    for w, hands in deals:
        winner = lance_winners(hands, view.mano)[li]
        if winner is None:
            continue
        ws.append(w)
        won.append(winner % 2 == mine)
        if lance == "punto":
            ours.append(1)
            theirs.append(1)
        else:
            ours.append(_values(lance, hands[mine]) + _values(lance, hands[mine + 2]))
            theirs.append(_values(lance, hands[other]) + _values(lance, hands[other + 2]))
        q = 0.0
        for s in (other, other + 2):
            q = max(q, t.quantile[t.index[hands[s].code]][li])
        best.append(q)
    if not ws:
        return Outlook(0.5, (1.0,), (True,), (0,), (0,), (0.5,))
    total = sum(ws)
    p = sum(w for w, x in zip(ws, won, strict=True) if x) / total
    return Outlook(p, tuple(ws), tuple(won), tuple(ours), tuple(theirs), tuple(best))


def win_chance(view: MusView, rng: random.Random) -> float:
    """The player's estimate that its pair wins the current lance (for calibration)."""
    return outlook(view, rng).p


def juego_chance(to_go_mine: int, to_go_theirs: int) -> float:
    """A rough chance of winning the juego from the points each pair still needs.

    >>> juego_chance(0, 10), juego_chance(10, 0)
    (1.0, 0.0)
    """
    if to_go_mine <= 0:
        return 1.0
    if to_go_theirs <= 0:
        return 0.0
    a: float = (EDGE * to_go_mine) ** 1.6
    b: float = float(to_go_theirs) ** 1.6
    return b / (a + b)


def _find(legal: Sequence[Action], kind: str, amount: int | None = None) -> Action | None:
    for a in legal:
        if a.kind == kind and a.amount == amount:
            return a
    return None


def _played(o: Outlook, stake: float) -> list[float]:
    return [
        (stake + a) if w else -(stake + b) for w, a, b in zip(o.won, o.ours, o.theirs, strict=True)
    ]


def _bet_ev(o: Outlook, stake: float, call_at: float, fold_gain: float) -> float:
    """A bet of ``stake`` answered when the other pair's best hand reaches ``call_at``;
    refused, it gives ``fold_gain`` and our values."""
    played = _played(o, stake)
    return o.mean(
        [
            x if q >= call_at else fold_gain + a
            for x, q, a in zip(played, o.best_q, o.ours, strict=True)
        ]
    )


def decide(view: MusView, legal: Sequence[Action], rng: random.Random) -> Action:
    """The ``normal`` player's bet, answer or pass in the current lance."""
    o = outlook(view, rng)
    p = o.p
    pair = (view.seat or 0) % 2
    mine, theirs = view.score[pair], view.score[1 - pair]
    target = view.target
    lance = view.lance or "grande"
    base = 1 if lance in ("grande", "chica") else 0
    if view.bet_pair is None:
        return _open(view, legal, rng, o, mine, theirs, base)
    cost = view.accepted or 1
    their_values = o.mean(o.theirs) if lance in ("pares", "juego", "punto") else 0.0
    if view.ordago:
        refuse = juego_chance(target - mine, target - theirs - cost - round(their_values))
        return _find(legal, "quiero" if p > refuse else "no_quiero") or legal[0]
    if theirs + cost + their_values >= target:
        # Refusing gives them the juego: fight for it.
        fight = _find(legal, "ordago") if p >= 0.5 else None
        return fight or _find(legal, "quiero") or legal[0]
    bet = view.bet or 2
    refuse_ev = -cost - their_values
    quiero_ev = o.mean(_played(o, bet))
    raise_ev = _bet_ev(o, bet + 2, CALL_RAISE_AT, bet) if bet < 10 else -99.0
    ordago_ok = p >= 0.85 and target - theirs <= 12 and p > juego_chance(target - mine, 40)
    if ordago_ok:
        return _find(legal, "ordago") or legal[0]
    if raise_ev > max(quiero_ev, refuse_ev) and p >= 0.6:
        return _find(legal, "envido") or legal[0]
    if quiero_ev >= refuse_ev and p >= MIN_CALL:
        return _find(legal, "quiero") or legal[0]
    return _find(legal, "no_quiero") or legal[0]


def _open(
    view: MusView,
    legal: Sequence[Action],
    rng: random.Random,
    o: Outlook,
    mine: int,
    theirs: int,
    base: int,
) -> Action:
    target = view.target
    p = o.p
    if mine + 1 >= target:  # any refusal wins us the juego
        return _find(legal, "envido") or legal[0]
    near = target - theirs
    # An órdago as the opening bet is nearly always refused: worth it only when they are about
    # to win the juego anyway and this lance is a better chance than the rest of it.
    if near <= 6 and p >= 0.6 and p > juego_chance(target - mine, near) + 0.1:
        return _find(legal, "ordago") or legal[0]
    paso = o.mean(_played(o, base))
    envido = _bet_ev(o, 2, CALL_AT, 1)
    envido5 = _bet_ev(o, 5, CALL_AT + 0.1, 1)
    best = max(paso, envido, envido5)
    if best == paso:
        if rng.random() < 0.04 and p < 0.35:  # a rare bluff keeps the bets hard to read
            return _find(legal, "envido") or legal[0]
        return _find(legal, "paso") or legal[0]
    if best == envido5:
        return _find(legal, "envido", 5) or _find(legal, "envido") or legal[0]
    return _find(legal, "envido") or legal[0]
