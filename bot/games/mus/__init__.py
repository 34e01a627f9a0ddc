"""Classic Mus at the table: the game object the registry lists (rules/mus.md)."""
