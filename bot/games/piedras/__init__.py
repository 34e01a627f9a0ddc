"""Mus a piedras at the table: the game object the registry lists (rules/piedras.md)."""

from bot.games.piedras.adapter import PIEDRAS, PiedrasGame

__all__ = ["PIEDRAS", "PiedrasGame"]
