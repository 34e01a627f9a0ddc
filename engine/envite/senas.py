"""Señas of envite canario: which signals a hand supports (rules/senas.md S1, S3).

Every trump fact comes from the engine's own ranking (:mod:`engine.envite.ranking`): a card gives
the seña of its highest place in E3 and no other, and suits are counted as E3 counts them (every
trump, fixed ones included, is of the trump suit), also for "flus".

Decided here:

- The sota of the vira suit has no seña of its own (S3 names none); it is still a trump, so a hand
  holding it is never "ciego".
- The hand is the cards the player holds now (S1: "his current cards"): 0 to 3 cards, so "flus"
  needs three cards still in hand. The vira is out of play: a hand holding it is refused.
- "envido" is always offered; "ciego" whenever no card is a trump.

>>> sorted(senas(["2c", "12c", "4o"], vira="5c", team_size=3))
['envido', 'malilla', 'rey']
>>> sorted(senas("2o 7e 3c", vira="4o", team_size=5))
['2 de oros', 'envido']
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import SUITS, Card, parse_cards
from engine.envite.ranking import is_trump, suit_of

ENVITE_SENAS: tuple[str, ...] = (
    "malilla",
    "3 de bastos",
    "caballo de bastos",
    "sota de oros",
    "5 de oros",
    "2 de oros",
    "as de oros",
    "rey",
    "caballo",
    "triunfos pequeños",
    "flus",
    "ciego",
    "envido",
)
"""Every seña of S3, in its table's order (the order to show them in)."""

FIXED_NAMES: dict[str, str] = {
    "3b": "3 de bastos",
    "11b": "caballo de bastos",
    "10o": "sota de oros",
    "5o": "5 de oros",
    "2o": "2 de oros",
    "1o": "as de oros",
}
"""The seña of each card that some team size makes a fixed trump (S3)."""

VIRA_SUIT_NAMES: dict[int, str] = {
    2: "malilla",
    12: "rey",
    11: "caballo",
    1: "triunfos pequeños",
    7: "triunfos pequeños",
    6: "triunfos pequeños",
    5: "triunfos pequeños",
    4: "triunfos pequeños",
    3: "triunfos pequeños",
}
"""The seña of a vira-suit card that is not a fixed trump, by rank (S3; the sota has none)."""


def is_fixed_trump(card: Card, team_size: int) -> bool:
    """Whether ``card`` is a fixed trump at this team size (E3: a trump whatever the vira).

    Asked of the ranking with a vira of another suit, so the vira suit cannot make it a trump.

    >>> is_fixed_trump(Card.parse("2o"), 5), is_fixed_trump(Card.parse("2o"), 4)
    (True, False)
    """
    other_suit = next(s for s in SUITS if s != card.suit)
    return is_trump(card, Card(4, other_suit), team_size)


def card_sena(card: Card, vira: Card, team_size: int) -> str | None:
    """The one seña ``card`` gives, at its highest place in E3; ``None`` for a non-trump or the
    sota of the vira suit.

    >>> caballo, vira = Card.parse("11b"), Card.parse("4b")
    >>> card_sena(caballo, vira, 3), card_sena(caballo, vira, 2)
    ('caballo de bastos', 'caballo')
    """
    if not is_trump(card, vira, team_size):
        return None
    if is_fixed_trump(card, team_size):
        return FIXED_NAMES[str(card)]
    return VIRA_SUIT_NAMES.get(card.rank)


def senas(
    hand: Iterable[Card | str] | str, vira: Card | str = "5c", team_size: int = 3
) -> frozenset[str]:
    """The señas (S3 names) that an envite hand supports with this vira and team size (2..6).

    ``hand`` is the cards the player holds now (at most three, distinct, never the vira).

    >>> sorted(senas("10o 2o 3b", vira="7o", team_size=2))
    ['envido', 'malilla']
    >>> sorted(senas("10o 2o 3b", vira="7o", team_size=5))
    ['2 de oros', '3 de bastos', 'envido', 'flus', 'sota de oros']
    >>> sorted(senas("12e 7c 1b", vira="5o", team_size=6))
    ['ciego', 'envido']
    """
    vira_card = Card.parse(vira)
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(Card.parse(c) for c in hand)
    if not 2 <= team_size <= 6:
        raise ValueError(f"team size must be 2..6, not {team_size}")
    if len(cards) > 3:
        raise ValueError(f"an envite hand has at most 3 cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("a hand cannot hold the same card twice")
    if vira_card in cards:
        raise ValueError(f"the vira {vira_card} is out of play: no hand holds it")
    found = {"envido"}
    for card in cards:
        name = card_sena(card, vira_card, team_size)
        if name is not None:
            found.add(name)
    if not any(is_trump(card, vira_card, team_size) for card in cards):
        found.add("ciego")
    if len(cards) == 3 and len({suit_of(card, vira_card, team_size) for card in cards}) == 1:
        found.add("flus")
    return frozenset(found)
