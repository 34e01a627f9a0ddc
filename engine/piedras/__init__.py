"""Mus a piedras: individual five-card Mus where you get rid of your stones (rules/piedras.md).

>>> from engine import piedras
>>> s = piedras.new_game(players=5, options=piedras.Options(stones=10), seed=9)
>>> s.score, s.plate, s.to_act
((10, 10, 10, 10, 10), 0, (0, 1, 2, 3, 4))
"""

from engine.core import IllegalAction
from engine.mus.evaluation import evaluate
from engine.piedras.actions import parse_action
from engine.piedras.game import apply, default_action, legal_actions, new_game
from engine.piedras.options import Options
from engine.piedras.state import Betting, LanceRecord, PiedrasState, from_json, to_json
from engine.piedras.values import lance_value
from engine.piedras.view import PiedrasView, view

__all__ = [
    "Betting",
    "IllegalAction",
    "LanceRecord",
    "Options",
    "PiedrasState",
    "PiedrasView",
    "apply",
    "default_action",
    "evaluate",
    "from_json",
    "lance_value",
    "legal_actions",
    "new_game",
    "parse_action",
    "to_json",
    "view",
]
