"""E4 [option] modo renuncio: who may call it, when, and what a call costs (rules/envite.md).

Nobody at a real table knows a renuncio happened until the cards are looked at: the engine offers
``renuncio`` from what the whole table saw (an opponent who did not follow the suit led, or did
not trump an arrastre) and never from the hidden fact that the play was illegal. A call that
turns out false is the caller's foul: the accused team wins the round with its stake + 2.
"""

from __future__ import annotations

from engine.envite import EnviteState, Options, apply, legal_actions, new_game, view
from tests.envite.scripted import play, refusal

# Seat 0 leads 5e; seat 1 plays 7o. With RENOUNCES seat 1 held an espada (a renuncio), with
# VOID it had none (a lawful play). The other hands are the same.
RENOUNCES = ["5e 1o 2o", "6e 7o 12b", "4o 5o 6o", "4b 5b 6b"]
VOID = ["5e 1o 2o", "3o 7o 12b", "4o 5o 6o", "4b 5b 6b"]


def deal(hands: list[str], vira: str = "4c", **kw: object) -> EnviteState:
    """Seat 0 is mano; modo renuncio on."""
    return new_game(players=len(hands), options=Options(renuncio=True), dealer=len(hands) - 1,
                    hands=[h.split() for h in hands], vira=vira, **kw)  # type: ignore[arg-type]  # fmt: skip


def texts(state: EnviteState, seat: int) -> list[str]:
    return [str(a) for a in legal_actions(state, seat)]


def test_e4_renuncio_offer_does_not_reveal_whether_the_play_was_illegal() -> None:
    """E4 modo renuncio: after the same public play, every other seat is offered the same actions
    and sees the same view whether or not the play really was a renuncio."""
    moves = ("0 tiro 5e", "1 tiro 7o")
    bad, fine = play(deal(RENOUNCES), *moves), play(deal(VOID), *moves)
    assert bad.renuncios == (1,) and fine.renuncios == ()
    for seat in (0, 2, 3):
        assert texts(bad, seat) == texts(fine, seat), seat
        assert view(bad, seat).to_dict() == view(fine, seat).to_dict(), seat
    assert view(bad).to_dict() == view(fine).to_dict()
    # The team that saw an opponent fail to follow may call, in or out of turn.
    assert texts(bad, 0) == ["renuncio"]
    assert texts(bad, 2) == ["tiro 4o", "tiro 5o", "tiro 6o", "envido", "renuncio"]


def test_e4_renuncio_is_offered_only_after_an_opponent_fails_to_follow() -> None:
    """E4: a lead, or a card of the suit led, can never be a renuncio: calling then is refused
    (nothing is revealed: the whole table saw those cards follow) and the state is unchanged."""
    s = deal(RENOUNCES)
    assert "renuncio" not in texts(s, 1)
    assert refusal(s, 1, "renuncio").reason == "no_renuncio"  # nothing played yet
    s = play(s, "0 tiro 5e")
    assert "renuncio" not in texts(s, 1) and refusal(s, 1, "renuncio").reason == "no_renuncio"
    s = play(s, "1 tiro 6e")
    assert "renuncio" not in texts(s, 0) and refusal(s, 0, "renuncio").reason == "no_renuncio"
    # Seat 1's own team never suspects itself.
    s = play(deal(RENOUNCES), "0 tiro 5e", "1 tiro 7o")
    assert "renuncio" not in texts(s, 3) and refusal(s, 3, "renuncio").reason == "no_renuncio"


def test_e4_a_true_call_scores_stake_plus_two_for_the_caller() -> None:
    """E4: the illegal play was made: the caller's team scores the stake (2) + 2."""
    s = play(deal(RENOUNCES), "0 tiro 5e", "1 tiro 7o")
    t = apply(s, 2, "renuncio")
    assert [e.kind for e in t.events][:2] == ["renuncio_called", "round_scored"]
    assert t.events[0].data == {"seat": 2, "team": 0, "offender": 1, "valid": True}
    assert t.events[1].data["why"] == "renuncio" and t.events[1].data["points"] == 4
    assert t.state.score == (4, 0) and t.state.round == 2


def test_e4_a_false_call_gives_the_accused_team_the_stake_plus_two() -> None:
    """E4 (rules silent; decided): the suspected play was lawful: the caller's team committed the
    foul, so the other team scores the stake + 2; no card is revealed."""
    s = play(deal(VOID), "0 tiro 5e", "1 tiro 7o")
    t = apply(s, 0, "renuncio")
    assert [e.kind for e in t.events][:2] == ["renuncio_called", "round_scored"]
    assert t.events[0].data == {"seat": 0, "team": 0, "offender": None, "valid": False}
    assert t.events[1].data["why"] == "false_renuncio" and t.events[1].data["team"] == 1
    assert t.state.score == (0, 4) and t.state.round == 2


def test_e4_keeping_the_top_card_at_an_arrastre_is_no_renuncio() -> None:
    """E4: the holder whose only trump is the top card may play anything: a call is false."""
    s = play(deal(["12c 1o 2o", "2c 7o 12b", "4o 5o 6o", "4b 5b 6b"]), "0 tiro 12c", "1 tiro 7o")
    assert s.renuncios == () and "renuncio" in texts(s, 2)
    assert apply(s, 2, "renuncio").state.score == (0, 4)
    # Holding another trump besides, not trumping is a renuncio.
    r = play(deal(["12c 1o 2o", "2c 3c 12b", "4o 5o 6o", "4b 5b 6b"]), "0 tiro 12c", "1 tiro 12b")
    assert r.renuncios == (1,) and apply(r, 2, "renuncio").state.score == (4, 0)


def test_e4_renuncio_may_be_called_while_a_bet_waits_for_its_answer() -> None:
    """E4/E5: a call may come at any time in the round; a bet not yet accepted adds nothing."""
    s = play(deal(RENOUNCES), "0 tiro 5e", "1 tiro 7o", "2 envido")
    assert s.phase == "bet" and s.to_act == (1,)
    assert texts(s, 0) == ["renuncio"]
    t = apply(s, 0, "renuncio")
    assert t.state.score == (4, 0)


def test_e4_false_call_at_an_accepted_bet_pays_the_accepted_stake_plus_two() -> None:
    """E4/E5: an accepted envido makes the round worth 4: a false call pays 4 + 2 away."""
    s = play(deal(RENOUNCES), "0 envido", "1 quiero", "0 tiro 5e", "1 tiro 12b", "2 tiro 4o")
    assert s.renuncios == (1,)
    # Seat 2 had no espada: seat 1's call on it is false even though seat 1 itself renounced.
    t = apply(s, 1, "renuncio")
    assert t.events[0].data["valid"] is False and t.state.score == (6, 0)
    assert apply(s, 2, "renuncio").state.score == (6, 0)


def test_e1_e4_renuncio_by_the_mocho_is_called_on_its_seat() -> None:
    """E1/E4: the mocho's plays are judged like anyone's; the other team calls them."""
    hands = ["4e 5e 6e", "4o 5o 6o", "2c 12c 11c", "4b 5b 6b", "7e 7o 7b", "1e 1o 1b"]
    s = new_game(players=5, options=Options(mocho=True, renuncio=True), dealer=5,
                 hands=[h.split() for h in hands], vira="3c")  # fmt: skip
    s = play(s, "0 tiro 4e", "1 tiro 4o", "2 tiro 2c", "3 tiro 4b", "4 tiro 7e", "1 tiro 1o")
    assert s.renuncios == (5,)
    t = apply(s, 4, "renuncio")
    assert t.events[0].data == {"seat": 4, "team": 0, "offender": 5, "valid": True}
    assert refusal(s, 5, "renuncio").reason == "not_your_turn"
