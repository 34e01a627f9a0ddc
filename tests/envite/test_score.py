"""E6 score, tumbo and chico (and the E8 scoring examples) (rules/envite.md)."""

from __future__ import annotations

import pytest

from engine.envite import EnviteState, IllegalAction, Options, apply, legal_actions, new_game, view
from tests.envite.scripted import play

TEAM0_WINS = [["2c", "12c", "11c"], ["4e", "5e", "6e"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]
TEAM1_WINS = [["4e", "5e", "6e"], ["2c", "12c", "11c"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]


def deal(
    hands: list[list[str]], score: tuple[int, int], chicos: tuple[int, int] = (0, 0), **kw: object
) -> EnviteState:
    """Seat 0 is mano; team 0's mandador is seat 0, team 1's is seat 1."""
    return new_game(players=4, dealer=3, hands=hands, vira="3c", score=score, chicos=chicos, **kw)  # type: ignore[arg-type]


TEAM0_ROUND = ("0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b",
               "0 tiro 12c", "1 tiro 5e", "2 tiro 5o", "3 tiro 5b")  # fmt: skip
TEAM1_ROUND = ("0 tiro 4e", "1 tiro 2c", "2 tiro 4o", "3 tiro 4b",
               "1 tiro 12c", "2 tiro 5o", "3 tiro 5b", "0 tiro 5e")  # fmt: skip


def kinds_of_last(state: EnviteState, *moves: str) -> tuple[EnviteState, list[str], list[dict]]:  # type: ignore[type-arg]
    *rest, last = moves
    state = play(state, *rest)
    seat, text = last.split(" ", 1)
    t = apply(state, int(seat), text)
    return t.state, [e.kind for e in t.events], [dict(e.data) for e in t.events]


def test_e6_round_winner_scores_two() -> None:
    """E6: the round's winner scores its value (2 without a bet)."""
    s = play(deal(TEAM1_WINS, (0, 0)), *TEAM1_ROUND)
    assert s.score == (0, 2)


def test_e8_team_at_ten_wins_an_ordinary_round_and_is_en_tumbo() -> None:
    """E8/E6: 10 + 2 = 11 (the cap): en tumbo."""
    s = play(deal(TEAM0_WINS, (10, 4)), *TEAM0_ROUND)
    assert s.score == (11, 4) and s.en_tumbo == (True, False)
    assert s.phase == "tumbo" and s.to_act == (0,)
    assert view(s).to_dict()["en_tumbo"] == [True, False]


def test_e8_team_at_eight_winning_an_accepted_envido_reaches_eleven() -> None:
    """E8/E6: 8 + 4 = 11, never more."""
    s = play(deal(TEAM0_WINS, (8, 0)), "0 envido", "1 quiero", *TEAM0_ROUND)
    assert s.score == (11, 0)


def test_e6_cap_reports_the_points_really_scored() -> None:
    """E6: a team can never pass 11 by ordinary scoring; the event says what it got."""
    s, kinds, data = kinds_of_last(deal(TEAM0_WINS, (10, 0)), "0 envido", "1 quiero", *TEAM0_ROUND)
    scored = data[kinds.index("round_scored")]
    assert scored["points"] == 1 and scored["score"] == [11, 0]
    assert s.score == (11, 0)


def test_e6_tumbo_decision_comes_first_and_only_from_the_mandador() -> None:
    """E6: before the first card, the mandador of the team at 11 decides tumbo / no tumbo."""
    s = deal(TEAM0_WINS, (3, 11))
    assert s.phase == "tumbo" and s.to_act == (1,)
    assert [str(a) for a in legal_actions(s, 1)] == ["tumbo", "no tumbo"]
    assert legal_actions(s, 3) == [] and legal_actions(s, 0) == []
    for seat, text, reason in [
        (3, "tumbo", "not_mandador"),
        (0, "tiro 2c", "not_your_turn"),
        (0, "tumbo", "not_your_turn"),
        (1, "tiro 2c", "must_decide_tumbo"),
        (1, "envido", "no_bets_en_tumbo"),
    ]:
        with pytest.raises(IllegalAction) as err:
            apply(s, seat, text)
        assert err.value.reason == reason, (seat, text)


def test_e6_refusing_the_tumbo_gives_one_stone_to_the_other_team() -> None:
    """E6: no tumbo: the other team scores 1 and the next deal starts."""
    s, kinds, data = kinds_of_last(deal(TEAM0_WINS, (11, 3)), "0 no tumbo")
    assert kinds[:2] == ["tumbo_decided", "round_scored"]
    assert data[0] == {"seat": 0, "team": 0, "play": False}
    assert data[1]["why"] == "no_tumbo" and data[1]["points"] == 1
    assert s.score == (11, 4) and s.round == 2 and s.phase == "tumbo"


def test_e6_playing_the_tumbo_and_losing_gives_three() -> None:
    """E6: tumbo played and lost: the other team scores 3."""
    s = play(deal(TEAM1_WINS, (11, 3)), "0 tumbo")
    assert s.phase == "play" and s.tumbo and view(s).to_dict()["tumbo"]
    s, kinds, data = kinds_of_last(s, *TEAM1_ROUND)
    scored = data[kinds.index("round_scored")]
    assert scored == {"round": 1, "team": 1, "points": 3, "why": "tumbo", "score": [11, 6]}
    assert s.score == (11, 6)


def test_e6_playing_the_tumbo_and_losing_is_capped_and_both_at_eleven_must_play() -> None:
    """E6: +3 is capped at 11; with both teams at 11 there is no decision: they must play."""
    s = play(deal(TEAM1_WINS, (11, 9)), "0 tumbo", *TEAM1_ROUND)
    assert s.score == (11, 11)
    assert s.phase == "play" and s.tumbo and s.to_act == (s.mano,)


def test_e6_playing_the_tumbo_and_winning_takes_the_chico() -> None:
    """E6: tumbo played and won: the chico; both scores go back to 0."""
    s, kinds, data = kinds_of_last(deal(TEAM0_WINS, (11, 7)), "0 tumbo", *TEAM0_ROUND)
    assert "round_scored" not in kinds
    assert data[kinds.index("chico_won")] == {"team": 0, "chicos": [1, 0], "why": "tumbo"}
    assert s.score == (0, 0) and s.chicos == (1, 0) and s.phase == "play"


def test_e6_both_at_eleven_the_round_winner_takes_the_chico() -> None:
    """E6: both at 11: they must play, and the round's winner takes the chico."""
    s = deal(TEAM1_WINS, (11, 11))
    assert s.phase == "play" and s.tumbo
    s, kinds, data = kinds_of_last(s, *TEAM1_ROUND)
    assert data[kinds.index("chico_won")]["why"] == "both_at_11"
    assert s.chicos == (0, 1)


def test_e6_no_bets_while_a_team_is_en_tumbo() -> None:
    """E5/E6: while either team is en tumbo nobody may envidar, either team."""
    s = play(deal(TEAM0_WINS, (2, 11)), "1 tumbo")
    assert "envido" not in [str(a) for a in legal_actions(s, 0)]
    with pytest.raises(IllegalAction) as err:
        apply(s, 0, "envido")
    assert err.value.reason == "no_bets_en_tumbo"
    both = deal(TEAM0_WINS, (11, 11))
    with pytest.raises(IllegalAction) as err:
        apply(both, 0, "envido")
    assert err.value.reason == "no_bets_en_tumbo"


@pytest.mark.parametrize("chicos", [1, 2, 3, 4])
def test_e6_chicos_option_decides_the_game(chicos: int) -> None:
    """E6 [option] chicos to win the game: 2 by default, or 1, 3, 4."""
    s = deal(TEAM0_WINS, (11, 0), (chicos - 1, 0), options=Options(chicos=chicos))
    s, kinds, data = kinds_of_last(s, "0 tumbo", *TEAM0_ROUND)
    assert kinds[-2:] == ["chico_won", "game_won"]
    assert data[-1] == {"team": 0, "chicos": [chicos, 0]}
    assert s.is_over and s.winner == 0 and s.to_act == ()
    assert legal_actions(s, 0) == []
    with pytest.raises(IllegalAction) as err:
        apply(s, 0, "tiro 11c")
    assert err.value.reason == "game_over"


def test_e6_default_is_best_of_three() -> None:
    """E6: by default two chicos win the game."""
    s = deal(TEAM0_WINS, (11, 0), (0, 1))
    assert Options().chicos == 2
    s = play(s, "0 tumbo", *TEAM0_ROUND)
    assert s.chicos == (1, 1) and not s.is_over and s.winner is None


def test_e6_a_chico_refused_after_a_tumbo_refusal_leaves_both_scores() -> None:
    """E6: not playing the tumbo never takes the chico away: only +1 to the other team."""
    s = play(deal(TEAM0_WINS, (11, 10)), "0 no tumbo")
    assert s.score == (11, 11) and s.chicos == (0, 0) and s.phase == "play"


def test_e6_scores_are_validated() -> None:
    """E6: scores run 0..11; chicos below the number that wins."""
    with pytest.raises(ValueError):
        deal(TEAM0_WINS, (12, 0))
    with pytest.raises(ValueError):
        deal(TEAM0_WINS, (0, 0), (2, 0))


RENUNCIO = Options(renuncio=True)
# Seat 2 (team 0) and seat 3 (team 1) each hold one espada they may fail to follow with.
ESPADAS = [["4e", "5e", "6e"], ["2c", "12c", "11c"], ["4o", "5o", "7e"], ["1e", "5b", "6b"]]


def test_e4_e6_renuncio_called_by_the_team_at_tumbo_takes_the_chico() -> None:
    """E4/E6 modo renuncio in a tumbo round: the caller's team wins the round; for the team at
    11 that is the chico."""
    s = play(deal(ESPADAS, (11, 3), options=RENUNCIO), "0 tumbo")
    s = play(s, "0 tiro 4e", "1 tiro 2c", "2 tiro 4o", "3 tiro 5b")  # seat 3 renounces
    s, kinds, data = kinds_of_last(s, "2 renuncio")
    assert kinds[:2] == ["renuncio_called", "chico_won"]
    assert data[1]["why"] == "renuncio" and s.chicos == (1, 0) and s.score == (0, 0)


def test_e4_e6_renuncio_called_against_the_team_at_tumbo_scores_three_plus_two() -> None:
    """E4/E6: a renuncio against the team at 11 pays the tumbo loss (3) + 2."""
    s = play(deal(ESPADAS, (11, 3), options=RENUNCIO), "0 tumbo")
    s = play(s, "0 tiro 4e", "1 tiro 2c", "2 tiro 4o")  # seat 2 renounces
    s, kinds, data = kinds_of_last(s, "3 renuncio")
    scored = data[kinds.index("round_scored")]
    assert scored["points"] == 5 and scored["why"] == "renuncio"
    assert s.score == (11, 8)


def test_e4_e5_renuncio_under_an_accepted_chico_fuera_takes_the_chico() -> None:
    """E4/E5: the stake of a chico fuera round is the chico: the caller's team takes it."""
    s = deal(ESPADAS, (0, 0), options=RENUNCIO)
    s = play(s, "0 envido", "1 siete", "0 nueve", "1 chico fuera", "0 quiero")
    s = play(s, "0 tiro 4e", "1 tiro 2c", "2 tiro 4o")
    s, kinds, data = kinds_of_last(s, "1 renuncio")
    assert data[kinds.index("chico_won")] == {"team": 1, "chicos": [0, 1], "why": "renuncio"}
