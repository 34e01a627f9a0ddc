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
from functools import lru_cache

from engine.cards import Card

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
    led = suit_of(cards[0], vira, k)
    keys = [card_key(card, led, vira, k) for card in cards]
    return keys.index(max(keys))


def plain_key(card: Card) -> int:
    """Rank of a card with no suit advantage (rey high, 2 low): the mandadores' draw (E1)."""
    return _PLAIN_KEY[card.rank]
