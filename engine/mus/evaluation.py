"""Hand evaluation for the Mus lances (rules/mus.md M3), shared by Mus a piedras.

Every distinct four-card hand (as a multiset of effective ranks: 330 with 8 reyes, 715 with 4)
is evaluated once into a :class:`HandValue` whose ``*_key`` fields compare with ``>``: the higher
key wins the lance. Ties go to the player nearest the mano.

>>> v = evaluate(["12o", "3c", "1b", "7e"])  # 8 reyes: R R A 7
>>> v.pares, v.points, v.juego
('par', 28, False)
>>> lance_winner("grande", ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"])
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, Literal, Protocol

from engine.cards import Card, parse_cards

Lance = Literal["grande", "chica", "pares", "juego", "punto"]
LANCES: tuple[Lance, ...] = ("grande", "chica", "pares", "juego", "punto")
Pares = Literal["par", "medias", "duples"]

JUEGO_ORDER: tuple[int, ...] = (31, 32, 40, 37, 36, 35, 34, 33)
"""Juego totals from best to worst (M3)."""


class CardRules(Protocol):
    """The options evaluation depends on; both Mus and Mus a piedras options provide them."""

    @property
    def reyes(self) -> int: ...

    @property
    def real(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class _DefaultRules:
    reyes: int = 8
    real: bool = False


DEFAULT_RULES: CardRules = _DefaultRules()


@dataclass(frozen=True, slots=True)
class HandValue:
    """What a four-card hand is worth in each lance. Keys: higher wins; 0 = not in the lance."""

    ranks: tuple[int, ...]
    """Effective ranks, high to low (with 8 reyes a 3 is 12 and a 2 is 1)."""
    pares: Pares | None
    points: int
    """Juego/punto total."""
    juego: bool
    real: bool
    """31 made of three 7s and a figure (only meaningful with the ``real`` option)."""
    grande_key: int
    chica_key: int
    pares_key: int
    juego_key: int
    punto_key: int
    keys: tuple[int, int, int, int, int]
    """The five keys in lance order (grande, chica, pares, juego, punto)."""
    code: int
    """The hand class as an integer: the sum of the cards' :func:`card_weights` (a rank
    multiset in base 5), the same for every hand with these effective ranks."""

    def key(self, lance: Lance) -> int:
        """The comparison key for ``lance``."""
        if lance == "grande":
            return self.grande_key
        if lance == "chica":
            return self.chica_key
        if lance == "pares":
            return self.pares_key
        if lance == "juego":
            return self.juego_key
        return self.punto_key


_GRANDE_ORDER = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)  # low to high, as index
_INDEX = {r: i for i, r in enumerate(_GRANDE_ORDER)}


def _effective(rank: int, reyes: int) -> int:
    if reyes == 8:
        if rank == 3:
            return 12
        if rank == 2:
            return 1
    return rank


def _points(rank: int) -> int:
    return 10 if rank >= 10 else rank


def _value(ranks_desc: tuple[int, ...], real_option: bool) -> HandValue:
    idx = [_INDEX[r] for r in ranks_desc]
    grande_key = 0
    for i in idx:
        grande_key = grande_key * 16 + i + 1
    chica_key = 0
    for i in reversed(idx):
        chica_key = chica_key * 16 + (15 - i)
    counts = Counter(ranks_desc)
    groups = sorted(((c, _INDEX[r]) for r, c in counts.items() if c >= 2), reverse=True)
    pares: Pares | None
    if not groups:
        pares, pares_key = None, 0
    elif groups[0][0] == 4:
        pares, pares_key = "duples", 3 * 256 + (groups[0][1] + 1) * 16 + groups[0][1] + 1
    elif len(groups) == 2:
        hi, lo = max(groups[0][1], groups[1][1]), min(groups[0][1], groups[1][1])
        pares, pares_key = "duples", 3 * 256 + (hi + 1) * 16 + lo + 1
    elif groups[0][0] == 3:
        pares, pares_key = "medias", 2 * 256 + (groups[0][1] + 1) * 16
    else:
        pares, pares_key = "par", 1 * 256 + (groups[0][1] + 1) * 16
    points = sum(_points(r) for r in ranks_desc)
    juego = points >= 31
    is_real = points == 31 and sorted(ranks_desc)[:3] == [7, 7, 7]
    juego_key = 0
    if juego:
        juego_key = 2 * (len(JUEGO_ORDER) - JUEGO_ORDER.index(points))
        if real_option and is_real:
            juego_key += 1
    punto_key = 0 if juego else points
    return HandValue(
        ranks=ranks_desc,
        pares=pares,
        points=points,
        juego=juego,
        real=is_real,
        grande_key=grande_key,
        chica_key=chica_key,
        pares_key=pares_key,
        juego_key=juego_key,
        punto_key=punto_key,
        keys=(grande_key, chica_key, pares_key, juego_key, punto_key),
        code=sum(5 ** _INDEX[r] for r in ranks_desc),
    )


@cache
def _table(reyes: int, real: bool) -> dict[int, HandValue]:
    """Every hand class under these options, by :attr:`HandValue.code`."""
    ranks = sorted({_effective(r, reyes) for r in _GRANDE_ORDER}, key=_INDEX.__getitem__)
    table: dict[int, HandValue] = {}
    for combo in combinations_with_replacement(ranks, 4):
        desc = tuple(sorted(combo, key=_INDEX.__getitem__, reverse=True))
        value = _value(desc, real)
        table[value.code] = value
    return table


@cache
def card_weights(reyes: int) -> tuple[int, ...]:
    """Per card of :data:`~engine.cards.DECK` (by ``Card.index``), its weight in a hand class
    code: ``5 ** i`` for its effective rank's place ``i`` in grande order (M1: with 8 reyes a 3
    weighs as a rey and a 2 as an as).

    >>> w = card_weights(8)
    >>> w[Card.parse("3o").index] == w[Card.parse("12c").index] == 5 ** 9
    True
    """
    from engine.cards import DECK

    return tuple(5 ** _INDEX[_effective(c.rank, reyes)] for c in DECK)


@cache
def _effective_maps(reyes: int) -> dict[Card, int]:
    from engine.cards import DECK

    return {c: _effective(c.rank, reyes) for c in DECK}


def hand_classes(options: CardRules | None = None) -> dict[int, HandValue]:
    """Every hand class (330 with 8 reyes, 715 with 4) by its integer code.

    >>> len(hand_classes()), len(hand_classes(_DefaultRules(reyes=4)))
    (330, 715)
    """
    rules = options or DEFAULT_RULES
    return _table(rules.reyes, rules.real)


def evaluate(hand: Iterable[Card | str] | str, options: CardRules | None = None) -> HandValue:
    """Evaluate a four-card hand (cards or card texts) under the table options.

    >>> evaluate("7o 7c 7e 10b").points
    31
    >>> evaluate("3o 3c 2e 2b").pares  # 8 reyes: RRAA
    'duples'
    """
    rules = options or DEFAULT_RULES
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(Card.parse(c) for c in hand)
    if len(cards) != 4:
        raise ValueError(f"a Mus hand has 4 cards, not {len(cards)}")
    w = card_weights(rules.reyes)
    return _table(rules.reyes, rules.real)[sum(w[c.index] for c in cards)]


def sort_for_display(
    hand: Iterable[Card | str] | str, options: CardRules | None = None
) -> list[Card]:
    """The cards high to low as a Mus player holds them (grande order, M3): with 8 reyes a 3
    sits with the reyes and a 2 with the ases (after the real rey or as).

    >>> [str(c) for c in sort_for_display("1b 3c 7e 12o")]
    ['12o', '3c', '7e', '1b']
    >>> [str(c) for c in sort_for_display("2b 1o 4c 3e", DEFAULT_RULES)]
    ['3e', '4c', '1o', '2b']
    """
    rules = options or DEFAULT_RULES
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(Card.parse(c) for c in hand)
    eff = _effective_maps(rules.reyes)
    return sorted(cards, key=lambda c: (_INDEX[eff[c]], eff[c] == c.rank), reverse=True)


def hand_value(cards: Sequence[Card], options: CardRules | None = None) -> HandValue:
    """Fast :func:`evaluate` for four :class:`Card` objects (no parsing), used by the state machine.

    >>> hand_value(parse_cards("7o 7c 7e 10b")).points
    31
    """
    rules = options or DEFAULT_RULES
    w = card_weights(rules.reyes)
    a, b, c, d = cards
    return _table(rules.reyes, rules.real)[w[a.index] + w[b.index] + w[c.index] + w[d.index]]


def best_seat(keys: Sequence[int], mano: int, seats: Iterable[int] | None = None) -> int | None:
    """The seat with the highest key, ties to the seat nearest the mano; ``None`` if all are 0.

    ``keys`` is indexed by seat; ``seats`` limits the candidates (default: all).

    >>> best_seat([5, 9, 9, 1], mano=2)
    2
    >>> best_seat([5, 9, 9, 1], mano=0)
    1
    """
    n = len(keys)
    allowed = set(range(n)) if seats is None else set(seats)
    best: int | None = None
    best_key = 0
    for i in range(n):
        seat = (mano + i) % n
        if seat in allowed and keys[seat] > best_key:
            best, best_key = seat, keys[seat]
    return best


def worst_seat(keys: Sequence[int], mano: int, seats: Iterable[int]) -> int | None:
    """The seat whose hand loses to every other candidate (ties: the one farthest from mano)."""
    n = len(keys)
    allowed = set(seats)
    worst: int | None = None
    worst_key = 0
    for i in range(n):
        seat = (mano + i) % n
        if seat in allowed and (worst is None or keys[seat] <= worst_key):
            worst, worst_key = seat, keys[seat]
    return worst


_ORDERS = tuple(tuple((mano + i) % 4 for i in range(4)) for mano in range(4))


@cache
def card_tables(reyes: int, real: bool) -> tuple[tuple[int, ...], dict[int, HandValue]]:
    """:func:`card_weights` and :func:`hand_classes` under these card rules, in one cached call:
    ``table[w[a.index] + w[b.index] + w[c.index] + w[d.index]]`` is the value of hand a b c d.

    >>> w, table = card_tables(8, False)
    >>> table[sum(w[c.index] for c in parse_cards("7o 7c 7e 10b"))].points
    31
    """
    return card_weights(reyes), _table(reyes, real)


@cache
def _class_keys(reyes: int, real: bool) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
    """:func:`card_weights` and the five lance keys of every hand class, by class code."""
    return card_weights(reyes), {code: v.keys for code, v in _table(reyes, real).items()}


def lance_winners(
    hands: Sequence[HandValue | Iterable[Card | str] | str],
    mano: int = 0,
    options: CardRules | None = None,
) -> tuple[int | None, int | None, int | None, int | None, int | None]:
    """Winners of grande, chica, pares, juego and punto of one deal (M3), in one pass.

    ``hands`` are four hands in seat order: evaluated :class:`HandValue` or cards (four
    :class:`~engine.cards.Card` each is the fast way; card texts are parsed). Each winner is a
    seat, or ``None`` when that lance is not played (nobody has pares; nobody has juego; punto
    when somebody has juego). Ties go to the seat nearest the mano. This is the one comparison
    the state machine and :func:`lance_winner` use.

    >>> hands = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]
    >>> lance_winners(hands)
    (2, 0, 0, 2, None)
    >>> lance_winners([evaluate(h) for h in ["1o 2c 4e 5b", "7o 6c 5e 4b"] * 2], mano=1)
    (1, 2, 2, None, 1)
    """
    o = _ORDERS[mano]
    a, b, c, d = hands[o[0]], hands[o[1]], hands[o[2]], hands[o[3]]
    if type(a) is type(b) is type(c) is type(d) is HandValue:
        return _winners(o, a.keys, b.keys, c.keys, d.keys)
    rules = options or DEFAULT_RULES
    w, keys = _class_keys(rules.reyes, rules.real)
    quads: Any = (a, b, c, d)
    try:
        # Four cards each (the usual case): a hand's class code is the sum of its cards'
        # weights, one lookup gives its five keys. Anything else (a HandValue among cards, card
        # texts, a wrong number of cards) fails here and is evaluated below.
        (a0, a1, a2, a3), (b0, b1, b2, b3), (c0, c1, c2, c3), (d0, d1, d2, d3) = quads
        return _winners(
            o,
            keys[w[a0.index] + w[a1.index] + w[a2.index] + w[a3.index]],
            keys[w[b0.index] + w[b1.index] + w[b2.index] + w[b3.index]],
            keys[w[c0.index] + w[c1.index] + w[c2.index] + w[c3.index]],
            keys[w[d0.index] + w[d1.index] + w[d2.index] + w[d3.index]],
        )
    except (AttributeError, TypeError, ValueError, LookupError):
        pass
    va, vb, vc, vd = (_as_value(h, options) for h in (a, b, c, d))
    return _winners(o, va.keys, vb.keys, vc.keys, vd.keys)


def _winners(
    o: tuple[int, ...],
    ka: tuple[int, ...],
    kb: tuple[int, ...],
    kc: tuple[int, ...],
    kd: tuple[int, ...],
) -> tuple[int | None, int | None, int | None, int | None, int | None]:
    """The five winners from the keys of the four hands in playing order ``o``: each lance's
    highest key, ties to the earlier hand (spelt out: this is the simulations' inner loop).
    Grande and chica keys are never 0, nor punto keys when nobody has juego."""
    a0, a1, a2, a3, a4 = ka
    b0, b1, b2, b3, b4 = kb
    c0, c1, c2, c3, c4 = kc
    d0, d1, d2, d3, d4 = kd
    grande, m = 0, a0
    if b0 > m:
        grande, m = 1, b0
    if c0 > m:
        grande, m = 2, c0
    if d0 > m:
        grande = 3
    chica, m = 0, a1
    if b1 > m:
        chica, m = 1, b1
    if c1 > m:
        chica, m = 2, c1
    if d1 > m:
        chica = 3
    w, m = 0, a2
    if b2 > m:
        w, m = 1, b2
    if c2 > m:
        w, m = 2, c2
    if d2 > m:
        w, m = 3, d2
    pares = o[w] if m else None
    w, m = 0, a3
    if b3 > m:
        w, m = 1, b3
    if c3 > m:
        w, m = 2, c3
    if d3 > m:
        w, m = 3, d3
    if m:
        return (o[grande], o[chica], pares, o[w], None)
    w, m = 0, a4
    if b4 > m:
        w, m = 1, b4
    if c4 > m:
        w, m = 2, c4
    if d4 > m:
        w = 3
    return (o[grande], o[chica], pares, None, o[w])


def _as_value(hand: HandValue | Iterable[Card | str] | str, options: CardRules | None) -> HandValue:
    if isinstance(hand, HandValue):
        return hand
    if not isinstance(hand, str):
        cards = tuple(hand)
        if len(cards) == 4 and all(type(c) is Card for c in cards):
            return hand_value(cards, options)  # type: ignore[arg-type]
        return evaluate(cards, options)
    return evaluate(hand, options)


def _best(order: tuple[int, ...], a: int, b: int, c: int, d: int) -> int | None:
    """The seat of the highest of four keys given in playing order (ties: the earlier one)."""
    w, m = 0, a
    if b > m:
        w, m = 1, b
    if c > m:
        w, m = 2, c
    if d > m:
        w, m = 3, d
    return order[w] if m else None


def lance_winner(
    lance: Lance,
    hands: Sequence[Iterable[Card | str] | str],
    mano: int = 0,
    options: CardRules | None = None,
) -> int | None:
    """The seat that wins ``lance`` among ``hands`` (in seat order), or ``None`` if nobody plays it.

    Pares and juego count only hands that have them; punto is played only when nobody has juego
    (M3), so it is ``None`` as soon as one hand has juego.

    >>> lance_winner("chica", ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"])
    0
    >>> lance_winner("punto", ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"])
    """
    if len(hands) == 4:
        return lance_winners(hands, mano, options)[LANCES.index(lance)]
    values = [_as_value(h, options) for h in hands]
    if lance == "punto" and any(v.juego for v in values):
        return None
    return best_seat([v.key(lance) for v in values], mano)
