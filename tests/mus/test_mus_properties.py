"""Property test: random legal Mus vacas from random seeds (M1-M6 invariants at every step).

After every step: JSON round-trip equality; ``legal_actions`` non-empty for every seat in
``to_act``; no other seat's cards in any view or in any public event before the showdown;
scores never decrease within a juego; and the vaca ends.
"""

import json
import random
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.core import Action
from engine.mus import (
    MusState,
    Options,
    apply,
    default_action,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
)

CARD_TEXTS = frozenset(str(c) for c in DECK)
MAX_STEPS = 20_000


# Every word of every string (keys too) of a JSON value: one pass over its text, the walk a
# property test does at every step of hundreds of vacas.
_WORD = re.compile(r'[^\s",:\[\]{}]+')


def card_texts(value: Any) -> set[str]:
    """Every card text found anywhere in a JSON-plain value (keys included)."""
    return set(CARD_TEXTS.intersection(_WORD.findall(json.dumps(value, ensure_ascii=False))))


def pick(rng: random.Random, actions: list[Action]) -> Action:
    """Mostly calm play so that vacas last many hands; raises often, órdagos now and then."""
    r = rng.random()
    if r < 0.01:
        return rng.choice(actions)
    calm = [a for a in actions if a.kind not in ("ordago", "envido")]
    if r < 0.75 and calm:
        return rng.choice(calm)
    return rng.choice([a for a in actions if a.kind != "ordago"] or actions)


def check_views(s: MusState) -> None:
    public = view(s).to_dict()
    if not (s.is_over and s.shown):
        assert not card_texts(public)
    for seat in range(4):
        d = view(s, seat).to_dict()
        assert d["cards"] == [str(c) for c in s.hands[seat]]
        d.pop("cards")
        if not (s.is_over and s.shown):
            assert not card_texts(d), f"seat {seat} sees cards in its view"


options_strategy = st.builds(
    Options,
    reyes=st.sampled_from([8, 4]),
    target=st.sampled_from([40, 30]),
    juegos=st.integers(1, 3),
    real=st.booleans(),
)


@settings(max_examples=100 if settings.default.max_examples >= 100 else 10)
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1), options=options_strategy)
def test_m1_m6_random_vacas_keep_every_invariant(seed: int, choices: int, options: Options) -> None:
    rng = random.Random(choices)
    s = new_game(options=options, seed=seed)
    steps = 0
    while not s.is_over:
        steps += 1
        assert steps < MAX_STEPS, "the vaca does not end"
        assert s.to_act, "nobody to act in a live game"
        for seat in s.to_act:
            assert legal_actions(s, seat)
            assert default_action(s, seat) in legal_actions(s, seat)
        seat = rng.choice(s.to_act)
        t = apply(s, seat, pick(rng, legal_actions(s, seat)))
        new = t.state
        assert from_json(to_json(new)) == new
        assert len(to_json(new)) < 8_000
        for e in t.events:
            if e.kind == "showdown":
                continue
            if e.to is None:
                assert not card_texts(e.data), f"public {e.kind} shows cards"
            else:
                assert e.to == frozenset({e.data["seat"]})
        if new.juegos == s.juegos:  # same juego (a new hand carries the score on)
            assert new.score[0] >= s.score[0] and new.score[1] >= s.score[1]
        else:
            assert sum(new.juegos) == sum(s.juegos) + 1
            assert max(s.score) < options.target
        cards = [c for h in new.hands for c in h] + list(new.stock) + list(new.pile)
        assert sorted(map(str, cards)) == sorted(map(str, DECK))
        check_views(new)
        s = new
    assert s.winner in (0, 1) and s.juegos[s.winner] == options.juegos
    assert s.to_act == () and not legal_actions(s, 0)


@settings(max_examples=30 if settings.default.max_examples >= 100 else 5)
@given(seed=st.integers(0, 2**32 - 1))
def test_m1_default_actions_alone_finish_a_vaca(seed: int) -> None:
    """The bot's turn timers only ever play ``default_action``: the vaca still ends."""
    s = new_game(seed=seed, options=Options(juegos=1))
    for _ in range(MAX_STEPS):
        if s.is_over:
            break
        seat = s.to_act[0]
        s = apply(s, seat, default_action(s, seat)).state
    assert s.is_over


@settings(max_examples=30 if settings.default.max_examples >= 100 else 5)
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_m2_replay_from_json_midway_is_identical(seed: int, choices: int) -> None:
    """Randomness lives in the seed: a game stored as JSON and resumed replays exactly."""
    rng = random.Random(choices)
    s = new_game(seed=seed)
    moves = []
    for _ in range(60):
        if s.is_over:
            break
        seat = rng.choice(s.to_act)
        action = pick(rng, legal_actions(s, seat))
        moves.append((seat, action))
        s = apply(s, seat, action).state
    replayed = from_json(to_json(new_game(seed=seed)))
    for seat, action in moves:
        replayed = from_json(to_json(apply(replayed, seat, str(action)).state))
    assert replayed == s


def test_m1_is_over_follows_the_phase_however_the_state_was_made() -> None:
    # MusState.is_over is kept in the engine's own states (read at every simulated move).
    from dataclasses import replace

    for seed in range(40):
        rng = random.Random(seed)
        s = new_game(seed=seed, options=Options(juegos=1, target=30))
        while True:
            for other in (from_json(to_json(s)), replace(s, phase=s.phase)):
                assert other.is_over == s.is_over == (s.phase == "over")
            if s.is_over:
                break
            seat = rng.choice(s.to_act)
            s = apply(s, seat, rng.choice(legal_actions(s, seat))).state
        assert s.winner in (0, 1) and replace(s, phase="mus").is_over is False
