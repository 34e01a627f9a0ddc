"""Chaos for envite, piedras and Mus with several bot processes on one Redis or on a SQLite
file (issue 25): kills at random and right after a result was shown, Bot API calls that time
out before and after their effect, slow answers; every finished hand's result is in the group
exactly once. A few hands each here; ``bench/chaos.py`` plays hundreds, with starved processes
whose publishing lock lapses too (docs/performance.md)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import chaos
import pytest
from fake_telegram import FakeTelegram

pytestmark = [
    pytest.mark.xdist_group("processes"),
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes need a shared Redis"),
]


@pytest.mark.parametrize(
    ("game", "store", "processes"),
    [("envite", "redis", 3), ("piedras", "sqlite", 2), ("mus", "redis", 2)],
)
async def test_each_result_once_under_kills_timeouts_and_slow_answers(
    tg: FakeTelegram, redis_factory: Any, game: str, store: str, processes: int
) -> None:
    seed = int(os.environ.get("CHAOS_SEED", "5"))
    figures = await chaos.run(
        tg,
        game,
        processes=processes,
        store=store,
        tables=1,
        hands=int(os.environ.get("CHAOS_HANDS", "2")),
        seed=seed,
        faults=chaos.Faults(),
        logs=Path(tempfile.mkdtemp(prefix=f"tapete-chaos-{game}-")),
        redis=redis_factory.client(),
    )
    print("\n" + figures.line(game, store, processes))
    assert figures.hands >= 1
    assert (figures.lost, figures.doubled) == (0, 0), figures.problems
    assert figures.kills + sum(figures.timeouts.values()) > 0
