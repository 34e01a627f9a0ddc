"""The game adapters: option words of /nueva and the Mus adapter over the engine."""

from __future__ import annotations

import pytest

import engine.mus as mus
from bot.flow import discard as discards
from bot.games.base import OptionError
from bot.games.mus.adapter import MUS
from bot.games.registry import DEFAULT_GAME, GAMES, get_game
from engine.core import Action, IllegalAction


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ([], {}),
        (["30"], {"target": 30}),
        (["40"], {"target": 40}),
        (["4reyes"], {"reyes": 4}),
        (["8reyes"], {"reyes": 8}),
        (["real"], {"real": True}),
        (["juegos=1"], {"juegos": 1}),
        (
            ["Juegos=3", "30", "4REYES", "real"],
            {"juegos": 3, "target": 30, "reyes": 4, "real": True},
        ),
    ],
)
def test_option_words(words: list[str], expected: dict[str, object]) -> None:
    """M1 options: 30/40 points, 4/8 reyes, la real, juegos per vaca."""
    defaults = mus.Options().model_dump()
    assert MUS.parse_options(words) == {**defaults, **expected}
    assert mus.Options(**MUS.parse_options(words)) == mus.Options(**{**defaults, **expected})


@pytest.mark.parametrize("word", ["35", "5reyes", "juegos=0", "juegos=x", "realx", "<b>"])
def test_unknown_option_word_is_refused_by_name(word: str) -> None:
    with pytest.raises(OptionError) as info:
        MUS.parse_options(["30", word])
    assert info.value.word == word


def test_registry() -> None:
    assert DEFAULT_GAME == "mus" and get_game("mus") is MUS
    assert set(GAMES) == {"mus", "envite", "piedras"}
    with pytest.raises(KeyError):
        get_game("poker")


def test_option_labels_and_seats() -> None:
    opts = MUS.parse_options(["30", "real"])
    keys = [k for k, _ in MUS.option_labels(opts)]
    assert keys == ["mus.opt.target", "mus.opt.reyes", "mus.opt.juegos", "mus.opt.real"]
    assert MUS.seats(opts) == (4, 4)


def test_adapter_plays_through_the_engine() -> None:
    state = MUS.new_game(4, MUS.parse_options([]), seed=7)
    assert MUS.to_act(state) == (0,) and MUS.hand_number(state) == 1
    assert not MUS.is_over(state) and not MUS.features.in_discard(state)
    assert MUS.from_json(MUS.to_json(state)) == state
    assert [str(a) for a in MUS.legal_actions(state, 0)] == ["mus", "corto"]
    assert MUS.parse_action("no hay mus") == Action("corto")
    with pytest.raises(IllegalAction) as info:
        MUS.apply(state, 1, Action("mus"))
    assert info.value.reason == "not_your_turn"
    for seat in range(4):
        state = MUS.apply(state, seat, Action("mus")).state
    assert MUS.features.in_discard(state) and MUS.to_act(state) == (0, 1, 2, 3)
    cards = MUS.view(state, 0)["cards"]
    assert "cards" not in MUS.view(state, None)
    discard = discards.action(MUS.features, cards[:2])
    assert discard.kind == "descarto" and [str(c) for c in discard.cards] == cards[:2]
    assert MUS.default_action(state, 0).kind == "descarto"
