"""E5 bets: the ladder 2 -> 4 -> 7 -> 9 -> chico fuera, answered by mandadores (rules/envite.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Action
from engine.envite import EnviteState, Options, apply, legal_actions, new_game, view
from tests.envite.scripted import play, refusal

# Seat 0 (team 0) holds the three best trumps: team 0 wins any round played out.
TEAM0_WINS = [["2c", "12c", "11c"], ["4e", "5e", "6e"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]
# Seat 1 (team 1) holds them: team 1 wins.
TEAM1_WINS = [["4e", "5e", "6e"], ["2c", "12c", "11c"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]


def deal(hands: list[list[str]] = TEAM0_WINS, **kw: object) -> EnviteState:
    return new_game(players=4, dealer=3, hands=hands, vira="3c", **kw)  # type: ignore[arg-type]


def texts(state: EnviteState, seat: int) -> list[str]:
    return [str(a) for a in legal_actions(state, seat)]


def play_out_team0(state: EnviteState) -> EnviteState:
    """Seat 0 leads its two top trumps (TEAM0_WINS deal), from the start of the round."""
    return play(state, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b",
                "0 tiro 12c", "1 tiro 5e", "2 tiro 5o", "3 tiro 5b")  # fmt: skip


def test_e5_envido_on_ones_turn_is_answered_by_the_other_mandador() -> None:
    """E5: on his turn, before playing, a player may envidar; the other team's mandador answers."""
    s = deal()
    assert "envido" in texts(s, 0)
    t = apply(s, 0, "envido")
    assert t.events[0].kind == "bet"
    assert t.events[0].data == {
        "seat": 0, "team": 0, "action": "envido", "step": 4, "for_seat": 0,
    }  # fmt: skip
    s = t.state
    assert s.phase == "bet" and s.to_act == (1,)
    assert texts(s, 1) == ["quiero", "no quiero", "siete"]
    assert view(s).to_dict()["bet"] == {"step": 4, "team": 0}
    assert refusal(s, 3, "quiero").reason == "not_mandador"
    assert refusal(s, 2, "quiero").reason == "not_your_turn"
    assert refusal(s, 0, "siete").reason == "cannot_raise_own_bet"
    assert refusal(s, 1, "tiro 2c").reason == "must_answer_bet"


def test_e5_a_non_mandador_may_bet_on_his_turn() -> None:
    """E5: any player bets on his own turn; the answer still comes from the mandador."""
    s = play(deal(), "0 tiro 2c", "1 tiro 4e")
    assert refusal(s, 0, "envido").reason == "not_your_turn"
    s = play(s, "2 envido")
    assert s.to_act == (1,)
    s = play(s, "1 quiero")
    assert s.phase == "play" and s.turn == 2 and s.stake == 4


def test_e5_bets_only_before_playing_and_in_any_trick() -> None:
    """E5: a player bets before playing his card; later tricks are fine while no bet was made."""
    s = play(deal(), "0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b")
    assert s.turn == 0 and "envido" in texts(s, 0)
    s = play(s, "0 envido", "1 quiero")
    assert s.stake == 4 and s.bet_closed


def test_e5_accepted_envido_plays_for_four_and_closes_betting() -> None:
    """E5: quiero: the round is worth 4; one betting sequence per round."""
    s = play(deal(), "0 envido", "1 quiero")
    assert s.stake == 4 and s.to_act == (0,)
    assert "envido" not in texts(s, 0)
    assert refusal(s, 0, "envido").reason == "bet_already_settled"
    s = play(s, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o")
    assert refusal(s, 3, "envido").reason == "bet_already_settled"
    s = play(s, "3 tiro 4b", "0 tiro 12c", "1 tiro 5e", "2 tiro 5o", "3 tiro 5b")
    assert s.score == (4, 0) and s.round == 2


@pytest.mark.parametrize(
    ("moves", "team", "paid"),
    [
        (["0 envido", "1 no quiero"], 0, 2),
        (["0 envido", "1 siete", "0 no quiero"], 1, 4),
        (["0 envido", "1 siete", "0 nueve", "1 no quiero"], 0, 7),
        (["0 envido", "1 siete", "0 nueve", "1 chico fuera", "0 no quiero"], 1, 9),
    ],
)
def test_e5_refused_step_pays_the_previous_one(moves: list[str], team: int, paid: int) -> None:
    """E5: refusing 4 pays 2, 7 pays 4, 9 pays 7, chico fuera pays 9; the round ends at once."""
    s = deal()
    *rest, last = moves
    s = play(s, *rest)
    seat, text = last.split(" ", 1)
    t = apply(s, int(seat), text)
    refused = t.events[0]
    assert refused.kind == "bet_refused"
    assert refused.data["paid"] == paid and refused.data["to_team"] == team
    scored = t.events[1]
    assert scored.kind == "round_scored" and scored.data["why"] == "no_quiero"
    assert t.state.score[team] == paid and t.state.score[1 - team] == 0
    assert t.state.round == 2


@pytest.mark.parametrize(
    ("moves", "stake", "team0_points"),
    [
        (["0 envido", "1 siete", "0 quiero"], 7, 7),
        (["0 envido", "1 siete", "0 nueve", "1 quiero"], 9, 9),
    ],
)
def test_e5_accepted_raises_are_played_for(moves: list[str], stake: int, team0_points: int) -> None:
    """E5: 7 and 9 accepted: the round is worth the accepted step."""
    s = play(deal(), *moves)
    assert s.stake == stake and s.phase == "play" and s.turn == 0
    s = play_out_team0(s)
    assert s.score == (team0_points, 0)


def test_e5_each_answer_may_raise_one_step_in_words_or_with_envido() -> None:
    """E5/E7: "envido" raises to the next step; explicit words must name that step."""
    s = play(deal(), "0 envido")
    assert refusal(s, 1, "nueve").reason == "wrong_bet_step"
    assert refusal(s, 1, "envido 9").params == {"expected": 7}
    s = play(s, "1 envido")
    assert s.raised is not None and view(s).to_dict()["bet"] == {"step": 7, "team": 1}
    assert texts(s, 0) == ["quiero", "no quiero", "nueve"]
    s = play(s, "0 envido 9")
    assert texts(s, 1) == ["quiero", "no quiero", "chico fuera"]
    assert refusal(s, 1, "envido 10").params == {"expected": "chico fuera"}
    s = play(s, "1 envido")
    assert view(s).to_dict()["bet"] == {"step": "chico fuera", "team": 1}
    assert texts(s, 0) == ["quiero", "no quiero"]
    assert refusal(s, 0, "envido").reason == "no_higher_bet"


def test_e5_first_bet_is_envido_only() -> None:
    """E5: the first bet makes the round worth 4: no jumping the ladder."""
    s = deal()
    assert refusal(s, 0, "siete").reason == "wrong_bet_step"
    assert refusal(s, 0, "chico fuera").params == {"expected": 4}
    assert apply(s, 0, Action("envido", amount=4)).state.raised == 1


def test_e5_chico_fuera_accepted_and_won_takes_the_chico() -> None:
    """E5/E6: chico fuera accepted: the round's winner takes the whole chico."""
    s = play(deal(score=(3, 9)), "0 envido", "1 siete", "0 nueve", "1 chico fuera", "0 quiero")
    assert view(s).to_dict()["stake"] == "chico fuera"
    s0 = play(s, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b", "0 tiro 12c", "1 tiro 5e")
    s0 = play(s0, "2 tiro 5o")
    t = apply(s0, 3, "tiro 5b")
    kinds = [e.kind for e in t.events]
    assert "chico_won" in kinds and "round_scored" not in kinds
    chico = next(e for e in t.events if e.kind == "chico_won")
    assert chico.data == {"team": 0, "chicos": [1, 0], "why": "chico_fuera"}
    assert t.state.score == (0, 0) and t.state.chicos == (1, 0)


def test_e5_chico_fuera_accepted_and_lost_gives_the_chico_away() -> None:
    """E5/E6: the team that bet chico fuera and lost hands the chico to the other team."""
    s = deal(TEAM1_WINS, score=(9, 0))
    s = play(s, "0 envido", "1 siete", "0 nueve", "1 chico fuera", "0 quiero")
    s = play(s, "0 tiro 4e", "1 tiro 2c", "2 tiro 4o", "3 tiro 4b")
    s = play(s, "1 tiro 12c", "2 tiro 5o", "3 tiro 5b", "0 tiro 5e")
    assert s.chicos == (0, 1) and s.score == (0, 0)


def test_e5_refusal_pays_capped_at_eleven() -> None:
    """E5/E6: a refused 9 pays 7, but never past 11."""
    s = play(deal(score=(6, 0)), "0 envido", "1 siete", "0 nueve", "1 no quiero")
    assert s.score == (11, 0)


@pytest.mark.parametrize(
    "moves",
    [
        ("0 envido", "1 quiero"),
        ("0 envido", "1 siete", "0 quiero"),
        ("0 envido", "1 siete", "0 nueve", "1 quiero"),
        ("0 envido", "1 siete", "0 nueve", "1 chico fuera", "0 quiero"),
    ],
)
def test_e5_one_betting_sequence_per_round_whatever_step_was_accepted(moves: tuple[str]) -> None:
    """E5: once any step is accepted, neither team may bet again that round, in any trick."""
    s = play(deal(), *moves)
    s = play(s, "0 tiro 11c")
    for seat in (1, 2, 3):
        assert s.turn == seat and "envido" not in texts(s, seat)
        assert refusal(s, seat, "envido").reason == "bet_already_settled"
        s = play(s, f"{seat} tiro {s.hands[seat][0]}")
    assert s.tricks_won == (1, 0) and s.turn == 0
    assert "envido" not in texts(s, 0) and refusal(s, 0, "envido").reason == "bet_already_settled"


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.sampled_from([(4, False), (6, False), (8, False), (12, False), (5, True), (7, True)]),
    chicos=st.sampled_from([2, 1, 3]),
    cards_before=st.integers(0, 8),
    accept=st.booleans(),
    rng=st.randoms(use_true_random=False),
)
def test_e5_e6_chico_fuera_at_0_0_takes_the_chico_or_pays_nine(
    seed: int,
    size: tuple[int, bool],
    chicos: int,
    cards_before: int,
    accept: bool,
    rng: random.Random,
) -> None:
    """E5/E6 at 0-0, any deal, size and trick: the ladder envido, siete, nueve, chico fuera.
    Refused, the chico-fuera team scores 9 (not the chico) and the next round is dealt at 9-0;
    accepted, no other bet is possible that round and its winner by tricks takes the chico
    (the scores go back to 0-0; with one chico to win, the game)."""
    players, mocho = size
    options = Options(chicos=chicos, mocho=mocho)  # type: ignore[arg-type]
    s = new_game(players=players, options=options, seed=seed)
    assert s.score == (0, 0)
    for _ in range(cards_before):  # some cards of the round first, without betting
        seat = s.to_act[0]
        plays = [a for a in legal_actions(s, seat) if a.kind == "tiro"]
        t = apply(s, seat, rng.choice(plays))
        if any(e.kind == "round_scored" for e in t.events):
            break  # that card would end the round: bet before it
        s = t.state
    assert s.score == (0, 0) and s.phase == "play"
    bettor = s.turn % 2
    for kind in ("envido", "siete", "nueve", "chico_fuera"):
        assert Action(kind) in legal_actions(s, s.to_act[0]), kind
        s = apply(s, s.to_act[0], Action(kind)).state
    caller = 1 - bettor  # E5: the other team raises nueve to chico fuera
    answer = s.to_act[0]
    assert answer in s.mandadores and answer % 2 == bettor
    assert legal_actions(s, answer) == [Action("quiero"), Action("no_quiero")]
    if not accept:
        t = apply(s, answer, "no quiero")
        paid = next(e for e in t.events if e.kind == "bet_refused")
        assert paid.data["paid"] == 9 and paid.data["to_team"] == caller
        assert not any(e.kind == "chico_won" for e in t.events)
        score = [0, 0]
        score[caller] = 9
        assert t.state.score == tuple(score) and t.state.chicos == (0, 0)
        return
    s = apply(s, answer, "quiero").state
    assert view(s).to_dict()["stake"] == "chico fuera"
    tricks = [0, 0]
    while True:
        seat = s.to_act[0]
        legal = legal_actions(s, seat)
        assert all(a.kind == "tiro" for a in legal)  # one betting sequence per round
        t = apply(s, seat, rng.choice(legal))
        for e in t.events:
            if e.kind == "trick_won":
                tricks = list(e.data["tricks"])
        if any(e.kind == "chico_won" for e in t.events):
            break
        assert not any(e.kind == "round_scored" for e in t.events)
        s = t.state
    winner = tricks.index(max(tricks))
    assert max(tricks) == 2  # the round was played out
    won = next(e for e in t.events if e.kind == "chico_won")
    assert won.data["team"] == winner and won.data["why"] == "chico_fuera"
    assert not any(e.kind == "round_scored" for e in t.events)
    expected = [0, 0]
    expected[winner] = 1
    assert t.state.chicos == tuple(expected) and t.state.score == (0, 0)
    assert t.state.is_over == (chicos == 1)
