"""Mus opponents for ``bench/ai_mus.py``, written from rules/mus.md alone (M2-M5), not from
``engine/mus/ai.py`` nor ``engine/mus/baseline.py``: the computer player is measured against
play it was not derived from.

Each rival is ``choose(view, legal, rng) -> Action`` over one seat's view, like the computer
player. They read only their own four cards (through ``engine.mus.evaluate``, the rules'
comparison) and the bet on the table; they ignore the partner, the señas and the score.

- ``tight``: cuts only with a strong hand; bets only with a strong hand in the lance (M3 terms:
  two reyes for grande, two ases for chica, medias/duples or a pair of reyes for pares, 31/32
  for juego, 29+ for punto); accepts with a better-than-average one; raises only with the nuts;
  never goes órdago, and accepts one only with a strong hand.
- ``loose``: keeps asking mus; bets with an average hand, accepts with a weak one half the time,
  raises with a strong one, accepts an órdago with an average hand.
- exploit bots, ``tight`` except for one habit: ``calls_ordago`` accepts every órdago,
  ``always_bet`` bets and raises at every turn (never órdago, accepts one), ``always_ordago``
  goes órdago at every turn, ``always_accept`` accepts every bet, ``never_accept`` refuses every
  bet; ``nuts_only`` bets, raises and accepts only with the nuts in the lance
  (three reyes for grande, three ases for chica, duples, 31, 30 de punto), passes or refuses
  otherwise, and never goes órdago.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.core import Action
from engine.mus import HandValue, MusView, evaluate

Rival = Callable[[MusView, Sequence[Action], random.Random], Action]

WEAK, AVERAGE, STRONG, NUTS = 0, 1, 2, 3


def _pick(legal: Sequence[Action], kind: str, amount: int | None = None) -> Action | None:
    return next((a for a in legal if a.kind == kind and a.amount == amount), None)


def _hand(view: MusView) -> HandValue:
    return evaluate(list(view.cards or ()), _Rules(view.reyes, view.real))


class _Rules:
    def __init__(self, reyes: int, real: bool) -> None:
        self.reyes = reyes
        self.real = real


def grade(v: HandValue, lance: str | None) -> int:
    """How good the hand is in ``lance``, from M3's comparisons: WEAK..NUTS."""
    r = v.ranks  # effective ranks, high to low
    if lance == "grande":
        reyes = r.count(12)
        if reyes >= 3:
            return NUTS
        if reyes == 2:
            return STRONG
        return AVERAGE if reyes == 1 and r[1] >= 10 else WEAK
    if lance == "chica":
        ases = r.count(1)
        if ases >= 3:
            return NUTS
        if ases == 2:
            return STRONG if r[1] <= 4 else AVERAGE
        return AVERAGE if ases == 1 and r[1] <= 5 else WEAK
    if lance == "pares":
        if v.pares == "duples":
            return NUTS
        if v.pares == "medias" or (v.pares == "par" and r.count(12) == 2):
            return STRONG
        return AVERAGE if v.pares == "par" and max(r, key=r.count) >= 7 else WEAK
    if lance == "juego":
        if v.points == 31:
            return NUTS
        if v.points == 32:
            return STRONG
        return AVERAGE if v.points == 40 else WEAK
    # punto
    if v.points == 30:
        return NUTS
    if v.points >= 29:
        return STRONG
    return AVERAGE if v.points >= 27 else WEAK


def _strong_to_cut(v: HandValue) -> bool:
    return v.pares in ("medias", "duples") or v.points in (31, 32) or v.ranks[:2] == (12, 12)


def _discard(view: MusView, legal: Sequence[Action]) -> Action:
    """Keep reyes, ases and any card that makes pares; throw the rest (at least one card)."""
    ranks = dict(zip(view.cards or (), _effective_ranks(view), strict=True))
    counts = {r: list(ranks.values()).count(r) for r in ranks.values()}
    keep = {c for c, r in ranks.items() if r in (12, 1) or counts[r] >= 2}
    out = {c for c in ranks if c not in keep}
    if not out:  # everything is worth keeping: change the card that helps least
        out = {min(ranks, key=lambda c: (counts[ranks[c]], ranks[c] == 12, ranks[c]))}
    for a in legal:
        if {str(c) for c in a.cards} == out:
            return a
    return legal[-1]


def _effective_ranks(view: MusView) -> list[int]:
    out = []
    for text in view.cards or ():
        rank = int(text[:-1])
        if view.reyes == 8 and rank == 3:
            rank = 12
        elif view.reyes == 8 and rank == 2:
            rank = 1
        out.append(rank)
    return out


def _mus(view: MusView, legal: Sequence[Action], eager: int) -> Action:
    cut = _strong_to_cut(_hand(view)) or view.mus_round >= eager
    return _pick(legal, "corto" if cut else "mus") or legal[0]


def _rule_player(
    open_at: int, accept_at: int, raise_at: int, ordago_at: int, eager: int, loose: bool
) -> Rival:
    def choose(view: MusView, legal: Sequence[Action], rng: random.Random) -> Action:
        kind = legal[0].kind
        if kind in ("mus", "corto"):
            return _mus(view, legal, eager)
        if kind == "descarto":
            return _discard(view, legal)
        g = grade(_hand(view), view.lance)
        if view.bet_pair is None:
            return _pick(legal, "envido" if g >= open_at else "paso") or legal[0]
        if view.ordago:
            return _pick(legal, "quiero" if g >= ordago_at else "no_quiero") or legal[0]
        if g >= raise_at and (view.bet or 0) < 10:
            return _pick(legal, "envido") or legal[0]
        if g >= accept_at or (loose and g == accept_at - 1 and rng.random() < 0.5):
            return _pick(legal, "quiero") or legal[0]
        return _pick(legal, "no_quiero") or legal[0]

    return choose


tight = _rule_player(open_at=STRONG, accept_at=AVERAGE, raise_at=NUTS, ordago_at=STRONG,
                     eager=3, loose=False)  # fmt: skip
loose = _rule_player(open_at=AVERAGE, accept_at=AVERAGE, raise_at=STRONG, ordago_at=AVERAGE,
                     eager=6, loose=True)  # fmt: skip
nuts_only = _rule_player(open_at=NUTS, accept_at=NUTS, raise_at=NUTS, ordago_at=NUTS,
                         eager=3, loose=False)  # fmt: skip


def _habit(habit: Callable[[MusView, Sequence[Action]], Action | None]) -> Rival:
    def choose(view: MusView, legal: Sequence[Action], rng: random.Random) -> Action:
        if legal[0].kind in ("paso", "quiero", "no_quiero", "envido", "ordago"):
            chosen = habit(view, legal)
            if chosen is not None:
                return chosen
        return tight(view, legal, rng)

    return choose


calls_ordago = _habit(lambda v, legal: _pick(legal, "quiero") if v.ordago else None)
always_bet = _habit(lambda v, legal: _pick(legal, "envido") or _pick(legal, "quiero"))
always_ordago = _habit(lambda v, legal: _pick(legal, "ordago") or _pick(legal, "quiero"))
always_accept = _habit(lambda v, legal: _pick(legal, "quiero"))
never_accept = _habit(lambda v, legal: _pick(legal, "no_quiero"))

RIVALS: dict[str, Rival] = {
    "tight": tight,
    "loose": loose,
    "calls_ordago": calls_ordago,
    "always_bet": always_bet,
    "always_ordago": always_ordago,
    "always_accept": always_accept,
    "never_accept": never_accept,
    "nuts_only": nuts_only,
}
