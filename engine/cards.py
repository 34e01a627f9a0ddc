"""The Spanish 40-card deck and its text notation.

A card is written as its rank number and suit letter: ``"12o"`` is the rey de oros, ``"1b"`` the
as de bastos. Ranks are 1-7, 10 (sota), 11 (caballo), 12 (rey); suits are ``o`` oros, ``c`` copas,
``e`` espadas, ``b`` bastos.

>>> c = Card.parse("12O")
>>> str(c), c.rank, c.suit
('12o', 12, 'o')
>>> [str(x) for x in parse_cards("1b, 7e 3c")]
['1b', '7e', '3c']
>>> len(DECK), DECK[c.index] is c
(40, True)
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

RANKS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
SUITS: tuple[str, ...] = ("o", "c", "e", "b")
SUIT_NAMES: dict[str, str] = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}

_CARD_RE = re.compile(r"^(1[0-2]|[1-7])([ocebOCEB])$")


class InvalidCard(ValueError):
    """Raised when a text is not a card of the Spanish 40-card deck."""


class Card:
    """One card of the Spanish deck. Cards are interned: ``Card.parse`` returns shared objects."""

    __slots__ = ("_text", "index", "rank", "suit")
    _interned: ClassVar[dict[str, Card]] = {}

    rank: int
    suit: str
    index: int
    """Position in :data:`DECK` (0-39): a plain integer key for fast tables."""
    _text: str

    def __init__(self, rank: int, suit: str) -> None:
        if rank not in RANKS or suit not in SUITS:
            raise InvalidCard(f"{rank}{suit}")
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "_text", f"{rank}{suit}")
        object.__setattr__(self, "index", SUITS.index(suit) * len(RANKS) + RANKS.index(rank))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Return the card written as ``text`` (case-insensitive), e.g. ``Card.parse("7e")``."""
        if isinstance(text, Card):
            return text
        card = cls._interned.get(text)
        if card is not None:
            return card
        m = _CARD_RE.match(text.strip())
        if not m:
            raise InvalidCard(text)
        return cls._interned[f"{int(m.group(1))}{m.group(2).lower()}"]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other._text == self._text)

    def __hash__(self) -> int:
        return hash(self._text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (self._text,))

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls.parse,
            serialization=core_schema.plain_serializer_function_ser_schema(str),
            json_schema_input_schema=core_schema.str_schema(),
        )


for _suit in SUITS:
    for _rank in RANKS:
        Card._interned[f"{_rank}{_suit}"] = Card(_rank, _suit)

DECK: tuple[Card, ...] = tuple(Card.parse(f"{r}{s}") for s in SUITS for r in RANKS)
"""The 40 cards, suit by suit (oros, copas, espadas, bastos), each from as to rey."""


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, or a list of card texts.

    >>> [str(c) for c in parse_cards(["12o", "3C"])]
    ['12o', '3c']
    """
    if isinstance(text, str):
        parts: Iterable[str | Card] = [p for p in re.split(r"[\s,]+", text) if p]
    else:
        parts = text
    return tuple(Card.parse(p) for p in parts)


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of some cards, separated by spaces."""
    return " ".join(str(c) for c in cards)


T = TypeVar("T")


def _steps(n: int) -> tuple[tuple[int, int, int], ...]:
    """The Fisher-Yates steps of a list of ``n``: ``(i, i + 1, bits of i + 1)``."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))


_STEPS = tuple(_steps(n) for n in range(len(DECK) + 1))


def shuffled(seed: str, items: Sequence[T]) -> list[T]:
    """A new list: ``items`` as ``random.Random(seed).shuffle`` leaves them, bit for bit.

    The same Fisher-Yates swaps and the same ``getrandbits`` draws as CPython's ``shuffle``
    (``_randbelow``: draw ``k`` bits until below the bound), inlined because every deal of every
    game comes here (a test checks it against ``random.shuffle``).

    >>> cards = list(DECK)
    >>> random.Random("7/1/deal").shuffle(cards)
    >>> shuffled("7/1/deal", DECK) == cards
    True
    """
    out = list(items)
    n = len(out)
    getrandbits = random.Random(seed).getrandbits
    for i, size, bits in _STEPS[n] if n < len(_STEPS) else _steps(n):
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        out[i], out[j] = out[j], out[i]
    return out
