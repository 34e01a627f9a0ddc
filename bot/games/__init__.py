"""The games the bot can host, by the name used after ``/nueva``."""

from __future__ import annotations

from bot.games.base import GameAdapter, OptionError
from bot.games.mus import MUS

GAMES: dict[str, GameAdapter] = {MUS.name: MUS}
DEFAULT_GAME = MUS.name


def get_game(name: str) -> GameAdapter:
    """The adapter of a game by name (``KeyError`` if the bot does not host it)."""
    return GAMES[name]


__all__ = ["DEFAULT_GAME", "GAMES", "GameAdapter", "OptionError", "get_game"]
