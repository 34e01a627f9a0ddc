"""The Mus computer player's reading of the table (engine.mus.infer) and its betting by
expected points (engine.mus.reckon): rules/mus.md M3-M5, rules/senas.md S2, S4."""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.mus import (
    LANCES,
    MusState,
    Options,
    ai,
    apply,
    infer,
    lance_winners,
    legal_actions,
    legal_senas,
    new_game,
    reckon,
    view,
)

ROOT = Path(__file__).resolve().parents[2]


def _rivals() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mus_rivals", ROOT / "bench" / "mus_rivals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mus_rivals"] = module
    spec.loader.exec_module(module)
    return module


def _signal(s: MusState, rng: random.Random) -> MusState:
    for seat in range(4):
        offered = legal_senas(s, seat)
        if offered:
            for sena in ai.choose_senas(view(s, seat), offered, rng):
                s = apply(s, seat, sena).state
    return s


def _walk(seed: int, steps: int, options: Options) -> MusState:
    """A state a few moves into a vaca, everybody playing ``normal`` and making señas."""
    rng = random.Random(seed)
    s = new_game(seed=seed, options=options)
    for _ in range(steps):
        if s.is_over:
            break
        s = _signal(s, rng)
        seat = s.to_act[0]
        legal = legal_actions(s, seat)
        move = ai.choose(view(s, seat), legal, rng) if rng.random() < 0.7 else rng.choice(legal)
        s = apply(s, seat, move).state
    return s


OPTIONS = [Options(senasvistas=True, pillar=0.5), Options(reyes=4, real=True), Options()]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), which=st.integers(0, 2))
def test_m4_s2_sampled_hands_never_contradict_what_is_public(
    seed: int, steps: int, which: int
) -> None:
    s = _walk(seed, steps, OPTIONS[which])
    if s.is_over:
        return
    seat = s.to_act[0]
    v = view(s, seat)
    t = infer.tables(v.reyes, v.real)
    deck = Counter(t.place)
    deals = infer.sample(infer.read(v), random.Random(seed), 200)
    assert deals
    for weight, hands in deals:
        assert weight > 0
        assert hands[seat] == t.values[t.index[sum(t.weights[c.index] for c in s.hands[seat])]]
        used: Counter[int] = Counter()
        for other in range(4):
            assert infer.consistent(v, hands[other], other), (other, hands[other].ranks)
            for place, k in t.parts[t.index[hands[other].code]]:
                used[place] += k
        assert all(used[p] <= deck[p] for p in used)  # the four hands fit in one deck
    # The true hands are never ruled out: what is public never contradicts the truth.
    weights = infer.likelihoods(v, t)
    for other, w in weights.items():
        code = sum(t.weights[c.index] for c in s.hands[other])
        assert w[t.index[code]] > 0


def _lance_state(hands: list[str], lance: str, score: tuple[int, int] = (0, 0)) -> MusState:
    s = replace(new_game(seed=1, hands=hands), score=score)
    s = apply(s, 0, "corto").state
    while s.lance != lance:
        s = apply(s, s.to_act[0], "paso").state
    return s


def _choose(s: MusState, seat: int) -> str:
    return str(ai.choose(view(s, seat), legal_actions(s, seat), random.Random(3)))


def test_m3_discard_keeps_a_pair_of_ases() -> None:
    s = new_game(seed=1, hands=["12o 1c 1e 5e", "4o 5c 6o 7b", "4c 5b 6b 7o", "4b 5o 6c 7c"])
    for seat in range(4):
        s = apply(s, seat, "mus").state
    move = ai.choose(view(s, 0), legal_actions(s, 0), random.Random(1))
    assert "1c" not in {str(c) for c in move.cards} and "1e" not in {str(c) for c in move.cards}


FOUR_REYES = ["12o 12c 3e 12b", "4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"]


def test_m4_no_ordago_as_an_opening_value_bet() -> None:
    # Four reyes at 0-0: an órdago would be refused for 1 point; an envido gets more.
    s = _lance_state(FOUR_REYES, "grande")
    assert _choose(s, 0).startswith("envido")


def test_m4_ordago_when_they_are_near_the_target() -> None:
    s = _lance_state(FOUR_REYES, "grande", score=(10, 38))
    assert _choose(s, 0) == "ordago"


def test_m5_ordago_accepted_only_when_ahead() -> None:
    s = _lance_state(FOUR_REYES, "grande")
    s = apply(s, 0, "ordago").state
    assert _choose(s, 1) == "no quiero"  # 4 5 6 7 against an órdago at grande
    s = _lance_state(["4o 5c 6e 7b", *FOUR_REYES[:1], "4c 5e 6b 7o", "4e 5b 6o 7c"], "grande")
    s = apply(s, 0, "ordago").state
    assert _choose(s, 1) == "quiero"  # four reyes accept it


def test_m5_no_hopeless_call_of_a_small_bet() -> None:
    # Punto (nobody has juego): seat 1 holds 20 and seat 3 19 against an envido.
    hands = ["7o 6c 5e 1b", "5o 5c 6o 4b", "7c 7e 4c 1o", "4o 5b 6b 4e"]
    s = _lance_state(hands, "punto")
    s = apply(s, 0, "envido").state
    assert _choose(s, 1) == "no quiero"


def test_m4_a_bet_says_more_than_a_pass() -> None:
    """The chance of winning grande against a seat that opened with an envido is lower than
    against one that passed, and lower still against an órdago (rules/mus.md M4)."""
    hands = ["12o 11c 7e 5o", "4o 5c 6e 7b", "12c 1e 6b 7o", "4e 5b 6o 7c"]
    base = _lance_state(hands, "grande")
    chances = {}
    for said in ("paso", "envido", "ordago"):
        s = apply(base, 0, said).state
        if said == "paso":
            s = apply(s, 1, "paso").state
            s = apply(s, 2, "paso").state
        seat = s.to_act[0]
        chances[said] = reckon.win_chance(view(s, seat), random.Random(1))
    assert chances["paso"] > chances["envido"] > chances["ordago"]


@pytest.mark.parametrize("name", ["calls_ordago", "always_bet", "always_ordago"])
def test_exploit_bots_lose(name: str) -> None:
    """Opponents with one habit (every órdago called, a bet at every turn, an órdago at every
    turn) lose most vacas to ``normal``: the player cannot be farmed."""
    rival = _rivals().RIVALS[name]
    wins = 0
    for seed in range(8):
        ours = seed % 2
        rng = random.Random(seed)
        s = new_game(seed=seed)
        while not s.is_over:
            seat = s.to_act[0]
            v, legal = view(s, seat), legal_actions(s, seat)
            move = ai.choose(v, legal, rng) if seat % 2 == ours else rival(v, legal, rng)
            s = apply(s, seat, move).state
        wins += s.winner == ours
    assert wins >= 6, (name, wins)


VACAS = 10
"""Seeded self-play vacas of the calibration check (about 800 answers, 60 raises, 70 quieros;
7 s of one core: the suite's longest test)."""


@functools.cache
def _estimates() -> dict[str, list[tuple[float, bool]]]:
    """Seeded self-play: at each bet answered, the player's estimate and whether his pair won
    the lance, by kind of bet (an órdago or any other), and among the answers to a bet those
    that accepted it and those that raised."""
    seen: dict[str, list[tuple[float, bool]]] = {
        "answer": [],
        "ordago": [],
        "quiero": [],
        "raise": [],
    }
    for seed in range(VACAS):
        rng = random.Random(seed)
        s = new_game(seed=seed)
        while not s.is_over:
            s = _signal(s, rng)
            seat = s.to_act[0]
            v, legal = view(s, seat), legal_actions(s, seat)
            move = ai.choose(v, legal, rng)
            if s.phase == "lance" and v.bet_pair is not None:
                p = reckon.win_chance(v, random.Random(seed * 1000 + len(s.history)))
                winner = lance_winners(s.hands, s.mano)[LANCES.index(s.lance)]  # type: ignore[arg-type]
                won = winner is not None and winner % 2 == seat % 2
                seen["ordago" if v.ordago else "answer"].append((p, won))
                if not v.ordago and move.kind in ("envido", "ordago"):
                    seen["raise"].append((p, won))
                if not v.ordago and move.kind == "quiero":
                    seen["quiero"].append((p, won))
            s = apply(s, seat, move).state
    return seen


# Every kind reads one self-play, played once per worker.
@pytest.mark.xdist_group("mus_calibration")
@pytest.mark.parametrize(
    "kind",
    [
        "answer",
        "ordago",
        "raise",
        # Known miss (issue 23): accepted bets are still made at an estimate above what they
        # win where a raise answered our own bet (0.110 over the 60 vacas of
        # bench/mus_calibration.py, 0.20 over these 10); strict, so that the mark must go once
        # quieros are calibrated.
        pytest.param("quiero", marks=pytest.mark.xfail(strict=True, reason="quieros overrated")),
    ],
)
def test_calibration_of_the_win_estimates(kind: str) -> None:
    """The player's estimated chance of winning the lance, against how often it was won, over
    seeded self-play: within 0.1 on average over bins of 0.2 (expected calibration error), for
    the answers to a bet or raise, the answers to an órdago, the raises and the quieros."""
    seen = _estimates()[kind]
    assert len(seen) >= 40
    bins: dict[int, list[tuple[float, bool]]] = {}
    for p, won in seen:
        bins.setdefault(min(4, int(p * 5)), []).append((p, won))
    gap = sum(abs(sum(p for p, _ in b) - sum(w for _, w in b)) for b in bins.values()) / len(seen)
    assert gap <= 0.1, (gap, {k: len(b) for k, b in bins.items()})
