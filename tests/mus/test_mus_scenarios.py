"""Scenario tests: whole hands from fixed deals, driven by text actions (M1, M2, M4, M7)."""

from engine.core import Event
from engine.mus import Options, apply, new_game, view
from engine.mus.game import legal_actions

PASS_ALL = "0: paso; 1: paso; 2: paso; 3: paso"


def test_m7_worked_example_en_paso_scores_six_nil(play, m7_hands, scores_of) -> None:
    """M7: everyone passes every lance; pair {0,2} scores 6, pair {1,3} 0."""
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, f"0: no hay mus; {PASS_ALL}; {PASS_ALL}")
    assert scores_of(events) == [
        (0, 1, "grande", "en_paso"),
        (0, 1, "chica", "en_paso"),
        (0, 1, "pares", "pares"),
        (0, 3, "juego", "juego"),
    ]
    kinds = [e.kind for e in events]
    skipped = [e.data for e in events if e.kind == "lance_skipped"]
    assert skipped == [
        {"lance": "pares", "reason": "one_pair", "pair": 0},
        {"lance": "juego", "reason": "one_pair", "pair": 0},
    ]
    hand_over = next(e for e in events if e.kind == "hand_over")
    assert hand_over.data == {"hand": 1, "score": [6, 0], "juegos": [0, 0]}
    assert kinds[-6:] == ["hand_over", "hand_started", "dealt", "dealt", "dealt", "dealt"]
    assert s.score == (6, 0) and s.hand_number == 2 and s.mano == 1 and s.phase == "mus"


def test_m4_seed_example_refused_raise_collects_nine(play, m7_hands, scores_of) -> None:
    """M4 (seed 000): envido 2, 2 más (4), cinco más (9), diez más (19), no quiero: B gets 9."""
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(
        s,
        """
        0: corto
        0: envido
        1: 2 más
        2: cinco más
        3: 10 más
        0: no quiero
        2: no quiero
        """.replace("cinco", "5"),
    )
    bets = [e.data["bet"] for e in events if e.kind == "spoke"][1:5]
    assert bets == [2, 4, 9, 19]
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "grande", "outcome": "no_querido", "bet": 9, "pair": 1}
    assert scores_of(events) == [(1, 9, "grande", "no_querido")]
    assert s.score == (0, 9)  # collected at once (M5)
    assert s.lance == "chica" and s.to_act == (0,)


def test_m4_one_refusal_then_a_quiero_stands(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, "0: corto; 0: envido 3; 1: no quiero; 3: quiero")
    closed = [e.data for e in events if e.kind == "lance_closed"]
    assert closed == [{"lance": "grande", "outcome": "querido", "bet": 3, "pair": None}]
    assert s.lance == "chica"


def test_m4_answers_come_from_the_opponents_in_playing_order(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, _ = play(s, "0: corto; 0: paso; 1: envido")
    assert s.to_act == (2, 0)  # either opponent may answer, in playing order after the bettor
    s, _ = play(s, "2: no quiero")
    assert s.to_act == (0,)  # one refusal does not stand while his partner may still answer
    s, _ = play(s, "0: envido 4")  # a raise by the second answerer stands
    assert s.to_act == (1, 3) and s.bet == 6 and s.accepted == 2 and s.bet_pair == 0


def test_m4_a_quiero_from_either_opponent_stands_at_once(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, _ = play(s, "0: corto; 0: envido")
    assert s.to_act == (1, 3)
    s, events = play(s, "3: quiero")  # the second opponent answers before the first
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "grande", "outcome": "querido", "bet": 2, "pair": None}
    assert s.lance == "chica"


def test_m4_pares_first_speaker_is_the_first_entitled_player(play) -> None:
    # nobody at seat 0 has pares; seats 1 and 2 do, seat 3 does not
    s = new_game(seed=1, hands=["1o 4c 5c 6b", "7o 7c 5e 4b", "12o 12c 7e 4o", "10o 7b 6e 5o"])
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    declared = next(e for e in events if e.kind == "declared")
    assert declared.data == {"lance": "pares", "has": [False, True, True, False]}
    started = [e.data for e in events if e.kind == "lance_started"][-1]
    assert started == {"lance": "pares", "players": [1, 2]}
    assert s.to_act == (1,)
    assert [str(a) for a in legal_actions(s, 1)] == [
        "paso",
        "envido",
        "envido 3",
        "envido 4",
        "envido 5",
        "envido 10",
        "ordago",
    ]


def test_m4_nobody_has_juego_punto_is_played_by_everyone(play) -> None:
    s = new_game(seed=1, hands=["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"])
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert {"lance": "juego", "reason": "nobody", "pair": None} in [
        e.data for e in events if e.kind == "lance_skipped"
    ]
    assert s.lance == "punto" and s.players == (0, 1, 2, 3)


def test_m4_nobody_has_pares_lance_scores_nothing(play, scores_of) -> None:
    s = new_game(seed=1, hands=["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"])
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}; {PASS_ALL}")
    assert all(lance != "pares" for _, _, lance, _ in scores_of(events))
    assert {"lance": "pares", "reason": "nobody", "pair": None} in [
        e.data for e in events if e.kind == "lance_skipped"
    ]


def test_m1_mano_rotates_and_postre_is_the_seat_before(play, m7_hands) -> None:
    s = new_game(seed=4, hands=m7_hands)
    assert (s.mano, s.postre) == (0, 3)
    s, events = play(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    started = next(e for e in events if e.kind == "hand_started")
    assert started.data == {"hand": 2, "mano": 1, "postre": 0, "score": [6, 0], "juegos": [0, 0]}
    assert s.to_act == (1,)
    for expected_mano in (2, 3, 0):
        before = s.hand_number
        while s.hand_number == before:
            seat = s.to_act[0]
            s = apply(s, seat, "corto" if s.phase == "mus" else "paso").state
        assert s.mano == expected_mano


def test_m1_pairs_are_opposite_seats(play, m7_hands) -> None:
    """M1: seats 0 and 2 collect together (pair 0), 1 and 3 together (pair 1)."""
    s = new_game(seed=1, hands=m7_hands)
    s, _events = play(s, "0: corto; 0: paso; 1: envido; 2: no quiero; 0: no quiero")
    assert s.score == (0, 1)


def test_m1_target_option_thirty_points(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands, options=Options(target=30))
    s = s.__class__(**{**{f: getattr(s, f) for f in s.__dataclass_fields__}, "score": (29, 0)})
    s, events = play(s, "0: corto; 0: envido; 1: no quiero; 3: no quiero")
    assert [e.kind for e in events if e.kind == "juego_won"] == ["juego_won"]
    assert s.juegos == (1, 0) and s.score == (0, 0)


def test_m1_juegos_option_wins_the_vaca(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands, options=Options(juegos=1))
    s, events = play(s, "0: corto; 0: ordago; 1: quiero")
    assert s.is_over and s.winner == 0 and s.to_act == ()
    assert [e.kind for e in events][-4:] == ["scored", "hand_over", "juego_won", "vaca_won"]
    assert view(s).to_dict()["revealed"][2] == ["12o", "11c", "7e", "4o"]


def test_m1_best_of_three_needs_two_juegos(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, _ = play(s, "0: corto; 0: ordago; 1: quiero")
    assert not s.is_over and s.juegos == (1, 0) and s.hand_number == 2


def test_m2_one_corto_ends_the_mus_phase(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, events = play(s, "0: mus; 1: mus; 2: no hay mus")
    assert s.phase == "lance" and s.lance == "grande"
    assert [e.data["action"] for e in events if e.kind == "spoke"] == ["mus", "mus", "corto"]


def test_m2_all_mus_then_simultaneous_discards_and_draw(play, m7_hands) -> None:
    stock = "1c 1e 3o 3e 11o 11e 10c 10e 12c 12e"
    s = new_game(seed=1, hands=m7_hands, stock=stock)
    s, _ = play(s, "0: mus; 1: mus; 2: mus; 3: mus")
    assert s.phase == "discard" and s.to_act == (0, 1, 2, 3)
    s, events = play(s, "2: descarto 4o; 0: descarto 4e 5b")
    assert s.to_act == (1, 3)
    assert [e.data for e in events] == [{"seat": 2, "count": 1}, {"seat": 0, "count": 2}]
    assert legal_actions(s, 0) == [] and len(legal_actions(s, 1)) == 15
    s, events = play(s, "3: descarto 10o 7c 6e; 1: discard 7o")
    # served from the stock in order, starting with the mano
    assert [str(c) for c in s.hands[0]] == ["1o", "2c", "1c", "1e"]
    assert [str(c) for c in s.hands[1]] == ["6c", "5e", "4b", "3o"]
    assert [str(c) for c in s.hands[2]] == ["12o", "11c", "7e", "3e"]
    assert [str(c) for c in s.hands[3]] == ["5o", "11o", "11e", "10c"]
    dealt = [e for e in events if e.kind == "dealt"]
    assert [e.to for e in dealt] == [frozenset({i}) for i in range(4)]
    assert dealt[1].data == {"seat": 1, "cards": ["6c", "5e", "4b", "3o"]}
    assert s.phase == "mus" and s.to_act == (0,) and s.mus_round == 2


def test_m2_reshuffle_never_returns_a_players_own_discards(play) -> None:
    s = new_game(seed=9)
    rounds = 0
    reshuffled = False
    while not reshuffled:
        s, _ = play(s, "0: mus; 1: mus; 2: mus; 3: mus")
        discards = {seat: s.hands[seat] for seat in range(4)}
        events: list[Event] = []
        for seat in range(4):
            t = apply(s, seat, "descarto " + " ".join(str(c) for c in s.hands[seat]))
            s = t.state
            events.extend(t.events)
        reshuffled = any(e.kind == "stock_reshuffled" for e in events)
        for seat in range(4):
            if reshuffled:
                assert not set(s.hands[seat]) & set(discards[seat])
        rounds += 1
        cards = [c for h in s.hands for c in h] + list(s.stock) + list(s.pile)
        assert len(cards) == 40 and len(set(cards)) == 40  # no card lost or duplicated
    assert rounds == 2  # 24 in the stock: the second round of four-card discards runs out


def test_m2_mus_rounds_have_no_limit(play) -> None:
    s = new_game(seed=2)
    for _ in range(6):
        s, _ = play(s, "0: mus; 1: mus; 2: mus; 3: mus")
        for seat in range(4):
            s = apply(s, seat, f"descarto {s.hands[seat][0]}").state
    assert s.mus_round == 7 and s.phase == "mus"


def test_m2_deal_is_deterministic_from_the_seed() -> None:
    assert new_game(seed=11) == new_game(seed=11)
    assert new_game(seed=11).hands != new_game(seed=12).hands
    s = new_game(seed=11)
    cards = [c for h in s.hands for c in h] + list(s.stock)
    assert len(set(cards)) == 40


def test_m4_view_shows_bet_lances_declarations_and_only_own_cards(play) -> None:
    hands = ["1o 4c 5c 6b", "7o 7c 5e 4b", "12o 12c 7e 4o", "10o 7b 6e 5o"]
    s, _ = play(new_game(seed=1, hands=hands), f"0: corto; {PASS_ALL}; 0: paso; 1: envido")
    d = view(s, 2).to_dict()
    for key in (
        "phase", "hand", "mano", "postre", "lance", "to_act", "score", "juegos", "target",
        "cards", "bet", "bet_pair", "lances", "declarations", "revealed",
    ):  # fmt: skip
        assert key in d
    assert d["phase"] == "lance" and d["lance"] == "chica" and d["to_act"] == [2, 0]
    assert d["bet"] == 2 and d["bet_pair"] == 1 and d["cards"] == ["12o", "12c", "7e", "4o"]
    assert d["lances"] == [{"lance": "grande", "outcome": "en_paso", "bet": None, "pair": None}]
    assert d["declarations"] == {"pares": None, "juego": None} and d["revealed"] is None
    public = view(s).to_dict()
    assert "cards" not in public and public["bet"] == 2
    s, _ = play(s, "2: quiero")  # chica closed: pares declared
    assert view(s).to_dict()["declarations"]["pares"] == [False, True, True, False]


def test_m2_reshuffle_event_is_public_and_cardless(play) -> None:
    s = new_game(seed=9)
    events: list[Event] = []
    while not any(e.kind == "stock_reshuffled" for e in events):
        s, _ = play(s, "0: mus; 1: mus; 2: mus; 3: mus")
        for seat in range(4):
            t = apply(s, seat, "descarto " + " ".join(str(c) for c in s.hands[seat]))
            s = t.state
            events.extend(t.events)
    e = next(e for e in events if e.kind == "stock_reshuffled")
    assert e.to is None and e.data == {}


def test_m1_score_is_shown_in_amarracos_too(play, m7_hands) -> None:
    s = new_game(seed=1, hands=m7_hands)
    s, _ = play(s, "0: corto; 0: envido 7; 1: 5 más; 2: no quiero; 0: no quiero")
    assert s.score == (0, 7)
    assert view(s).to_dict()["amarracos"] == [[0, 0], [1, 2]]
