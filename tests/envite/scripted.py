"""Driving envite states with text moves, shared by the envite tests."""

import pytest

from engine.core import IllegalAction
from engine.envite import EnviteState, apply


def play(state: EnviteState, *moves: str) -> EnviteState:
    """Apply each move, written ``"seat text"`` (``"0 tiro 12o"``), and return the last state."""
    for move in moves:
        seat, text = move.split(" ", 1)
        state = apply(state, int(seat), text).state
    return state


def refusal(state: EnviteState, seat: int, text: str) -> IllegalAction:
    """The refusal that ``text`` by ``seat`` meets (the test fails if it is accepted)."""
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, text)
    return err.value
