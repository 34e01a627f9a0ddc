"""What the winner of a lance puts on the plate (rules/piedras.md P3).

>>> from engine.mus.evaluation import evaluate
>>> lance_value("pares", evaluate("12o 12c 5e 5b"), Options())
3
>>> lance_value("juego", evaluate("7o 7c 7e 12b"), Options(tanteo_ampliado=True))
5
"""

from __future__ import annotations

from engine.mus.evaluation import HandValue
from engine.piedras.options import Options

PARES_VALUES = {"par": 1, "medias": 2, "duples": 3}


def is_33_ampliado(value: HandValue) -> bool:
    """A juego of 33 made of a 7, a 6 and two 10-point cards (P3 tanteo ampliado).

    >>> from engine.mus.evaluation import evaluate
    >>> is_33_ampliado(evaluate("7o 6c 10e 3b")), is_33_ampliado(evaluate("12o 11c 10e 3b"))
    (True, False)
    """
    points = sorted(10 if r >= 10 else r for r in value.ranks)
    return points == [6, 7, 10, 10]


def lance_value(lance: str, value: HandValue, options: Options) -> int:
    """Stones the winner of ``lance`` with the hand ``value`` puts on the plate (P3).

    >>> from engine.mus.evaluation import evaluate
    >>> [lance_value(x, evaluate("7o 6c 10e 12b"), Options()) for x in ("grande", "juego")]
    [1, 2]
    >>> lance_value("juego", evaluate("7o 6c 10e 12b"), Options(tanteo_ampliado=True))
    4
    """
    if lance == "pares":
        return PARES_VALUES[value.pares] if value.pares else 0
    if lance == "juego":
        if not value.juego:
            return 0
        if options.tanteo_ampliado:
            if value.points == 31 and value.real:
                return 5
            if value.points == 33 and is_33_ampliado(value):
                return 4
        return 3 if value.points == 31 else 2
    return 1
