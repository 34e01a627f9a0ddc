"""Views and timeouts: what each seat sees (E2, E4, E5, E6) and the default moves."""

from __future__ import annotations

import json

import pytest

from engine.envite import Options, default_action, legal_actions, new_game, view
from tests.envite.scripted import play

HANDS = [["2c", "12c", "11c"], ["4e", "5e", "6e"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]


def test_e2_public_view_has_no_hand_and_seat_view_only_its_own() -> None:
    """E2: each player sees his own three cards and the vira; the group sees no hand."""
    s = new_game(players=4, dealer=3, hands=HANDS, vira="3c")
    public = view(s).to_dict()
    assert "cards" not in public and public["vira"] == "3c"
    json.dumps(public)  # JSON-plain
    for seat in range(4):
        mine = view(s, seat).to_dict()
        assert mine["cards"] == HANDS[seat]
        others = {c for i, h in enumerate(HANDS) if i != seat for c in h}
        assert not others & set(json.dumps(mine).replace('"', " ").replace(",", " ").split())


def test_e4_e5_view_shows_the_trick_the_tricks_won_and_the_stake() -> None:
    """E4/E5: cards played in the current trick, tricks won, the stake and a pending bet."""
    s = play(new_game(players=4, dealer=3, hands=HANDS, vira="3c"), "0 envido")
    v = view(s).to_dict()
    assert v["phase"] == "bet" and v["bet"] == {"step": 4, "team": 0} and v["stake"] == 2
    assert v["to_act"] == [1] and v["turn"] is None
    s = play(s, "1 quiero", "0 tiro 2c", "1 tiro 4e")
    v = view(s, 2).to_dict()
    assert v["stake"] == 4 and v["bet"] is None and v["bet_closed"]
    assert v["trick"] == [[0, "2c"], [1, "4e"]] and v["turn"] == 2
    s = play(s, "2 tiro 4o", "3 tiro 4b")
    v = view(s).to_dict()
    assert v["trick"] == [] and v["tricks_won"] == [1, 0]
    assert v["tricks"] == [{"leader": 0, "cards": ["2c", "4e", "4o", "4b"], "winner": 0}]


def test_e6_view_shows_scores_chicos_and_tumbo() -> None:
    """E6: scores, chicos, who is en tumbo and whether the round is played at tumbo."""
    s = new_game(players=4, dealer=3, hands=HANDS, vira="3c", score=(11, 5), chicos=(1, 0))
    v = view(s).to_dict()
    assert v["score"] == [11, 5] and v["chicos"] == [1, 0] and v["chicos_to_win"] == 2
    assert v["en_tumbo"] == [True, False] and not v["tumbo"] and v["phase"] == "tumbo"
    assert view(play(s, "0 tumbo")).to_dict()["tumbo"]


def test_e5_e6_timeouts_refuse_bets_and_decline_the_tumbo() -> None:
    """E5/E6: the default move risks nothing: no quiero to a bet, no tumbo at tumbo."""
    s = play(new_game(players=4, dealer=3, hands=HANDS, vira="3c"), "0 envido")
    assert str(default_action(s, 1)) == "no quiero"
    t = new_game(players=4, dealer=3, hands=HANDS, vira="3c", score=(0, 11))
    assert str(default_action(t, 1)) == "no tumbo"


def test_e1_e2_no_view_for_the_mocho_seat_or_a_seat_off_the_table() -> None:
    """E1/E2: the mocho's cards reach its mandador only: nobody sits at the mocho's seat, and a
    seat off the table (a negative index would read another seat's hand) is an error."""
    hands = [["4e", "5e", "6e"], ["4o", "5o", "6o"], ["2c", "12c", "11c"],
             ["4b", "5b", "6b"], ["7e", "7o", "7b"], ["1e", "1o", "1b"]]  # fmt: skip
    s = new_game(players=5, options=Options(mocho=True), dealer=5, hands=hands, vira="3c")
    for seat in (5, -1, 6):
        with pytest.raises(ValueError):
            view(s, seat)
        assert legal_actions(s, seat) == []
    assert view(s, 1).to_dict()["mocho_cards"] == ["1e", "1o", "1b"]
    r = new_game(players=4, options=Options(renuncio=True), dealer=3, hands=HANDS, vira="3c")
    r = play(r, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o")
    assert [str(a) for a in legal_actions(r, 1)] == ["renuncio"]
    assert legal_actions(r, -1) == [] and legal_actions(r, 5) == []


def test_e5_view_lists_the_bets_of_the_round() -> None:
    """E5: every player heard who bet, raised and accepted this round; a new round clears it."""
    s = new_game(players=4, dealer=3, hands=HANDS, vira="3c")
    assert view(s, 2).to_dict()["bets"] == [] and view(s, 2).to_dict()["bet_team"] is None
    s = play(s, "0 envido", "1 siete", "0 quiero")
    v = view(s, 3).to_dict()
    assert v["seat"] == 3 and v["bet_team"] == 1 and v["stake"] == 7
    assert v["bets"] == [
        {"seat": 0, "team": 0, "action": "envido"},
        {"seat": 1, "team": 1, "action": "siete"},
        {"seat": 0, "team": 0, "action": "quiero"},
    ]
    s = play(s, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b")
    s = play(s, "0 tiro 12c", "1 tiro 5e", "2 tiro 5o", "3 tiro 5b")
    assert s.round == 2 and view(s, 0).to_dict()["bets"] == []
