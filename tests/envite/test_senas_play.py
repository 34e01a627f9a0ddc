"""Sending señas at an envite table (rules/senas.md S1, S3, S4): the window is the round, the
seña goes to every other member of the team (the mandador included), never to the mocho; a
property test over thousands of random rounds."""

import random

import pytest

from engine.core import IllegalAction
from engine.envite import (
    Options,
    apply,
    default_action,
    from_json,
    legal_actions,
    legal_senas,
    new_game,
    parse_action,
    senas,
    to_json,
    view,
)
from engine.envite.state import EnviteState

HANDS = [["2c", "12c", "4o"], ["3e", "7o", "12b"], ["4e", "5o", "6o"], ["4b", "5b", "6b"]]


def deal(options: Options | None = None, seed: int = 1) -> EnviteState:
    return new_game(players=4, options=options, seed=seed, dealer=3, hands=HANDS, vira="5c")


def test_s1_sena_words_round_trip() -> None:
    a = parse_action("seña triunfos pequeños")
    assert (a.kind, a.name) == ("sena", "triunfos pequeños")
    assert parse_action(str(a)) == a
    assert parse_action("sign small trumps") == a
    assert parse_action("sign knight of clubs").name == "caballo de bastos"
    with pytest.raises(IllegalAction):
        parse_action("seña dos reyes")  # a Mus seña


def test_s1_window_is_the_round_from_the_deal() -> None:
    s = deal()
    assert [a.name for a in legal_senas(s, 0)] == ["malilla", "rey", "envido"]
    assert [a.name for a in legal_senas(s, 3)] == ["flus", "ciego", "envido"]
    assert s.to_act == (0,)
    t = apply(s, 3, "seña flus")  # out of turn
    assert t.state.to_act == s.to_act and t.state.trick == s.trick


def test_s1_current_cards_only_and_reset_each_round() -> None:
    s = apply(deal(), 0, "seña malilla").state
    assert "malilla" not in {a.name for a in legal_senas(s, 0)}
    with pytest.raises(IllegalAction) as exc:
        apply(s, 0, "seña malilla")
    assert exc.value.reason == "sena_already_sent"
    round_ = s.round
    while s.round == round_:
        seat = s.to_act[0]
        s = apply(s, seat, default_action(s, seat)).state
    assert s.senas_sent == ()


def test_s1_never_false_and_none_with_sinsenas() -> None:
    with pytest.raises(IllegalAction) as exc:
        apply(deal(), 1, "seña malilla")
    assert exc.value.reason == "sena_not_true"
    s = deal(Options(sinsenas=True))
    assert all(legal_senas(s, seat) == [] for seat in range(4))
    with pytest.raises(IllegalAction) as exc:
        apply(s, 0, "seña envido")
    assert exc.value.reason == "senas_off"


def test_s3_whole_team_mandador_included_never_the_mocho() -> None:
    s = new_game(players=7, options=Options(mocho=True), seed=3)
    ghost = s.ghost
    assert ghost is not None
    sender = next(seat for seat in range(s.players) if seat % 2 == ghost % 2 and seat != ghost)
    t = apply(s, sender, "seña envido")
    team = {seat for seat in range(s.players) if seat % 2 == sender % 2} - {sender, ghost}
    assert [(e.kind, e.to) for e in t.events] == [("sena", frozenset(team))]
    assert s.mandadores[sender % 2] in team or s.mandadores[sender % 2] == sender
    assert legal_senas(s, ghost) == []
    for seat in team:
        assert view(t.state, seat).to_dict()["senas_received"] == [[sender, "envido"]]


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_s4_catches_at_the_extremes(p: float) -> None:
    s = new_game(players=6, options=Options(senasvistas=True, pillar=p), seed=4)
    t = apply(s, 0, "seña envido")
    caught = sorted(next(iter(e.to or ())) for e in t.events if e.kind == "sena_caught")
    assert caught == ([1, 3, 5] if p else [])
    assert view(t.state, 1).to_dict()["senas_caught"] == ([[0, "envido"]] if p else [])


def test_s4_reproducible() -> None:
    opts = Options(senasvistas=True, pillar=0.5)
    a = apply(new_game(players=8, options=opts, seed=9), 2, "seña envido").events
    b = apply(new_game(players=8, options=opts, seed=9), 2, "seña envido").events
    assert a == b


@pytest.mark.parametrize("options", [Options(), Options(sinsenas=True)])
def test_property_every_sena_offered_is_true_and_in_its_window(options: Options) -> None:
    rng = random.Random(3)
    rounds = 0
    game = 0
    sent = 0
    # Without señas nothing is ever offered: fewer rounds prove it.
    while rounds < (300 if options.sinsenas else 1000):
        s = new_game(players=rng.choice([4, 6, 8, 10, 12]), options=options, seed=game)
        game += 1
        while not s.is_over:
            for seat in range(s.players):
                if seat == s.ghost:
                    continue
                offered = legal_senas(s, seat)
                if options.sinsenas:
                    assert offered == []
                assert {a.name for a in offered} <= senas(s.hands[seat], s.vira, s.k)
                if offered and rng.random() < 0.2:
                    before = (s.to_act, s.trick, s.phase)
                    s = apply(s, seat, rng.choice(offered)).state
                    sent += 1
                    assert (s.to_act, s.trick, s.phase) == before
            seat = s.to_act[0]
            current = s.round
            s = apply(s, seat, rng.choice(legal_actions(s, seat))).state
            if s.round != current:
                rounds += 1
                assert s.senas_sent == ()
            if rng.random() < 0.05:
                assert from_json(to_json(s)) == s
        assert all(legal_senas(s, seat) == [] for seat in range(s.players))
    assert (sent > 0) != options.sinsenas
