"""Table options of classic Mus (rules/mus.md M1, M3)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Mus table options; defaults as in rules/mus.md.

    >>> Options().reyes, Options().target, Options().juegos, Options().real
    (8, 40, 2, False)
    >>> Options(reyes=4, target=30).target
    30
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    reyes: Literal[8, 4] = 8
    """8: every 3 counts as a rey and every 2 as an as; 4: they keep their own rank (M1)."""
    target: Literal[40, 30] = 40
    """Points that win a juego (M1)."""
    juegos: int = 2
    """Juegos that win the vaca (M1); must be at least 1."""
    real: bool = False
    """La real: 7+7+7+figure (31 real) beats any other 31 (M3)."""
    sinsenas: bool = False
    """rules/senas.md S1: no señas at this table (they are on by default)."""
    senasvistas: bool = False
    """S4: opponents may catch a seña, each with probability ``pillar``."""
    pillar: float = Field(default=0.15, ge=0.0, le=1.0)
    """S4: the chance that one opponent catches one seña (with ``senasvistas``)."""

    def model_post_init(self, context: object, /) -> None:
        if self.juegos < 1:
            raise ValueError("juegos must be at least 1")
