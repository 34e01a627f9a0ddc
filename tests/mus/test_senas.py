"""Señas of classic Mus (rules/senas.md S1, S2): ``engine.mus.senas``.

Every row of S2 is checked with hand-computed hands under both reyes options (M1: with 8 reyes a 3
is a rey and a 2 an as), then a property test compares thousands of random hands with an
independent count.
"""

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.mus
from engine.cards import DECK, Card
from engine.mus import Options, evaluate, senas
from engine.mus.senas import MUS_SENAS

S2_NAMES = frozenset(
    {
        "dos reyes",
        "dos ases",
        "pares",
        "medias de reyes",
        "medias de ases",
        "duples",
        "31",
        "juego",
        "30",
        "29",
        "ciego",
    }
)

# (S2 row, hand, señas with 8 reyes, señas with 4 reyes), all computed by hand.
S2_ROWS: list[tuple[str, str, set[str], set[str]]] = [
    # dos reyes: two or more reyes
    ("dos reyes", "12o 12c 4e 1b", {"dos reyes"}, {"dos reyes"}),  # R R 4 A: 25
    ("dos reyes", "12o 3c 4e 5b", {"dos reyes", "29"}, {"ciego"}),  # 8: 29; 4: R 3 4 5 = 22
    ("dos reyes", "3o 3c 4e 5b", {"dos reyes", "29"}, {"pares"}),  # 4: 3 3 4 5 = 15
    # dos ases: two or more ases
    ("dos ases", "1o 1c 4e 6b", {"dos ases"}, {"dos ases"}),
    ("dos ases", "1o 2c 4e 6b", {"dos ases"}, {"ciego"}),  # 4: A 2 4 6 = 13
    ("dos ases", "2o 2c 4e 5b", {"dos ases"}, {"pares"}),
    # pares: a pair (or more) of a rank other than reyes and ases
    ("pares", "7o 7c 4e 5b", {"pares"}, {"pares"}),  # 23
    ("pares", "10o 10c 10e 4b", {"pares", "juego"}, {"pares", "juego"}),  # medias of sotas: 34
    ("pares", "6o 6c 6e 6b", {"pares", "duples"}, {"pares", "duples"}),  # four 6s = duples
    # medias de reyes: three or more reyes
    ("medias de reyes", "12o 12c 3e 5b", {"dos reyes", "medias de reyes", "juego"}, {"dos reyes"}),
    (
        "medias de reyes",
        "12o 12c 12e 4b",
        {"dos reyes", "medias de reyes", "juego"},
        {"dos reyes", "medias de reyes", "juego"},
    ),
    # medias de ases: three or more ases
    ("medias de ases", "1o 1c 2e 5b", {"dos ases", "medias de ases"}, {"dos ases"}),
    (
        "medias de ases",
        "1o 1c 1e 5b",
        {"dos ases", "medias de ases"},
        {"dos ases", "medias de ases"},
    ),
    # duples
    ("duples", "10o 10c 7e 7b", {"pares", "duples", "juego"}, {"pares", "duples", "juego"}),
    ("duples", "12o 3c 1e 2b", {"dos reyes", "dos ases", "duples"}, {"ciego"}),
    (
        "duples",
        "12o 12c 1e 1b",
        {"dos reyes", "dos ases", "duples"},
        {"dos reyes", "dos ases", "duples"},
    ),
    (
        "duples",
        "12o 12c 11e 11b",
        {"dos reyes", "pares", "duples", "juego"},
        {"dos reyes", "pares", "duples", "juego"},
    ),
    (
        "duples",
        "3o 3c 3e 3b",
        {"dos reyes", "medias de reyes", "duples", "juego"},
        {"pares", "duples"},
    ),
    (
        "duples",
        "3o 3c 12e 12b",
        {"dos reyes", "medias de reyes", "duples", "juego"},
        {"dos reyes", "pares", "duples"},
    ),
    (
        "duples",
        "1o 1c 1e 1b",
        {"dos ases", "medias de ases", "duples"},
        {"dos ases", "medias de ases", "duples"},
    ),
    # 31: juego of 31
    ("31", "7o 7c 7e 10b", {"pares", "31"}, {"pares", "31"}),  # la real is a 31 too
    ("31", "12o 11c 1e 10b", {"31"}, {"31"}),
    ("31", "3o 11c 1e 10b", {"31"}, {"ciego"}),  # 4: 3 + 10 + 1 + 10 = 24
    # juego other than 31
    ("juego", "12o 11c 10e 4b", {"juego"}, {"juego"}),  # 34
    ("juego", "12o 11c 2e 10b", {"31"}, {"juego"}),  # 8: R C A S = 31; 4: 32
    ("juego", "12o 11c 7e 3b", {"dos reyes", "juego"}, {"30"}),  # 8: 37; 4: 30
    # 30 al punto
    ("30", "12o 11c 6e 4b", {"30"}, {"30"}),
    ("30", "10o 10c 6e 4b", {"pares", "30"}, {"pares", "30"}),
    # 29 al punto
    ("29", "12o 11c 5e 4b", {"29"}, {"29"}),
    ("29", "12o 11c 7e 2b", {"ciego"}, {"29"}),  # 8: R C 7 A = 28
    # ciego: no pares, no juego, punto under 29
    ("ciego", "1o 4c 5e 6b", {"ciego"}, {"ciego"}),
    ("ciego", "12o 11c 7e 1b", {"ciego"}, {"ciego"}),  # 28
    ("ciego", "12o 11c 5e 3b", {"dos reyes", "juego"}, {"ciego"}),  # 8: R C 5 R = 35; 4: 28
]


ROWS = S2_ROWS


@pytest.mark.parametrize(
    ("row", "hand", "eight", "four"), ROWS, ids=[f"{r}:{h}" for r, h, _, _ in ROWS]
)
def test_s2_every_row_with_both_reyes_options(
    row: str, hand: str, eight: set[str], four: set[str]
) -> None:
    """S2 row by row; S1: with 8 reyes a 3 counts as a rey and a 2 as an as."""
    assert senas(hand, options=Options(reyes=8)) == frozenset(eight)
    assert senas(hand, options=Options(reyes=4)) == frozenset(four)
    # the row's own seña is shown by at least one of the options
    assert row in eight | four


def test_s2_sotas_medias_is_pares_and_juego() -> None:
    """S2 "pares": medias of a rank other than rey and as is "pares"; 10 10 10 4 = 34 is juego."""
    assert senas("10o 10c 10e 4b") == {"pares", "juego"}


def test_s2_every_row_is_covered() -> None:
    """Every S2 name appears in some expected result above, and MUS_SENAS lists exactly S2."""
    shown = set().union(*(e | f for _, _, e, f in ROWS))
    assert shown == S2_NAMES
    assert frozenset(MUS_SENAS) == S2_NAMES and len(MUS_SENAS) == 11


def test_s2_defaults_are_the_engine_defaults() -> None:
    """Without options the engine's defaults apply (8 reyes, M1)."""
    assert senas("12o 3c 1b 2e") == {"dos reyes", "dos ases", "duples"}
    assert senas("12o 3c 1b 2e") == senas("12o 3c 1b 2e", options=Options())


def test_s2_accepts_cards_and_texts_and_the_package_exports_it() -> None:
    """``hand`` accepts card texts (a string or a list) or Cards, as ``evaluate`` does."""
    cards = [Card.parse(t) for t in ("7o", "7c", "7e", "10b")]
    assert senas(cards) == senas(["7o", "7c", "7e", "10b"]) == senas("7o,7c,7e,10b")
    assert engine.mus.senas is senas


def test_s1_a_hand_is_four_distinct_cards() -> None:
    """A Mus hand has four cards and never the same card twice."""
    with pytest.raises(ValueError):
        senas("12o 12c 4e")
    with pytest.raises(ValueError):
        senas("12o 12o 4e 5b")


def _effective(rank: int, reyes: int) -> int:
    if reyes == 8 and rank == 3:
        return 12
    if reyes == 8 and rank == 2:
        return 1
    return rank


def _oracle(cards: list[Card], reyes: int) -> set[str]:
    """S2 by simple counting, independent of the engine."""
    ranks = [_effective(c.rank, reyes) for c in cards]
    counts = Counter(ranks)
    points = sum(10 if r >= 10 else r for r in ranks)
    groups = [n for n in counts.values() if n >= 2]
    has_pares = bool(groups)
    is_duples = len(groups) == 2 or 4 in groups
    expected: set[str] = set()
    if counts[12] >= 2:
        expected.add("dos reyes")
    if counts[1] >= 2:
        expected.add("dos ases")
    if any(n >= 2 for r, n in counts.items() if r not in (1, 12)):
        expected.add("pares")
    if counts[12] >= 3:
        expected.add("medias de reyes")
    if counts[1] >= 3:
        expected.add("medias de ases")
    if is_duples:
        expected.add("duples")
    if points == 31:
        expected.add("31")
    elif points > 31:
        expected.add("juego")
    elif points in (29, 30):
        expected.add(str(points))
    if not has_pares and points < 29:
        expected.add("ciego")
    return expected


def _check_s1_s2(cards: list[Card], reyes: int, real: bool) -> None:
    """S1 (never false) and S2: equal to an independent count; juego and punto agree with the
    engine's evaluation; only S2 names; "ciego" never with another seña."""
    options = Options(reyes=reyes, real=real)  # type: ignore[arg-type]
    got = senas(cards, options=options)
    assert isinstance(got, frozenset)
    assert got <= S2_NAMES
    assert got == _oracle(cards, reyes)
    value = evaluate(cards, options)
    assert ("31" in got) == (value.juego and value.points == 31)
    assert ("juego" in got) == (value.juego and value.points != 31)
    assert ("30" in got) == (not value.juego and value.points == 30)
    assert ("29" in got) == (not value.juego and value.points == 29)
    assert ("duples" in got) == (value.pares == "duples")
    if "ciego" in got:
        assert got == {"ciego"}
    assert got, "every hand supports at least one seña (ciego when nothing else)"


# Señas read ranks only, so every multiset of four ranks (715 of them) covers S2 exhaustively;
# the random test below varies the suits.
RANK_HANDS = list(combinations_with_replacement((1, 2, 3, 4, 5, 6, 7, 10, 11, 12), 4))
SUITS = "oceb"


@pytest.mark.parametrize("reyes", [8, 4])
@pytest.mark.parametrize("real", [False, True])
def test_s1_s2_every_multiset_of_ranks_signals_only_what_it_holds(reyes: int, real: bool) -> None:
    """S1, S2 on every hand up to suits (each rank at most four times)."""
    rng = random.Random(reyes * 2 + real)
    assert len(RANK_HANDS) == 715
    for ranks in RANK_HANDS:
        suits = {r: rng.sample(SUITS, 4) for r in set(ranks)}
        _check_s1_s2([Card.parse(f"{r}{suits[r].pop()}") for r in ranks], reyes, real)


@settings(max_examples=300)
@given(
    cards=st.lists(st.sampled_from(DECK), min_size=4, max_size=4, unique=True),
    reyes=st.sampled_from([8, 4]),
    real=st.booleans(),
)
def test_s1_s2_random_hands_signal_only_what_they_hold(
    cards: list[Card], reyes: int, real: bool
) -> None:
    """S1, S2 on random hands, suits included."""
    _check_s1_s2(cards, reyes, real)
