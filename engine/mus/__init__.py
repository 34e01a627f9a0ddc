"""Classic Mus for four players in two pairs (rules/mus.md).

>>> s = new_game(seed=7)
>>> t = apply(s, 0, "corto")
>>> t.state.lance, [str(a) for a in legal_actions(t.state, 0)]
('grande', ['paso', 'envido', 'envido 3', 'envido 4', 'envido 5', 'envido 10', 'ordago'])
"""

from engine.core import IllegalAction
from engine.mus.actions import parse_action
from engine.mus.evaluation import (
    LANCES,
    CardRules,
    HandValue,
    Lance,
    best_seat,
    card_weights,
    evaluate,
    hand_classes,
    hand_value,
    lance_winner,
    lance_winners,
    worst_seat,
)
from engine.mus.events import EVENT_KINDS
from engine.mus.game import apply, default_action, hand_scores, legal_actions, new_game, values
from engine.mus.options import Options
from engine.mus.senas import senas as senas
from engine.mus.senas_play import coming_senas, legal_senas
from engine.mus.state import LanceResult, MusState, from_json, to_json
from engine.mus.view import MusView, amarracos, view

__all__ = [
    "EVENT_KINDS",
    "LANCES",
    "CardRules",
    "HandValue",
    "IllegalAction",
    "Lance",
    "LanceResult",
    "MusState",
    "MusView",
    "Options",
    "amarracos",
    "apply",
    "best_seat",
    "card_weights",
    "coming_senas",
    "default_action",
    "evaluate",
    "from_json",
    "hand_classes",
    "hand_scores",
    "hand_value",
    "lance_winner",
    "lance_winners",
    "legal_actions",
    "legal_senas",
    "new_game",
    "parse_action",
    "to_json",
    "values",
    "view",
    "worst_seat",
]
