"""Calibration of the Mus computer player's win estimates: ``python bench/mus_calibration.py
[--vacas 20] [--against self|tight|loose|...]``.

Plays seeded vacas (señas on) with ``normal`` on seats {0,2} (and {1,3} too with ``self``) and,
at every lance decision of ours, records the player's estimated chance of winning the lance
(``engine.mus.reckon.win_chance``) and whether the pair won it (from all four hands). Prints, per
decision kind, the mean estimate against the observed frequency, overall and in bins of 0.2,
and the expected calibration error (the bins' gaps weighed by their size). The kinds: ``open``
(a bet or a pass with no bet on the table), ``answer`` (any answer to an envido or a raise),
and, among the answers, ``quiero`` (it was accepted) and ``raise`` (it was raised, to a number
or órdago); ``ordago`` (any answer to an órdago). tests/mus/test_ai_reading.py checks that the
error of the answers, the raises and the órdago answers stays within 0.1.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mus_rivals import RIVALS

from engine.mus import (
    LANCES,
    ai,
    apply,
    lance_winners,
    legal_actions,
    legal_senas,
    new_game,
    reckon,
    view,
)

KINDS = ("open", "answer", "quiero", "raise", "ordago")


def _kinds(ordago: bool, bet: bool, chosen: str) -> list[str]:
    """The decision kinds one decision counts in: its situation, and what it chose."""
    if ordago:
        return ["ordago"]
    if not bet:
        return ["open"]
    if chosen == "quiero":
        return ["answer", "quiero"]
    return ["answer", "raise"] if chosen in ("envido", "ordago") else ["answer"]


def play(vacas: int, against: str) -> dict[str, list[tuple[float, bool]]]:
    seen: dict[str, list[tuple[float, bool]]] = {k: [] for k in KINDS}
    for seed in range(vacas):
        rng = random.Random(seed)
        s = new_game(seed=seed)
        while not s.is_over:
            for seat in range(4):
                if against == "self" or seat % 2 == 0:
                    for sena in ai.choose_senas(view(s, seat), legal_senas(s, seat), rng):
                        s = apply(s, seat, sena).state
            seat = s.to_act[0]
            v, legal = view(s, seat), legal_actions(s, seat)
            if against == "self" or seat % 2 == 0:
                move = ai.choose(v, legal, rng)
                if s.phase == "lance" and len(legal) > 1:
                    p = reckon.win_chance(v, random.Random(seed * 1000 + len(s.history)))
                    winner = lance_winners(s.hands, s.mano)[LANCES.index(s.lance)]
                    won = winner is not None and winner % 2 == seat % 2
                    for kind in _kinds(v.ordago, v.bet_pair is not None, move.kind):
                        seen[kind].append((p, won))
            else:
                move = RIVALS[against](v, legal, rng)
            s = apply(s, seat, move).state
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vacas", type=int, default=20)
    parser.add_argument("--against", default="self", choices=("self", *RIVALS))
    args = parser.parse_args()
    seen = play(args.vacas, args.against)
    print(f"normal against {args.against}, {args.vacas} seeded vacas")
    for kind, xs in seen.items():
        if not xs:
            continue
        bins: dict[int, list[tuple[float, bool]]] = {}
        for p, won in xs:
            bins.setdefault(min(4, int(p * 5)), []).append((p, won))
        gap = sum(abs(sum(p for p, _ in b) - sum(w for _, w in b)) for b in bins.values())
        cells = [
            f"{k / 5:.1f}-{(k + 1) / 5:.1f}: {sum(p for p, _ in b) / len(b):.2f}"
            f" vs {sum(w for _, w in b) / len(b):.2f} ({len(b)})"
            for k, b in sorted(bins.items())
        ]
        mean_p = sum(p for p, _ in xs) / len(xs)
        mean_w = sum(w for _, w in xs) / len(xs)
        print(
            f"  {kind}: {len(xs)} decisions, estimate {mean_p:.3f} vs won {mean_w:.3f},"
            f" calibration error {gap / len(xs):.3f}"
        )
        print("    " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
