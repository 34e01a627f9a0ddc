"""Helpers for the Mus tests: drive a hand with text actions."""

from collections.abc import Callable

import pytest

from engine.core import Event
from engine.mus import MusState, apply

Play = Callable[[MusState, str], tuple[MusState, list[Event]]]

M7_HANDS = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]


def play_script(state: MusState, script: str) -> tuple[MusState, list[Event]]:
    """Apply ``seat: action`` lines (``;`` also separates) and collect every event."""
    events: list[Event] = []
    for line in script.replace(";", "\n").splitlines():
        line = line.strip()
        if not line:
            continue
        seat, text = line.split(":", 1)
        t = apply(state, int(seat), text.strip())
        state = t.state
        events.extend(t.events)
    return state, events


@pytest.fixture
def play() -> Play:
    return play_script


@pytest.fixture
def m7_hands() -> list[str]:
    return list(M7_HANDS)


def scored(events: list[Event]) -> list[tuple[int, int, str, str]]:
    return [
        (e.data["pair"], e.data["points"], e.data["lance"], e.data["why"])
        for e in events
        if e.kind == "scored"
    ]


@pytest.fixture
def scores_of() -> Callable[[list[Event]], list[tuple[int, int, str, str]]]:
    return scored
