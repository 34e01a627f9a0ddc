"""Every public function of the three engines checks its arguments: a seat that does not exist
is a ``ValueError`` (and an ``IllegalAction``, so the bot answers it like any refusal; it has no
legal actions), an action
object no text could produce is an ``IllegalAction``; never a wrong answer, an ``IndexError`` or an
``AssertionError``."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.envite as envite
import engine.mus as mus
import engine.piedras as piedras
from engine.core import Action, IllegalAction, NoSuchSeat

GAMES: list[tuple[Any, Any]] = [
    (mus, lambda: mus.new_game(seed=3)),
    (piedras, lambda: piedras.new_game(players=4, seed=3)),
    (envite, lambda: envite.new_game(players=4, seed=3)),
]
BAD_SEATS = [-1, -4, 4, 9, True, "0", 1.0]


@pytest.mark.parametrize(("game", "make"), GAMES, ids=["mus", "piedras", "envite"])
@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_a_seat_that_does_not_exist_is_refused_everywhere(game: Any, make: Any, seat: Any) -> None:
    state = make()
    with pytest.raises(ValueError):
        game.view(state, seat)
    assert game.legal_actions(state, seat) == []  # nothing to do there (no IndexError)
    calls = [
        lambda: game.default_action(state, seat),
        lambda: game.apply(state, seat, "paso"),
        lambda: game.apply(state, seat, game.default_action(state, state.to_act[0])),
    ]
    for call in calls:
        with pytest.raises(ValueError) as info:
            call()
        assert isinstance(info.value, IllegalAction) and isinstance(info.value, NoSuchSeat)


def test_mus_view_of_a_negative_seat_shows_no_hand() -> None:
    state = mus.new_game(seed=3)
    with pytest.raises(ValueError):
        mus.view(state, -1)  # used to show seat 3's cards
    assert mus.view(state, None).to_dict().get("cards") is None  # the group's view still works


@pytest.mark.parametrize(("game", "make"), GAMES, ids=["mus", "piedras", "envite"])
@pytest.mark.parametrize(
    "action",
    [
        Action("envido", amount=0),
        Action("envido", amount=-3),
        Action("envido", amount=10**6),
        Action("envido", amount=True),
        Action("descarto", cards=("12o",)),  # type: ignore[arg-type]
        Action(None, amount=2),  # type: ignore[arg-type]
        42,
        None,
    ],
    ids=repr,
)
def test_a_malformed_action_object_is_an_illegal_action(game: Any, make: Any, action: Any) -> None:
    state = make()
    with pytest.raises(IllegalAction):
        game.apply(state, state.to_act[0], action)


def test_piedras_raises_of_zero_or_less_are_refused_at_every_betting_point() -> None:
    """Random games: wherever an envido (a first bet or a raise) is legal, a zero or negative
    amount given as an action object is refused and the state is untouched."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = piedras.new_game(players=rng.choice([3, 4, 5]), seed=seed)
        for _ in range(300):
            if state.is_over:
                break
            seat = rng.choice(state.to_act)
            legal = piedras.legal_actions(state, seat)
            if any(a.kind == "envido" for a in legal):
                before = piedras.to_json(state)
                for amount in (0, -1, -5):
                    with pytest.raises(IllegalAction) as info:
                        piedras.apply(state, seat, Action("envido", amount=amount))
                    assert info.value.reason == "bad_amount"
                assert piedras.to_json(state) == before
                checked += 1
            state = piedras.apply(state, seat, rng.choice(legal)).state
    assert checked > 20
