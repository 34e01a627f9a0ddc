"""Envite canario at the table: the game object the registry lists (rules/envite.md)."""

from bot.games.envite.adapter import ENVITE, EnviteGame

__all__ = ["ENVITE", "EnviteGame"]
