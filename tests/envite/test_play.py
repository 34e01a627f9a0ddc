"""E4 trick play: follow suit, arrastre, the top-card exemption, modo renuncio (rules/envite.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.envite import (
    EnviteState,
    IllegalAction,
    Options,
    apply,
    default_action,
    legal_actions,
    new_game,
    playable,
)
from tests.envite.scripted import play, refusal


def deal(hands: Sequence[str], vira: str, *, renuncio: bool = False) -> EnviteState:
    """Four players, dealer 3 so seat 0 is mano; hands written as "c1 c2 c3" per seat."""
    options = Options(renuncio=renuncio)
    return new_game(players=len(hands), options=options, dealer=len(hands) - 1,
                    hands=[h.split() for h in hands], vira=vira)  # fmt: skip


def names(cards: object) -> list[str]:
    return [str(c) for c in cards]  # type: ignore[attr-defined]


def test_e4_must_follow_the_suit_led() -> None:
    """E4: a non-trump suit led: a player with cards of that suit must play one."""
    s = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 5e")
    err = refusal(s, 1, "tiro 7o")
    assert err.reason == "must_follow_suit" and err.params["suit"] == "e"
    assert err.params["name"] == "espadas"
    assert names(playable(s, 1)) == ["6e"]
    s = play(s, "1 tiro 6e")
    # Seat 2 has no espadas: any card, and no obligation to trump.
    assert names(playable(s, 2)) == ["4o", "5o", "6o"]


def test_e4_without_the_led_suit_a_trump_may_be_played() -> None:
    """E4: a player with none of the led suit may play any card, a trump included."""
    s = deal(["5e 1o 2o", "2c 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 5e", "1 tiro 2c", "2 tiro 4o", "3 tiro 4b")
    assert s.tricks[0].winner == 1 and s.to_act == (1,) and s.leader == 1


def test_e4_arrastre_forces_trumps() -> None:
    """E4 arrastre: a trump led, everyone with trumps must play one."""
    s = deal(["12c 1o 2o", "3c 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 12c")
    err = refusal(s, 1, "tiro 7o")
    assert err.reason == "must_play_trump"
    assert names(playable(s, 1)) == ["3c"]


def test_e4_top_card_is_never_forced_out_by_the_arrastre() -> None:
    """E4: the highest card in play (the malilla at k = 2) may stay in hand at an arrastre."""
    s = deal(["12c 1o 2o", "2c 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 12c")
    assert names(playable(s, 1)) == ["2c", "7o", "12b"]
    s = play(s, "1 tiro 7o")
    assert s.renuncios == ()


def test_e4_top_card_holder_with_another_trump_must_play_a_trump() -> None:
    """E4: the exemption covers the top card only: other trumps must still be played."""
    s = deal(["12c 1o 2o", "2c 3c 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 12c")
    assert names(playable(s, 1)) == ["2c", "3c"]
    assert refusal(s, 1, "tiro 12b").reason == "must_play_trump"


def test_e4_top_card_is_the_next_one_down_when_it_is_the_vira() -> None:
    """E4: vira 3b with k = 3: the caballo de bastos is the exempt top card."""
    hands = ["10o 1o 3o", "11b 7o 12e", "2b 5o 6o", "4e 5e 6e", "4c 5c 6c", "7e 7c 1c"]
    s = deal(hands, "3b")
    s = play(s, "0 tiro 10o")  # the sota de oros is a trump (fixed): an arrastre
    assert names(playable(s, 1)) == ["11b", "7o", "12e"]
    s = play(s, "1 tiro 7o")
    # The malilla is not the top card: its holder must play it.
    assert names(playable(s, 2)) == ["2b"]


def test_e4_fixed_trump_held_when_its_printed_suit_is_led() -> None:
    """E3/E4: the sota de oros (k = 3) is a trump: it neither follows oros nor is forced by it."""
    base = ["12o 1e 2e", "10o 5e 6e", "4b 5b 6b", "4e 7e 12e", "4c 5c 6c", "7b 12b 1b"]
    s = deal(base, "3c")
    s = play(s, "0 tiro 12o")
    # Seat 1 holds the sota de oros but no oro: free to play anything.
    assert names(playable(s, 1)) == ["10o", "5e", "6e"]
    # With an oro besides, the oro must be played; the sota de oros does not follow oros.
    base2 = ["12o 1e 2e", "10o 3o 6e", "4b 5b 6b", "4e 7e 12e", "4c 5c 6c", "7b 12b 1b"]
    s2 = play(deal(base2, "3c"), "0 tiro 12o")
    assert names(playable(s2, 1)) == ["3o"]
    err = refusal(s2, 1, "tiro 10o")
    assert err.reason == "must_follow_suit" and err.params["suit"] == "o"


def test_e4_fixed_trump_printed_suit_led_and_fixed_trump_forced_at_arrastre() -> None:
    """E3/E4: at an arrastre the caballo de bastos must be played like any trump (k = 3, vira
    copas); when bastos are led it is not a basto."""
    base = ["12c 1e 2e", "11b 5b 6e", "4b 7b 10b", "4e 7e 12e", "4o 5o 6o", "7o 12o 1o"]
    s = play(deal(base, "4c"), "0 tiro 12c")
    assert names(playable(s, 1)) == ["11b"]
    assert refusal(s, 1, "tiro 5b").reason == "must_play_trump"
    base3 = ["4b 1e 2e", "11b 5b 6e", "11o 7b 10b", "4e 7e 12e", "4o 5o 6o", "7o 12o 1o"]
    s3 = play(deal(base3, "4c"), "0 tiro 4b")
    assert names(playable(s3, 1)) == ["5b"]
    assert refusal(s3, 1, "tiro 11b").params["suit"] == "b"


def test_e4_winner_leads_and_round_ends_at_two_tricks() -> None:
    """E4: the trick winner leads the next; two tricks win the round (no third trick played)."""
    s = deal(["2c 12c 11c", "4e 5e 6e", "4o 5o 6o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 2c", "1 tiro 4e", "2 tiro 4o", "3 tiro 4b")
    assert s.tricks_won == (1, 0) and s.to_act == (0,)
    for seat, card in [(0, "12c"), (1, "5e"), (2, "5o")]:
        s = apply(s, seat, f"tiro {card}").state
    t = apply(s, 3, "tiro 5b")
    kinds = [e.kind for e in t.events]
    assert kinds[:3] == ["card_played", "trick_won", "round_scored"]
    assert t.events[1].data == {
        "trick": 2,
        "seat": 0,
        "team": 0,
        "card": "12c",
        "tricks": [2, 0],
        "cards": [[0, "12c"], [1, "5e"], [2, "5o"], [3, "5b"]],
    }
    assert t.events[2].data["points"] == 2 and t.events[2].data["why"] == "tricks"
    assert t.state.score == (2, 0) and t.state.round == 2


def test_e4_one_trick_each_then_the_third_decides() -> None:
    """E4: three tricks at most; with one each the third decides (no ties between cards)."""
    s2 = deal(["2c 4e 5e", "12c 6e 7o", "4o 5o 6o", "4b 5b 6b"], "4c")
    s2 = play(s2, "0 tiro 2c", "1 tiro 12c", "2 tiro 4o", "3 tiro 4b")
    s2 = play(s2, "0 tiro 4e", "1 tiro 6e", "2 tiro 5o", "3 tiro 5b")
    assert s2.tricks_won == (1, 1) and s2.to_act == (1,)
    t = apply(play(s2, "1 tiro 7o", "2 tiro 6o", "3 tiro 6b"), 0, "tiro 5e")
    scored = next(e for e in t.events if e.kind == "round_scored")
    assert scored.data["team"] == 1 and t.state.score == (0, 2)


def test_e4_refusals_name_the_reason() -> None:
    """E4: wrong turn, a card not held, no card named."""
    s = deal(["2c 12c 11c", "4e 5e 6e", "4o 5o 6o", "4b 5b 6b"], "4c")
    assert refusal(s, 1, "tiro 4e").reason == "not_your_turn"
    assert refusal(s, 0, "tiro 4e").reason == "card_not_in_hand"
    assert refusal(s, 0, "tiro").reason == "play_one_card"
    assert refusal(s, 0, "tiro 2c 12c").reason == "play_one_card"
    assert refusal(s, 0, "quiero").reason == "no_bet_to_answer"
    assert refusal(s, 0, "tumbo").reason == "wrong_phase"


def test_e4_default_action_is_the_lowest_lawful_card() -> None:
    """E4: the timeout move is lawful: the lowest card that follows suit."""
    s = deal(["5e 1o 2o", "6e 12e 7o", "4o 5o 6o", "4b 5b 6b"], "4c")
    assert str(default_action(s, 0)) == "tiro 2o"
    s = play(s, "0 tiro 5e")
    assert str(default_action(s, 1)) == "tiro 6e"
    with pytest.raises(IllegalAction):
        default_action(s, 0)


# --------------------------------------------------------------------------- modo renuncio


def test_e4_modo_renuncio_accepts_illegal_plays_and_the_other_team_calls_it() -> None:
    """E4 [option] modo renuncio: the illegal play stands; the other team calls renuncio:
    stake + 2 for the caller's team."""
    s = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c", renuncio=True)
    s = play(s, "0 tiro 5e")
    assert names(c for a in legal_actions(s, 1) for c in a.cards) == ["6e", "7o", "12b"]
    s = play(s, "1 tiro 7o")  # renounces espadas
    assert s.renuncios == (1,)
    # Only the other team may call it, and it may do so out of turn.
    assert [str(a) for a in legal_actions(s, 0)] == ["renuncio"]
    assert "renuncio" not in [str(a) for a in legal_actions(s, 3)]
    assert refusal(s, 3, "renuncio").reason == "no_renuncio"
    t = apply(s, 0, "renuncio")
    kinds = [e.kind for e in t.events]
    assert kinds[:2] == ["renuncio_called", "round_scored"]
    assert t.events[0].data == {"seat": 0, "team": 0, "offender": 1, "valid": True}
    assert t.events[1].data["points"] == 4 and t.events[1].data["why"] == "renuncio"
    assert t.state.score == (4, 0) and t.state.round == 2


def test_e4_modo_renuncio_after_an_accepted_bet_pays_stake_plus_two() -> None:
    """E4: the renuncio pays the round's stake (here an accepted envido, 4) + 2."""
    s = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c", renuncio=True)
    s = play(s, "0 envido", "1 quiero", "0 tiro 5e", "1 tiro 12b")
    assert refusal(s, 1, "renuncio").reason == "no_renuncio"
    t = apply(s, 2, "renuncio")
    assert t.state.score == (6, 0)


def test_e4_renuncio_is_not_callable_when_off_or_after_the_round() -> None:
    """E4: the table never accepts a renuncio by default; calls end with the round."""
    s = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c")
    assert refusal(s, 1, "renuncio").reason == "renuncio_off"
    r = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c", renuncio=True)
    r = play(r, "0 tiro 5e", "1 tiro 7o", "2 tiro 4o", "3 tiro 4b")
    r = play(r, "0 envido", "1 no quiero")
    assert r.round == 2 and r.renuncios == ()
    assert refusal(r, 0, "renuncio").reason == "no_renuncio"


def test_e4_seats_outside_the_table_and_the_mocho_itself_never_act() -> None:
    """E1/E4: only real seats act; the mocho's seat is played by its mandador."""
    s = deal(["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"], "4c", renuncio=True)
    assert refusal(s, 7, "renuncio").reason == "not_your_turn"
    assert refusal(s, -1, "tiro 5e").reason == "not_your_turn"


def test_e4_trick_won_names_every_card_of_the_trick_from_its_leader() -> None:
    """E4: the event of a trick won carries the whole trick in the order played, from the seat
    that led it (the bot shows the last card, which no view of the trick in play holds)."""
    s = deal(["2c 4e 5e", "12c 6o 7o", "4o 5o 1o", "4b 5b 6b"], "4c")
    s = play(s, "0 tiro 4e", "1 tiro 12c", "2 tiro 4o", "3 tiro 4b")
    assert s.to_act == (1,) and s.trick == ()
    t = apply(play(s, "1 tiro 6o", "2 tiro 5o", "3 tiro 5b"), 0, "tiro 5e")
    won = next(e for e in t.events if e.kind == "trick_won")
    assert won.data["cards"] == [[1, "6o"], [2, "5o"], [3, "5b"], [0, "5e"]]
    assert [won.data["seat"], won.data["card"]] in won.data["cards"]
