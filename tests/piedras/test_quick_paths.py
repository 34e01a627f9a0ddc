"""The quick paths of ``apply`` (discards and quiet words) give exactly what the general path
(the working table of ``engine.piedras.betting.act``) gives: same state, same events."""

from __future__ import annotations

import random

import pytest

from engine import piedras
from engine.core import Transition
from engine.piedras.betting import act, advance
from engine.piedras.state import PiedrasState
from engine.piedras.table import Table


def _general(state: PiedrasState, seat: int, action: piedras.Action) -> Transition[PiedrasState]:
    t = Table(state)
    if state.phase == "discard":
        card = action.cards[0]
        t.hands[seat] = tuple(c for c in t.hands[seat] if c != card)
        t.emit("discarded", seat=seat)
        t.emit("dealt", seat, seat=seat, cards=[str(c) for c in t.hands[seat]])
        if all(len(t.hands[s]) == 4 for s in t.in_hand):
            t.phase = "lance"
            advance(t)
    else:
        act(t, seat, action)
    return Transition(t.freeze(), tuple(t.events))


@pytest.mark.parametrize("players", [3, 5, 8])
def test_quick_paths_match_the_general_path(players: int) -> None:
    rng = random.Random(players)
    for game in range(40):
        s = piedras.new_game(players=players, seed=game)
        juego = s.juego
        while not s.is_over and s.juego == juego:
            seat = rng.choice(s.to_act)
            action = rng.choice(piedras.legal_actions(s, seat))
            quick = piedras.apply(s, seat, action)
            slow = _general(s, seat, action)
            assert quick.state == slow.state
            assert quick.events == slow.events
            assert piedras.from_json(piedras.to_json(quick.state)) == quick.state
            s = quick.state
