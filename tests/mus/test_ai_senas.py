"""The computer players and señas (rules/senas.md): what they send, and how a seña received
changes a partner's decision (Mus and envite)."""

import random

import engine.envite as envite
from engine.cards import DECK, Card
from engine.envite import ai as envite_ai
from engine.envite.senas import senas as envite_senas
from engine.envite.state import replace
from engine.mus import ai, apply, legal_actions, legal_senas, new_game, senas, view


def test_mus_sends_a_true_useful_subset() -> None:
    for seed in range(60):
        s = apply(new_game(seed=seed), 0, "corto").state
        for seat in range(4):
            offered = legal_senas(s, seat)
            chosen = ai.choose_senas(view(s, seat), offered, random.Random(seed))
            assert chosen and set(chosen) <= set(offered)
            assert {a.name for a in chosen} <= senas(s.hands[seat], s.options)
            names = {a.name for a in chosen}
            assert not ({"dos reyes", "medias de reyes"} <= names)
            assert len(ai.choose_senas(view(s, seat), offered, random.Random(1), "facil")) == 1


def test_mus_partner_bets_grande_after_dos_reyes() -> None:
    """Seat 0 holds 4 5 sota caballo: alone it passes the grande; told that its partner holds
    (at least) two reyes, it bets."""
    s = apply(new_game(seed=8), 0, "corto").state
    assert sorted(str(c) for c in s.hands[0]) == ["10b", "11e", "4o", "5o"]
    assert "dos reyes" in senas(s.hands[2], s.options)
    told = apply(s, 2, "seña dos reyes").state
    assert view(told, 0).senas_received == ((2, "dos reyes"),)
    alone = ai.choose(view(s, 0), legal_actions(s, 0), random.Random(1))
    helped = ai.choose(view(told, 0), legal_actions(told, 0), random.Random(1))
    assert (str(alone), str(helped)) == ("paso", "envido 5")


def test_envite_partner_bets_after_envido_and_holds_back_after_ciego() -> None:
    """S3: a partner's "envido" makes the first player bet sooner, never later; his "ciego"
    (no trump) later, never sooner."""
    sooner = 0
    for seed in range(120):
        s = envite.new_game(players=4, seed=seed)
        seat = s.to_act[0]
        partner = (seat + 2) % 4
        legal = envite.legal_actions(s, seat)
        alone = str(envite_ai.choose(envite.view(s, seat), legal, random.Random(1)))
        told = envite.apply(s, partner, "seña envido").state
        helped = str(envite_ai.choose(envite.view(told, seat), legal, random.Random(1)))
        assert alone != "envido" or helped == "envido", seed
        sooner += alone != "envido" and helped == "envido"
    assert sooner >= 3

    held = 0  # S3 "ciego" (no trump at all): later, never sooner
    for seed in range(120):
        s = envite.new_game(players=4, seed=seed)
        seat = s.to_act[0]
        partner = (seat + 2) % 4
        if "ciego" not in [a.name for a in envite.legal_senas(s, partner)]:
            continue
        legal = envite.legal_actions(s, seat)
        alone = str(envite_ai.choose(envite.view(s, seat), legal, random.Random(1)))
        blind = envite.apply(s, partner, "seña ciego").state
        told = str(envite_ai.choose(envite.view(blind, seat), legal, random.Random(1)))
        assert alone == "envido" or told != "envido", seed
        held += alone == "envido" and told != "envido"
    assert held >= 2


def test_s1_s3_envite_sends_card_senas_and_never_false() -> None:
    """S3: every true seña that tells a partner something (the cards, small trumps, flus,
    ciego) is sent; "envido" only when the round looks won."""
    told = {*envite_ai.CARD_SENAS, *envite_ai.VIRA_SENAS, "triunfos pequeños", "flus", "ciego"}
    for seed in range(40):
        s = envite.new_game(players=6, seed=seed)
        for seat in range(6):
            offered = envite.legal_senas(s, seat)
            chosen = envite_ai.choose_senas(envite.view(s, seat), offered, random.Random(seed))
            assert set(chosen) <= set(offered)
            assert {a.name for a in chosen} - {"envido"} == {a.name for a in offered} & told


def _partner_deals(state: envite.EnviteState, seat: int, partner: int) -> list[list[Card]]:
    t = envite_ai._Table(envite.view(state, seat).to_dict())
    _, deal = envite_ai._deals(t, envite_ai._cards_of(t))
    rng = random.Random(3)
    return [[DECK[x] for x in deal(rng)[partner]] for _ in range(60)]


def test_s3_envite_playouts_deal_a_partner_his_small_trump() -> None:
    """S3: after a partner's "triunfos pequeños" every playout deals him one of the as, 7, 6,
    5, 4, 3 of the vira suit."""
    checked = {"triunfos pequeños": 0}
    for seed in range(300):
        s = envite.new_game(players=4, seed=seed)
        seat = s.to_act[0]
        partner = (seat + 2) % 4
        for name in checked:
            if name not in [a.name for a in envite.legal_senas(s, partner)]:
                continue
            told = envite.apply(s, partner, f"seña {name}").state
            for hand in _partner_deals(told, seat, partner):
                assert name in envite_senas(hand, s.vira, 2), (seed, name, hand)
            checked[name] += 1
    assert min(checked.values()) >= 3, checked


def test_s3_e5_envite_says_lets_bet_only_while_a_bet_may_be_made() -> None:
    """S3 "envido" is always allowed, but the computer player sends it only while it means
    something (E5): not once a bet was accepted, not while a team is en tumbo."""
    s = envite.new_game(
        players=4,
        dealer=3,
        hands=[["2c", "12c", "4o"], ["3e", "7o", "12b"], ["4e", "5o", "6o"], ["4b", "5b", "6b"]],
        vira="5c",
    )

    def lets_bet(state: envite.EnviteState) -> bool:
        offered = envite.legal_senas(state, 0)
        assert "envido" in [a.name for a in offered]
        chosen = envite_ai.choose_senas(envite.view(state, 0), offered, random.Random(1))
        return "envido" in [a.name for a in chosen]

    assert lets_bet(s)  # malilla and rey of the vira: the round looks won
    answerer = s.mandadores[1]
    accepted = envite.apply(envite.apply(s, 0, "envido").state, answerer, "quiero").state
    assert accepted.bet_closed
    assert not lets_bet(accepted)
    assert not lets_bet(replace(s, score=(5, 11)))
