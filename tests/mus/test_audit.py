"""Rules audit of the classic Mus engine against rules/mus.md, section by section (M1-M7).

Each test names the rule it checks. The second half is an independent oracle: the rules of M3-M5
written again from the rules text (no engine code reused but ``Card``), played against the engine
on random hands from random seeds and scores; any disagreement in who must speak, what is
collected, in which order, or who wins the juego fails the test.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import DECK, Card, parse_cards
from engine.core import Action, Event, IllegalAction
from engine.mus import (
    MusState,
    Options,
    apply,
    evaluate,
    from_json,
    lance_winner,
    legal_actions,
    new_game,
    parse_action,
    to_json,
    view,
)

PASS_ALL = "0: paso; 1: paso; 2: paso; 3: paso"
M7 = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]
CARD_TEXTS = frozenset(str(c) for c in DECK)


def run(state: MusState, script: str) -> tuple[MusState, list[Event]]:
    """Apply ``seat: action`` steps (separated by ``;``); check JSON round-trip at each step."""
    events: list[Event] = []
    for step in script.split(";"):
        step = step.strip()
        if not step:
            continue
        seat, text = step.split(":", 1)
        t = apply(state, int(seat), text.strip())
        state = t.state
        assert from_json(to_json(state)) == state
        events.extend(t.events)
    return state, events


def scored(events: list[Event]) -> list[tuple[int, int, str, str]]:
    return [
        (e.data["pair"], e.data["points"], e.data["lance"], e.data["why"])
        for e in events
        if e.kind == "scored"
    ]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def refusal(state: MusState, seat: int, text: str | Action) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(state, seat, text)
    return err.value.reason


def game(
    hands: Sequence[str],
    *,
    mano: int = 0,
    score: tuple[int, int] = (0, 0),
    options: Options | None = None,
) -> MusState:
    """A fresh hand with an explicit deal, mano and score."""
    s = new_game(seed=1, hands=list(hands), options=options or Options())
    return dataclasses.replace(s, mano=mano, to_act=(mano,), score=score)


def card_texts(value: Any) -> set[str]:
    if isinstance(value, str):
        return {w for w in value.split() if w in CARD_TEXTS}
    if isinstance(value, dict):
        return set().union(*(card_texts(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(card_texts(v) for v in value)) if value else set()
    return set()


# ----------------------------------------------------------------------------------------- M1


def test_m1_postre_is_the_seat_before_the_mano_for_every_mano() -> None:
    for mano in range(4):
        s = game(M7, mano=mano)
        assert s.postre == (mano - 1) % 4
        assert view(s).to_dict()["postre"] == (mano - 1) % 4


def test_m1_mano_keeps_rotating_across_juegos_and_score_resets() -> None:
    s = game(M7, mano=2, score=(39, 12))
    s, events = run(s, "2: corto; 2: envido; 3: no quiero; 1: no quiero")
    assert s.juegos == (1, 0) and s.score == (0, 0)
    assert s.mano == 3 and s.postre == 2 and s.to_act == (3,)
    started = next(e for e in events if e.kind == "hand_started")
    assert started.data == {"hand": 2, "mano": 3, "postre": 2, "score": [0, 0], "juegos": [1, 0]}


def test_m1_juegos_three_needs_three_juegos() -> None:
    s = new_game(seed=1, hands=M7, options=Options(juegos=3))
    won = 0
    while not s.is_over:
        # whoever is mano opens an órdago in grande and the next opponent accepts
        mano = s.mano
        s, _ = run(s, f"{mano}: corto; {mano}: ordago; {(mano + 1) % 4}: quiero")
        won += 1
        assert won <= 5
    assert max(s.juegos) == 3 and s.winner in (0, 1) and s.juegos[s.winner] == 3
    assert s.to_act == () and s.phase == "over"


def test_m1_target_thirty_reached_at_the_end_of_the_hand() -> None:
    """M7 hand scores 6 for pair 0: from 25 it reaches 30 inside the juego values (31 = 3)."""
    s = game(M7, score=(25, 0), options=Options(target=30))
    s, events = run(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert scored(events) == [
        (0, 1, "grande", "en_paso"),
        (0, 1, "chica", "en_paso"),
        (0, 1, "pares", "pares"),
        (0, 3, "juego", "juego"),
    ]
    over = next(e for e in events if e.kind == "hand_over")
    assert over.data["score"] == [31, 0] and s.juegos == (1, 0)


def test_m5_what_the_end_of_the_hand_did_not_count_once_the_juego_was_won() -> None:
    """M5: reaching the target, nothing more is counted; the engine says what was left out."""
    s = game(M7, score=(38, 0))
    s, events = run(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert scored(events) == [(0, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso")]
    left = [e for e in events if e.kind == "not_counted"]
    assert [e.data for e in left] == [
        {
            "pair": 0,
            "items": [
                {"pair": 0, "points": 1, "lance": "pares", "why": "pares"},
                {"pair": 0, "points": 3, "lance": "juego", "why": "juego"},
            ],
        }
    ]
    assert kinds(events).index("not_counted") < kinds(events).index("juego_won")
    s = game(M7, score=(33, 0))
    _, events = run(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert "not_counted" not in kinds(events)  # everything counted: nothing to say


def test_m1_forty_is_not_reached_by_thirty_nine() -> None:
    s = game(M7, score=(33, 0))
    s, _ = run(s, f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert s.score == (39, 0) and s.juegos == (0, 0)


def test_m1_score_both_ways_in_amarracos() -> None:
    s = game(M7, score=(17, 40 - 1))
    assert view(s).to_dict()["amarracos"] == [[3, 2], [7, 4]]


def test_m1_eight_reyes_three_is_a_rey_in_every_lance_and_in_points() -> None:
    eight, four = Options(), Options(reyes=4)
    # grande: 3 = R; chica: 2 = A
    assert lance_winner("grande", ["12o 11c 7e 4o", "3o 11o 7c 4c"]) == 0  # tie: the mano
    assert lance_winner("grande", ["12o 11c 7e 4o", "3o 11o 7c 4c"], options=four) == 0
    assert lance_winner("grande", ["11c 10c 7e 4o", "3o 11o 7c 4c"], options=four) == 0
    assert lance_winner("chica", ["1o 4c 5e 6o", "2o 4e 5b 6c"]) == 0  # A A: tie to mano
    assert lance_winner("chica", ["1o 4c 5e 6o", "2o 4e 5b 6c"], mano=1) == 1
    assert lance_winner("chica", ["2o 4c 5e 6o", "1c 4e 5b 6c"], options=four) == 1
    # pares: 3 + 12 is a par of reyes, 2 + 1 a par of ases
    assert evaluate("3o 12c 5e 6b").pares == "par"
    assert evaluate("3o 12c 5e 6b", four).pares is None
    assert evaluate("2o 1c 5e 6b").pares == "par"
    assert evaluate("3o 3c 12e 1b").pares == "medias"
    assert evaluate("3o 12c 2e 1b").pares == "duples"
    assert evaluate("3o 3c 3e 12b").key("pares") == evaluate("12o 12c 12e 3b").key("pares")
    # points: 3 = 10, 2 = 1
    assert evaluate("3o 3c 3e 1b").points == 31 and evaluate("3o 3c 3e 1b").juego
    assert evaluate("3o 3c 3e 1b", four).points == 10
    assert evaluate("3o 12c 11e 2b").points == 31
    assert evaluate("3o 12c 11e 2b", four).points == 25
    assert evaluate("3o 12c 11e 2b", eight).key("juego") == evaluate("12o 11c 10e 1b").key("juego")


def test_m1_eight_reyes_changes_what_a_hand_scores() -> None:
    """Seat 0 holds 3 R C A: a par of reyes and 31 with 8 reyes; neither with 4 reyes."""
    hands = ["3o 12c 11e 1b", "4o 5c 6e 7b", "1o 5o 6o 7c", "10o 1c 6c 4c"]
    _, events = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert (0, 1, "pares", "pares") in scored(events)
    assert (0, 3, "juego", "juego") in scored(events)
    _, events = run(game(hands, options=Options(reyes=4)), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert [x for x in scored(events) if x[2] in ("pares", "juego")] == []


# ----------------------------------------------------------------------------------------- M2


def test_m2_round_two_starts_again_with_the_mano_and_any_player_may_cut() -> None:
    s = game(M7, mano=1)
    s, _ = run(s, "1: mus; 2: mus; 3: mus; 0: mus")
    assert s.phase == "discard" and set(s.to_act) == {0, 1, 2, 3}
    for seat in (3, 1, 0, 2):  # any order: simultaneous
        s = apply(s, seat, f"descarto {s.hands[seat][0]}").state
    assert s.phase == "mus" and s.to_act == (1,) and s.mus_round == 2
    s, _ = run(s, "1: mus; 2: corto")
    assert s.phase == "lance" and s.lance == "grande" and s.to_act == (1,)


def test_m2_discard_of_four_cards_is_allowed_five_or_a_repeat_is_not() -> None:
    s, _ = run(game(M7), "0: mus; 1: mus; 2: mus; 3: mus")
    assert refusal(s, 0, Action("descarto", cards=parse_cards("1o 1o"))) == "bad_discard"
    five = Action("descarto", cards=(*s.hands[0], Card.parse("1c")))
    assert refusal(s, 0, five) in ("bad_discard", "card_not_in_hand")
    s = apply(s, 0, "descarto 1o 2c 4e 5b").state
    assert s.discarding[0] is not None and len(s.discarding[0]) == 4


@pytest.mark.parametrize("seed", range(12))
def test_m2_reshuffle_never_gives_back_own_discards_and_keeps_every_card(seed: int) -> None:
    """M2: many mus rounds with varied discards; across reshuffles nobody gets back the cards he
    just discarded (other cards always remain), and the 40 cards are conserved."""
    rng = random.Random(seed)
    s = new_game(seed=seed)
    reshuffles = 0
    for _ in range(12):
        s, _ = run(s, "; ".join(f"{(s.mano + i) % 4}: mus" for i in range(4)))
        before = s.hands
        out: dict[int, tuple[Card, ...]] = {}
        events: list[Event] = []
        for seat in rng.sample(range(4), 4):
            hand = before[seat]
            out[seat] = tuple(rng.sample(hand, rng.randint(1, 4)))
            t = apply(s, seat, Action("descarto", cards=out[seat]))
            s = t.state
            events.extend(t.events)
        reshuffles += kinds(events).count("stock_reshuffled")
        for seat in range(4):
            kept = [c for c in before[seat] if c not in out[seat]]
            assert list(s.hands[seat][: len(kept)]) == kept
            assert len(s.hands[seat]) == 4
            assert not set(s.hands[seat]) & set(out[seat]), f"seat {seat} got his discards"
        cards = [c for h in s.hands for c in h] + list(s.stock) + list(s.pile)
        assert sorted(map(str, cards)) == sorted(map(str, DECK))
        dealt = [e for e in events if e.kind == "dealt"]
        assert [e.to for e in dealt] == [frozenset({i}) for i in range(4)]
        for e in events:
            if e.to is None:
                assert not card_texts(e.data)
    assert reshuffles >= 1


# ----------------------------------------------------------------------------------------- M3

# grande/chica ties between seats 0 and 1 and between 2 and 3; 31 at seats 0 and 1; no pares
TIES = ["12o 11c 7e 4o", "12c 11o 7c 4c", "1o 4e 5b 6c", "1c 4b 5o 6o"]


@pytest.mark.parametrize(
    ("mano", "expected"),
    [
        (0, [(0, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso"), (0, 3, "juego", "juego")]),
        (1, [(1, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso"), (1, 3, "juego", "juego")]),
        (2, [(0, 1, "grande", "en_paso"), (0, 1, "chica", "en_paso"), (0, 3, "juego", "juego")]),
        (3, [(0, 1, "grande", "en_paso"), (1, 1, "chica", "en_paso"), (0, 3, "juego", "juego")]),
    ],
)
def test_m3_every_tie_goes_to_the_seat_nearest_the_mano_in_play(
    mano: int, expected: list[tuple[int, int, str, str]]
) -> None:
    order = [(mano + i) % 4 for i in range(4)]
    passes = "; ".join(f"{s}: paso" for s in order)
    juego = "; ".join(f"{s}: paso" for s in order if s in (0, 1))
    _, events = run(game(TIES, mano=mano), f"{mano}: corto; {passes}; {passes}; {juego}")
    started = [e.data for e in events if e.kind == "lance_started"]
    assert started[-1] == {"lance": "juego", "players": [x for x in order if x in (0, 1)]}
    assert scored(events) == expected


def test_m3_pares_order_within_and_across_kinds() -> None:
    ladder = [
        "4o 4c 5e 6b",  # par of 4
        "12o 12c 5e 6b",  # par of R
        "1o 1c 1e 6b",  # medias of A
        "12o 12c 12e 6b",  # medias of R
        "1o 1c 1e 1b",  # AAAA (duples of A)
        "4o 4c 1e 1b",  # 44AA
        "11o 11c 10e 10b",  # CCSS
        "11o 11c 11e 11b",  # CCCC
        "12o 12c 1e 1b",  # RRAA
        "12o 12c 10e 10b",  # RRSS
        "12o 12c 11e 11b",  # RRCC
        "12o 12c 12e 12b",  # RRRR
    ]
    keys = [evaluate(h, Options(reyes=4)).key("pares") for h in ladder]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_m3_juego_and_punto_full_orders() -> None:
    four = Options(reyes=4)
    juego = {
        31: "12o 11c 10e 1b",
        32: "12o 11c 10e 2b",
        40: "12o 11c 10e 12b",
        37: "12o 11c 10e 7b",
        36: "12o 11c 10e 6b",
        35: "12o 11c 10e 5b",
        34: "12o 11c 10e 4b",
        33: "12o 11c 10e 3b",
    }
    keys = [evaluate(juego[p], four).key("juego") for p in (33, 34, 35, 36, 37, 40, 32, 31)]
    assert keys == sorted(keys) and len(set(keys)) == 8 and keys[0] > 0
    punto = ["1o 1c 1e 2b", "12o 11c 1e 1b", "12o 11c 5e 4b", "12o 11c 5e 5b"]  # 5, 22, 29, 30
    pk = [evaluate(h, four).key("punto") for h in punto]
    assert pk == sorted(pk) and len(set(pk)) == 4


def test_m3_la_real_wins_the_juego_lance_in_play() -> None:
    """Seat 1 holds 7 7 7 S (31 real), seat 0 (mano) a plain 31: with the option, seat 1 wins."""
    hands = ["12o 11c 10e 1b", "7o 7c 7e 10b", "4o 5c 6e 1o", "4c 5o 6o 1c"]
    for opts, pair in ((Options(), 0), (Options(real=True), 1)):
        _, events = run(
            game(hands, options=opts), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: paso; 1: paso"
        )
        assert (pair, 3, "juego", "juego") in scored(events)


def test_m3_punto_winner_is_none_when_somebody_has_juego() -> None:
    hands = ["12o 11c 10e 3b", "12c 11o 7o 1b", "4o 5c 6e 7b", "4c 5o 6o 7c"]  # seat 0: 40
    assert lance_winner("punto", hands) is None


def test_m3_punto_winner_without_juego_compares_totals() -> None:
    hands = ["12o 11c 5e 4b", "12c 10o 6c 4e", "1o 5c 6e 7c", "10c 11o 1e 7e"]  # 29 30 19 28
    assert lance_winner("punto", hands) == 1
    assert lance_winner("juego", hands) is None and lance_winner("pares", hands) is None


# ----------------------------------------------------------------------------------------- M4

# pares at seats 0 (par of 4) and 1 (par of R); seats 2 and 3 without pares. No juego anywhere.
PARES_01 = ["4o 4c 6e 1b", "12o 12c 5e 1e", "5o 7c 1o 11o", "10c 1c 6c 5b"]


def test_m4_only_players_with_pares_bet_or_answer() -> None:
    s, events = run(game(PARES_01), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert s.lance == "pares" and s.players == (0, 1) and s.to_act == (0,)
    assert refusal(s, 2, "envido") == "not_in_lance"
    s, _ = run(s, "0: envido")
    assert s.to_act == (1,)  # seat 3 has no pares: he may not answer
    assert refusal(s, 3, "quiero") == "not_in_lance"
    assert refusal(s, 3, "no quiero") == "not_in_lance"
    assert legal_actions(s, 3) == []
    s, events = run(s, "1: no quiero")  # one refusal is enough: nobody else is entitled
    assert ("lance_closed", "no_querido") in [
        (e.kind, e.data.get("outcome")) for e in events if e.kind == "lance_closed"
    ]
    assert s.lance == "punto" and s.players == (0, 1, 2, 3)


def test_m4_pares_en_paso_needs_only_the_entitled_passes() -> None:
    s, events = run(game(PARES_01), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: paso; 1: paso")
    closed = [e.data for e in events if e.kind == "lance_closed"]
    assert closed[-1] == {"lance": "pares", "outcome": "en_paso", "bet": None, "pair": None}
    assert s.lance == "punto"


def test_m4_juego_one_pair_is_not_played_and_punto_is_not_played() -> None:
    """Only pair 0 has juego: no juego betting, no punto; the hand ends after pares."""
    hands = ["12o 11c 10e 1b", "4o 5c 6e 7b", "12c 11o 10o 4c", "1c 5o 6o 7c"]
    s, events = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    started = [e.data["lance"] for e in events if e.kind == "lance_started"]
    assert started == ["grande", "chica"]
    assert {"lance": "juego", "reason": "one_pair", "pair": 0} in [
        e.data for e in events if e.kind == "lance_skipped"
    ]
    assert "punto" not in [x[2] for x in scored(events)]
    assert (0, 5, "juego", "juego") in scored(events)
    assert s.hand_number == 2


def test_m4_raise_answered_by_either_partner_of_the_first_bettor() -> None:
    s, _ = run(game(M7), "0: corto; 0: envido; 1: 4 más")
    assert set(s.to_act) == {0, 2} and s.bet == 6
    assert refusal(s, 3, "envido") == "cannot_raise_own_bet"  # the raiser's partner
    assert refusal(s, 1, "ordago") == "cannot_raise_own_bet"
    s, events = run(s, "2: quiero")  # the partner who did not bet accepts: stands at once
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "grande", "outcome": "querido", "bet": 6, "pair": None}


def test_m4_no_quiero_to_a_raise_stands_only_when_both_refuse() -> None:
    s, events = run(game(M7), "0: corto; 0: envido; 1: 4 más; 0: no quiero")
    assert s.to_act == (2,) and s.lance == "grande" and scored(events) == []
    s, events = run(s, "2: no quiero")
    assert scored(events) == [(1, 2, "grande", "no_querido")]


def test_m4_refuser_may_answer_again_after_his_partner_raises() -> None:
    s, _ = run(game(M7), "0: corto; 0: envido; 1: no quiero; 3: envido 3; 0: envido")
    assert set(s.to_act) == {1, 3} and s.bet == 7 and s.accepted == 5
    s, events = run(s, "1: quiero")
    assert next(e for e in events if e.kind == "lance_closed").data["bet"] == 7


def test_m4_plain_envido_as_a_raise_is_two_more_and_opening_n() -> None:
    s, events = run(game(M7), "0: corto; 0: envido 5; 3: envido; 2: raise 10")
    assert [e.data["bet"] for e in events if e.kind == "spoke"][1:] == [5, 7, 17]
    assert s.bet == 17 and s.accepted == 7 and set(s.to_act) == {1, 3}


def test_m4_ordago_as_opening_and_as_raise_after_passes() -> None:
    s, _ = run(game(M7), "0: corto; 0: paso; 1: paso; 2: ordago")
    assert s.ordago and set(s.to_act) == {3, 1}
    s, _ = run(game(M7), "0: corto; 0: paso; 1: envido 3; 0: ordago")
    assert s.ordago and s.accepted == 3 and set(s.to_act) == {1, 3}
    assert [str(a) for a in legal_actions(s, 3)] == ["quiero", "no quiero"]


def test_m4_speaking_order_after_passes_is_playing_order() -> None:
    s, _ = run(game(M7, mano=3), "3: corto")
    assert s.to_act == (3,)
    for expected in (0, 1, 2):
        assert refusal(s, (expected + 1) % 4, "paso") == "not_your_turn"
        s = apply(s, s.to_act[0], "paso").state
        assert s.to_act == (expected,)


# ----------------------------------------------------------------------------------------- M5


def test_m5_juego_refused_pays_one_now_and_values_to_the_collector() -> None:
    """Seat 0 has 33, seat 1 a 31 (better). Pair 1 refuses: pair 0 collects 1, then its 33 (2)."""
    hands = ["12o 11c 10e 3b", "12c 11o 10o 1b", "4o 5c 6e 7b", "4c 5o 6o 7c"]
    opts = Options(reyes=4)
    _, events = run(
        game(hands, options=opts), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: no quiero"
    )
    sc = scored(events)
    assert (0, 1, "juego", "no_querido") in sc and (0, 2, "juego", "juego") in sc
    assert not [x for x in sc if x[2] == "juego" and x[0] == 1]


def test_m5_punto_refused_pays_one_now_and_punto_one_at_the_end() -> None:
    hands = ["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"]  # best punto seat 3
    s, events = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}; {PASS_ALL[:-9]}")
    assert s.lance == "punto"
    s, events = run(
        game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: no quiero; 3: no quiero"
    )
    sc = scored(events)
    assert sc[0] == (0, 1, "punto", "no_querido")
    assert sc[-1] == (0, 1, "punto", "punto")


def test_m5_pares_en_paso_with_both_pairs_only_the_winner_collects() -> None:
    """Seat 0 par of 4, seat 1 par of R (better): pair 1 collects 1; pair 0's par is lost."""
    _, events = run(
        game(PARES_01), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: paso; 1: paso; {PASS_ALL}"
    )
    sc = [x for x in scored(events) if x[2] == "pares"]
    assert sc == [(1, 1, "pares", "pares")]


def test_m5_losing_accepted_bet_goes_to_the_lance_winner() -> None:
    """Seat 1 bets grande and is accepted, but seat 2 holds the best grande: pair 0 collects."""
    _, events = run(game(M7), f"0: corto; 0: paso; 1: envido 10; 0: quiero; {PASS_ALL}")
    assert scored(events)[0] == (0, 10, "grande", "envite")


def test_m5_juego_values_only_for_the_partner_holding_juego() -> None:
    """Pair 0 wins juego with seat 2 (32); seat 0 has no juego; pair 1 has 33 at seat 3."""
    hands = ["4o 5c 6e 7b", "1c 5o 6o 7c", "12o 11c 10e 2b", "12c 11o 10o 3c"]
    opts = Options(reyes=4)
    _, events = run(
        game(hands, options=opts), f"0: corto; {PASS_ALL}; {PASS_ALL}; 2: paso; 3: paso"
    )
    assert [x for x in scored(events) if x[2] == "juego"] == [(0, 2, "juego", "juego")]


def test_m5_early_stop_between_the_bet_and_the_values_of_a_lance() -> None:
    """Pair 1 (seat 1, par of R) has 37, wins grande en paso (38), then an accepted pares bet
    of 2 brings it to 40: its pares value and punto are not counted."""
    s = game(PARES_01, score=(0, 37))
    s, events = run(s, f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: envido; 1: quiero; {PASS_ALL}")
    sc = scored(events)
    assert sc[-1] == (1, 2, "pares", "envite")
    over = next(e for e in events if e.kind == "hand_over")
    assert over.data["score"][1] == 40 and s.juegos == (0, 1)


def test_m5_refusal_reaching_the_target_in_the_last_lance_voids_pending_bets() -> None:
    """An accepted grande bet is pending; a refusal in punto brings pair 1 to 40 first."""
    hands = ["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"]
    s = game(hands, score=(35, 39))
    punto = "0: paso; 1: envido; 2: no quiero; 0: no quiero"
    s, events = run(s, f"0: corto; 0: envido 10; 1: quiero; {PASS_ALL}; {punto}")
    assert scored(events) == [(1, 1, "punto", "no_querido")]
    assert "showdown" not in kinds(events) and s.juegos == (0, 1)


def test_m5_ordago_in_pares_with_only_some_players() -> None:
    """Seat 0 (par of 4) órdago in pares; only seat 1 (par of R) may answer; he accepts and
    pair 1 wins the juego from 0 points."""
    s, events = run(game(PARES_01, score=(30, 0)), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: ordago")
    assert s.to_act == (1,)
    s, events = run(s, "1: quiero")
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "pares", "outcome": "ordago", "bet": None, "pair": 1}
    assert scored(events) == [(1, 40, "pares", "ordago")] and s.juegos == (0, 1)


def test_m5_ordago_in_pares_refused_by_the_only_entitled_opponent_pays_one() -> None:
    s, events = run(game(PARES_01), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: ordago; 1: no quiero")
    assert (0, 1, "pares", "no_querido") in scored(events)
    assert s.lance == "punto"


def test_m5_ordago_in_juego_between_two_players() -> None:
    """Seat 1 (31) and seat 2 (33) hold juego: seat 2's órdago accepted by seat 1 → pair 1."""
    hands = ["4o 5c 6e 7b", "12c 11o 10o 1b", "12o 11c 10e 3b", "4c 5o 6o 7c"]
    s, events = run(
        game(hands, options=Options(reyes=4), score=(39, 0)),
        f"0: corto; {PASS_ALL}; {PASS_ALL}; 1: paso; 2: ordago",
    )
    assert s.to_act == (1,)
    s, events = run(s, "1: quiero")
    assert scored(events) == [(1, 40, "juego", "ordago")] and s.juegos == (0, 1)


def test_m5_ordago_in_punto() -> None:
    hands = ["1o 4c 5c 6b", "7o 11c 5e 4b", "12o 1c 7e 4o", "10o 7b 6e 5o"]  # best punto seat 3
    s, events = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}; 0: ordago; 3: quiero")
    assert scored(events) == [(1, 40, "punto", "ordago")] and s.juegos == (0, 1)


def test_m5_ordago_keeps_refusals_already_collected_but_wins_regardless() -> None:
    s, events = run(
        game(M7, score=(10, 20)),
        "0: corto; 0: envido; 1: no quiero; 3: no quiero; 0: paso; 1: ordago; 2: quiero",
    )
    # chica: seat 0 (A A 4 5) is best: pair 0 wins the órdago from 11
    assert scored(events) == [(0, 1, "grande", "no_querido"), (0, 29, "chica", "ordago")]
    assert s.juegos == (1, 0)


# ----------------------------------------------------------------------------------------- M6


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NO HAY MUS", "corto"),
        ("Corto", "corto"),
        ("Descarto 12o 3c 1b 7e", "descarto 12o 3c 1b 7e"),
        ("Envido 10", "envido 10"),
        ("10 MÁS", "envido 10"),
        ("No Quiero", "no quiero"),
        ("Órdago", "ordago"),
        ("Mus", "mus"),
        ("CUT", "corto"),
        ("Discard 1o", "descarto 1o"),
        ("Pass", "paso"),
        ("Bet", "envido"),
        ("Bet 7", "envido 7"),
        ("Raise 7", "envido 7"),
        ("Accept", "quiero"),
        ("Fold", "no quiero"),
        ("AllIn", "ordago"),
    ],
)
def test_m6_every_word_in_any_case(text: str, expected: str) -> None:
    assert str(parse_action(text)) == expected


def test_m6_every_word_is_played_by_apply() -> None:
    s, _ = run(game(M7), "0: mus; 1: mus; 2: mus; 3: mus")
    s, _ = run(s, "0: discard 1o; 1: descarto 7o; 2: descarto 4o; 3: discard 10o")
    s, _ = run(s, "0: mus; 1: cut")
    s, _ = run(
        s, "0: pass; 1: bet; 2: raise 3; 3: 5 más; 0: envido 2; 1: allin; 2: fold; 0: no quiero"
    )
    assert s.lance == "chica" and s.score == (0, 12)
    s, _ = run(s, "0: envido; 1: accept")
    assert s.lance in ("pares", "juego", "punto") or s.hand_number == 2


# ----------------------------------------------------------------------------------------- M7


def test_m7_worked_example_winners_and_public_view() -> None:
    hands = M7
    assert lance_winner("grande", hands) == 2
    assert lance_winner("chica", hands) == 0
    assert [evaluate(h).pares for h in hands] == ["par", None, None, None]
    assert [evaluate(h).points for h in hands] == [11, 22, 31, 28]
    s, events = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert s.score == (6, 0)
    shown = next(e for e in events if e.kind == "showdown")
    assert shown.data["hands"] == [h.split() for h in hands]
    before = events[: kinds(events).index("showdown")]
    assert all(not card_texts(e.data) for e in before if e.to is None)


# ------------------------------------------------------------------------ views, events, JSON


def test_m4_views_never_show_other_cards_during_a_bet_heavy_hand() -> None:
    s = game(M7)
    steps = "0: corto; 0: envido; 1: 2 más; 2: quiero; 0: paso; 1: envido 3; 2: 3 más"
    steps += "; 1: no quiero; 3: quiero"
    for step in steps.split(";"):
        seat, text = step.split(":")
        t = apply(s, int(seat), text.strip())
        s = t.state
        for e in t.events:
            if e.kind != "showdown" and e.to is None:
                assert not card_texts(e.data), e
            if e.to is not None:
                assert e.to == frozenset({e.data["seat"]})
        if s.hand_number == 1:
            assert not card_texts(view(s).to_dict())
            for seat_ in range(4):
                d = view(s, seat_).to_dict()
                assert card_texts(d) == {str(c) for c in s.hands[seat_]}
        assert len(to_json(s)) < 8000


def test_m1_vaca_won_by_a_refusal_reveals_nothing() -> None:
    s = game(M7, score=(39, 0), options=Options(juegos=1))
    s, events = run(s, "0: corto; 0: envido; 1: no quiero; 3: no quiero")
    assert s.is_over and s.winner == 0 and "showdown" not in kinds(events)
    assert view(s).to_dict()["revealed"] is None
    assert not card_texts(view(s).to_dict())


# ------------------------------------------------------------------- independent oracle (M3-M5)

FIGURE = 10
JUEGO_RANKING = [31, 32, 40, 37, 36, 35, 34, 33]


def o_rank(card: Card, reyes: int) -> int:
    """The rank a card plays as: with 8 reyes a 3 is a rey (12) and a 2 an as (1)."""
    if reyes == 8 and card.rank == 3:
        return 12
    if reyes == 8 and card.rank == 2:
        return 1
    return card.rank


def o_strength(card: Card, reyes: int) -> int:
    order = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12]
    return order.index(o_rank(card, reyes))


def o_points(hand: Sequence[Card], reyes: int) -> int:
    return sum(FIGURE if o_rank(c, reyes) >= 10 else o_rank(c, reyes) for c in hand)


def o_key(lance: str, hand: Sequence[Card], opts: Options) -> tuple[int, ...]:
    """Comparison key from the rules text: larger wins, ``()`` = not in the lance."""
    st = sorted((o_strength(c, opts.reyes) for c in hand), reverse=True)
    if lance == "grande":
        return (1, *st)
    if lance == "chica":
        return (1, *(-x for x in reversed(st)))
    if lance == "pares":
        cnt = Counter(st)
        groups = sorted((s for s, n in cnt.items() if n >= 2), reverse=True)
        if not groups:
            return ()
        if cnt[groups[0]] == 4:
            return (3, groups[0], groups[0])
        if len(groups) == 2:
            return (3, groups[0], groups[1])
        if cnt[groups[0]] == 3:
            return (2, groups[0])
        return (1, groups[0])
    pts = o_points(hand, opts.reyes)
    if lance == "juego":
        if pts < 31:
            return ()
        real = pts == 31 and sorted(o_rank(c, opts.reyes) for c in hand)[:3] == [7, 7, 7]
        return (8 - JUEGO_RANKING.index(pts), 1 if opts.real and real else 0)
    return (pts,) if pts < 31 else ()  # punto


def o_winner(lance: str, hands: Sequence[Sequence[Card]], mano: int, opts: Options) -> int:
    best, best_key = -1, ()
    for i in range(4):
        seat = (mano + i) % 4
        k = o_key(lance, hands[seat], opts)
        if k and (best < 0 or k > best_key):
            best, best_key = seat, k
    assert best >= 0
    return best


class Oracle:
    """One hand from the first lance on, following M4/M5 sentence by sentence."""

    def __init__(self, hands: Sequence[Sequence[Card]], mano: int, score: tuple[int, int],
                 opts: Options) -> None:  # fmt: skip
        self.hands, self.mano, self.opts = hands, mano, opts
        self.score = list(score)
        self.order = [(mano + i) % 4 for i in range(4)]
        self.items: list[tuple[int, int, str, str]] = []  # what was scored, in order
        self.results: list[tuple[str, str, int, int | None]] = []  # lance, outcome, bet, pair
        self.won: int | None = None  # pair that won the juego
        self.showdown = False
        self.queue = ["grande", "chica", "pares", "juego"]
        self._next()

    # --- M4
    def _next(self) -> None:
        while self.queue:
            lance = self.queue.pop(0)
            players = self.order
            if lance in ("pares", "juego"):
                players = [s for s in self.order if o_key(lance, self.hands[s], self.opts)]
                pairs = {s % 2 for s in players}
                if not pairs:
                    if lance == "juego":
                        self._open("punto", self.order)
                        return
                    continue
                if len(pairs) == 1:
                    self.results.append((lance, "one_pair", 0, pairs.pop()))
                    continue
            self._open(lance, players)
            return
        self._end()

    def _open(self, lance: str, players: list[int]) -> None:
        self.lance, self.players = lance, players
        self.speaker = 0  # index into players while nobody has bet
        self.bet = 0  # total at stake
        self.before = 0  # amount accepted before the last raise (0: first bet)
        self.ordago = False
        self.bettor: int | None = None
        self.waiting: list[int] = []

    def to_act(self) -> set[int]:
        if self.won is not None or (not self.queue and self.lance is None):
            return set()
        if self.bettor is None:
            return {self.players[self.speaker]}
        return set(self.waiting)

    def act(self, seat: int, a: Action) -> None:
        assert seat in self.to_act()
        if self.bettor is None:
            if a.kind == "paso":
                self.speaker += 1
                if self.speaker == len(self.players):
                    self._close("en_paso", 0, None)
                return
            if a.kind == "ordago":
                self._bet(seat, 0, True)
            else:
                self._bet(seat, a.amount or 2, False)
            return
        if a.kind == "quiero":
            if self.ordago:
                self._ordago()
            else:
                self._close("querido", self.bet, None)
            return
        if a.kind in ("no_quiero", "paso"):
            self.waiting.remove(seat)
            if not self.waiting:
                pair = self.bettor % 2
                pts = self.before if self.before else 1
                self._collect(pair, pts, self.lance, "no_querido")
                self._close("no_querido", pts, pair)
            return
        self.before = self.bet
        if a.kind == "ordago":
            self._bet(seat, 0, True, raise_=True)
        else:
            self._bet(seat, self.bet + (a.amount or 2), False, raise_=True)

    def _bet(self, seat: int, total: int, ordago: bool, raise_: bool = False) -> None:
        if not raise_:
            self.before = 0
        self.bet, self.ordago, self.bettor = total, ordago, seat
        self.waiting = [s for s in self.players if s % 2 != seat % 2]

    def _close(self, outcome: str, bet: int, pair: int | None) -> None:
        if self.won is not None:
            return
        self.results.append((self.lance, outcome, bet, pair))
        self.lance = None  # type: ignore[assignment]
        self._next()

    def _collect(self, pair: int, pts: int, lance: str, why: str) -> bool:
        if self.won is not None:
            return True
        self.score[pair] += pts
        self.items.append((pair, pts, lance, why))
        if self.score[pair] >= self.opts.target:
            self.won = pair
            return True
        return False

    # --- M5
    def _ordago(self) -> None:
        w = o_winner(self.lance, self.hands, self.mano, self.opts)  # only players have a key
        pair = w % 2
        self.showdown = True
        self._collect(pair, self.opts.target - self.score[pair], self.lance, "ordago")

    def _end(self) -> None:
        self.showdown = True
        self.lance = None  # type: ignore[assignment]
        for lance, outcome, bet, pair in self.results:
            if outcome == "no_querido" and lance in ("grande", "chica"):
                continue
            if pair is None:
                pair = o_winner(lance, self.hands, self.mano, self.opts) % 2
            if lance in ("grande", "chica"):
                pts, why = (1, "en_paso") if outcome == "en_paso" else (bet, "envite")
                if self._collect(pair, pts, lance, why):
                    return
                continue
            if outcome == "querido" and self._collect(pair, bet, lance, "envite"):
                return
            seats = (pair, pair + 2)
            if lance == "pares":
                vals = {1: 1, 2: 2, 3: 3}
                pts = sum(vals[o_key("pares", self.hands[s], self.opts)[0]]
                          for s in seats if o_key("pares", self.hands[s], self.opts))  # fmt: skip
            elif lance == "juego":
                pts = sum(3 if o_points(self.hands[s], self.opts.reyes) == 31 else 2
                          for s in seats if o_key("juego", self.hands[s], self.opts))  # fmt: skip
            else:
                pts = 1
            if self._collect(pair, pts, lance, lance):
                return


def o_choose(rng: random.Random, s: MusState, seat: int) -> Action:
    legal = legal_actions(s, seat)
    r = rng.random()
    if s.bet_pair is None:
        if r < 0.55:
            return Action("paso")
        if r < 0.95:
            return Action("envido", amount=rng.choice([None, 2, 3, 7, 12]))
        return Action("ordago")
    if s.ordago:
        return rng.choice(legal)
    if r < 0.35:
        return Action("no_quiero")
    if r < 0.45:
        return Action("paso")  # a pass facing a bet is a refusal
    if r < 0.7:
        return Action("quiero")
    if r < 0.97:
        return Action("envido", amount=rng.choice([None, 2, 5]))
    return Action("ordago")


@pytest.mark.parametrize("chunk", range(8))
def test_m3_m4_m5_engine_agrees_with_an_independent_oracle(chunk: int) -> None:
    """Random hands (random options, mano, score near the target, random betting): the engine's
    turns, scored items (in order), early stop, órdago and showdown match the oracle."""
    rng = random.Random(1000 + chunk)
    for n in range(150):
        opts = Options(
            reyes=rng.choice([8, 4]), target=rng.choice([40, 30]), real=rng.random() < 0.5
        )
        cards = rng.sample(DECK, 16)
        hands = [" ".join(str(c) for c in cards[i : i + 4]) for i in range(0, 16, 4)]
        t = opts.target
        score = (rng.choice([0, 0, t - 12, t - 6, t - 3, t - 1]), rng.choice([0, 0, t - 8, t - 2]))
        mano = rng.randrange(4)
        s = game(hands, mano=mano, score=score, options=opts)
        s = apply(s, mano, "corto").state
        oracle = Oracle([parse_cards(h) for h in hands], mano, score, opts)
        events: list[Event] = []
        while s.hand_number == 1 and not s.is_over:
            assert set(s.to_act) == oracle.to_act(), (n, hands, mano, score, events)
            seat = rng.choice(sorted(s.to_act))
            a = o_choose(rng, s, seat)
            tr = apply(s, seat, a)
            events.extend(tr.events)
            s = tr.state
            oracle.act(seat, a)
        ctx = (n, hands, mano, score, opts, [str(e.kind) + str(e.data) for e in events])
        assert scored(events) == oracle.items, ctx
        won = [e.data["pair"] for e in events if e.kind == "juego_won"]
        assert won == ([] if oracle.won is None else [oracle.won]), ctx
        assert ("showdown" in kinds(events)) == oracle.showdown, ctx


def _all_hands() -> list[list[Card]]:
    """One real hand per multiset of the ten printed ranks (715), suits assigned in order."""
    from itertools import combinations_with_replacement

    hands = []
    for ranks in combinations_with_replacement([1, 2, 3, 4, 5, 6, 7, 10, 11, 12], 4):
        seen: Counter[int] = Counter()
        hand = []
        for r in ranks:
            hand.append(Card.parse(f"{r}{'oceb'[seen[r]]}"))
            seen[r] += 1
        hands.append(hand)
    return hands


@pytest.mark.parametrize(
    "opts", [Options(), Options(reyes=4), Options(real=True), Options(reyes=4, real=True)]
)
def test_m3_every_hand_ranks_exactly_as_the_rules_text(opts: Options) -> None:
    """All 715 rank multisets, all five lances: the engine's order (ties included) is the
    oracle's order, and ``pares``/``points``/``juego`` agree."""
    hands = _all_hands()
    for h in hands:
        v = evaluate(h, opts)
        kind = o_key("pares", h, opts)
        assert v.pares == (None if not kind else ["par", "medias", "duples"][kind[0] - 1]), h
        assert v.points == o_points(h, opts.reyes) and v.juego == (v.points >= 31), h
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        ranked = sorted(hands, key=lambda h: o_key(lance, h, opts))
        prev_o: tuple[int, ...] | None = None
        prev_e = -1
        for h in ranked:
            ko, ke = o_key(lance, h, opts), evaluate(h, opts).key(lance)  # type: ignore[arg-type]
            if not ko:
                assert ke == 0, (lance, h)
                continue
            if ko == prev_o:
                assert ke == prev_e, (lance, h)
            else:
                assert ke > prev_e and ke > 0, (lance, h)
            prev_o, prev_e = ko, ke


def test_m1_m2_whole_vacas_follow_the_rules_hand_after_hand() -> None:
    """Whole vacas with mus rounds: mano rotation, postre, deal order of the mus phase,
    discards and draws (never one's own discards), every lance against the oracle, juego
    and vaca transitions, score reset, no card in any public event or other seat's view."""
    rng = random.Random(77)
    for v in range(10):
        opts = Options(
            reyes=rng.choice([8, 4]), target=rng.choice([40, 30]), juegos=rng.choice([1, 2, 3])
        )
        s = new_game(seed=rng.randrange(10**6), options=opts)
        mano, score, juegos, hand_no = 0, (0, 0), (0, 0), 1
        while not s.is_over:
            assert (s.mano, s.postre, s.score, s.juegos, s.hand_number) == (
                mano, (mano - 1) % 4, score, juegos, hand_no
            )  # fmt: skip
            # mus phase: a random number of mus rounds
            while s.phase != "lance":
                assert s.phase == "mus" and s.to_act == (mano,)
                cut_at = rng.choice([None, None, 0, 1, 2, 3])
                for i in range(4):
                    seat = (mano + i) % 4
                    assert s.to_act == (seat,)
                    s = apply(s, seat, "corto" if i == cut_at else "mus").state
                    if i == cut_at:
                        break
                if cut_at is not None:
                    break
                assert s.phase == "discard" and s.to_act == tuple((mano + i) % 4 for i in range(4))
                before = s.hands
                out = {}
                for seat in rng.sample(range(4), 4):
                    out[seat] = tuple(rng.sample(before[seat], rng.randint(1, 4)))
                    s = apply(s, seat, Action("descarto", cards=out[seat])).state
                for seat in range(4):
                    assert not set(s.hands[seat]) & set(out[seat])
                    assert set(before[seat]) - set(out[seat]) <= set(s.hands[seat])
            assert s.lance == "grande" and s.to_act == (mano,)
            oracle = Oracle(list(s.hands), mano, score, opts)
            events: list[Event] = []
            while s.hand_number == hand_no and not s.is_over:
                assert set(s.to_act) == oracle.to_act()
                seat = rng.choice(sorted(s.to_act))
                a = o_choose(rng, s, seat)
                tr = apply(s, seat, a)
                for e in tr.events:
                    if e.to is None and e.kind != "showdown":
                        assert not card_texts(e.data), e
                events.extend(tr.events)
                s = tr.state
                oracle.act(seat, a)
                if not s.is_over and s.hand_number == hand_no:
                    for other in range(4):
                        assert card_texts(view(s, other).to_dict()) == {
                            str(c) for c in s.hands[other]
                        }
            assert scored(events) == oracle.items
            final = tuple(oracle.score)
            over = next(e for e in events if e.kind == "hand_over")
            assert tuple(over.data["score"]) == final
            if oracle.won is None:
                score = final  # type: ignore[assignment]
            else:
                juegos = (juegos[0] + (oracle.won == 0), juegos[1] + (oracle.won == 1))
                score = (0, 0)
            assert tuple(over.data["juegos"]) == juegos
            if max(juegos) >= opts.juegos:
                assert s.is_over and s.winner == juegos.index(max(juegos)) and s.to_act == ()
                assert kinds(events)[-1] == "vaca_won"
                break
            mano, hand_no = (mano + 1) % 4, hand_no + 1
            assert kinds(events)[-6:] == ["hand_over", "hand_started"] + ["dealt"] * 4 or kinds(
                events
            )[-7:-5] == ["hand_over", "juego_won"]
        assert s.is_over, v


# ------------------------------------------------------------------------ more documented edges


def test_m5_ordago_raise_refused_after_two_raises_pays_the_last_total() -> None:
    _, events = run(game(M7), "0: corto; 0: envido; 1: 2 más; 2: ordago; 1: paso; 3: no quiero")
    assert scored(events) == [(0, 4, "grande", "no_querido")]  # "paso" facing it is a refusal
    closed = next(e for e in events if e.kind == "lance_closed")
    assert closed.data == {"lance": "grande", "outcome": "no_querido", "bet": 4, "pair": 0}


def test_m2_draw_deals_each_seat_its_whole_new_hand_privately() -> None:
    s, _ = run(game(M7), "0: mus; 1: mus; 2: mus; 3: mus")
    events: list[Event] = []
    for seat, cards in ((2, "12o 11c"), (0, "5b"), (3, "10o 7c 6e 5o"), (1, "7o 6c 5e")):
        t = apply(s, seat, f"descarto {cards}")
        s = t.state
        events.extend(t.events)
    assert [e.data for e in events if e.kind == "discarded"] == [
        {"seat": 2, "count": 2},
        {"seat": 0, "count": 1},
        {"seat": 3, "count": 4},
        {"seat": 1, "count": 3},
    ]
    dealt = {e.data["seat"]: e for e in events if e.kind == "dealt"}
    for seat in range(4):
        assert dealt[seat].to == frozenset({seat})
        assert dealt[seat].data["cards"] == [str(c) for c in s.hands[seat]]
    assert [str(c) for c in s.hands[0]][:3] == ["1o", "2c", "4e"]
    assert not {str(c) for c in s.hands[3]} & {"10o", "7c", "6e", "5o"}


def test_m1_options_outside_the_rules_are_refused() -> None:
    for bad in ({"target": 35}, {"reyes": 6}, {"juegos": 0}):
        with pytest.raises(ValueError):
            Options(**bad)  # type: ignore[arg-type]


def test_m1_json_round_trip_in_every_phase_and_version_check() -> None:
    s, _ = run(game(M7), "0: mus; 1: mus; 2: mus; 3: mus; 1: descarto 7o")
    assert s.phase == "discard" and s.discarding[1] is not None
    assert from_json(to_json(s)) == s
    s, _ = run(s, "0: descarto 1o; 2: descarto 4o; 3: descarto 5o; 0: corto; 0: envido 3")
    assert from_json(to_json(s)) == s and from_json(to_json(s)).bet == 3
    over, _ = run(game(M7, options=Options(juegos=1)), "0: corto; 0: ordago; 1: quiero")
    assert over.is_over and from_json(to_json(over)) == over
    with pytest.raises(ValueError):
        from_json(to_json(over).replace('"v":1', '"v":99'))


def test_m4_a_bet_in_pares_with_three_entitled_players() -> None:
    """Seats 0, 1, 3 hold pares (seat 2 does not): a raise by seat 3 is answered by seat 0 only."""
    hands = ["4o 4c 6e 1b", "12o 12c 5e 1e", "5o 7c 1o 11o", "10c 10b 6c 5b"]
    s, _ = run(game(hands), f"0: corto; {PASS_ALL}; {PASS_ALL}")
    assert s.players == (0, 1, 3)
    s, _ = run(s, "0: envido")
    assert set(s.to_act) == {1, 3}
    s, _ = run(s, "1: no quiero; 3: envido 3")
    assert s.to_act == (0,) and s.bet == 5
    assert refusal(s, 2, "quiero") == "not_in_lance"
    s, events = run(s, "0: no quiero")
    assert (1, 2, "pares", "no_querido") in scored(events)
