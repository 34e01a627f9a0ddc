"""Table options of Mus a piedras (rules/piedras.md P1, P3; card rules of mus.md M1, M3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Options(BaseModel):
    """Mus a piedras table options; defaults as in rules/piedras.md.

    ``reyes`` and ``real`` are the Mus card rules (``engine.mus.evaluation.CardRules``).

    >>> o = Options()
    >>> o.stones, o.losses, o.reyes, o.real, o.tanteo_ampliado
    (8, 1, 8, False, False)
    >>> Options(stones=5, losses=2).losses
    2
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    stones: Literal[8, 5, 10] = 8
    """Stones each player gets at the start of every juego (P1)."""
    losses: int = 1
    """Juegos a player may lose before he is out of the match (P1); at least 1."""
    reyes: Literal[8, 4] = 8
    """8: every 3 counts as a rey and every 2 as an as; 4: they keep their own rank (M1)."""
    real: bool = False
    """La real: 7+7+7+figure (31 real) beats any other 31 (M3)."""
    tanteo_ampliado: bool = False
    """31 real puts 5, a 33 of 7+6+two 10-point cards puts 4 (P3; values only)."""

    def model_post_init(self, context: object, /) -> None:
        if self.losses < 1:
            raise ValueError("losses must be at least 1")
