"""Reading players' words (rules/piedras.md P6): Spanish first, English aliases.

>>> [str(parse_action(x)) for x in ("Órdago", "5 más", "fold", "discard 12o", "bet")]
['ordago', 'envido 5', 'no quiero', 'descarto 12o', 'envido']
"""

from __future__ import annotations

from engine.core import MUS_BETTING_PHRASES, Action, parse_words

PHRASES: dict[str, str] = MUS_BETTING_PHRASES


def parse_action(text: str) -> Action:
    """Parse a player's text into an :class:`Action` (``IllegalAction`` if it is not one).

    >>> parse_action("envido 5"), parse_action("raise 3").amount
    (Action(kind='envido', amount=5, cards=()), 3)
    """
    return parse_words(text, PHRASES)
