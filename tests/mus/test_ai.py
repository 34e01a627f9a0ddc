"""The Mus computer player (engine.mus.ai), the baseline, the view's history and the fast
``lance_winners`` (rules/mus.md M2-M5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK
from engine.core import Action
from engine.mus import (
    LANCES,
    MusState,
    Options,
    ai,
    apply,
    baseline,
    lance_winner,
    lance_winners,
    legal_actions,
    new_game,
    view,
)

Chooser = Callable[[MusState, int, random.Random], Action]


def _ai(level: str) -> Chooser:
    def choose(s: MusState, seat: int, rng: random.Random) -> Action:
        return ai.choose(view(s, seat), legal_actions(s, seat), rng, level)

    return choose


def _random(s: MusState, seat: int, rng: random.Random) -> Action:
    return rng.choice(legal_actions(s, seat))


def _baseline(s: MusState, seat: int, rng: random.Random) -> Action:
    return baseline.choose(view(s, seat), legal_actions(s, seat), rng)


def _play(
    seed: int,
    even: Chooser,
    odd: Chooser,
    options: Options | None = None,
    seen: Counter[str] | None = None,
) -> MusState:
    """A seeded vaca; every choice checked legal; ``seen`` counts the choices by phase/lance."""
    rng = random.Random(seed)
    s = new_game(seed=seed, options=options)
    steps = 0
    while not s.is_over:
        seat = s.to_act[0]
        legal = legal_actions(s, seat)
        action = (even if seat % 2 == 0 else odd)(s, seat, rng)
        assert action in legal, (str(action), [str(a) for a in legal])
        if seen is not None and len(legal) > 1:
            seen[s.lance if s.phase == "lance" else s.phase] += 1
        s = apply(s, seat, action).state
        steps += 1
        assert steps < 5000
    return s


# Each vaca costs about 0.3 s of the AI's sampling: enough seeds to reach every kind of choice
# many times (checked), few enough for the suite's budget.
OPTIONS = {  # options: vacas played
    "plain": (Options(), 10),
    "4reyes-real": (Options(reyes=4, real=True), 10),
    "short": (Options(target=30, juegos=1), 40),
}
EVERY_CHOICE = {"mus", "discard", "grande", "chica", "pares", "juego", "punto"}


@pytest.mark.parametrize("which", OPTIONS)
@pytest.mark.parametrize("level", ["normal", "facil"])
def test_ai_only_legal_actions_against_random(level: str, which: str) -> None:
    options, vacas = OPTIONS[which]
    seen: Counter[str] = Counter()
    for seed in range(vacas):
        s = _play(seed, _ai(level), _random, options, seen)
        assert s.winner in (0, 1)
    assert set(seen) == EVERY_CHOICE and min(seen.values()) >= 5, seen


@pytest.mark.parametrize("rival", ["facil", "baseline"])
def test_ai_only_legal_actions_against_itself_and_baseline(rival: str) -> None:
    seen: Counter[str] = Counter()
    for seed in range(15):
        if rival == "facil":
            s = _play(seed, _ai("normal"), _ai("facil"), seen=seen)
        else:
            s = _play(seed, _baseline, _ai("normal"), seen=seen)
        assert s.winner in (0, 1)
    assert set(seen) == EVERY_CHOICE and min(seen.values()) >= 10, seen


def test_ai_reads_no_hidden_card() -> None:
    """Two states differing only in the other seats' cards give the same decisions."""
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        s = new_game(seed=seed)
        for _ in range(rng.randrange(0, 12)):
            if s.is_over:
                break
            seat = s.to_act[0]
            s = apply(s, seat, rng.choice(legal_actions(s, seat))).state
        if s.is_over:
            continue
        seat = s.to_act[0]
        mine = set(s.hands[seat])
        others = [c for c in DECK if c not in mine]
        random.Random(seed).shuffle(others)
        hands = list(s.hands)
        k = 0
        for o in range(4):
            if o != seat:
                hands[o] = tuple(others[k : k + 4])
                k += 4
        twin = replace(s, hands=tuple(hands), stock=tuple(others[k:]))
        assert view(twin, seat) == view(s, seat)
        for level in ("normal", "facil"):
            a = ai.choose(view(s, seat), legal_actions(s, seat), random.Random(9), level)
            b = ai.choose(view(twin, seat), legal_actions(twin, seat), random.Random(9), level)
            assert a == b
        checked += 1
    assert checked >= 20


def test_ai_seeded_decisions_are_reproducible() -> None:
    a = _play(11, _ai("normal"), _ai("facil"))
    b = _play(11, _ai("normal"), _ai("facil"))
    assert a == b


def test_ai_rejects_an_unknown_level() -> None:
    s = new_game(seed=1)
    with pytest.raises(ValueError):
        ai.choose(view(s, 0), legal_actions(s, 0), random.Random(1), level="experto")


HANDS_STRONG = ["12o 12c 3e 12b", "4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"]


def test_m4_ai_bets_grande_with_four_reyes_and_cuts() -> None:
    s = new_game(seed=1, hands=HANDS_STRONG)
    assert str(ai.choose(view(s, 0), legal_actions(s, 0), random.Random(1))) == "corto"
    s = apply(s, 0, "corto").state
    assert s.lance == "grande"
    act = ai.choose(view(s, 0), legal_actions(s, 0), random.Random(1))
    assert act.kind in ("envido", "ordago")


def test_m4_ai_refuses_a_grande_envido_with_a_hopeless_hand() -> None:
    # Seat 1 holds 4 5 6 7: it cannot win grande against seat 0's four reyes' show of force.
    s = new_game(seed=1, hands=HANDS_STRONG)
    s = apply(apply(s, 0, "corto").state, 0, "envido").state
    assert s.to_act == (1, 3)
    act = ai.choose(view(s, 1), legal_actions(s, 1), random.Random(1))
    assert act.kind == "no_quiero"


def test_m5_ai_accepts_when_refusing_gives_them_the_juego() -> None:
    s = new_game(seed=1, hands=HANDS_STRONG)
    s = replace(s, score=(39, 0))
    s = apply(apply(s, 0, "corto").state, 0, "envido").state
    act = ai.choose(view(s, 1), legal_actions(s, 1), random.Random(1))
    assert act.kind in ("quiero", "ordago", "envido")


def test_baseline_never_ordago_without_31() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        s = new_game(seed=seed)
        while not s.is_over:
            seat = s.to_act[0]
            legal = legal_actions(s, seat)
            if seat % 2 == 0:
                act = baseline.choose(view(s, seat), legal, rng)
                if act.kind == "ordago":
                    from engine.mus import hand_value

                    assert hand_value(s.hands[seat], s.options).points == 31
                    assert s.lance == "juego"
            else:
                act = rng.choice(legal)
            s = apply(s, seat, act).state


def test_view_history_lists_what_was_said_this_hand() -> None:
    s = new_game(seed=1, hands=HANDS_STRONG)
    for seat, text in [(0, "mus"), (1, "mus"), (2, "mus"), (3, "mus")]:
        s = apply(s, seat, text).state
    s = apply(s, 0, "descarto 12o 3e").state
    s = apply(s, 1, "descarto 4o").state
    s = apply(s, 2, "descarto 4c").state
    s = apply(s, 3, "descarto 4e").state
    s = apply(s, 0, "corto").state
    s = apply(s, 0, "envido").state
    s = apply(s, 1, "3 mas").state
    got = view(s, 2).history
    assert got == (
        ("mus", 0, "mus", None),
        ("mus", 1, "mus", None),
        ("mus", 2, "mus", None),
        ("mus", 3, "mus", None),
        ("mus", 0, "descarto", 2),
        ("mus", 1, "descarto", 1),
        ("mus", 2, "descarto", 1),
        ("mus", 3, "descarto", 1),
        ("mus", 0, "corto", None),
        ("grande", 0, "envido", 2),
        ("grande", 1, "envido 3", 5),
    )
    assert view(s, 2).to_dict()["history"][-1] == {
        "stage": "grande",
        "seat": 1,
        "action": "envido 3",
        "amount": 5,
    }
    s = apply(s, 2, "quiero").state
    assert s.history[-1] == ("grande", 2, "quiero", 5)


def test_view_history_is_reset_by_a_new_hand() -> None:
    s = new_game(seed=1, hands=HANDS_STRONG)
    s = apply(s, 0, "corto").state
    hand = s.hand_number
    while s.hand_number == hand:
        s = apply(s, s.to_act[0], "paso").state
    assert s.history == ()


HAND = st.lists(st.sampled_from(DECK), min_size=16, max_size=16, unique=True)


@settings(max_examples=400, deadline=None)
@given(cards=HAND, mano=st.integers(0, 3), reyes=st.sampled_from([8, 4]), real=st.booleans())
def test_m3_lance_winners_agrees_with_lance_winner(
    cards: list[object], mano: int, reyes: int, real: bool
) -> None:
    options = Options(reyes=reyes, real=real)  # type: ignore[arg-type]
    hands = [cards[i : i + 4] for i in range(0, 16, 4)]
    texts = [" ".join(str(c) for c in h) for h in hands]
    got = lance_winners(texts, mano, options)
    assert got == tuple(lance_winner(lance, texts, mano, options) for lance in LANCES)
    assert got == lance_winners(hands, mano, options)  # type: ignore[arg-type]


def test_m3_lance_winners_hand_computed() -> None:
    # M7 hands, mano 0: grande seat 2 (R C 7 4), chica seat 0 (A A 4 5), pares seat 0 only,
    # juego seat 2 only (31), punto not played.
    m7 = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]
    assert lance_winners(m7) == (2, 0, 0, 2, None)
    # 4 reyes: 2c is a plain 2, so seat 0 (A 2 4 5) has no pares and nobody has juego; punto:
    # seat 0 12, seat 1 22, seat 2 31 -> juego! seat 2 still wins juego.
    assert lance_winners(m7, 0, Options(reyes=4)) == (2, 0, None, 2, None)
    # la real: 7 7 7 10 (31 real) beats 10 11 7 4 (31) only with the option.
    real = ["7o 7c 7e 10b", "1c 4c 5c 6c", "12o 11c 7b 4o", "1e 4e 5e 6e"]
    assert lance_winners(real, 2)[3] == 2
    assert lance_winners(real, 2, Options(real=True))[3] == 0
