"""Envite canario at the table: the game object the registry lists (rules/envite.md)."""
