"""Classic Mus at the table: the game object the registry lists (rules/mus.md)."""

from bot.games.mus.adapter import MUS, MusGame

__all__ = ["MUS", "MusGame"]
