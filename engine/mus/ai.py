"""The Mus computer player: a pure function of one seat's view (DESIGN.md, rules/mus.md).

``choose(view, legal_actions, rng, level)`` takes the :class:`~engine.mus.view.MusView` object
that ``engine.mus.view(state, seat)`` returns (not its ``to_dict()``), the seat's legal actions
and a ``random.Random``; it returns one of the legal actions. It reads nothing but the view: its
own cards, the public declarations, the hand's history (``view.history``), score and options.

- ``normal``: mus or corto by the hand's strength against unknown cards; the discard with the
  best expected hand after the draw, reckoned exactly over every draw the unseen cards allow
  (a pair of ases or reyes is kept); bets, raises, answers and órdagos by expected points
  (:mod:`engine.mus.reckon`) over deals sampled exactly from what the table showed
  (:mod:`engine.mus.infer`: the declarations, the señas seen, and what each bet, raise,
  órdago, quiero or pass says about the hand that made it); the órdago by the chance of winning
  the juego (made when the other pair is near the target, accepted only when the lance is the
  better chance).
- ``facil``: the hand's strength against one random hand, with noise; discards keep reyes,
  ases and pairs; no use of the bidding, declarations or score.

Señas (rules/senas.md): :func:`choose_senas` picks which of the offered señas to send (every
one that says something the others do not: "medias de reyes" makes "dos reyes" redundant,
"duples" the "pares"); ``normal`` then samples its partner's hand only among hands that support
every seña he sent (``view.senas_received``), and an opponent's among those supporting the
señas it caught (``view.senas_caught``).

>>> import random
>>> from engine.mus import legal_actions, new_game, view
>>> s = new_game(seed=1, hands=["12o 12c 3e 11b", "7o 6c 5e 4b", "1e 11c 7e 4o", "10o 7c 6e 5o"])
>>> str(choose(view(s, 0), legal_actions(s, 0), random.Random(1)))
'corto'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from engine.cards import DECK, Card
from engine.core import Action
from engine.mus import infer, reckon
from engine.mus.evaluation import LANCES, HandValue, card_weights, hand_classes
from engine.mus.view import MusView

LEVELS = ("facil", "normal")
_PARES_VALUE = {None: 0, "par": 1, "medias": 2, "duples": 3}


@dataclass(frozen=True, slots=True)
class _Rules:
    reyes: int
    real: bool


@dataclass(frozen=True, slots=True)
class _Tables:
    classes: dict[int, HandValue]
    quantile: dict[int, tuple[float, ...]]
    """Per class: for each lance, the share of random hands it beats (ties count half)."""
    strength: dict[int, float]
    """Per class: a rough worth of the hand over the whole hand (points-like)."""
    rank_of: dict[int, float]
    """Per class: the share of random hands with a lower :attr:`strength` (0..1)."""
    weights: tuple[int, ...]


@cache
def _tables(reyes: int, real: bool) -> _Tables:
    """Class tables for the options, computed once (pure: no randomness)."""
    rules = _Rules(reyes, real)
    classes = hand_classes(rules)
    weights = card_weights(reyes)
    # How many of the C(40,4) hands fall in each class.
    per_weight: dict[int, int] = {}
    for w in weights:
        per_weight[w] = per_weight.get(w, 0) + 1
    count: dict[int, int] = {}
    for code in classes:
        n, rest = 1, code
        for w in sorted(per_weight, reverse=True):
            k, rest = divmod(rest, w)
            n *= _choose(per_weight[w], k)
        count[code] = n
    total = sum(count.values())
    quant: dict[int, list[float]] = {code: [] for code in classes}
    for i in range(len(LANCES)):
        ordered = sorted(classes, key=lambda c: classes[c].keys[i])
        below = 0
        j = 0
        while j < len(ordered):
            key = classes[ordered[j]].keys[i]
            k = j
            same = 0
            while k < len(ordered) and classes[ordered[k]].keys[i] == key:
                same += count[ordered[k]]
                k += 1
            for c in ordered[j:k]:
                quant[c].append((below + same / 2) / total)
            below += same
            j = k
    quantile = {c: tuple(q) for c, q in quant.items()}
    strength: dict[int, float] = {}
    for code, v in classes.items():
        qg, qc, qp, qj, qpt = quantile[code]
        s = qg**3 + qc**3
        if v.pares:
            s += (1.5 + _PARES_VALUE[v.pares]) * qp**3
        if v.juego:
            s += (2.0 + (3 if v.points == 31 else 2)) * qj**3
        else:
            s += 0.7 * qpt**3
        strength[code] = s
    ordered = sorted(classes, key=strength.__getitem__)
    rank_of: dict[int, float] = {}
    below = 0
    for c in ordered:
        rank_of[c] = (below + count[c] / 2) / total
        below += count[c]
    return _Tables(classes, quantile, strength, rank_of, weights)


def _choose(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


_IMPLIED = {"dos reyes": "medias de reyes", "dos ases": "medias de ases", "pares": "duples"}
"""A seña the partner learns anyway from a stronger one sent with it."""


def choose_senas(
    view: MusView, offered: Sequence[Action], rng: random.Random, level: str = "normal"
) -> list[Action]:
    """The señas to send now, among ``offered`` (``engine.mus.legal_senas``): all that say
    something, at ``normal``; the first one only at ``facil``.

    >>> from engine.mus import legal_senas, new_game, apply, view
    >>> s = apply(new_game(seed=1, hands=["12o 12c 12e 4b", "7o 6c 5e 4o", "1e 11c 7e 5o",
    ...     "10o 7c 6e 5b"]), 0, "corto").state
    >>> [str(a) for a in choose_senas(view(s, 0), legal_senas(s, 0), random.Random(1))]
    ['seña medias de reyes', 'seña juego']
    """
    names = {a.name for a in offered}
    useful = [a for a in offered if _IMPLIED.get(a.name or "") not in names]
    return useful[:1] if level == "facil" else useful


def _find(legal: Sequence[Action], kind: str, amount: int | None = None) -> Action | None:
    for a in legal:
        if a.kind == kind and a.amount == amount:
            return a
    return None


def choose(
    view: MusView, legal_actions: Sequence[Action], rng: random.Random, level: str = "normal"
) -> Action:
    """One of ``legal_actions`` for ``view.seat`` (see the module docstring).

    Deterministic for a given view, legal actions and ``rng`` state; raises ``ValueError``
    for an unknown level or when there is nothing to choose.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    legal = list(legal_actions)
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    if view.seat is None or view.cards is None:
        raise ValueError("the computer player needs a seat's view")
    t = _tables(view.reyes, view.real)
    cards = tuple(Card.parse(c) for c in view.cards)
    code = sum(t.weights[c.index] for c in cards)
    kind = legal[0].kind
    normal = level == "normal"
    if kind in ("mus", "corto"):
        return _mus_or_cut(view, legal, t, code, rng, normal)
    if kind == "descarto":
        return _discard(view, legal, t, cards, rng, normal)
    if normal:
        return reckon.decide(view, legal, rng)
    return _bet_facil(view, legal, t, code, rng)


# --------------------------------------------------------------------------- mus (M2)


def _mus_or_cut(
    view: MusView, legal: list[Action], t: _Tables, code: int, rng: random.Random, normal: bool
) -> Action:
    rank = t.rank_of[code]
    if normal:
        threshold = 0.62 - 0.06 * (view.mus_round - 1)
        if ((view.seat or 0) - view.mano) % 4 == 0:  # mano wins ties: a little more eager to cut
            threshold -= 0.04
        theirs = view.score[1 - (view.seat or 0) % 2]
        if view.target - theirs <= 6:  # they are close: do not give them another draw
            threshold -= 0.08
    else:
        threshold = 0.6 - 0.05 * (view.mus_round - 1) + rng.uniform(-0.15, 0.15)
    cut = rank >= threshold or view.mus_round >= 8
    return _find(legal, "corto" if cut else "mus") or legal[0]


def _discard(
    view: MusView,
    legal: list[Action],
    t: _Tables,
    cards: tuple[Card, ...],
    rng: random.Random,
    normal: bool,
) -> Action:
    w = t.weights
    if not normal:
        keep_ranks = {w[0], w[9]}  # ases and reyes (DECK[0] is 1o, DECK[9] 12o)
        counts: dict[int, int] = {}
        for c in cards:
            counts[w[c.index]] = counts.get(w[c.index], 0) + 1
        keep = [c for c in cards if w[c.index] in keep_ranks or counts[w[c.index]] >= 2]
        out = tuple(c for c in cards if c not in keep) or (min(cards, key=lambda c: c.rank),)
        return _find_discard(legal, out)
    return _best_discard(legal, cards, infer.tables(view.reyes, view.real))


def _best_discard(legal: list[Action], cards: tuple[Card, ...], t: infer.Tables) -> Action:
    """The discard with the best expected hand after the draw, over every draw the unseen
    cards allow, each weighed by its number of ways (exact, no sampling)."""
    mine = {c.index for c in cards}
    pool = [0] * 10
    for c in DECK:
        if c.index not in mine:
            pool[t.place[c.index]] += 1
    unseen = sum(pool)
    best: Action | None = None
    best_value = -1.0
    for a in legal:
        gone = {c.index for c in a.cards}
        kept = sum(t.weights[c.index] for c in cards if c.index not in gone)
        n = len(gone)
        total = 0.0
        for code, parts in _draws(n):
            ways = 1
            for place, k in parts:
                ways *= _COMB[pool[place]][k]
            if ways:
                total += ways * t.raw[t.index[kept + code]]
        value = total / _COMB_BIG[unseen][n]
        if value > best_value + 1e-12:
            best, best_value = a, value
    return best or legal[0]


@cache
def _draws(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every multiset of ``n`` rank places: (its code, its (place, count) pairs)."""
    out = []
    for combo in combinations_with_replacement(range(10), n):
        counts: dict[int, int] = {}
        for place in combo:
            counts[place] = counts.get(place, 0) + 1
        out.append((sum(5**place for place in combo), tuple(counts.items())))
    return tuple(out)


_COMB = tuple(tuple(math.comb(n, k) for k in range(5)) for n in range(9))
_COMB_BIG = tuple(tuple(math.comb(n, k) for k in range(5)) for n in range(41))


def _find_discard(legal: list[Action], out: tuple[Card, ...]) -> Action:
    want = set(out)
    for a in legal:
        if set(a.cards) == want:
            return a
    return legal[0]


# --------------------------------------------------------------------------- lances (M3-M5)


def _bet_facil(
    view: MusView, legal: list[Action], t: _Tables, code: int, rng: random.Random
) -> Action:
    lance = view.lance or "grande"
    q = t.quantile[code][LANCES.index(lance)]
    p = q * q + rng.uniform(-0.15, 0.15)  # two opponents, partner ignored, a noisy guess
    if view.bet_pair is None:
        if p >= 0.75:
            return _find(legal, "envido") or legal[0]
        return _find(legal, "paso") or legal[0]
    if view.ordago:
        return _find(legal, "quiero" if p >= 0.7 else "no_quiero") or legal[0]
    if p >= 0.85:
        return _find(legal, "envido") or _find(legal, "quiero") or legal[0]
    return _find(legal, "quiero" if p >= 0.45 else "no_quiero") or legal[0]
