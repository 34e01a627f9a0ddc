"""E3 card ranking and the E8 examples (rules/envite.md)."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import DECK, Card, parse_cards
from engine.envite import is_trump, top_card, trick_winner, trump_order
from engine.envite.ranking import TRUMP, suit_of


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def order(vira: str, k: int) -> str:
    return " ".join(str(c) for c in trump_order(Card.parse(vira), k))


# --------------------------------------------------------------------------- E8 examples


def test_e8_k3_vira_3c_tres_de_bastos_is_top_trump() -> None:
    """E8: k = 3, vira 3c: 3b (led) beats 11b, 10o, 2c, 12c, 11c."""
    assert trick_winner(cards("3b 11b 10o 2c 12c 11c"), Card.parse("3c"), 3) == 0


def test_e8_k3_vira_3c_malilla_wins_a_copas_trick() -> None:
    """E8: k = 3, vira 3c: 5c (led), 11c, 10c, 2c, 12c, 1c: the malilla 2c wins."""
    assert trick_winner(cards("5c 11c 10c 2c 12c 1c"), Card.parse("3c"), 3) == 3


def test_e8_k3_vira_malilla_out_of_play_sota_de_oros_wins() -> None:
    """E8: k = 3, vira 2c: 12o led, then 10o, 11e, 3o: the sota de oros (fixed trump) wins."""
    assert trick_winner(cards("12o 10o 11e 3o"), Card.parse("2c"), 3) == 1
    assert Card.parse("2c") not in trump_order(Card.parse("2c"), 3)


def test_e8_k2_led_suit_wins_when_nobody_trumps() -> None:
    """E8: k = 2, vira 6c: 7o led, 12e, 4o, 1b: 7o wins. 2c beats 12c."""
    vira = Card.parse("6c")
    assert trick_winner(cards("7o 12e 4o 1b"), vira, 2) == 0
    assert trick_winner(cards("12c 2c"), vira, 2) == 1
    assert trick_winner(cards("2c 12c"), vira, 2) == 0


# --------------------------------------------------------------------------- E3 orders by k


def test_e3_k2_malilla_then_vira_suit_sota_de_oros_not_fixed() -> None:
    """E3 k = 2 with vira oros: no fixed trumps; the sota de oros is just an oro."""
    assert order("4o", 2) == "2o 12o 11o 10o 1o 7o 6o 5o 3o"
    assert top_card(Card.parse("4o"), 2) == Card.parse("2o")
    assert not is_trump(Card.parse("3b"), Card.parse("4o"), 2)


def test_e3_k3_vira_oros_sota_de_oros_ranks_once_at_its_fixed_place() -> None:
    """E3 k = 3, vira oros: the sota de oros keeps its fixed place and is not repeated."""
    assert order("7o", 3) == "3b 11b 10o 2o 12o 11o 1o 6o 5o 4o 3o"


def test_e3_k3_vira_bastos_tres_and_caballo_de_bastos_rank_once() -> None:
    """E3 k = 3, vira bastos: 3b and 11b are fixed; the bastos run skips them."""
    assert order("5b", 3) == "3b 11b 10o 2b 12b 10b 1b 7b 6b 4b"
    # The caballo de bastos beats the rey de bastos and the malilla.
    assert trick_winner(cards("12b 2b 11b"), Card.parse("5b"), 3) == 2


def test_e3_k3_vira_is_the_top_card_nothing_moves_up() -> None:
    """E3: vira 3b with k = 3: the 3 de bastos is out of play; the caballo de bastos is top."""
    assert order("3b", 3) == "11b 10o 2b 12b 10b 1b 7b 6b 5b 4b"
    assert top_card(Card.parse("3b"), 3) == Card.parse("11b")


def test_e3_k4_vira_oros_cinco_de_oros_first() -> None:
    """E3 k = 4, vira oros: 5o heads the fixed trumps and is not repeated among oros."""
    assert order("3o", 4) == "5o 3b 11b 10o 2o 12o 11o 1o 7o 6o 4o"


def test_e3_k4_vira_bastos_caballo_is_vira() -> None:
    """E3 k = 4, vira 11b (a fixed trump): it leaves the order, the rest keep their places."""
    assert order("11b", 4) == "5o 3b 10o 2b 12b 10b 1b 7b 6b 5b 4b"


def test_e3_k5_vira_oros_dos_de_oros_is_fixed_above_the_malilla_place() -> None:
    """E3 k = 5, vira oros: 2o is a fixed trump; as malilla it is not repeated."""
    assert order("12o", 5) == "2o 5o 3b 11b 10o 11o 1o 7o 6o 4o 3o"
    assert order("5c", 5) == "2o 5o 3b 11b 10o 2c 12c 11c 10c 1c 7c 6c 4c 3c"


def test_e3_k6_vira_oros_as_de_oros_first() -> None:
    """E3 k = 6, vira oros: 1o, 2o, 5o, 3b, 11b, 10o, then the rest of the oros."""
    assert order("4o", 6) == "1o 2o 5o 3b 11b 10o 12o 11o 7o 6o 3o"


def test_e3_k6_vira_as_de_oros_top_is_the_next_one_down() -> None:
    """E3/E4: vira 1o with k = 6: the as de oros is out of play; the 2 de oros is top."""
    assert order("1o", 6).split()[:3] == ["2o", "5o", "3b"]
    assert top_card(Card.parse("1o"), 6) == Card.parse("2o")


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("vira", ["1o", "2o", "5o", "10o", "3b", "11b", "7c", "4e"])
def test_e3_every_card_ranks_once_and_vira_is_out(k: int, vira: str) -> None:
    """E3: each physical card ranks once; the vira is never a trump in play."""
    trumps = trump_order(Card.parse(vira), k)
    assert len(set(trumps)) == len(trumps)
    assert Card.parse(vira) not in trumps
    fixed = {"1o": 6, "2o": 5, "5o": 4, "3b": 3, "11b": 3, "10o": 3}
    expected = {c for c in DECK if c.suit == vira[-1] or fixed.get(str(c), 99) <= k} - {
        Card.parse(vira)
    }
    assert set(trumps) == expected


def test_e3_non_trump_order_and_off_suit_never_wins() -> None:
    """E3: non-trumps rank rey, caballo, sota, as, 7..2; a card of neither suit never wins."""
    vira = Card.parse("4c")
    plain = ["12e", "11e", "10e", "1e", "7e", "6e", "5e", "4e", "3e", "2e"]
    for high, low in itertools.pairwise(plain):
        assert trick_winner(cards(f"{low} {high}"), vira, 2) == 1
        assert trick_winner(cards(f"{high} {low}"), vira, 2) == 0
    assert trick_winner(cards("2e 12o 12b"), vira, 2) == 0


def test_e3_fixed_trump_belongs_to_trump_suit() -> None:
    """E3: a fixed trump's suit is the trump suit, whatever its printed suit."""
    vira = Card.parse("4c")
    assert suit_of(Card.parse("10o"), vira, 3) == TRUMP
    assert suit_of(Card.parse("3b"), vira, 3) == TRUMP
    assert suit_of(Card.parse("10o"), vira, 2) == "o"
    # A fixed trump led is a trump lead: the malilla still loses to the higher fixed card.
    assert trick_winner(cards("10o 2c 12o"), vira, 3) == 0
    assert trick_winner(cards("11o 10o 12o"), vira, 3) == 1


def test_e3_ranking_rejects_team_sizes_outside_two_to_six() -> None:
    """E3 covers k = 2..6 only."""
    with pytest.raises(ValueError):
        trump_order(Card.parse("4c"), 7)
