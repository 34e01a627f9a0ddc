"""The Mus computer player: a pure function of one seat's view (DESIGN.md, rules/mus.md).

``choose(view, legal_actions, rng, level)`` takes the :class:`~engine.mus.view.MusView` object
that ``engine.mus.view(state, seat)`` returns (not its ``to_dict()``), the seat's legal actions
and a ``random.Random``; it returns one of the legal actions. It reads nothing but the view: its
own cards, the public declarations, the hand's history (``view.history``), score and options.

- ``normal``: mus or corto by the hand's strength against unknown cards; the discard that
  maximises the expected strength after the draw (sampled); bets, raises, answers and órdagos
  from the chance of winning the lance, estimated by sampling the unseen cards for the other
  three seats consistent with the declarations (pares/juego) and the bidding so far (a seat that
  bet or accepted holds a better than average hand in that lance); score-aware (a refusal that
  hands the opponents the juego is never made, an órdago is welcome when they are near the
  target and avoided when we are).
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

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from engine.cards import DECK, Card
from engine.core import Action
from engine.mus.evaluation import LANCES, HandValue, card_weights, hand_classes, lance_winners
from engine.mus.senas import value_senas
from engine.mus.view import MusView

LEVELS = ("facil", "normal")
_PARES_VALUE = {None: 0, "par": 1, "medias": 2, "duples": 3}
_SAMPLES = 160
"""Deals sampled for one lance decision (normal)."""
_EDGE = 0.4
"""We expect to outplay the table: points we need count as 0.4 of theirs (so a coin-flip
órdago is refused early in a juego; tuned with ``bench/ai.py``: 0.7 accepted too many)."""
_FLOOR_ENVIDO = 0.4
"""A seat that bet or raised is taken to beat at least this share of hands in the lance."""
_FLOOR_ORDAGO = 0.5
"""The same for an órdago."""
_FLOOR_QUIERO = 0.35
"""The same for a seat that accepted."""
_DRAWS = 14
"""Draws sampled per discard choice (normal)."""


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


@cache
def _class_senas(code: int, reyes: int, real: bool) -> frozenset[str]:
    return value_senas(_tables(reyes, real).classes[code])


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
        return _bet_normal(view, legal, t, cards, rng)
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
        theirs = _scores(view)[1]
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
    mine = set(cards)
    pool = [w[c.index] for c in DECK if c not in mine]
    draws = [rng.sample(pool, 4) for _ in range(_DRAWS)]
    strength = t.strength
    best: Action | None = None
    best_value = -1.0
    for a in legal:
        gone = set(a.cards)
        kept = sum(w[c.index] for c in cards if c not in gone)
        n = len(gone)
        total = 0.0
        for d in draws:
            total += strength[kept + sum(d[:n])]
        if total > best_value:
            best, best_value = a, total
    return best or legal[0]


def _find_discard(legal: list[Action], out: tuple[Card, ...]) -> Action:
    want = set(out)
    for a in legal:
        if set(a.cards) == want:
            return a
    return legal[0]


# --------------------------------------------------------------------------- lances (M3-M5)


def _scores(view: MusView) -> tuple[int, int]:
    pair = (view.seat or 0) % 2
    return view.score[pair], view.score[1 - pair]


def _juego_chance(to_go_mine: int, to_go_theirs: int) -> float:
    """A rough chance of winning the juego from the points each pair still needs."""
    if to_go_mine <= 0:
        return 1.0
    if to_go_theirs <= 0:
        return 0.0
    a: float = (_EDGE * to_go_mine) ** 1.6
    b: float = float(to_go_theirs) ** 1.6
    return b / (a + b)


@dataclass(frozen=True, slots=True)
class _Estimate:
    p: float
    """Chance that our pair wins the lance."""
    accept_ev: float
    """Mean of (+1 win, -1 loss) x (values the winner collects), without the bet."""
    their_values: float
    """Mean of the values the opponents would collect if we refused (pares/juego/punto)."""


def _lance_values(lance: str, v: HandValue) -> int:
    if lance == "pares":
        return _PARES_VALUE[v.pares]
    if lance == "juego":
        return (3 if v.points == 31 else 2) if v.juego else 0
    return 0


def _four(size: int, rnd: Callable[[], float]) -> tuple[int, int, int, int]:
    """Four distinct positions below ``size``, uniformly (as ``rng.sample(range(size), 4)``,
    several times cheaper: the samplers below draw tens of thousands per decision).

    >>> import random
    >>> r = random.Random(1).random
    >>> all(len(set(_four(6, r))) == 4 and max(_four(6, r)) < 6 for _ in range(200))
    True
    """
    a = int(rnd() * size)
    b = int(rnd() * (size - 1))
    b += b >= a
    low, high = (a, b) if a < b else (b, a)
    c = int(rnd() * (size - 2))
    c += c >= low
    c += c >= high
    d = int(rnd() * (size - 3))
    if c < low:
        first, second, third = c, low, high
    elif c < high:
        first, second, third = low, c, high
    else:
        first, second, third = low, high, c
    d += d >= first
    d += d >= second
    d += d >= third
    return a, b, c, d


def _estimate(view: MusView, t: _Tables, cards: tuple[Card, ...], rng: random.Random) -> _Estimate:
    """Sample the other seats' hands consistent with what the view shows."""
    me = view.seat or 0
    lance = view.lance or "grande"
    li = LANCES.index(lance)
    w = t.weights
    mine = set(cards)
    pool = [w[c.index] for c in DECK if c not in mine]
    my_value = t.classes[sum(w[c.index] for c in cards)]
    pares = view.declarations.get("pares")
    juego = view.declarations.get("juego")
    # Evidence from the bidding: a seat that bet or accepted holds a better hand in that lance.
    floors: dict[int, list[tuple[int, float]]] = {s: [] for s in range(4)}
    for stage, seat, action, _amount in view.history:
        if stage == "mus" or seat == me:
            continue
        i = LANCES.index(stage)
        if action.startswith("envido"):
            floors[seat].append((i, _FLOOR_ENVIDO))
        elif action == "ordago":
            floors[seat].append((i, _FLOOR_ORDAGO))
        elif action == "quiero":
            floors[seat].append((i, _FLOOR_QUIERO))
    classes, quantile = t.classes, t.quantile
    others = [s for s in range(4) if s != me]
    signs: dict[int, frozenset[str]] = {}  # what each seat's hand is known to support
    for seat, name in (*view.senas_received, *view.senas_caught):
        signs[seat] = signs.get(seat, frozenset()) | {name}
    reyes, real = view.reyes, view.real
    mano = view.mano
    rnd = rng.random

    def _fits(v: HandValue, s: int) -> bool:
        need_p = None if pares is None else pares[s]
        if need_p is not None and bool(v.pares) != need_p:
            return False
        need_j = None if juego is None else juego[s]
        if need_j is not None and v.juego != need_j:
            return False
        if any(quantile[v.code][i] < f for i, f in floors[s]):
            return False
        told = signs.get(s)
        return told is None or told <= _class_senas(v.code, reyes, real)

    wins = 0
    accept_total = 0.0
    theirs_total = 0.0
    # Per seat: whether a hand class fits everything known of it (the declarations, the
    # bidding's floors, the señas seen), filled in as classes come up: the rejection loop
    # below draws thousands of hands per decision and meets the same classes again and again.
    fits: dict[int, dict[int, bool]] = {s: {} for s in others}
    for _ in range(_SAMPLES):
        rest = pool[:]
        hands: list[HandValue] = [my_value] * 4
        for s in others:
            fit = fits[s]
            size = len(rest)
            for _try in range(12 if s not in signs else 80):
                a, b, c, d = _four(size, rnd)
                code = rest[a] + rest[b] + rest[c] + rest[d]
                ok = fit.get(code)
                if ok is None:
                    ok = fit[code] = _fits(classes[code], s)
                if ok:
                    break
            v = classes[code]
            for i in sorted((a, b, c, d), reverse=True):
                rest.pop(i)
            hands[s] = v
        winner = lance_winners(hands, mano)[li]
        if winner is None:  # not played in this sample; count it as even
            continue
        won = winner % 2 == me % 2
        pair = winner % 2
        val = _lance_values(lance, hands[pair]) + _lance_values(lance, hands[pair + 2])
        if lance == "punto":
            val = 1
        theirs = _lance_values(lance, hands[1 - me % 2]) + _lance_values(lance, hands[3 - me % 2])
        if lance == "punto":
            theirs = 1
        wins += won
        accept_total += val if won else -val
        theirs_total += theirs
    n = _SAMPLES
    return _Estimate(wins / n, accept_total / n, theirs_total / n)


def _bet_normal(
    view: MusView, legal: list[Action], t: _Tables, cards: tuple[Card, ...], rng: random.Random
) -> Action:
    est = _estimate(view, t, cards, rng)
    p = est.p
    mine, theirs = _scores(view)
    target = view.target
    # An órdago is worth more when they are near the target and less when we are.
    juego_now = _juego_chance(target - mine, target - theirs)
    ordago_ok = p >= 0.9 or (p >= 0.6 and p > juego_now + 0.15)
    if view.bet_pair is None:
        if mine + 1 >= target:  # any refusal wins us the juego
            return _find(legal, "envido") or legal[0]
        if ordago_ok and p >= 0.75 and (target - theirs <= 10 or p >= 0.93):
            return _find(legal, "ordago") or legal[0]
        bluff = rng.random() < 0.06
        if p >= 0.8:
            return _find(legal, "envido", 5) or _find(legal, "envido") or legal[0]
        if p >= 0.62 or (bluff and p >= 0.35):
            return _find(legal, "envido") or legal[0]
        return _find(legal, "paso") or legal[0]
    cost = view.accepted or 1
    if view.ordago:
        # Accept when the lance is a better bet than playing the juego on.
        refuse = _juego_chance(target - mine, target - theirs - cost)
        return _find(legal, "quiero" if p >= refuse else "no_quiero") or legal[0]
    if theirs + cost + (est.their_values if view.lance in ("pares", "juego") else 0) >= target:
        # Refusing gives them the juego: fight for it.
        if ordago_ok or p >= 0.5:
            return _find(legal, "ordago") or _find(legal, "quiero") or legal[0]
        return _find(legal, "quiero") or legal[0]
    bet = view.bet or 0
    accept_ev = (2 * p - 1) * bet + est.accept_ev
    refuse_ev = -(cost + est.their_values)
    if ordago_ok and p >= 0.8 and target - theirs <= 12:
        return _find(legal, "ordago") or _find(legal, "quiero") or legal[0]
    if p >= 0.8 and bet < 10:
        return _find(legal, "envido") or _find(legal, "quiero") or legal[0]
    if accept_ev >= refuse_ev:
        return _find(legal, "quiero") or legal[0]
    return _find(legal, "no_quiero") or legal[0]


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
