"""The precomputed seat orders (C-level sort keys) give the playing and speaking orders of
rules/piedras.md P2, P4: from the mano to the right; from the seat after the bettor in the
direction of the round, the bettor last."""

from __future__ import annotations

from itertools import combinations

from engine import piedras
from engine.piedras.betting import ordered
from engine.piedras.table import Table


def test_from_mano_and_speaking_order_for_every_table_size() -> None:
    for n in range(3, 9):
        t = Table(piedras.new_game(players=n, seed=n))
        for mano in range(n):
            t.mano = mano
            around = [(mano + i) % n for i in range(n)]
            for size in (1, 2, n - 1, n):
                for seats in combinations(range(n), size):
                    assert t.from_mano(list(seats)) == [s for s in around if s in seats]
                    for start in range(n):
                        for direction in (1, -1):
                            after = [(start + direction * i) % n for i in range(1, n + 1)]
                            expected = [s for s in after if s in seats]
                            assert ordered(t, start, direction, set(seats)) == expected
