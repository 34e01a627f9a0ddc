"""Table options of Envite canario (rules/envite.md E1, E4, E6)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Options(BaseModel):
    """Envite table options; defaults as in rules/envite.md.

    >>> Options().chicos, Options().mocho, Options().renuncio
    (2, False, False)
    >>> Options(chicos=3).chicos
    3
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    chicos: Literal[2, 1, 3, 4] = 2
    """Chicos that win the game (E6): 2 is best of three."""
    mocho: bool = False
    """Odd numbers (E1): with an odd player count the short team gets the mocho, a ghost seat whose
    three cards its mandador plays. Without it the player count must be even (a missing player can
    still be a computer player seated by the bot)."""
    renuncio: bool = False
    """Modo renuncio (E4): card plays that break follow-suit/arrastre are accepted; once a player
    was seen not to follow, any opponent may call ``renuncio`` before the round ends: a true call
    scores stake + 2 for the caller's team, a false one stake + 2 for the accused team."""
    sinsenas: bool = False
    """rules/senas.md S1: no señas at this table (they are on by default)."""
    senasvistas: bool = False
    """S4: opponents may catch a seña, each with probability ``pillar``."""
    pillar: float = Field(default=0.15, ge=0.0, le=1.0)
    """S4: the chance that one opponent catches one seña (with ``senasvistas``)."""
