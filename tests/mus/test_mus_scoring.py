"""M5: scoring. Refusals collected at once, accepted bets and values at the end of the hand in
lance order, early stop at the target, órdago."""

import dataclasses

from engine.mus import MusState, Options, hand_scores, new_game

PASS_ALL = "0: paso; 1: paso; 2: paso; 3: paso"
# seats 0 and 2 hold 31 each; 1 and 3 hold nothing in pares or juego
TWO_31 = ["12o 11c 10e 1b", "4o 5c 6e 7b", "12c 11o 10o 1c", "4c 5o 6o 7c"]
# M7 hands with pairs swapped: seat 1 wins grande and holds 31, seat 2 wins chica and holds a par
SWAPPED = ["7o 6c 5e 4b", "12o 11c 7e 4o", "1o 2c 4e 5b", "10o 7c 6e 5o"]


def with_score(s: MusState, score: tuple[int, int]) -> MusState:
    return dataclasses.replace(s, score=score)


def test_m5_refused_first_bet_pays_one_at_once(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, "0: corto; 0: envido 7; 1: no quiero; 3: no quiero")
    assert scores_of(events) == [(0, 1, "grande", "no_querido")]
    assert s.score == (1, 0) and s.lance == "chica"


def test_m5_refused_raise_pays_the_amount_accepted_before(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, "0: corto; 0: envido 5; 1: 3 más; 2: no quiero; 0: no quiero")
    assert scores_of(events) == [(1, 5, "grande", "no_querido")]
    assert s.score == (0, 5)


def test_m5_refusing_pair_loses_the_lance_even_with_better_cards(play, m7_hands, scores_of) -> None:
    """Seat 2 wins grande on cards, but pair 0 refused: grande gives pair 0 nothing at the end."""
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, f"0: corto; 0: paso; 1: envido; 2: no quiero; 0: no quiero; {PASS_ALL}")
    assert scores_of(events) == [
        (1, 1, "grande", "no_querido"),
        (0, 1, "chica", "en_paso"),
        (0, 1, "pares", "pares"),
        (0, 3, "juego", "juego"),
    ]


def test_m5_accepted_grande_bet_pays_only_the_bet(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, f"0: corto; 0: paso; 1: envido 4; 2: quiero; {PASS_ALL}")
    assert scores_of(events)[0] == (0, 4, "grande", "envite")
    assert scores_of(events)[1] == (0, 1, "chica", "en_paso")


def test_m5_en_paso_grande_and_chica_pay_one(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    _, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert scores_of(events)[:2] == [(0, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso")]


def test_m5_juego_values_per_player_two_31s_pay_six(play, scores_of) -> None:
    s = new_game(seed=1, hands=TWO_31)
    _, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert (0, 6, "juego", "juego") in scores_of(events)


def test_m5_juego_other_than_31_pays_two(play, scores_of) -> None:
    hands = ["12o 11c 10e 2b", "4o 5c 6e 7b", "12c 11o 10o 4c", "1c 5o 6o 7c"]  # 31 and 34
    _, events = play(new_game(seed=1, hands=hands), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert (0, 5, "juego", "juego") in scores_of(events)


def test_m5_accepted_juego_bet_pays_bet_plus_values(play, scores_of) -> None:
    # seat 0: 31, seat 1: 32 (both pairs have juego); seat 2, 3: no juego
    hands = ["12o 11c 10e 1b", "12c 11o 7e 5b", "4o 5c 6e 7b", "1c 5o 6o 7c"]
    _s, events = play(
        new_game(seed=1, hands=hands), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: quiero"
    )
    sc = scores_of(events)
    assert (0, 2, "juego", "envite") in sc and (0, 3, "juego", "juego") in sc


def test_m5_pares_values_par_medias_duples_per_player(play, scores_of) -> None:
    """Pares en paso with one pair holding: medias (2) at seat 0 plus duples (3) at seat 2."""
    hands = ["7o 7c 7e 1b", "12o 11c 6e 4b", "5o 5c 4e 4o", "10o 1c 6c 5b"]
    _, events = play(new_game(seed=1, hands=hands), f"0: corto; {PASS_ALL}; {PASS_ALL}; {PASS_ALL}")
    assert (0, 5, "pares", "pares") in scores_of(events)


def test_m5_pares_refused_pair_collects_one_now_and_its_values_later(play, scores_of) -> None:
    # seat 0 par of 4s; seat 1 duples: pair 1 refuses, pair 0 collects 1 + its par (1)
    hands = ["4o 4c 6e 1b", "12o 12c 11e 11b", "5o 7c 1e 10o", "10c 1c 6c 5b"]
    _s, events = play(
        new_game(seed=1, hands=hands),
        f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: no quiero",
    )
    sc = scores_of(events)
    assert (0, 1, "pares", "no_querido") in sc and (0, 1, "pares", "pares") in sc
    assert not [x for x in sc if x[2] == "pares" and x[0] == 1]


def test_m5_pares_accepted_bet_goes_to_the_better_pares(play, scores_of) -> None:
    hands = ["4o 4c 6e 1b", "12o 12c 11e 11b", "5o 7c 1e 10o", "10c 1c 6c 5b"]
    _, events = play(
        new_game(seed=1, hands=hands),
        f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: quiero",
    )
    sc = scores_of(events)
    assert (1, 2, "pares", "envite") in sc and (1, 3, "pares", "pares") in sc


def test_m5_punto_pays_one_en_paso_and_bet_plus_one_when_accepted(play, scores_of) -> None:
    hands = ["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"]  # best punto: seat 3
    s = new_game(seed=1, hands=hands)
    _, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}; {PASS_ALL}")
    assert scores_of(events)[-1] == (1, 1, "punto", "punto")
    _, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido 3; 1: quiero")
    assert scores_of(events)[-2:] == [(1, 3, "punto", "envite"), (1, 1, "punto", "punto")]


def test_m5_end_of_hand_collects_in_lance_order_and_stops_at_the_target(play, scores_of) -> None:
    s = with_score(new_game(seed=1, hands=SWAPPED), (38, 39))
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert scores_of(events) == [(1, 1, "grande", "en_paso")]  # pair 1 reaches 40: stop
    assert s.juegos == (0, 1) and s.score == (0, 0)
    over = next(e for e in events if e.kind == "hand_over")
    assert over.data["score"] == [38, 40]


def test_m5_early_stop_other_pair_values_not_counted(play, scores_of) -> None:
    s = with_score(new_game(seed=1, hands=SWAPPED), (39, 35))
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    # grande to pair 1 (36), chica to pair 0 (40): pair 1's juego (3) is never counted
    assert scores_of(events) == [(1, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso")]
    assert s.juegos == (1, 0)


def test_m5_refusal_reaching_the_target_wins_at_once(play, m7_hands) -> None:
    s = with_score(new_game(seed=1, hands=m7_hands), (39, 0))
    s, events = play(s, "0: corto; 0: envido; 1: no quiero; 3: no quiero")
    kinds = [e.kind for e in events]
    assert "showdown" not in kinds and "juego_won" in kinds
    assert s.juegos == (1, 0) and s.hand_number == 2


def test_m5_ordago_accepted_shows_cards_and_lance_winner_wins_the_juego(play, m7_hands) -> None:
    s = with_score(new_game(seed=1, hands=m7_hands), (0, 37))
    s, events = play(s, "0: corto; 0: paso; 1: ordago; 2: quiero")
    kinds = [e.kind for e in events]
    assert kinds[kinds.index("lance_closed") :][:6] == [
        "lance_closed", "showdown", "scored", "hand_over", "juego_won", "hand_started"
    ]  # fmt: skip
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "grande", "outcome": "ordago", "bet": None, "pair": 0}
    show = next(e for e in events if e.kind == "showdown")
    assert show.data["hands"][1] == ["7o", "6c", "5e", "4b"]
    assert s.juegos == (1, 0) and s.score == (0, 0)  # whatever the score was


def test_m5_ordago_voids_earlier_accepted_bets(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, "0: corto; 0: envido; 1: envido 10; 2: quiero; 0: ordago; 1: quiero")
    sc = scores_of(events)
    assert sc == [(0, 40, "chica", "ordago")]  # the grande bet of 12 is never collected
    assert s.juegos == (1, 0)


def test_m5_ordago_refused_as_first_bet_pays_one(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    _, events = play(s, "0: corto; 0: órdago; 1: no quiero; 3: no quiero")
    assert scores_of(events) == [(0, 1, "grande", "no_querido")]


def test_m5_ordago_refused_after_a_bet_pays_the_bet(play, m7_hands, scores_of) -> None:
    s = new_game(seed=1, hands=m7_hands)
    _, events = play(s, "0: corto; 0: envido 6; 1: ordago; 2: no quiero; 0: no quiero")
    assert scores_of(events) == [(1, 6, "grande", "no_querido")]


def test_m5_hand_scores_lists_end_of_hand_collection(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, _ = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}"[: -len("; 3: paso")])
    assert s.lance == "chica" and s.to_act == (3,)
    assert hand_scores(s) == [(0, 1, "grande", "en_paso")]


def test_m5_options_four_reyes_change_values(play, scores_of) -> None:
    """With 4 reyes, 3 and 2 keep their points: 3o 3c 12e 12b is 26 (no juego), not 40."""
    hands = ["3o 3c 12e 12b", "4o 5c 6e 7b", "1o 5o 6o 7c", "10o 1c 6c 2o"]
    _, events = play(
        new_game(seed=1, hands=hands, options=Options(reyes=4)),
        f"0: corto; {PASS_ALL}; {PASS_ALL}; {PASS_ALL}",
    )
    assert scores_of(events)[-1][2:] == ("punto", "punto")
