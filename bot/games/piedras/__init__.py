"""Mus a piedras at the table: the game object the registry lists (rules/piedras.md)."""
