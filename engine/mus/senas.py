"""Señas of classic Mus: which signals a hand supports (rules/senas.md S1, S2).

Señas are never false (S1): a player is offered only the señas his four cards support. Every fact
comes from the engine's own evaluation (:func:`engine.mus.evaluation.evaluate`), so with 8 reyes a 3
counts as a rey and a 2 as an as here too.

Edge cases, decided here (S2 read literally, "the hand must hold it"):

- The counting señas nest: three reyes are "dos reyes" and "medias de reyes"; four reyes are
  "dos reyes", "medias de reyes" and "duples" (four equal cards are duples, M3).
- "pares" is any group of two or more equal cards of a rank other than rey and as: a pair, medias
  or four of a kind of sotas, 7s...; it nests with duples the same way (CCSS: "pares", "duples").
- RRAA is "dos reyes", "dos ases" and "duples" (no "pares": both pairs are reyes and ases).
- "31" is any juego of 31 (la real included); "juego" is every other juego (32..40).
- "30" and "29" only without juego (a punto); "ciego" only with no pares, no juego and a punto under
  29, so "ciego" never comes with another seña.

>>> sorted(senas(["12o", "3c", "1b", "2e"]))  # 8 reyes: R R A A
['dos ases', 'dos reyes', 'duples']
>>> from engine.mus import Options
>>> sorted(senas("12o 3c 1b 2e", options=Options(reyes=4)))
['ciego']
>>> sorted(senas("7o 7c 7e 10b"))
['31', 'pares']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.cards import Card, parse_cards
from engine.mus.evaluation import CardRules, HandValue, evaluate

REY = 12
AS = 1

MUS_SENAS: tuple[str, ...] = (
    "dos reyes",
    "dos ases",
    "pares",
    "medias de reyes",
    "medias de ases",
    "duples",
    "31",
    "juego",
    "30",
    "29",
    "ciego",
)
"""Every seña of S2, in the FEM's order (the order to show them in)."""


def senas(hand: Iterable[Card | str] | str, options: CardRules | None = None) -> frozenset[str]:
    """The señas (S2 names) that a four-card Mus hand supports under the table options.

    ``hand`` is four distinct cards or card texts, as for :func:`engine.mus.evaluate`;
    ``options`` is an :class:`engine.mus.Options` (default: the engine's defaults, 8 reyes).

    >>> sorted(senas("12o 12c 12e 5b"))
    ['dos reyes', 'juego', 'medias de reyes']
    >>> sorted(senas("7o 7c 6e 5b"))
    ['pares']
    >>> sorted(senas("10o 7c 6e 6b"))
    ['29', 'pares']
    """
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(Card.parse(c) for c in hand)
    if len(set(cards)) != len(cards):
        raise ValueError("a Mus hand cannot hold the same card twice")
    return value_senas(evaluate(cards, options))


def value_senas(value: HandValue) -> frozenset[str]:
    """The señas of a hand from its evaluation (the same for every hand of its class).

    >>> sorted(value_senas(evaluate("12o 12c 12e 5b")))
    ['dos reyes', 'juego', 'medias de reyes']
    """
    counts = Counter(value.ranks)
    found: set[str] = set()
    if counts[REY] >= 2:
        found.add("dos reyes")
    if counts[AS] >= 2:
        found.add("dos ases")
    if any(n >= 2 for rank, n in counts.items() if rank not in (REY, AS)):
        found.add("pares")
    if counts[REY] >= 3:
        found.add("medias de reyes")
    if counts[AS] >= 3:
        found.add("medias de ases")
    if value.pares == "duples":
        found.add("duples")
    if value.juego:
        found.add("31" if value.points == 31 else "juego")
    elif value.points in (29, 30):
        found.add(str(value.points))
    if value.pares is None and not value.juego and value.points < 29:
        found.add("ciego")
    return frozenset(found)
