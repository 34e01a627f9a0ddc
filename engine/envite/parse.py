"""Reading players' words as envite actions (rules/envite.md E7).

Spanish first, English aliases too. A bare card (``"12o"``) means playing it.

>>> str(parse_action("Tiro 12O")), str(parse_action("play 3c")), str(parse_action("1b"))
('tiro 12o', 'tiro 3c', 'tiro 1b')
>>> [str(parse_action(t)) for t in ("envido", "raise", "siete", "chico fuera", "fold", "knock")]
['envido', 'envido', 'siete', 'chico fuera', 'no quiero', 'tumbo']
"""

from __future__ import annotations

from engine.cards import InvalidCard, parse_cards
from engine.core import Action, normalize, parse_words
from engine.envite.senas import ENVITE_SENAS
from engine.senas_play import parse_sena

PHRASES: dict[str, str] = {
    # Spanish (E7)
    "tiro": "tiro",
    "envido": "envido",
    "envite": "envido",
    "siete": "siete",
    "nueve": "nueve",
    "chico fuera": "chico_fuera",
    "quiero": "quiero",
    "no quiero": "no_quiero",
    "tumbo": "tumbo",
    "no tumbo": "no_tumbo",
    "renuncio": "renuncio",
    # English aliases (E7)
    "play": "tiro",
    "bet": "envido",
    "raise": "envido",
    "accept": "quiero",
    "fold": "no_quiero",
    "knock": "tumbo",
    "pass": "no_tumbo",
    "renege": "renuncio",
}
"""Normalized words -> action kind."""


def parse_action(text: str) -> Action:
    """The action a player's text names; ``unknown_action``/``bad_card``/``bad_amount`` else.

    >>> parse_action("no quiero")
    Action(kind='no_quiero', amount=None, cards=())
    """
    sena = parse_sena(text, ENVITE_SENAS)
    if sena is not None:
        return sena
    plain = normalize(text)
    if plain and plain.split(" ")[0] not in PHRASES and plain[0].isdigit():
        try:
            cards = parse_cards(plain)
        except InvalidCard:
            cards = ()
        if len(cards) == 1:
            return Action("tiro", cards=cards)
    return parse_words(text, PHRASES)
