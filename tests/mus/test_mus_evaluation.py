"""M3: hand comparisons for grande, chica, pares, juego and punto, both reyes options, la real,
ties to the mano."""

import itertools

import pytest

from engine.mus import LANCES, Options, best_seat, evaluate, lance_winner, worst_seat

FOUR = Options(reyes=4)


def beats(lance: str, a: str, b: str, options: Options | None = None) -> bool:
    """``a`` at seat 1 beats ``b`` at seat 0 (the mano), so ties would go to ``b``."""
    return lance_winner(lance, [b, a], mano=0, options=options) == 1


def test_m3_grande_compares_high_cards_card_by_card() -> None:
    assert beats("grande", "12o 1c 1e 1b", "11o 11c 11e 10b")
    assert beats("grande", "12o 11c 4e 1b", "12c 10c 7e 7b")
    assert beats("grande", "12o 11c 5e 1b", "12c 11o 4e 4b")
    assert not beats("grande", "12o 11c 5e 1b", "12c 11o 5o 1o")  # equal: mano wins


def test_m3_grande_order_r_c_s_7_6_5_4_a() -> None:
    order = ["12", "11", "10", "7", "6", "5", "4", "1"]
    for hi, lo in itertools.pairwise(order):
        assert beats("grande", f"{hi}o 1c 1e 1b", f"{lo}o 1c 1e 1b")
        assert beats("chica", f"{lo}o 12c 12e 12b", f"{hi}o 12c 12e 12b")


def test_m3_chica_lower_wins_card_by_card() -> None:
    assert beats("chica", "1o 1c 4e 5b", "1e 4b 4o 5o")
    assert beats("chica", "1o 4c 5e 12b", "1e 4b 6o 7o")
    assert not beats("chica", "1o 4c 5e 12b", "1e 4b 5o 12c")  # tie to the mano


def test_m3_eight_reyes_three_is_rey_and_two_is_as() -> None:
    v = evaluate("3o 3c 2e 2b")
    assert (
        v.pares == "duples"
        and v.points == 22
        and v.grande_key == evaluate("12o 12c 1e 1b").grande_key
    )
    assert not beats("grande", "3o 11c 10e 7b", "12o 11o 10o 7o")  # same hand: R C S 7
    assert beats("chica", "2o 4c 5e 6b", "1c 4o 5o 7o")  # A 4 5 6 beats A 4 5 7


def test_m3_four_reyes_three_and_two_keep_their_rank() -> None:
    v = evaluate("3o 3c 2e 2b", FOUR)
    assert v.pares == "duples" and v.points == 10
    assert beats("grande", "12o 1c 1e 1b", "3o 3c 3e 3b", FOUR)
    assert beats("grande", "3o 3c 3e 3b", "12o 1c 1e 1b")  # RRRR with 8 reyes
    assert beats("grande", "4o 1c 1e 1b", "3o 2c 1e 1b", FOUR)
    assert beats("grande", "3o 1c 1e 1b", "2o 1c 1e 1b", FOUR)
    assert beats("chica", "1o 2c 4e 5b", "1c 3o 4o 5o", FOUR)
    assert beats("pares", "12o 12c 1e 1b", "3o 3c 2e 2b", FOUR)
    # with 8 reyes both are RRAA: tie goes to the mano
    assert not beats("pares", "12o 12c 1e 1b", "3o 3c 2e 2b")


def test_m3_pares_kinds_par_medias_duples() -> None:
    assert evaluate("12o 12c 4e 5b").pares == "par"
    assert evaluate("7o 7c 7e 5b").pares == "medias"
    assert evaluate("7o 7c 5e 5b").pares == "duples"
    assert evaluate("7o 7c 7e 7b").pares == "duples"
    assert evaluate("12o 11c 4e 5b").pares is None
    assert beats("pares", "4o 4c 4e 5b", "12o 12c 11e 1b")  # medias > par
    assert beats("pares", "4o 4c 5e 5b", "12o 12c 12e 1b")  # duples > medias
    assert beats("pares", "12o 12c 4e 5b", "11o 11c 7e 6b")  # higher par
    assert beats("pares", "5o 5c 5e 4b", "4o 4c 4e 12b")  # higher medias


def test_m3_duples_rraa_beats_cccc() -> None:
    assert beats("pares", "12o 12c 1e 1b", "11o 11c 11e 11b")


def test_m3_duples_rrrr_beats_rraa() -> None:
    assert beats("pares", "12o 12c 12e 12b", "3o 3c 1e 1b")


def test_m3_duples_ccss_lose_to_rrss() -> None:
    assert beats("pares", "12o 12c 10e 10b", "11o 11c 10o 10c")
    assert not beats("pares", "11o 11c 10o 10c", "12o 12c 10e 10b")


@pytest.mark.parametrize(
    ("better", "worse"),
    [(31, 32), (32, 40), (40, 37), (37, 36), (36, 35), (35, 34), (34, 33)],
)
def test_m3_juego_order_31_32_40_37_down_to_33(better: int, worse: int) -> None:
    hands = {
        31: "12o 11c 10e 1b",
        32: "12o 11c 10e 2b",  # with 4 reyes a 2 is 2 points
        40: "12o 11c 10e 12b",
        37: "12o 11c 10e 7b",
        36: "12o 11c 10e 6b",
        35: "12o 11c 10e 5b",
        34: "12o 11c 10e 4b",
        33: "12o 11c 10e 3b",
    }
    assert evaluate(hands[better], FOUR).points == better
    assert beats("juego", hands[better], hands[worse], FOUR)
    assert not beats("juego", hands[worse], hands[better], FOUR)


def test_m3_juego_counts_eight_reyes_points() -> None:
    assert evaluate("3o 11c 10e 1b").points == 31  # a 3 is a rey: 10 points
    assert evaluate("2o 12c 10e 11b").points == 31  # a 2 is an as: 1 point
    assert evaluate("3o 11c 10e 1b", FOUR).points == 24


def test_m3_juego_ties_go_to_the_mano() -> None:
    hands = ["7o 4c 10e 1b", "12o 11c 10e 1b", "5o 6c 10o 1e", "12c 11o 10c 1c"]
    assert lance_winner("juego", hands, mano=0) == 1
    assert lance_winner("juego", hands, mano=2) == 3
    assert lance_winner("juego", hands, mano=1) == 1


def test_m3_punto_higher_wins_thirty_best() -> None:
    assert beats("punto", "12o 11c 5e 4b", "12c 11o 4o 1c")  # 29 > 25
    assert evaluate("12o 11c 7e 4b").punto_key == 0  # 31 is juego, not punto
    v30 = evaluate("12o 11c 5e 5b")
    assert v30.points == 30 and not v30.juego and v30.punto_key == 30
    assert beats("punto", "12o 11c 5e 5b", "12c 11o 4o 5c")


def test_m3_la_real_beats_other_31_only_with_the_option() -> None:
    real = "7o 7c 7e 10b"
    other = "12o 11c 10e 1b"
    assert evaluate(real).real
    assert not beats("juego", real, other)  # off: tie to the mano
    assert beats("juego", real, other, Options(real=True))


def test_m3_ties_go_to_the_seat_nearest_the_mano() -> None:
    same = ["1o 4c 5e 6b", "12o 11c 10e 7b", "12c 11o 10o 7o", "12e 11e 10c 7c"]
    assert lance_winner("grande", same, mano=0) == 1
    assert lance_winner("grande", same, mano=2) == 2
    assert lance_winner("grande", same, mano=3) == 3
    assert best_seat([5, 9, 9, 9], mano=0) == 1
    assert best_seat([5, 9, 9, 9], mano=3) == 3
    assert worst_seat([5, 9, 5, 9], mano=0, seats=range(4)) == 2


def test_m3_pares_and_juego_keys_are_zero_without_them() -> None:
    v = evaluate("12o 11c 5e 4b")
    assert v.key("pares") == 0 and v.key("juego") == 0 and v.key("punto") == 29


def test_m3_fast_lance_winners_agree_with_lance_winner() -> None:
    import random

    from engine.cards import DECK
    from engine.mus import lance_winners

    rng = random.Random(3)
    for options in (Options(), FOUR, Options(real=True)):
        for _ in range(300):
            cards = rng.sample(DECK, 16)
            hands = [cards[i : i + 4] for i in range(0, 16, 4)]
            mano = rng.randrange(4)
            fast = lance_winners([evaluate(h, options) for h in hands], mano)
            slow = [lance_winner(lance, hands, mano, options) for lance in LANCES]
            if slow[3] is not None:
                slow[4] = None
            assert list(fast) == slow
