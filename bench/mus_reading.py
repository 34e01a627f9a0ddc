"""What ``normal``'s bets say about its pair's hands: ``python bench/mus_reading.py [--vacas 60]``.

Plays seeded ``normal`` self-play vacas (señas on) and, at every opening decision (pass, envido
under 5, envido of 5 or more, órdago) and every answer to a bet (a raise against a quiero or a
refusal), records the better of the speaker's pair's two hands in the lance as the share of the
hands playing the lance it beats (``engine.mus.infer.tables().quantile``). For each bet kind and
lance it prints how often the bet was made per tenth of that share and the step that fits it
best (maximum likelihood over a grid): the ``PAIR_*`` constants of ``engine.mus.infer`` come
from it. A bet is read against the other choices of the same decision: an opening envido
against a pass, a bet of 5 or more against a pass or a smaller envido, a raise against a
quiero or a refusal, an órdago against any other choice.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.mus import LANCES, ai, apply, infer, legal_actions, legal_senas, new_game, view

Row = tuple[str, int, float]
"""(what was chosen: paso, envido, big, raise, answer or ordago; lance index; pair's best
share in the lance)."""


def _choice(kind: str, amount: int | None, bet_on: bool) -> str:
    if kind == "ordago":
        return "ordago"
    if bet_on:
        return "raise" if kind == "envido" else "answer"
    if kind == "envido":
        return "big" if (amount or 2) >= 5 else "envido"
    return "paso"


def _vaca(seed: int) -> list[Row]:
    rng = random.Random(seed)
    s = new_game(seed=seed)
    rows: list[Row] = []
    while not s.is_over:
        for seat in range(4):
            for sena in ai.choose_senas(view(s, seat), legal_senas(s, seat), rng):
                s = apply(s, seat, sena).state
        seat = s.to_act[0]
        v, legal = view(s, seat), legal_actions(s, seat)
        move = ai.choose(v, legal, rng)
        if s.phase == "lance" and len(legal) > 1 and not v.ordago:
            t = infer.tables(v.reyes, v.real)
            li = LANCES.index(s.lance or "grande")
            best = 0.0
            for member in (seat, seat ^ 2):
                code = sum(t.weights[c.index] for c in s.hands[member])
                best = max(best, t.quantile[t.index[code]][li])
            rows.append((_choice(move.kind, move.amount, v.bet_pair is not None), li, best))
        s = apply(s, seat, move).state
    return rows


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))


def fit(data: list[tuple[float, bool]]) -> tuple[float, float, float]:
    """The (centre, floor, slope) of ``infer``'s step with the highest likelihood."""
    best: tuple[float, float, float, float] | None = None
    for c in [i / 100 for i in range(30, 100, 2)]:
        for f in (0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.16, 0.2, 0.3):
            for slope in (0.02, 0.03, 0.05, 0.08, 0.12, 0.2):
                ll = 0.0
                for x, yes in data:
                    p = f + (1 - 1.25 * f) * _sigmoid((x - c) / slope)
                    ll += math.log(p if yes else 1 - p)
                if best is None or ll > best[0]:
                    best = (ll, c, f, slope)
    assert best is not None
    return best[1], best[2], best[3]


KINDS = {
    "envido": ("envido", ("paso",)),
    "big": ("big", ("paso", "envido")),
    "raise": ("raise", ("answer",)),
    "ordago": ("ordago", ("paso", "envido", "big", "raise", "answer")),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vacas", type=int, default=60)
    args = parser.parse_args()
    with Pool(2) as pool:
        rows = [r for vaca in pool.map(_vaca, range(args.vacas)) for r in vaca]
    print(f"normal self-play, {args.vacas} seeded vacas, {len(rows):,} decisions")
    for name, (yes, others) in KINDS.items():
        for li in (None, *range(len(LANCES))):
            data = [
                (x, kind == yes)
                for kind, lance, x in rows
                if kind in (yes, *others) and (li is None or lance == li)
            ]
            if len(data) < 30:
                continue
            bins: dict[int, list[int]] = defaultdict(lambda: [0, 0])
            for x, made in data:
                cell = bins[min(9, int(x * 10))]
                cell[0] += 1
                cell[1] += made
            c, f, slope = fit(data)
            where = "all" if li is None else LANCES[li]
            print(
                f"  {name} ({where}): {sum(m for _, m in data)} of {len(data)};"
                f" centre {c:.2f}, floor {f:.3f}, slope {slope:.2f}"
            )
            print("    " + " ".join(f"{k / 10:.1f}:{m}/{n}" for k, (n, m) in sorted(bins.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
