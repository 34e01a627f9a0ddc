"""Card ranking, trumps and the winner of a trick (rules/envite.md E3, E4).

The trump order depends on the team size ``k`` and the vira. Fixed trumps come first (as de oros,
2 de oros, 5 de oros, 3 de bastos, caballo de bastos, sota de oros, by ``k``), then the vira suit
from the malilla down. Each card ranks once at its highest place and the vira itself is out of
play, so nothing moves up to replace it.

>>> v = Card.parse("3c")
>>> [str(c) for c in trump_order(v, 3)][:5]
['3b', '11b', '10o', '2c', '12c']
>>> str(top_card(Card.parse("3b"), 3))
'11b'
>>> [str(c) for c in trump_order(Card.parse("10o"), 6)][:8]
['1o', '2o', '5o', '3b', '11b', '12o', '11o', '7o']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import DECK, Card

TRUMP = "t"
"""The effective suit of every trump, fixed trumps included (E3: they belong to the trump suit)."""

# E3: fixed trumps by the team size that adds them, highest first.
_FIXED: tuple[tuple[int, str], ...] = (
    (6, "1o"),
    (5, "2o"),
    (4, "5o"),
    (3, "3b"),
    (3, "11b"),
    (3, "10o"),
)
_VIRA_SUIT_ORDER = (2, 12, 11, 10, 1, 7, 6, 5, 4, 3)
_PLAIN_ORDER = (12, 11, 10, 1, 7, 6, 5, 4, 3, 2)
_PLAIN_KEY = {rank: len(_PLAIN_ORDER) - i for i, rank in enumerate(_PLAIN_ORDER)}


@lru_cache(maxsize=512)
def trump_order(vira: Card, k: int) -> tuple[Card, ...]:
    """The trumps in play, highest first, for team size ``k`` (2..6) and this vira (E3)."""
    if not 2 <= k <= 6:
        raise ValueError(f"team size must be 2..6, not {k}")
    order: list[Card] = [Card.parse(text) for size, text in _FIXED if k >= size]
    for rank in _VIRA_SUIT_ORDER:
        card = Card.parse(f"{rank}{vira.suit}")
        if card not in order:
            order.append(card)
    return tuple(card for card in order if card != vira)


@lru_cache(maxsize=512)
def _trump_keys(vira: Card, k: int) -> dict[Card, int]:
    order = trump_order(vira, k)
    return {card: 100 + len(order) - i for i, card in enumerate(order)}


@dataclass(frozen=True, slots=True)
class Ranker:
    """Everything about one vira and team size, keyed by card text for speed (hot paths).

    ``suits[text]``: the suit a card counts as (:data:`TRUMP` for trumps); ``trumps[text]``:
    the key of a trump (above every plain key); ``top``: the card never forced out (E4).
    """

    suits: dict[str, str]
    trumps: dict[str, int]
    top: Card

    def key(self, card: Card, led: str) -> int:
        """Same as :func:`card_key` (higher wins)."""
        text = card._text
        key = self.trumps.get(text)
        if key is not None:
            return key
        return _PLAIN_KEY[card.rank] if card.suit == led else 0


_RANKERS: dict[int, Ranker] = {}
"""Rankers by ``k * 40 + vira.index`` (an int key: no tuple to build and hash on every call)."""


def ranker(vira: Card, k: int) -> Ranker:
    """The (cached) :class:`Ranker` of this vira and team size.

    >>> r = ranker(Card.parse("4c"), 3)
    >>> r.suits["10o"], r.suits["12o"], str(r.top)
    ('t', 'o', '3b')
    """
    found = _RANKERS.get(k * 40 + vira.index)
    if found is None:
        keys = _trump_keys(vira, k)
        found = Ranker(
            suits={str(c): TRUMP if c in keys else c.suit for c in DECK},
            trumps={str(c): key for c, key in keys.items()},
            top=top_card(vira, k),
        )
        _RANKERS[k * 40 + vira.index] = found
    return found


def top_card(vira: Card, k: int) -> Card:
    """The highest card in play: never forced out by an arrastre (E4)."""
    return trump_order(vira, k)[0]


def is_trump(card: Card, vira: Card, k: int) -> bool:
    """Whether ``card`` is a trump (fixed, or of the vira suit).

    >>> sota, vira = Card.parse("10o"), Card.parse("4c")
    >>> is_trump(sota, vira, 3), is_trump(sota, vira, 2)
    (True, False)
    """
    return card in _trump_keys(vira, k)


def suit_of(card: Card, vira: Card, k: int) -> str:
    """The suit a card counts as for following suit: :data:`TRUMP` for every trump (E3)."""
    return TRUMP if card in _trump_keys(vira, k) else card.suit


def card_key(card: Card, led: str, vira: Card, k: int) -> int:
    """Higher wins: trumps above cards of the led suit ``led``; any other card is 0 (E3)."""
    key = _trump_keys(vira, k).get(card)
    if key is not None:
        return key
    if card.suit == led:
        return _PLAIN_KEY[card.rank]
    return 0


def trick_winner(cards: Sequence[Card], vira: Card, k: int) -> int:
    """Index (in playing order) of the card that wins a trick; ``cards[0]`` was led (E3, E4).

    >>> trick_winner([Card.parse(t) for t in ("7o", "12e", "4o", "1b")], Card.parse("6c"), 2)
    0
    """
    r = ranker(vira, k)
    trumps = r.trumps
    led = r.suits[cards[0]._text]
    best, best_key = 0, -1
    for i, card in enumerate(cards):
        key = trumps.get(card._text)
        if key is None:
            key = _PLAIN_KEY[card.rank] if card.suit == led else 0
        if key > best_key:
            best, best_key = i, key
    return best


def plain_key(card: Card) -> int:
    """Rank of a card with no suit advantage (rey high, 2 low): the mandadores' draw (E1)."""
    return _PLAIN_KEY[card.rank]
