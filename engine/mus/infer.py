"""What one seat can tell about the other three Mus hands from what is public (rules/mus.md
M2-M5, rules/senas.md S2, S4): a weighted sample of deals that never contradicts it.

Every other seat's hand is one of the hand classes (:func:`engine.mus.evaluation.hand_classes`,
330 with 8 reyes). :func:`read` gives each class a weight per seat: zero when it contradicts a
declaration (pares/juego sí/no) or a seña the seat is known to have sent (its partner's,
``view.senas_received``; an opponent's caught one, ``view.senas_caught``), otherwise the
likelihood of what the seat said this hand given that hand: the mus or cut of the last mus
round, each pass, and each quiero or refusal (a quiero to an órdago says more).

A bet is the pair's, not the bettor's alone (he bets on what his partner showed him too): an
opening envido, a bet of 5 or more, a raise and an órdago each say something different about
the better of the pair's two hands in the lance (:func:`pair_evidence`), so they weigh each
sampled deal rather than one seat's classes.

:func:`sample` then draws deals exactly: each seat's class from its weight times the number of
ways the unseen cards make it, and an importance weight for the cards the seats share (zero,
and the draw dropped, when the three classes need more cards of a rank than are unseen) times
the likelihood of every bet given the deal.

>>> import random
>>> from engine.mus import new_game, view, apply
>>> s = new_game(seed=1, hands=["12o 12c 3e 11b", "7o 6c 5e 4b", "1e 11c 7e 4o", "10o 7c 6e 5o"])
>>> s = apply(s, 0, "corto").state
>>> deals = sample(read(view(s, 0)), random.Random(1), 50)
>>> all(h[0].ranks == (12, 12, 12, 11) for _, h in deals)
True
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

from engine.cards import DECK, Card
from engine.mus.evaluation import LANCES, HandValue, card_weights, hand_classes
from engine.mus.senas import value_senas
from engine.mus.view import MusView

PARES_VALUE = {None: 0, "par": 1, "medias": 2, "duples": 3}

_COMB = tuple(tuple(math.comb(n, k) for k in range(5)) for n in range(9))


@dataclass(frozen=True, slots=True)
class _Rules:
    reyes: int
    real: bool


@dataclass(frozen=True, slots=True)
class Tables:
    """Per hand class (by position ``i``; ``index[code]`` gives it) under one set of options."""

    values: tuple[HandValue, ...]
    parts: tuple[tuple[tuple[int, int], ...], ...]
    """The class as (rank place, how many) pairs; a rank place is the grande order index."""
    prior: tuple[int, ...]
    """How many four-card hands of the full deck fall in the class."""
    quantile: tuple[tuple[float, ...], ...]
    """For each lance, the share of the hands playing it that this class beats (ties half);
    0 when the class does not play it (no pares, no juego, or juego for punto)."""
    raw: tuple[float, ...]
    """Roughly the points the hand brings against three random ones (:func:`_hand_worth`)."""
    worth: tuple[float, ...]
    """The share of random hands worth less over a whole hand (for the mus and discards)."""
    index: dict[int, int]
    weights: tuple[int, ...]
    """Per card of the deck, its weight in a class code (``card_weights``)."""
    place: tuple[int, ...]
    """Per card of the deck, its rank place."""


def _plays(v: HandValue, lance: int) -> bool:
    if lance == 2:
        return v.pares is not None
    if lance == 3:
        return v.juego
    if lance == 4:
        return not v.juego
    return True


@cache
def tables(reyes: int, real: bool) -> Tables:
    """The class tables for these options, computed once."""
    classes = hand_classes(_Rules(reyes, real))
    codes = sorted(classes)
    values = tuple(classes[c] for c in codes)
    weights = card_weights(reyes)
    place = tuple(round(math.log(w, 5)) for w in weights)
    deck_counts = [0] * 10
    for p in place:
        deck_counts[p] += 1
    parts: list[tuple[tuple[int, int], ...]] = []
    for code in codes:
        digits, rest = [], code
        for i in range(10):
            rest, k = divmod(rest, 5)
            if k:
                digits.append((i, k))
        parts.append(tuple(digits))
    prior = tuple(_ways(p, deck_counts) for p in parts)
    n = len(codes)
    quant = [[0.0] * 5 for _ in range(n)]
    for li in range(5):
        playing = [i for i in range(n) if _plays(values[i], li)]
        total = sum(prior[i] for i in playing)
        ordered = sorted(playing, key=lambda i: values[i].keys[li])
        below, j = 0, 0
        while j < len(ordered):
            key = values[ordered[j]].keys[li]
            k, same = j, 0
            while k < len(ordered) and values[ordered[k]].keys[li] == key:
                same += prior[ordered[k]]
                k += 1
            for i in ordered[j:k]:
                quant[i][li] = (below + same / 2) / total
            below += same
            j = k
    quantile = tuple(tuple(q) for q in quant)
    raw = [_hand_worth(values[i], _beats(values, prior, i)) for i in range(n)]
    total_all = sum(prior)
    worth = [0.0] * n
    below = 0
    for i in sorted(range(n), key=raw.__getitem__):
        worth[i] = (below + prior[i] / 2) / total_all
        below += prior[i]
    return Tables(
        values=values,
        parts=tuple(parts),
        prior=prior,
        quantile=quantile,
        raw=tuple(raw),
        worth=tuple(worth),
        index={c: i for i, c in enumerate(codes)},
        weights=weights,
        place=place,
    )


def _beats(values: tuple[HandValue, ...], prior: tuple[int, ...], i: int) -> tuple[float, ...]:
    """For each lance, the share of all hands class ``i`` beats (a hand not playing the lance
    loses it; ties count half)."""
    total = sum(prior)
    mine = values[i].keys
    out = []
    for li in range(5):
        if not mine[li]:
            out.append(0.0)
            continue
        below = sum(n for v, n in zip(values, prior, strict=True) if v.keys[li] < mine[li])
        same = sum(n for v, n in zip(values, prior, strict=True) if v.keys[li] == mine[li])
        out.append((below + same / 2) / total)
    return tuple(out)


def _hand_worth(v: HandValue, q: tuple[float, ...]) -> float:
    """Roughly the points a hand brings against random ones (for ordering only): each lance's
    usual worth times the chance of beating both opponents there."""
    s = GRANDE_WORTH * q[0] ** 2 + CHICA_WORTH * q[1] ** 2
    if v.pares:
        s += (PARES_WORTH + PARES_VALUE[v.pares]) * q[2] ** 2
    if v.juego:
        s += (JUEGO_WORTH + (3 if v.points == 31 else 2)) * q[3] ** 2
    else:
        s += PUNTO_WORTH * max(0, v.points - 20) / 10
    return s


GRANDE_WORTH, CHICA_WORTH, PARES_WORTH, JUEGO_WORTH, PUNTO_WORTH = 1.0, 1.5, 1.0, 0.0, 0.3


@cache
def _senas_of(v: HandValue) -> frozenset[str]:
    return value_senas(v)


def _ways(parts: tuple[tuple[int, int], ...], counts: list[int]) -> int:
    n = 1
    for i, k in parts:
        n *= _COMB[counts[i]][k]
        if not n:
            return 0
    return n


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _likely(q: float, centre: float, floor: float, slope: float = 0.05) -> float:
    """The chance of a "strong" action from a hand at quantile ``q``: a smooth step at
    ``centre``, never below ``floor`` (people bluff and misjudge) nor above ``1 - floor / 4``."""
    return floor + (1 - 1.25 * floor) * _sigmoid((q - centre) / slope)


# The likelihood of each action given the hand's quantile in the lance: where the step sits
# and how much is left to bluffs. A pass, a quiero or a refusal, and the mus or cut, say
# something of the hand of the seat that spoke.
OPEN_ENVIDO = (0.75, 0.05)
QUIERO = (0.55, 0.08)
QUIERO_ORDAGO = (0.80, 0.10)
CORTO = (0.55, 0.15)

# A bet, a raise or an órdago is the pair's: a player bets on his partner's hand as much as on
# his own (the señas, the partner's words), so it says something of the better of the pair's
# two hands in the lance, (centre, floor, slope) by lance. Fitted to ``normal`` self-play
# (``bench/mus_reading.py``): an opening envido is made by the pair's best hand at a share of
# about 0.8 in grande and chica, lower in pares and juego, where any hand that plays the lance
# bets more often; a bet of 5 or more and a raise say more. The floors are the bluffs left to
# people; an órdago is made both by the nuts and by bluffers, so it says less than its size
# suggests (an opponent who órdagos every lance must not be read as always holding them).
PAIR_ENVIDO = (
    (0.80, 0.08, 0.05),
    (0.82, 0.08, 0.05),
    (0.60, 0.15, 0.05),
    (0.60, 0.30, 0.05),
    (0.72, 0.08, 0.10),
)
PAIR_BIG = (
    (0.80, 0.05, 0.03),
    (0.82, 0.05, 0.03),
    (0.85, 0.15, 0.05),
    (0.80, 0.12, 0.03),
    (0.80, 0.05, 0.05),
)
PAIR_RAISE = (0.92, 0.05, 0.03)
PAIR_ORDAGO = (0.90, 0.08, 0.05)
PROPOSAL_FLOOR = 0.3
"""How far the deals drawn lean to a bet's reading (see :func:`read`): a step with this floor
on each hand of the bettor's pair."""


@dataclass(frozen=True, slots=True)
class Reading:
    """Per other seat, the weight of every hand class; what :func:`sample` draws from."""

    seat: int
    mano: int
    mine: HandValue
    pool: tuple[int, ...]
    """Unseen cards per rank place."""
    tables: Tables
    draw: dict[int, tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]]]
    """Per other seat: class positions with a weight, their cumulative proposal weights, and
    each one's number of ways from the whole pool times how far the proposal leans to it."""
    pairs: tuple[tuple[int, int, float, float, float], ...] = ()
    """The bets: (bettor, lance index, centre, floor, slope) of a step on the better of the
    bettor's pair's two hands in the lance, weighed into each sampled deal."""


def likelihoods(view: MusView, t: Tables) -> dict[int, list[float]]:
    """Per seat other than ``view.seat``: every class's weight (0 = contradicts the view)."""
    me = view.seat or 0
    n = len(t.values)
    out = {s: [1.0] * n for s in range(4) if s != me}
    decl = view.declarations
    signs: dict[int, set[str]] = {}
    for seat, name in (*view.senas_received, *view.senas_caught):
        signs.setdefault(seat, set()).add(name)
    for s, w in out.items():
        pares = decl.get("pares")
        juego = decl.get("juego")
        told = signs.get(s)
        for i, v in enumerate(t.values):
            if (
                (pares is not None and bool(v.pares) != pares[s])
                or (juego is not None and v.juego != juego[s])
                or (told is not None and not told <= _senas_of(v))
            ):
                w[i] = 0.0
    for s, li, centre, floor, yes in _evidence(view):
        if s == me:
            continue
        w = out[s]
        for i in range(n):
            if w[i]:
                x = t.quantile[i][li] if li >= 0 else t.worth[i]
                p = _likely(x, centre, floor)
                w[i] *= p if yes else 1.0 - p
    return out


def _evidence(view: MusView) -> list[tuple[int, int, float, float, bool]]:
    """What each pass, answer, mus or cut says of the seat's own hand: (seat, lance index or
    -1 for the whole hand, step centre, floor, whether the "strong" side of the step was
    taken)."""
    return _spoken(view)[0]


def pair_evidence(view: MusView) -> list[tuple[int, int, float, float, float]]:
    """What each bet, raise or órdago says of the better hand of the bettor's pair in the
    lance: (bettor, lance index, step centre, floor, slope)."""
    return _spoken(view)[1]


def _spoken(
    view: MusView,
) -> tuple[list[tuple[int, int, float, float, bool]], list[tuple[int, int, float, float, float]]]:
    out: list[tuple[int, int, float, float, bool]] = []
    pairs: list[tuple[int, int, float, float, float]] = []
    history = view.history
    last_discard = max((k for k, h in enumerate(history) if h[2] == "descarto"), default=-1)
    stage_now: str | None = None
    bet_on = ordago_on = False
    for k, (stage, seat, action, amount) in enumerate(history):
        if stage == "mus":
            if k > last_discard and action in ("mus", "corto"):
                out.append((seat, -1, *CORTO, action == "corto"))
            continue
        if stage != stage_now:
            stage_now, bet_on, ordago_on = stage, False, False
        li = LANCES.index(stage)
        if action == "paso":
            out.append((seat, li, *OPEN_ENVIDO, False))
        elif action == "ordago":
            pairs.append((seat, li, *PAIR_ORDAGO))
            bet_on = ordago_on = True
        elif action.startswith("envido"):
            if bet_on:
                pairs.append((seat, li, *PAIR_RAISE))
            else:
                big = (amount or 2) >= 5
                pairs.append((seat, li, *(PAIR_BIG if big else PAIR_ENVIDO)[li]))
            bet_on = True
        elif action in ("quiero", "no quiero"):
            centre, floor = QUIERO_ORDAGO if ordago_on else QUIERO
            out.append((seat, li, centre, floor, action == "quiero"))
    return out, pairs


def read(view: MusView) -> Reading:
    """Everything ``view.seat`` can tell of the other hands (see the module docstring)."""
    if view.seat is None or view.cards is None:
        raise ValueError("a reading needs a seat's view")
    t = tables(view.reyes, view.real)
    cards = [Card.parse(c) for c in view.cards]
    mine = {c.index for c in cards}
    pool = [0] * 10
    for c in DECK:
        if c.index not in mine:
            pool[t.place[c.index]] += 1
    code = sum(t.weights[i] for i in mine)
    # Our own bets say nothing of the partner's hand that we did not know when we made them.
    pairs = tuple(e for e in pair_evidence(view) if e[0] != view.seat)
    draw = {}
    for s, w in likelihoods(view, t).items():
        # A bet is weighed into each deal, but the deals are drawn with both of the bettor's
        # pair's hands already leaning to what it says (divided out again in the weight), so
        # the few deals that fit a raise are not left to chance.
        boost = [1.0] * len(w)
        for bettor, li, centre, _, slope in pairs:
            if s in (bettor, bettor ^ 2):
                for i in range(len(w)):
                    boost[i] *= _likely(t.quantile[i][li], centre, PROPOSAL_FLOOR, slope)
        positions, cum, ways = [], [], []
        total = 0.0
        for i, x in enumerate(w):
            if x:
                n = _ways(t.parts[i], pool)
                if n:
                    total += x * boost[i] * n
                    positions.append(i)
                    cum.append(total)
                    ways.append(n * boost[i])
        draw[s] = (tuple(positions), tuple(cum), tuple(ways))
    return Reading(view.seat, view.mano, t.values[t.index[code]], tuple(pool), t, draw, pairs)


def sample(
    reading: Reading, rng: random.Random, n: int, tries: int = 4
) -> list[tuple[float, tuple[HandValue, ...]]]:
    """Up to ``n`` deals as (importance weight, the four seats' hand values), never one that
    contradicts the reading; ``n * tries`` draws at most."""
    t = reading.tables
    parts, values, quantile = t.parts, t.values, t.quantile
    mine = t.index[reading.mine.code]
    order = sorted(reading.draw)
    draws = [reading.draw[s] for s in order]
    out: list[tuple[float, tuple[HandValue, ...]]] = []
    rnd = rng.random
    for _ in range(n * tries):
        if len(out) >= n:
            break
        counts = list(reading.pool)
        weight = 1.0
        hands = [reading.mine] * 4
        classes = [mine] * 4
        for s, (positions, cum, ways) in zip(order, draws, strict=True):
            if not positions:
                return []
            j = bisect_right(cum, rnd() * cum[-1])
            j = min(j, len(positions) - 1)
            i = positions[j]
            p = parts[i]
            now = _ways(p, counts)
            if not now:
                weight = 0.0
                break
            weight *= now / ways[j]
            for place, k in p:
                counts[place] -= k
            hands[s] = values[i]
            classes[s] = i
        if weight > 0.0:
            for bettor, li, centre, floor, slope in reading.pairs:
                x = max(quantile[classes[bettor]][li], quantile[classes[bettor ^ 2]][li])
                weight *= _likely(x, centre, floor, slope)
            out.append((weight, tuple(hands)))
    return out


def consistent(view: MusView, hand: HandValue, seat: int) -> bool:
    """Whether ``hand`` for ``seat`` agrees with every declaration and seña ``view`` shows."""
    decl = view.declarations
    pares, juego = decl.get("pares"), decl.get("juego")
    if pares is not None and bool(hand.pares) != pares[seat]:
        return False
    if juego is not None and hand.juego != juego[seat]:
        return False
    told = {n for s, n in (*view.senas_received, *view.senas_caught) if s == seat}
    return told <= _senas_of(hand)
