"""Señas of envite canario (rules/senas.md S1, S3): ``engine.envite.senas``.

Every row of S3 is checked with hand-computed hands for every team size 2..6, with S3's worked
examples; a property test compares thousands of random hands with an independent reading of E3.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.envite
from engine.cards import DECK, Card
from engine.envite import senas
from engine.envite.senas import ENVITE_SENAS

S3_NAMES = frozenset(
    {
        "malilla",
        "3 de bastos",
        "caballo de bastos",
        "sota de oros",
        "5 de oros",
        "2 de oros",
        "as de oros",
        "rey",
        "caballo",
        "triunfos pequeños",
        "flus",
        "ciego",
        "envido",
    }
)
SIZES = (2, 3, 4, 5, 6)


def by_size(**ranges: set[str]) -> dict[int, set[str]]:
    """Expected señas per team size from keywords like ``k2=..., k3_6=...`` ("envido" added)."""
    out: dict[int, set[str]] = {}
    for key, names in ranges.items():
        bounds = [int(x) for x in key[1:].split("_")]
        lo, hi = bounds[0], bounds[-1]
        for k in range(lo, hi + 1):
            out[k] = names | {"envido"}
    assert sorted(out) == list(SIZES)
    return out


# (S3 row, hand, vira, expected señas by team size), computed by hand from E3.
S3_ROWS: list[tuple[str, str, str, dict[int, set[str]]]] = [
    ("malilla", "2c 4e 6b", "5c", by_size(k2_6={"malilla"})),
    ("malilla", "2o 7e 6b", "4o", by_size(k2_4={"malilla"}, k5_6={"2 de oros"})),
    # the vira 2c takes the malilla out of play: the rey is then the best vira-suit card
    ("malilla", "12c 4e 6b", "2c", by_size(k2_6={"rey"})),
    ("3 de bastos", "3b 4e 6c", "5o", by_size(k2={"ciego"}, k3_6={"3 de bastos"})),
    ("3 de bastos", "3b 4e 6c", "5b", by_size(k2={"triunfos pequeños"}, k3_6={"3 de bastos"})),
    ("caballo de bastos", "11b 4e 6c", "5o", by_size(k2={"ciego"}, k3_6={"caballo de bastos"})),
    ("caballo de bastos", "11b 4e 6c", "5b", by_size(k2={"caballo"}, k3_6={"caballo de bastos"})),
    ("sota de oros", "10o 4e 6b", "5c", by_size(k2={"ciego"}, k3_6={"sota de oros"})),
    # k = 2, vira in oros: the sota de oros is a trump with no seña of its own (not ciego)
    ("sota de oros", "10o 4e 6c", "5o", by_size(k2=set(), k3_6={"sota de oros"})),
    ("5 de oros", "5o 4e 6b", "7c", by_size(k2_3={"ciego"}, k4_6={"5 de oros"})),
    ("5 de oros", "5o 4e 6c", "7o", by_size(k2_3={"triunfos pequeños"}, k4_6={"5 de oros"})),
    ("2 de oros", "2o 4e 6b", "7c", by_size(k2_4={"ciego"}, k5_6={"2 de oros"})),
    ("2 de oros", "2o 4e 6c", "7o", by_size(k2_4={"malilla"}, k5_6={"2 de oros"})),
    ("as de oros", "1o 4e 6b", "7c", by_size(k2_5={"ciego"}, k6={"as de oros"})),
    ("as de oros", "1o 4e 6c", "7o", by_size(k2_5={"triunfos pequeños"}, k6={"as de oros"})),
    ("rey", "12e 4c 6b", "5e", by_size(k2_6={"rey"})),
    ("rey", "12o 4c 6b", "5o", by_size(k2_6={"rey"})),  # the rey is never a fixed trump
    ("caballo", "11e 4c 6b", "5e", by_size(k2_6={"caballo"})),
    ("triunfos pequeños", "1e 4c 6b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "7e 4c 6b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "6e 4c 5b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "5e 4c 6b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "4e 4c 6b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "3e 4c 6b", "10e", by_size(k2_6={"triunfos pequeños"})),
    ("triunfos pequeños", "3c 7c 1c", "12c", by_size(k2_6={"triunfos pequeños", "flus"})),
    # three copas, no trump: flus and ciego together
    ("flus", "4c 6c 7c", "5e", by_size(k2_6={"flus", "ciego"})),
    ("flus", "12e 4e 1e", "5e", by_size(k2_6={"rey", "triunfos pequeños", "flus"})),
    # fixed trumps belong to the trump suit (E3), also for flus
    (
        "flus",
        "3b 11b 2c",
        "5c",
        by_size(k2={"malilla"}, k3_6={"3 de bastos", "caballo de bastos", "malilla", "flus"}),
    ),
    (
        "flus",
        "3b 11b 4b",
        "5c",
        by_size(k2={"flus", "ciego"}, k3_6={"3 de bastos", "caballo de bastos"}),
    ),
    ("flus", "10o 4o 7o", "5c", by_size(k2={"flus", "ciego"}, k3_6={"sota de oros"})),
    (
        "flus",
        "1o 2o 5o",
        "7c",
        by_size(
            k2_3={"flus", "ciego"},
            k4={"5 de oros"},
            k5={"2 de oros", "5 de oros"},
            k6={"as de oros", "2 de oros", "5 de oros", "flus"},
        ),
    ),
    ("ciego", "4c 6e 7b", "5o", by_size(k2_6={"ciego"})),
    (
        "envido",
        "12o 11o 2o",
        "5o",
        by_size(
            k2_4={"rey", "caballo", "malilla", "flus"}, k5_6={"rey", "caballo", "2 de oros", "flus"}
        ),
    ),
]

CASES = [
    (row, hand, vira, k, expected)
    for row, hand, vira, table in S3_ROWS
    for k, expected in table.items()
]


@pytest.mark.parametrize(
    ("row", "hand", "vira", "k", "expected"),
    CASES,
    ids=[f"{r}:{h}/vira {v}/k{k}" for r, h, v, k, _ in CASES],
)
def test_s3_every_row_with_every_team_size(
    row: str, hand: str, vira: str, k: int, expected: set[str]
) -> None:
    """S3 row by row, team sizes 2..6; each card gives the seña of its highest place in E3."""
    assert senas(hand, vira=vira, team_size=k) == frozenset(expected)


def test_s3_every_row_is_covered() -> None:
    """Every S3 name is expected somewhere above; ENVITE_SENAS lists exactly S3."""
    shown = set().union(*(e for *_, e in CASES))
    assert shown == S3_NAMES
    assert frozenset(ENVITE_SENAS) == S3_NAMES and len(ENVITE_SENAS) == 13


def test_s3_worked_example_2_de_oros_with_five_per_team() -> None:
    """S3: with vira in oros and five per team, the 2 de oros is the fixed "2 de oros", not the
    "malilla"."""
    got = senas("2o 4e 6c", vira="7o", team_size=5)
    assert "2 de oros" in got and "malilla" not in got


def test_s3_worked_example_caballo_and_3_de_bastos_with_three_per_team() -> None:
    """S3: with vira in bastos and three per team, the caballo de bastos is the fixed "caballo de
    bastos", not "caballo", and the 3 de bastos is not a "triunfo pequeño"."""
    got = senas("11b 3b 4e", vira="7b", team_size=3)
    assert got == {"caballo de bastos", "3 de bastos", "envido"}
    assert "caballo" not in got and "triunfos pequeños" not in got


def test_s3_design_example() -> None:
    """DESIGN.md's example: malilla and rey with vira 5c (three per team)."""
    assert senas("2c 12c 4o") == {"malilla", "rey", "envido"}


def test_s1_the_vira_is_out_of_play() -> None:
    """E2/S1: the vira is out of play, so no hand holds it; such a hand is refused."""
    with pytest.raises(ValueError, match="vira"):
        senas("5c 4e 6b", vira="5c", team_size=3)


def test_s1_current_cards_only() -> None:
    """S1: señas follow the cards held now (3, then fewer as they are played)."""
    assert senas("12c 4c 7c", vira="5c", team_size=2) == {
        "rey",
        "triunfos pequeños",
        "flus",
        "envido",
    }
    assert senas("12c 4c", vira="5c", team_size=2) == {"rey", "triunfos pequeños", "envido"}
    assert senas("4e", vira="5c", team_size=2) == {"ciego", "envido"}
    assert senas([], vira="5c", team_size=2) == {"ciego", "envido"}


def test_s1_invalid_hands_and_sizes_are_refused() -> None:
    """At most three distinct cards; team size 2..6 (E1)."""
    with pytest.raises(ValueError):
        senas("12c 4c 7c 6c", vira="5c")
    with pytest.raises(ValueError):
        senas("12c 12c", vira="5c")
    with pytest.raises(ValueError):
        senas("12c", vira="5c", team_size=7)
    with pytest.raises(ValueError):
        senas("12c", vira="5c", team_size=1)


def test_s3_accepts_cards_and_texts_and_the_package_exports_it() -> None:
    """Cards or card texts, vira as text or Card; ``engine.envite.senas`` is this function."""
    cards = [Card.parse("2c"), Card.parse("12c")]
    assert senas(cards, vira=Card.parse("5c")) == senas(["2c", "12c"], vira="5c")
    assert engine.envite.senas is senas


# An independent reading of E3 for the oracle: fixed trumps by the team size that adds them.
FIXED_FROM = {"3b": 3, "11b": 3, "10o": 3, "5o": 4, "2o": 5, "1o": 6}
FIXED_NAME = {
    "3b": "3 de bastos",
    "11b": "caballo de bastos",
    "10o": "sota de oros",
    "5o": "5 de oros",
    "2o": "2 de oros",
    "1o": "as de oros",
}
VIRA_SUIT_NAME = {2: "malilla", 12: "rey", 11: "caballo"} | {
    r: "triunfos pequeños" for r in (1, 7, 6, 5, 4, 3)
}


def _oracle(hand: list[Card], vira: Card, k: int) -> set[str]:
    def fixed(c: Card) -> bool:
        return k >= FIXED_FROM.get(str(c), 99)

    def trump(c: Card) -> bool:
        return fixed(c) or c.suit == vira.suit

    expected = {"envido"}
    for c in hand:
        if fixed(c):
            expected.add(FIXED_NAME[str(c)])
        elif c.suit == vira.suit and c.rank in VIRA_SUIT_NAME:
            expected.add(VIRA_SUIT_NAME[c.rank])
    if not any(trump(c) for c in hand):
        expected.add("ciego")
    if len(hand) == 3 and len({"t" if trump(c) else c.suit for c in hand}) == 1:
        expected.add("flus")
    return expected


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Card], Card, int]:
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=4, unique=True))
    vira, hand = cards[0], cards[1:]
    return hand, vira, draw(st.sampled_from(SIZES))


def _check_s1_s3(hand: list[Card], vira: Card, k: int) -> None:
    got = senas(hand, vira=vira, team_size=k)
    assert isinstance(got, frozenset)
    assert got <= S3_NAMES
    assert "envido" in got
    assert got == _oracle(hand, vira, k)
    card_senas = got - {"envido", "ciego", "flus"}
    assert len(card_senas) <= len(hand)
    if "ciego" in got:
        assert card_senas == set()


def test_s1_s3_every_vira_and_team_size_on_seeded_hands() -> None:
    """S1 and S3 for each vira and team size on 300 seeded hands of 0 to 3 cards each (60,000)."""
    rng = random.Random(3)
    for vira in DECK:
        rest = [c for c in DECK if c != vira]
        for k in SIZES:
            for _ in range(300):
                _check_s1_s3(rng.sample(rest, rng.randint(0, 3)), vira, k)


@settings(max_examples=300)
@given(deal=deals())
def test_s1_s3_random_hands_signal_only_what_they_hold(deal: tuple[list[Card], Card, int]) -> None:
    """S1 (never false) and S3 on random hands: equal to an independent reading of E3; only S3
    names; "envido" always; at most one card seña per card."""
    _check_s1_s3(*deal)
