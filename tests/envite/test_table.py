"""E1 table (teams, mandadores, first dealer, mocho) and E2 deal (rules/envite.md)."""

from __future__ import annotations

import random

import pytest

import engine.envite as envite
from engine.cards import DECK, Card
from engine.envite import IllegalAction, Options, apply, legal_actions, new_game, view
from engine.envite.ranking import plain_key

WINNING_DEAL = [["2c", "12c", "11c"], ["4e", "5e", "6e"], ["4o", "5o", "6o"], ["4b", "5b", "6b"]]


@pytest.mark.parametrize("players", [4, 6, 8, 10, 12])
def test_e1_teams_alternate_and_mandadores_default_to_first_seated(players: int) -> None:
    """E1: two teams of k seated alternately (team = seat % 2); mandadores are seats 0 and 1."""
    s = new_game(players=players, seed=1)
    assert s.players == players and s.k == players // 2
    assert s.mandadores == (0, 1)
    teams = view(s).to_dict()["teams"]
    assert teams == [list(range(0, players, 2)), list(range(1, players, 2))]


def test_e1_player_counts_and_mandador_choice_are_checked() -> None:
    """E1: 4 to 12 players; odd counts need the mocho option; a mandador belongs to his team."""
    for bad in (2, 3, 13, 14):
        with pytest.raises(ValueError):
            new_game(players=bad, options=Options(mocho=True))
    with pytest.raises(ValueError):
        new_game(players=5)
    with pytest.raises(ValueError):
        new_game(players=6, mandadores=(1, 3))
    assert new_game(players=6, mandadores=(4, 3), seed=2).mandadores == (4, 3)


def test_e1_first_dealer_is_the_mandador_with_the_higher_draw() -> None:
    """E1: each mandador draws; the higher card (rey high, 2 low) deals first; ties draw again."""
    tie_seen = False
    for seed in range(60):
        s = new_game(players=8, seed=seed, mandadores=(2, 5))
        *ties, (a, b) = s.draws
        assert plain_key(a) != plain_key(b)
        assert all(plain_key(x) == plain_key(y) for x, y in ties)
        tie_seen = tie_seen or bool(ties)
        assert s.dealer == (2 if plain_key(a) > plain_key(b) else 5)
        assert s.mano == (s.dealer + 1) % 8
        event = envite.opening_events(s)[0]
        assert event.kind == "dealer_drawn" and event.public
        assert event.data["dealer"] == s.dealer
        assert event.data["draws"][-1] == [str(a), str(b)]
        # The same seed gives the same game.
        assert new_game(players=8, seed=seed, mandadores=(2, 5)) == s
    assert tie_seen, "some seed below 60 should need a second draw"


def test_e1_explicit_dealer_skips_the_draw() -> None:
    """E1: tests and tables may fix the first dealer."""
    s = new_game(players=4, seed=1, dealer=2)
    assert s.draws == () and s.dealer == 2 and s.mano == 3
    assert next(e.kind for e in envite.opening_events(s)) == "round_started"


def test_e2_three_cards_each_from_the_dealers_right_then_the_vira() -> None:
    """E2: three cards at once to each player from the dealer's right; the next card is the vira."""
    s = new_game(players=6, seed=9, dealer=4)
    deck = list(DECK)
    random.Random("9/1").shuffle(deck)
    assert s.hands[5] == tuple(deck[0:3])  # the mano, dealer's right
    assert s.hands[0] == tuple(deck[3:6])
    assert s.hands[4] == tuple(deck[15:18])  # the dealer is served last
    assert s.vira == deck[18]
    every = [c for h in s.hands for c in h]
    assert len(set(every)) == 18 and s.vira not in every


def test_e2_mano_leads_and_the_vira_is_public_the_cards_private() -> None:
    """E2: the mano (dealer's right) leads the first trick; the vira is public, hands private."""
    s = new_game(players=4, seed=3, dealer=1)
    assert s.mano == 2 and s.to_act == (2,) and s.turn == 2
    events = envite.opening_events(s)
    started = events[0]
    assert started.kind == "round_started" and started.public
    assert started.data["vira"] == str(s.vira) and started.data["mano"] == 2
    dealt = [e for e in events if e.kind == "dealt"]
    assert [e.data["seat"] for e in dealt] == [2, 3, 0, 1]
    for e in dealt:
        assert e.to == frozenset({e.data["seat"]})
        assert e.data["cards"] == [str(c) for c in s.hands[e.data["seat"]]]


def test_e1_e2_the_deal_moves_one_seat_right_each_hand() -> None:
    """E1: after each round the next seat to the right deals."""
    s = new_game(players=4, seed=4, dealer=3, hands=WINNING_DEAL, vira="3c")
    assert s.round == 1 and s.mano == 0
    for seat, text in [(0, "envido"), (1, "no quiero")]:
        t = apply(s, seat, text)
        s = t.state
    assert s.round == 2 and s.dealer == 0 and s.mano == 1 and s.to_act == (1,)
    kinds = [e.kind for e in t.events]
    assert kinds[-5:] == ["round_started", "dealt", "dealt", "dealt", "dealt"]
    # Later deals come from the seed and the round number: same seed, same deal.
    again = apply(apply(new_game(players=4, seed=4, dealer=3), 0, "envido").state, 1, "no quiero")
    assert again.state.hands == s.hands and again.state.vira == s.vira


def test_e2_explicit_deal_is_checked() -> None:
    """E2: an explicit deal needs three distinct cards per seat and a vira not dealt."""
    with pytest.raises(ValueError):
        new_game(players=4, dealer=0, hands=WINNING_DEAL, vira="2c")
    with pytest.raises(ValueError):
        new_game(players=4, dealer=0, hands=WINNING_DEAL[:3], vira="3c")
    with pytest.raises(ValueError):
        new_game(players=4, dealer=0, hands=WINNING_DEAL)


MOCHO_DEAL = [
    ["4e", "5e", "6e"],
    ["4o", "5o", "6o"],
    ["2c", "12c", "11c"],
    ["4b", "5b", "6b"],
    ["7e", "7o", "7b"],
    ["1e", "1o", "1b"],
]


def test_e1_mocho_is_a_ghost_seat_played_by_its_mandador() -> None:
    """E1 odd numbers: 5 players + the mocho (seat 5, team 1) whose cards mandador 1 plays."""
    s = new_game(players=5, options=Options(mocho=True), dealer=5, hands=MOCHO_DEAL, vira="3c")
    assert s.players == 6 and s.ghost == 5 and s.k == 3 and s.mano == 0
    dealt = {e.data["seat"]: e.to for e in envite.opening_events(s) if e.kind == "dealt"}
    assert dealt[5] == frozenset({1}) and dealt[3] == frozenset({3})
    v1 = view(s, 1).to_dict()
    assert v1["cards"] == ["4o", "5o", "6o"] and v1["mocho_cards"] == ["1e", "1o", "1b"]
    assert view(s, 3).to_dict()["mocho_cards"] is None
    assert view(s).to_dict()["mocho"] == 5
    for seat, card in [(0, "4e"), (1, "4o"), (2, "2c"), (3, "4b"), (4, "7e")]:
        s = apply(s, seat, f"tiro {card}").state
    # The mocho's turn: its mandador (seat 1) acts; nobody else may.
    assert s.turn == 5 and s.to_act == (1,)
    # The mocho must follow espadas like anyone else.
    assert [str(a) for a in legal_actions(s, 1)] == ["tiro 1e", "envido"]
    with pytest.raises(IllegalAction) as err:
        apply(s, 5, "tiro 1e")
    assert err.value.reason == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        apply(s, 1, "tiro 5o")
    assert err.value.reason == "card_not_in_hand"
    t = apply(s, 1, "tiro 1e")
    played = t.events[0]
    assert played.data == {"seat": 5, "card": "1e", "trick": 1, "by": 1}
    assert t.state.tricks[0].winner == 2


def test_e1_mocho_mandador_may_bet_on_the_mochos_turn() -> None:
    """E1/E5: the mandador plays for the mocho in turn, bets included."""
    s = new_game(players=5, options=Options(mocho=True), dealer=4, hands=MOCHO_DEAL, vira="3c")
    assert s.mano == 5 and s.to_act == (1,)
    t = apply(s, 1, "envido")
    assert t.events[0].data["for_seat"] == 5 and t.events[0].data["team"] == 1
    assert t.state.to_act == (0,)


def test_e1_mocho_is_never_a_mandador() -> None:
    """E1: the mocho cannot captain its team."""
    with pytest.raises(ValueError):
        new_game(players=7, options=Options(mocho=True), mandadores=(0, 7))


def test_e1_deal_and_json_for_every_size_with_and_without_mocho() -> None:
    """E1/E2: every table size deals 3 cards a seat, and survives JSON."""
    for players in range(4, 13):
        options = Options(mocho=players % 2 == 1)
        s = new_game(players=players, options=options, seed=players)
        assert all(len(h) == 3 for h in s.hands)
        assert envite.from_json(envite.to_json(s)) == s
        assert isinstance(s.vira, Card)


def test_e2_stock_is_accepted_for_api_symmetry_and_checked() -> None:
    """E2: the undealt pack plays no part in envite; an inconsistent one is refused."""
    s = new_game(players=4, dealer=3, hands=WINNING_DEAL, vira="3c", stock=["1o", "2o"])
    assert s.vira == Card.parse("3c")
    with pytest.raises(ValueError):
        new_game(players=4, dealer=3, hands=WINNING_DEAL, vira="3c", stock=["3c"])
