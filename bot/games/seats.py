"""Who sits at a table and what its message logs: the parts of the table document every game
reads (:class:`bot.games.base.TableView`), apart from the table's transitions.

>>> Player(user_id=-1, name="Bea", bot_level="normal").shown
'🤖 Bea'
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["lobby", "playing", "over", "cancelled"]
"""Where a table is in its life."""


class Player(BaseModel):
    """A seated player: Telegram user id and display name (escaped when rendered).

    ``team`` (0 or 1) in games played in two teams: chosen in the lobby, else by join order.
    """

    model_config = ConfigDict(extra="ignore")

    user_id: int
    name: str
    team: int | None = None
    bot_level: str | None = None
    """A computer player's level (``facil``/``normal``): its ``user_id`` is negative (never a
    Telegram user's) and it gets no private messages."""
    away: bool = False
    """A person the computer plays for (his turns timed out): back with "Vuelvo"."""
    misses: int = 0
    """This person's own turns timed out in a row."""
    free: bool = False
    """The seat was left mid-game (``/salir``, ``/sustituir``): the computer plays it until
    someone presses "Sentarme"."""
    reserved: str | None = None
    """A free seat kept for this username (``/sustituir @usuario``), lower case."""

    @property
    def computer(self) -> bool:
        """A computer seat, or a person the computer plays for now."""
        return self.bot_level is not None or self.away

    @property
    def shown(self) -> str:
        """The name in every list: 🤖 marks a seat the computer plays (unescaped)."""
        return f"🤖 {self.name}" if self.computer else self.name


class LogEntry(BaseModel):
    """One public event (or a bot note such as ``timeout``) shown in the table message."""

    model_config = ConfigDict(extra="ignore")

    kind: str
    data: dict[str, Any] = Field(default_factory=dict)
