"""Reading Mus actions from text: Spanish words first, English aliases (rules/mus.md M6).

>>> str(parse_action("No hay mus")), str(parse_action("5 más")), str(parse_action("fold"))
('corto', 'envido 5', 'no quiero')
>>> parse_action("descarto 12o 3c").cards == parse_action("discard 12o, 3c").cards
True
"""

from __future__ import annotations

from engine.core import MUS_BETTING_PHRASES, Action, parse_words
from engine.mus.senas import MUS_SENAS
from engine.senas_play import parse_sena

PHRASES: dict[str, str] = {
    **MUS_BETTING_PHRASES,
    "mus": "mus",
    "no hay mus": "corto",
    "corto": "corto",
    "cut": "corto",
}
"""Normalized words (no accents, lower case) to action kinds."""

KINDS = frozenset(PHRASES.values())


def parse_action(text: str) -> Action:
    """Parse one Mus action; refuses with ``unknown_action``, ``bad_amount`` or ``bad_card``.

    ``envido N`` and ``N más`` both become ``Action("envido", amount=N)``: N is the opening bet
    when no bet is on the table, else N more on top of it (M4).

    >>> parse_action("Órdago")
    Action(kind='ordago', amount=None, cards=())
    >>> parse_action("raise 5")
    Action(kind='envido', amount=5, cards=())
    >>> str(parse_action("sign two kings"))
    'seña dos reyes'
    """
    return parse_sena(text, MUS_SENAS) or parse_words(text, PHRASES)
