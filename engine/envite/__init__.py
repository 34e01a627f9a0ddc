"""Envite canario: two teams of 2 to 6, three cards each and a vira (rules/envite.md).

>>> import engine.envite as envite
>>> s = envite.new_game(players=6, seed=11)
>>> s.k, len(s.hands), s.score
(3, 6, (0, 0))
>>> envite.from_json(envite.to_json(s)) == s
True
"""

from engine.core import Action, Event, IllegalAction, Transition
from engine.envite.events import EVENT_KINDS
from engine.envite.game import (
    apply,
    default_action,
    legal_actions,
    new_game,
    opening_events,
    playable,
)
from engine.envite.options import Options
from engine.envite.parse import parse_action
from engine.envite.ranking import is_trump, top_card, trick_winner, trump_order
from engine.envite.senas import senas as senas
from engine.envite.senas_play import legal_senas
from engine.envite.state import EnviteState, Trick, from_json, to_json
from engine.envite.view import EnviteView, view

__all__ = [
    "EVENT_KINDS",
    "Action",
    "EnviteState",
    "EnviteView",
    "Event",
    "IllegalAction",
    "Options",
    "Transition",
    "Trick",
    "apply",
    "default_action",
    "from_json",
    "is_trump",
    "legal_actions",
    "legal_senas",
    "new_game",
    "opening_events",
    "parse_action",
    "playable",
    "to_json",
    "top_card",
    "trick_winner",
    "trump_order",
    "view",
]
