"""The flow's verb is immutable, as the engines' ``apply`` (issue 22): ``moves.act`` returns the
table after a seat's action and its step, and leaves the table it was given as it was, whether
the action is played or refused."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from flowkit import seated_table

from bot.flow import moves
from bot.games.registry import GAMES
from bot.table import Table
from engine.core import IllegalAction


def _table(game: str, seed: int) -> Table:
    table = seated_table()
    table.game = game
    if game == "envite":
        table.options = {"chicos": 1}
    moves.start(table, seed, 1000.0, 60)
    return table


@pytest.mark.parametrize("game", sorted(GAMES))
def test_act_leaves_the_table_it_is_given_as_it_was(game: str) -> None:
    rnd = random.Random(game)
    table, now, played, refused = _table(game, 3), 1000.0, 0, 0
    for _ in range(600):
        if table.status != "playing" or played >= 150:
            break
        now += 1.0
        state = table.engine_state()
        to_act = table.to_act()
        # Mostly a seat to act, at times anyone (out of turn too) or words nobody may say now.
        seat = rnd.choice(to_act) if rnd.random() < 0.8 else rnd.randrange(len(table.players))
        legal = table.adapter.legal_actions(state, seat) if seat in to_act else []
        legal = [a for a in legal if a.kind != "ordago"] or legal
        action = rnd.choice(legal) if legal and rnd.random() < 0.9 else "quiero 7"
        before = table.model_dump_json()
        try:
            after, step = moves.act(table, seat, action, now, 60)
        except IllegalAction:
            refused += 1
            assert table.model_dump_json() == before
            now = max(now, table.deadline or now)  # the timer moves the game on
            moves.fire_timer(table, now, 60)
            continue
        assert table.model_dump_json() == before
        assert after is not table and after.turn >= table.turn
        mutated = Table.model_validate_json(before)
        assert moves.play(mutated, seat, action, now, 60) == step
        assert mutated.model_dump_json() == after.model_dump_json()
        table, played = after, played + 1
    assert played > 20 and refused > 5, (played, refused)
