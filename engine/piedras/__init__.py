"""Mus a piedras: individual five-card Mus where you get rid of your stones (rules/piedras.md).

Hand evaluation and comparisons are those of Mus (``engine.mus.evaluation``). Points the rules
leave open, decided here:

- An órdago moves no stone when called or accepted. When settled, the worst hand among its
  players takes the lance's deposit and the whole piles of the others (not bounded by the cap,
  which limits numbered bets); they are freed and leave the hand at once. Their stakes in
  earlier deposits stay there; a deposit whose players were all freed goes to the plate.
- An órdago with every player still in the hand is settled at once, in any lance: the worst
  takes every pile and every deposit and loses the juego. A settled órdago lance puts no value.
- When one player is left in the re-envites he wins by refusal like a first envite nobody
  accepted: 1 stone to the plate at once (if he has one), the lance value too in pares, juego
  and punto at the end.
- First envite: only ``quiero``/``no quiero``. Re-envites: ``paso`` and ``quiero`` both stay
  (matching a raise); ``envido N`` and ``N más`` both raise by N (at least 1; plain envido 2);
  ``no quiero`` only facing a raise; facing an órdago only ``quiero``/``no quiero``.
- The cap (P4) bounds numbered bets and raises: the level may not pass the smallest
  ``put + pile`` among the players still in the lance. An órdago is not bounded by it, but a
  player still in the lance with an empty pile (he bet all he had) caps the others completely:
  no raise and no órdago any more. So if a player entitled to a lance has no stone in his pile
  nobody can bet: the lance is en paso at once.
- Seat numbers grow to the right: the mano, the deal and the first envite go right (+1); the
  first re-envite round goes left. A round "ending with" a player lets him speak last, and he
  may raise again (the seed: the first bettor, last to speak, "puede iniciar una nueva ronda").
- En paso winners are found at the end of the hand among the players still in it.
- The juego ends as soon as only one player still has stones in his pile or a claim on an
  unsettled deposit (a place in a lance with equal bets or a pending órdago).

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
