"""What a Mus hand is worth and how a player holds it, from the engine's evaluation (M3).

>>> display_order(["1b", "3c", "7e", "12o"], {"reyes": 8})
['12o', '3c', '7e', '1b']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine.mus as mus
from engine.mus.evaluation import sort_for_display


def display_order(cards: Sequence[str], options: Mapping[str, Any]) -> list[str]:
    """High to low as the engine ranks them for grande (M3: with 8 reyes 3s are reyes).

    >>> display_order(["1b", "3c", "7e", "12o"], {"reyes": 8})
    ['12o', '3c', '7e', '1b']
    """
    return [str(c) for c in sort_for_display(list(cards), mus.Options(**options))]


def hand_worth(
    cards: Sequence[str], options: Mapping[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """Its pares and its juego or punto total (``28 al punto``), from the engine's evaluation
    (M3).

    >>> hand_worth(["12o", "3c", "1b", "7e"], {})
    [('pares.par', {}), ('worth.punto', {'n': 28})]
    """
    if len(cards) != 4:
        return []
    value = mus.evaluate(list(cards), mus.Options(**options))
    worth: list[tuple[str, dict[str, Any]]] = [
        (f"pares.{value.pares}", {}) if value.pares else ("worth.no_pares", {})
    ]
    worth.append(("worth.juego_of" if value.juego else "worth.punto", {"n": value.points}))
    return worth
