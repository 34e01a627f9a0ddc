"""Sending señas at a Mus table (rules/senas.md S1, S2, S4): the ``sena`` action, its window,
once per hand, its audience, the catches; a property test over thousands of random hands."""

import random

import pytest

from engine.core import Action, IllegalAction
from engine.mus import (
    Options,
    apply,
    coming_senas,
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
from engine.mus.state import MusState
from engine.senas_play import caught

HANDS = ["12o 12c 1e 4b", "7o 6c 6b 4o", "12e 11c 7e 5o", "10o 7c 6e 5b"]


def cut(options: Options | None = None, seed: int = 1) -> MusState:
    return apply(new_game(seed=seed, hands=HANDS, options=options), 0, "corto").state


def names(actions: list[Action]) -> list[str]:
    return [a.name or "" for a in actions]


def test_s1_a_sena_is_an_action_with_a_round_trip() -> None:
    a = parse_action("seña medias de reyes")
    assert (a.kind, a.name, str(a)) == ("sena", "medias de reyes", "seña medias de reyes")
    assert parse_action(str(a)) == a
    assert parse_action("sena dos ases") == parse_action("sign two aces")
    assert parse_action("SEÑA 31").name == "31"
    with pytest.raises(IllegalAction) as exc:
        parse_action("seña tres caballos")
    assert exc.value.reason == "unknown_sena"


def test_s1_window_opens_at_the_mus_cut() -> None:
    s = new_game(seed=1, hands=HANDS)
    assert all(legal_senas(s, seat) == [] for seat in range(4))
    with pytest.raises(IllegalAction) as exc:
        apply(s, 0, "seña dos reyes")
    assert exc.value.reason == "sena_not_yet"  # before the cut: not yet (not "closed")
    s = apply(s, 0, "mus").state  # mus: still before the cut
    assert legal_senas(s, 0) == []
    s = cut()
    assert names(legal_senas(s, 0)) == ["dos reyes"]
    assert names(legal_senas(s, 2)) == ["juego"]  # R C 7 5: 32


def test_s1_window_closes_when_the_hand_ends() -> None:
    s = cut()
    while s.hand_number == 1:
        seat = s.to_act[0]
        s = apply(s, seat, default_action(s, seat)).state
    assert s.phase == "mus" and s.senas_sent == ()
    assert all(legal_senas(s, seat) == [] for seat in range(4))


def test_s1_s2_coming_senas_are_those_the_cards_will_allow_once_the_window_opens() -> None:
    s = new_game(seed=1, hands=HANDS)
    for seat in range(4):  # before the cut: what the cards allow; after it, the same and legal
        ahead = coming_senas(s, seat)
        assert ahead == legal_senas(cut(), seat)
    assert names(coming_senas(s, 0)) == ["dos reyes"] and legal_senas(s, 0) == []
    sent = apply(cut(), 0, "seña dos reyes").state
    assert coming_senas(sent, 0) == []  # once sent, no longer offered
    over = cut()
    while over.hand_number == 1:
        seat = over.to_act[0]
        over = apply(over, seat, default_action(over, seat)).state
    cut_again = apply(over, over.to_act[0], "corto").state  # the next hand's own cards
    assert all(coming_senas(over, seat) == legal_senas(cut_again, seat) for seat in range(4))
    assert coming_senas(new_game(seed=1, hands=HANDS, options=Options(sinsenas=True)), 0) == []


def test_s1_out_of_turn_and_turn_unchanged() -> None:
    s = cut()
    assert s.to_act == (0,)
    t = apply(s, 1, "seña " + names(legal_senas(s, 1))[0])
    assert t.state.to_act == s.to_act and t.state.lance == s.lance
    assert t.state.history == s.history


def test_s1_each_sena_once_per_hand() -> None:
    s = apply(cut(), 0, "seña dos reyes").state
    assert legal_senas(s, 0) == []
    with pytest.raises(IllegalAction) as exc:
        apply(s, 0, "seña dos reyes")
    assert exc.value.reason == "sena_already_sent"


def test_s1_never_false() -> None:
    with pytest.raises(IllegalAction) as exc:
        apply(cut(), 0, "seña duples")
    assert exc.value.reason == "sena_not_true"


def test_s1_none_with_sinsenas() -> None:
    s = cut(Options(sinsenas=True))
    assert all(legal_senas(s, seat) == [] for seat in range(4))
    with pytest.raises(IllegalAction) as exc:
        apply(s, 0, "seña dos reyes")
    assert exc.value.reason == "senas_off"


def test_s1_reaches_the_partner_only() -> None:
    t = apply(cut(), 1, "seña pares")
    assert [(e.kind, e.to) for e in t.events] == [("sena", frozenset({3}))]
    assert view(t.state, 3).senas_received == ((1, "pares"),)
    assert all(view(t.state, s).senas_received == () for s in (0, 1, 2))
    for seat in (None, 0, 1, 2):
        shown = view(t.state, seat).to_dict()
        assert shown["senas_received"] == [] and shown["senas_caught"] == []
        assert "'pares')" not in str(shown) and "'pares']" not in str(shown)


def test_s1_default_action_and_legal_actions_never_send_senas() -> None:
    s = cut()
    for seat in range(4):
        assert all(a.kind != "sena" for a in legal_actions(s, seat))
    assert default_action(s, 0).kind != "sena"


@pytest.mark.parametrize("p", [0.0, 1.0])
def test_s4_catches_at_the_extremes(p: float) -> None:
    s = cut(Options(senasvistas=True, pillar=p))
    t = apply(s, 0, "seña dos reyes")
    caught_by = sorted(next(iter(e.to or ())) for e in t.events if e.kind == "sena_caught")
    assert caught_by == ([1, 3] if p == 1.0 else [])
    for e in t.events:
        if e.kind == "sena_caught":
            assert dict(e.data) == {"seat": 0, "name": "dos reyes", "to": [2]}
            assert len(e.to or ()) == 1
    assert view(t.state, 1).senas_caught == (((0, "dos reyes"),) if p == 1.0 else ())
    assert view(t.state, 2).senas_caught == ()


def test_s4_no_catches_without_senasvistas() -> None:
    t = apply(cut(Options(pillar=1.0)), 0, "seña dos reyes")
    assert [e.kind for e in t.events] == ["sena"]


def test_s4_catches_are_reproducible_and_near_p() -> None:
    opts = Options(senasvistas=True, pillar=0.15)
    runs = []
    for _ in range(2):
        s = cut(opts, seed=5)
        t = apply(s, 0, "seña dos reyes")
        runs.append([(e.kind, e.to) for e in t.events])
        assert from_json(to_json(t.state)) == t.state
    assert runs[0] == runs[1]
    hits = sum(caught(seed, 1, 0, "dos reyes", 1, 0.15) for seed in range(4000))
    assert 0.12 < hits / 4000 < 0.18


def test_json_round_trip_with_senas() -> None:
    s = apply(apply(cut(), 0, "seña dos reyes").state, 1, "seña pares").state
    assert s.senas_sent == (("dos reyes",), ("pares",), (), ())
    assert from_json(to_json(s)) == s


@pytest.mark.parametrize("options", [Options(), Options(reyes=4), Options(sinsenas=True)])
def test_property_every_sena_offered_is_true_and_in_its_window(options: Options) -> None:
    """Random games (thousands of hands in all): at every step every seña offered is true of
    the seat's hand (S1), none outside the lances, none with sinsenas; the state round-trips."""
    rng = random.Random(12)
    hands = 0
    sent = 0
    game = 0
    while hands < 1000:
        s = new_game(seed=game, options=options)
        game += 1
        while not s.is_over:
            for seat in range(4):
                offered = legal_senas(s, seat)
                if options.sinsenas or s.phase != "lance":
                    assert offered == []
                truth = senas(s.hands[seat], options)
                assert {a.name for a in offered} <= truth
                assert len({a.name for a in offered}) == len(offered)
                if offered and rng.random() < 0.3:
                    before = s.to_act
                    a = rng.choice(offered)
                    s = apply(s, seat, a).state
                    sent += 1
                    assert s.to_act == before
                    assert a not in legal_senas(s, seat)
            seat = s.to_act[0]
            moves = legal_actions(s, seat)
            before_hand = s.hand_number
            s = apply(s, seat, rng.choice(moves)).state
            if s.hand_number != before_hand:
                hands += 1
                assert s.senas_sent == ()
            if rng.random() < 0.05:
                assert from_json(to_json(s)) == s
    assert hands >= 1000
    assert (sent > 0) != options.sinsenas
