"""Classic Mus for four players in two pairs (rules/mus.md)."""

from engine.mus.evaluation import LANCES, HandValue, Lance, evaluate, lance_winner
from engine.mus.options import Options

__all__ = ["LANCES", "HandValue", "Lance", "Options", "evaluate", "lance_winner"]
