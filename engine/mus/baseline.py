"""A simple rule-based Mus player, the yardstick for the computer player (``bench/ai.py``).

It bets with a strong hand in the lance, accepts with an average one, refuses otherwise, and
never goes órdago without 31 (rules/mus.md M3, M4). Like :mod:`engine.mus.ai` it sees only one
seat's :class:`~engine.mus.view.MusView`.

>>> import random
>>> from engine.mus import legal_actions, new_game, view
>>> s = new_game(seed=1, hands=["12o 12c 3e 1b", "7o 6c 5e 4b", "12e 11c 7e 4o", "10o 7c 6e 5o"])
>>> str(choose(view(s, 0), legal_actions(s, 0), random.Random(1)))
'corto'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.core import Action
from engine.mus.evaluation import HandValue, hand_value
from engine.mus.view import MusView


@dataclass(frozen=True, slots=True)
class _Rules:
    reyes: int
    real: bool


def _find(legal: Sequence[Action], kind: str, amount: int | None = None) -> Action | None:
    for a in legal:
        if a.kind == kind and a.amount == amount:
            return a
    return None


def _grade(v: HandValue, lance: str | None) -> int:
    """2 strong, 1 average, 0 weak in ``lance``."""
    ranks = v.ranks
    if lance == "grande":
        reyes = ranks.count(12)
        return 2 if reyes >= 2 else 1 if reyes == 1 else 0
    if lance == "chica":
        ases = ranks.count(1)
        return 2 if ases >= 2 else 1 if ases == 1 or ranks[-1] <= 4 else 0
    if lance == "pares":
        if v.pares in ("medias", "duples"):
            return 2
        return 1 if v.pares == "par" and v.pares_key >= 256 + 16 * 8 else 0  # par of sotas up
    if lance == "juego":
        return 2 if v.points in (31, 32) else 1 if v.points == 40 else 0
    return 2 if v.points >= 29 else 1 if v.points >= 26 else 0


def choose(
    view: MusView, legal_actions: Sequence[Action], rng: random.Random, level: str = "baseline"
) -> Action:
    """The rule-based move for ``view.seat``; one of ``legal_actions``. ``rng`` and ``level``
    are accepted for the common signature and not used."""
    legal = list(legal_actions)
    if not legal:
        raise ValueError("no legal action")
    cards = tuple(Card.parse(c) for c in view.cards or ())
    rules = _Rules(view.reyes, view.real)
    v = hand_value(cards, rules)
    kind = legal[0].kind
    if kind in ("mus", "corto"):
        strong = v.pares in ("medias", "duples") or v.points in (31, 32) or v.ranks[:2] == (12, 12)
        cut = strong or view.mus_round >= 3
        return _find(legal, "corto" if cut else "mus") or legal[0]
    if kind == "descarto":
        keep = {12, 1}
        out = tuple(
            c for c, r in zip(cards, _effective(cards, view.reyes), strict=True) if r not in keep
        )
        if not out:  # four reyes and ases: change the lowest-value card
            out = (min(cards, key=lambda c: (_effective((c,), view.reyes)[0] == 12, c.rank)),)
        for a in legal:
            if set(a.cards) == set(out):
                return a
        return legal[-1]
    grade = _grade(v, view.lance)
    thirty_one = view.lance == "juego" and v.points == 31
    if view.bet_pair is None:
        if grade == 2:
            return _find(legal, "envido") or legal[0]
        return _find(legal, "paso") or legal[0]
    if view.ordago:
        return _find(legal, "quiero" if grade == 2 else "no_quiero") or legal[0]
    if thirty_one:
        return _find(legal, "ordago") or legal[0]
    return _find(legal, "quiero" if grade >= 1 else "no_quiero") or legal[0]


def _effective(cards: Sequence[Card], reyes: int) -> list[int]:
    if reyes != 8:
        return [c.rank for c in cards]
    return [12 if c.rank == 3 else 1 if c.rank == 2 else c.rank for c in cards]
