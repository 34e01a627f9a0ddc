"""Whole hands of Mus a piedras from fixed deals, driven with text actions (rules/piedras.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import piedras
from engine.core import Event, IllegalAction
from engine.piedras import Options, PiedrasState

# Four-card hands after the discard (8 reyes). The fifth card of each is discarded first.
M7 = ["1o 2c 4e 5b", "7o 6c 5e 4b", "12o 11c 7e 4o", "10o 7c 6e 5o"]
M7_EXTRA = ["1b", "1e", "10b", "11b"]
# Three players: A duples R R A A (best grande and chica), B par of 7s, C par of 4s (best punto).
TRIO = ["12o 12c 1e 1b", "7o 7c 6e 5b", "11c 10e 4o 4c"]
TRIO_EXTRA = ["6o", "6b", "10o"]


def deal(
    hands: list[str], extra: list[str], options: Options | None = None, seed: int = 0
) -> PiedrasState:
    """A new match with the given hands already discarded to four cards (P2)."""
    five = [f"{h} {x}" for h, x in zip(hands, extra, strict=True)]
    state = piedras.new_game(
        players=len(hands), options=options or Options(), hands=five, seed=seed
    )
    for seat, x in enumerate(extra):
        state = piedras.apply(state, seat, f"descarto {x}").state
    return state


def with_piles(state: PiedrasState, piles: tuple[int, ...]) -> PiedrasState:
    """The same state with other piles; the plate holds the difference (P5 conservation)."""
    plate = state.stones_in_play - sum(piles)
    assert plate >= 0
    return replace(state, piles=piles, plate=plate)


def play(state: PiedrasState, moves: list[tuple[int, str]]) -> tuple[PiedrasState, list[Event]]:
    events: list[Event] = []
    for seat, text in moves:
        assert seat in state.to_act, (seat, text, state.to_act)
        t = piedras.apply(state, seat, text)
        state = t.state
        events.extend(t.events)
        assert sum(state.piles) + sum(state.deposits) + state.plate == state.stones_in_play
    return state, events


def kinds(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in events if e.kind == kind]


def everyone_passes(state: PiedrasState) -> list[tuple[int, str]]:
    return [(s, "paso") for s in state.in_hand]


def test_p2_discard_is_simultaneous_and_private() -> None:
    """P2: five cards each from the mano, exactly one private discard each, no mus."""
    state = piedras.new_game(players=3, seed=5)
    assert [len(h) for h in state.hands] == [5, 5, 5]
    assert state.to_act == (0, 1, 2)
    card = str(state.hands[2][0])
    t = piedras.apply(state, 2, f"descarto {card}")
    assert t.state.to_act == (0, 1)
    assert [e.kind for e in t.events] == ["discarded", "dealt"]
    assert t.events[0].public and card not in str(t.events[0].data)
    assert t.events[1].to == frozenset({2}) and len(t.events[1].data["cards"]) == 4
    with pytest.raises(IllegalAction) as err:
        piedras.apply(t.state, 2, f"descarto {t.state.hands[2][0]}")
    assert err.value.reason == "not_your_turn"
    two = f"descarto {state.hands[0][0]} {state.hands[0][1]}"
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, two)
    assert err.value.reason == "bad_discard"
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, f"descarto {card}")
    assert err.value.reason == "card_not_in_hand"
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, "mus")
    assert err.value.reason in ("unknown_action", "wrong_phase")


def test_p2_deal_one_at_a_time_from_the_mano() -> None:
    """P2: the deal is one card at a time starting with the mano (seat 0 in the first hand)."""
    import random

    from engine.cards import DECK

    state = piedras.new_game(players=4, seed=42)
    deck = list(DECK)
    random.Random("42/1").shuffle(deck)
    assert state.hands[0] == tuple(deck[0:20:4])
    assert state.hands[1] == tuple(deck[1:20:4])


def test_p3_p5_hand_all_en_paso() -> None:
    """P3/P5: everyone passes; each lance winner puts its value on the plate (M7 hands)."""
    state = deal(M7, M7_EXTRA)
    assert state.lance == "grande" and state.to_act == (0,)
    moves = everyone_passes(state) * 2  # grande, chica
    state, events = play(state, moves)
    # pares: only seat 0 holds them, juego: only seat 2 -> both en paso without speaking
    declared = kinds(events, "declared")
    assert declared == [
        {"lance": "pares", "holders": [0], "players": [0, 1, 2, 3]},
        {"lance": "juego", "holders": [2], "players": [0, 1, 2, 3]},
    ]
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    assert plate == [(2, 1, "grande"), (0, 1, "chica"), (0, 1, "pares"), (2, 3, "juego")]
    assert state.score == (6, 8, 4, 8) and state.plate == 6
    assert state.hand_number == 2 and state.mano == 1 and state.phase == "discard"


def test_p3_nobody_with_juego_plays_punto_among_everyone() -> None:
    """P3: nobody has juego -> punto among everyone; the best punto puts 1."""
    state = deal(TRIO, TRIO_EXTRA)
    state, events = play(state, everyone_passes(state) * 3)  # grande, chica, pares
    started = [d["lance"] for d in kinds(events, "lance_started")]
    assert started == ["chica", "pares", "punto"]  # grande opened after the discards
    state, events = play(state, everyone_passes(state))
    won = {d["lance"]: d["seat"] for d in kinds(events, "lance_won")}
    assert won == {"grande": 0, "chica": 0, "pares": 0, "punto": 2}


def test_p3_nobody_with_pares_skips_the_lance() -> None:
    """P3: if nobody has pares there is no pares lance."""
    hands = ["12o 11c 7e 4o", "7o 6c 5e 4b", "10o 1c 6e 5o"]
    state = deal(hands, ["1b", "1e", "10b"])
    state, events = play(state, everyone_passes(state) * 2)
    assert kinds(events, "lance_skipped") == [{"lance": "pares", "reason": "nobody"}]


def test_p4_first_envite_nobody_accepts() -> None:
    """P4.2: nobody accepts: the bettor takes his stones back, 1 stone to the plate at once."""
    state = deal(M7, M7_EXTRA)
    state, events = play(state, [(0, "envido 3")])
    assert state.deposits[0] == 3 and state.score[0] == 5
    assert state.to_act == (1,)
    state, events = play(state, [(1, "no quiero"), (2, "no quiero"), (3, "no quiero")])
    assert [e.kind for e in events][-4:-1] == ["deposit_taken", "to_plate", "lance_closed"]
    assert state.score == (7, 8, 8, 8) and state.plate == 1 and state.deposits == (0, 0, 0, 0)
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "refused" and closed["winner"] == 0
    assert state.lance == "chica"
    # grande pays nothing more at the end: seat 0 put only the 1 (chica 1, pares 1 en paso)
    state, events = play(state, everyone_passes(state))
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    assert plate == [(0, 1, "chica"), (0, 1, "pares"), (2, 3, "juego")]


def test_p4_p5_refusal_in_pares_also_puts_the_lance_value() -> None:
    """P5: won by refusal in pares: 1 at once, then the pares value at the end."""
    state = deal(TRIO, TRIO_EXTRA)
    state, _ = play(state, everyone_passes(state) * 2)
    assert state.lance == "pares"
    state, events = play(state, [(0, "paso"), (1, "envido"), (2, "no quiero"), (0, "no quiero")])
    assert kinds(events, "lance_closed")[0]["winner"] == 1
    assert state.plate == 1 and state.score[1] == 7
    state, events = play(state, everyone_passes(state))  # punto
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    assert plate == [(0, 1, "grande"), (0, 1, "chica"), (1, 1, "pares"), (2, 1, "punto")]


def test_p4_p5_equal_bets_worst_hand_takes_the_deposit() -> None:
    """P4.3/P5: bets equal -> the best pares puts its value, the worst pares takes the deposit."""
    state = deal(TRIO, TRIO_EXTRA)
    state, _ = play(state, everyone_passes(state) * 2)
    state, events = play(state, [(0, "envido"), (1, "quiero"), (2, "quiero")])
    assert state.deposits[2] == 6 and state.score == (6, 6, 6)
    # first re-envite round goes left from the bettor (seat 0): 2, 1, then 0
    assert state.to_act == (2,)
    state, events = play(state, [(2, "paso"), (1, "paso"), (0, "paso")])
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "equal" and closed["players"] == [0, 1, 2]
    state, events = play(state, everyone_passes(state))  # punto
    taken = kinds(events, "deposit_taken")
    assert taken == [{"seat": 2, "lance": "pares", "count": 6, "why": "worst"}]
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    assert plate == [(0, 1, "grande"), (0, 1, "chica"), (0, 3, "pares"), (2, 1, "punto")]
    assert state.score == (1, 6, 11) and state.plate == 6


def test_p4_refused_reenvite_refuser_takes_deposit_lance_continues() -> None:
    """P4.3: refusing a raise takes the whole deposit; the others go on, rounds alternate."""
    state = deal(M7, M7_EXTRA)
    state, _ = play(state, [(0, "envido 2"), (1, "quiero"), (2, "quiero"), (3, "quiero")])
    assert state.deposits[0] == 8
    assert state.to_act == (3,)  # re-envites go to the left, ending with the bettor
    state, events = play(state, [(3, "2 más"), (2, "no quiero")])
    assert kinds(events, "deposit_taken") == [
        {"seat": 2, "lance": "grande", "count": 10, "why": "refused"}
    ]
    assert state.score[2] == 16 and state.deposits[0] == 0
    assert state.betting is not None and state.betting.in_lance == (0, 1, 3)
    state, _ = play(state, [(1, "quiero"), (0, "quiero")])
    assert state.deposits[0] == 4
    # a raise was made: new round to the right ending with the last raiser (3)
    assert state.to_act == (0,)
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, "no quiero")
    assert err.value.reason == "no_bet_to_answer"
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 2, "quiero")
    assert err.value.reason == "not_in_lance"
    state, events = play(state, [(0, "paso"), (1, "paso"), (3, "paso")])
    closed = kinds(events, "lance_closed")[0]
    assert closed == {
        "lance": "grande",
        "outcome": "equal",
        "players": [0, 1, 3],
        "winner": None,
        "deposit": 4,
    }
    state, events = play(state, everyone_passes(state))  # chica
    # grande among 0, 1, 3: worst is seat 0 (A A 4 5) -> takes the 4
    assert {"seat": 0, "lance": "grande", "count": 4, "why": "worst"} in kinds(
        events, "deposit_taken"
    )


def test_p4_one_player_left_wins_the_lance() -> None:
    """P4.3: everyone else refused a raise: the last one wins the lance (by refusal: 1 at once)."""
    state = deal(TRIO, TRIO_EXTRA)
    state, _ = play(state, [(0, "envido"), (1, "quiero"), (2, "quiero")])
    state, events = play(state, [(2, "3 más"), (1, "no quiero"), (0, "no quiero")])
    taken = kinds(events, "deposit_taken")
    assert taken[0] == {"seat": 1, "lance": "grande", "count": 9, "why": "refused"}
    assert taken[1]["count"] == 0
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "refused" and closed["winner"] == 2
    assert kinds(events, "to_plate") == [
        {"seat": 2, "count": 1, "lance": "grande", "why": "refusal"}
    ]
    assert state.score == (6, 15, 2) and state.plate == 1


def test_p4_all_in_cap() -> None:
    """P4: nobody bets more than the smallest pile among the players in the lance."""
    state = with_piles(deal(TRIO, TRIO_EXTRA), (8, 3, 8))
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, "envido 4")
    assert err.value.reason == "bet_above_cap" and err.value.params["cap"] == 3
    assert [str(a) for a in piedras.legal_actions(state, 0)] == [
        "paso",
        "envido 2",
        "envido 3",
        "ordago",
    ]
    # seat 1 bets all he has left: nobody may bet more
    state, _ = play(state, [(0, "paso"), (1, "envido 3"), (2, "quiero"), (0, "quiero")])
    assert state.score == (5, 0, 5)
    assert state.to_act == (0,)
    assert [a.kind for a in piedras.legal_actions(state, 0)] == ["paso"]
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, "1 más")
    assert err.value.reason == "bet_above_cap" and err.value.params["cap"] == 3
    state, events = play(state, [(0, "paso"), (2, "paso"), (1, "paso")])
    assert kinds(events, "lance_closed")[0]["outcome"] == "equal"
    # seat 1 has nothing left and is entitled to every later lance: nobody can bet, so chica,
    # pares (everyone holds them) and punto close en paso without a word; the hand is settled
    closed = [(d["lance"], d["outcome"]) for d in kinds(events, "lance_closed")]
    assert closed[1:] == [("chica", "en_paso"), ("pares", "en_paso"), ("punto", "en_paso")]
    assert not [d for d in kinds(events, "spoke") if d["lance"] != "grande"]
    assert state.hand_number == 2 and state.phase == "discard"


def test_p4_all_in_blocks_the_ordago_too() -> None:
    """P4: "a bet of all I have left caps the others": once a player still in the lance has
    an empty pile, no raise is possible, not even an órdago (as when a lance opens with him)."""
    state = with_piles(deal(TRIO, TRIO_EXTRA), (8, 3, 8))
    state, _ = play(state, [(0, "paso"), (1, "envido 3"), (2, "quiero"), (0, "quiero")])
    for seat, words in ((0, "ordago"), (0, "allin")):
        assert seat in state.to_act
        with pytest.raises(IllegalAction) as err:
            piedras.apply(state, seat, words)
        assert err.value.reason == "bet_above_cap" and err.value.params["cap"] == 3
    state, _ = play(state, [(0, "paso")])
    assert [str(a) for a in piedras.legal_actions(state, 2)] == ["paso"]
    state, _ = play(state, [(2, "paso")])
    assert state.to_act == (1,)  # the all-in player himself may not call an órdago either
    assert [str(a) for a in piedras.legal_actions(state, 1)] == ["paso"]
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 1, "ordago")
    assert err.value.reason == "bet_above_cap"
    # a pile of 1 is no all-in: the cap forbids every envido (N >= 2) but not the órdago
    state = with_piles(deal(TRIO, TRIO_EXTRA), (8, 1, 8))
    assert [str(a) for a in piedras.legal_actions(state, 0)] == ["paso", "ordago"]


def test_p4_cap_after_a_player_leaves_grows() -> None:
    """P4: the cap counts only players still in the lance."""
    state = with_piles(deal(TRIO, TRIO_EXTRA), (8, 2, 8))
    state, _ = play(state, [(0, "envido 2"), (1, "no quiero"), (2, "quiero")])
    acts = [str(a) for a in piedras.legal_actions(state, 2)]
    assert "envido 6" in acts and "envido 7" not in acts


def test_p4_partial_ordago_settled_at_once() -> None:
    """P4.4: órdago between some players: the worst takes the others' stones, they are free."""
    state = deal(M7, M7_EXTRA)
    state, events = play(state, [(0, "ordago"), (1, "quiero"), (2, "no quiero"), (3, "no quiero")])
    assert kinds(events, "showdown") == [{"hands": [M7[0].split(), M7[1].split(), None, None]}]
    # grande between seat 0 (A A 4 5) and seat 1 (7 6 5 4): seat 0 is worse
    assert kinds(events, "ordago_settled") == [{"lance": "grande", "worst": 0, "players": [0, 1]}]
    assert kinds(events, "freed") == [{"seat": 1}]
    assert state.score == (16, 0, 8, 8) and state.free == (1,)
    assert state.in_hand == (0, 2, 3) and state.lance == "chica"
    assert state.revealed == (0, 1)
    public = piedras.view(state, None).to_dict()
    assert public["revealed"][1] == M7[1].split() and public["revealed"][2] is None
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 1, "paso")
    assert err.value.reason == "not_in_lance"
    state, events = play(state, everyone_passes(state))  # chica among 0, 2, 3
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    assert plate == [(0, 1, "chica"), (0, 1, "pares"), (2, 3, "juego")]
    # P1: the next mano skips seat 1, free for the rest of the juego
    assert state.mano == 2 and state.in_hand == (2, 3, 0)
    assert len(state.hands[1]) == 0


def test_p4_ordago_in_the_last_lance_waits_for_the_end() -> None:
    """P4.4: an órdago in juego/punto is settled at the end of the hand, after the others."""
    hands = ["12o 12c 11e 10b", "7o 7c 7e 12b", "7b 6c 10e 11o", "1o 2c 4e 5b"]
    state = deal(hands, ["1b", "1e", "10c", "11b"])
    state, _ = play(state, everyone_passes(state) * 2)  # grande, chica
    state, _ = play(state, [(0, "paso"), (1, "paso"), (3, "paso")])  # pares: 0, 1, 3 hold them
    assert state.lance == "juego"
    state, events = play(state, [(0, "ordago"), (1, "quiero"), (2, "no quiero")])
    assert kinds(events, "lance_closed")[0]["outcome"] == "ordago_pending"
    order = [e.kind for e in events]
    # the grande/chica/pares values go first, then the órdago: worst juego (40) of 0 and 1 (31)
    assert order.index("ordago_settled") > order.index("lance_won")
    settled = kinds(events, "ordago_settled")[0]
    assert settled == {"lance": "juego", "worst": 0, "players": [0, 1]}
    assert 1 in state.free


def test_p4_ordago_with_everyone_loses_the_juego() -> None:
    """P4.4: every player in the hand in the órdago: the worst takes every stone, loses."""
    state = deal(TRIO, TRIO_EXTRA)
    state, events = play(state, [(0, "envido 2"), (1, "quiero"), (2, "quiero")])
    state, events = play(state, [(2, "ordago"), (1, "quiero"), (0, "quiero")])
    # grande: B (7 7 6 5) is the worst of the three
    assert kinds(events, "ordago_settled") == [
        {"lance": "grande", "worst": 1, "players": [0, 1, 2]}
    ]
    assert kinds(events, "juego_lost") == [{"seat": 1, "juego": 1, "losses": 1}]
    assert kinds(events, "player_out") == [{"seat": 1}]
    assert state.juego == 2 and state.seated == (0, 2) and state.score == (8, 0, 8)
    assert state.losses == (0, 1, 0) and state.out == (1,)
    assert state.mano == 2  # the mano moves right from seat 0, skipping seat 1 (out)


def test_p5_juego_ends_mid_settlement() -> None:
    """P5: as soon as only one player has stones the juego ends; the rest is not settled."""
    hands = ["12o 12c 11e 10b", "1o 2c 4e 5b", "7o 6c 5e 4b"]
    state = with_piles(deal(hands, ["1b", "1e", "10c"]), (2, 1, 6))
    state, events = play(state, everyone_passes(state) * 2)  # grande, chica
    assert state.lance == "pares"
    state, events = play(state, [(0, "paso"), (1, "paso")])
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    # grande 0, chica 1 (B reaches 0), pares 0 (A reaches 0): C alone; A's juego never settled
    assert plate == [(0, 1, "grande"), (1, 1, "chica"), (0, 1, "pares")]
    assert kinds(events, "juego_lost") == [{"seat": 2, "juego": 1, "losses": 1}]
    assert state.juego == 2


def test_p3_tanteo_ampliado_values() -> None:
    """P3: with tanteo ampliado 31 real puts 5 and 7+6+10+10 (33) puts 4; ranking unchanged."""
    hands = ["7o 7c 7e 12b", "7b 6c 10e 11o", "1o 2c 4e 5b"]
    for ampliado, expected in ((False, 3), (True, 5)):
        state = deal(hands, ["1b", "1e", "10c"], Options(tanteo_ampliado=ampliado))
        state, events = play(state, everyone_passes(state) * 2)
        state, events = play(state, [(0, "paso"), (2, "paso")])  # pares: 0 (medias), 2 (A A)
        state, events = play(state, [(0, "paso"), (1, "paso")])  # juego: 31 beats 33
        juego = [d for d in kinds(events, "to_plate") if d["lance"] == "juego"]
        assert juego == [{"seat": 0, "count": expected, "lance": "juego", "why": "en_paso"}]
    only_33 = ["7o 6c 10e 12b", "7b 6o 5e 4b", "1o 2c 4e 5b"]
    state = deal(only_33, ["1b", "1e", "10c"], Options(tanteo_ampliado=True))
    state, events = play(state, everyone_passes(state) * 2)
    juego = [d for d in kinds(events, "to_plate") if d["lance"] == "juego"]
    assert juego == [{"seat": 0, "count": 4, "lance": "juego", "why": "en_paso"}]


def test_p1_mano_rotation_skips_players_out() -> None:
    """P1: the mano moves right each hand, skipping players out of the match."""
    state = deal(M7, M7_EXTRA)
    # everyone in an órdago in grande: seat 0 (A A 4 5) is the worst and is out (losses=1)
    state, _ = play(state, [(0, "ordago"), (1, "quiero"), (2, "quiero"), (3, "quiero")])
    assert state.out == (0,) and state.juego == 2 and state.mano == 1
    mano = state.mano
    for _ in range(6):
        hand = state.hand_number
        while state.hand_number == hand and state.juego == 2:
            seat = state.to_act[0]
            state = piedras.apply(state, seat, piedras.default_action(state, seat)).state
        if state.juego != 2:
            break
        expected = next(s for s in [(mano + i) % 4 for i in range(1, 5)] if s in state.in_hand)
        assert state.mano == expected and state.mano != 0
        mano = state.mano


def test_p1_losses_option_and_match_winner() -> None:
    """P1: with losses=2 a player is out after two lost juegos; the last one left wins."""
    state = piedras.new_game(players=3, options=Options(losses=2, stones=5), seed=11)
    lost: list[int] = []
    for _ in range(200):
        if state.is_over:
            break
        if state.phase == "discard":
            seat = state.to_act[0]
            state = piedras.apply(state, seat, piedras.default_action(state, seat)).state
            continue
        # everyone in an órdago in grande ends the juego at once
        seat = state.to_act[0]
        word = "ordago" if state.betting and state.betting.stage == "open" else "quiero"
        t = piedras.apply(state, seat, word)
        state = t.state
        for d in kinds(list(t.events), "juego_lost"):
            lost.append(d["seat"])
            assert state.losses[d["seat"]] == lost.count(d["seat"])
            if lost.count(d["seat"]) == 1:
                assert d["seat"] in state.seated and state.score[d["seat"]] == 5
    assert state.is_over and state.winner is not None
    assert state.losses[state.winner] < 2
    assert sorted(s for s in range(3) if lost.count(s) == 2) == sorted(
        s for s in range(3) if s != state.winner
    )
    assert 4 <= len(lost) <= 5
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, "paso")
    assert err.value.reason == "game_over"


def test_p1_starting_stones_option_and_player_count() -> None:
    """P1: 3 to 8 players, 5/8/10 starting stones, an empty plate."""
    for n in range(3, 9):
        state = piedras.new_game(players=n, options=Options(stones=10), seed=n)
        assert state.score == (10,) * n and state.plate == 0
    for bad in (2, 9):
        with pytest.raises(ValueError):
            piedras.new_game(players=bad)
    with pytest.raises(ValueError):
        Options(stones=7)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Options(losses=0)


def test_p4_answer_reasons() -> None:
    """P4: stable refusal codes for bets out of turn or out of place."""
    state = deal(M7, M7_EXTRA)
    cases = [
        (1, "paso", "not_your_turn"),
        (0, "quiero", "no_bet_to_answer"),
        (0, "envido 1", "bet_too_small"),
        (0, "descarto 1o", "wrong_phase"),
        (9, "paso", "not_in_game"),
    ]
    for seat, text, reason in cases:
        with pytest.raises(IllegalAction) as err:
            piedras.apply(state, seat, text)
        assert err.value.reason == reason, text
    state, _ = play(state, [(0, "envido")])
    for seat, text, reason in [(1, "paso", "must_answer"), (1, "envido 4", "no_raise_now")]:
        with pytest.raises(IllegalAction) as err:
            piedras.apply(state, seat, text)
        assert err.value.reason == reason, text


def test_p4_reenvite_rounds_alternate_direction() -> None:
    """P4.3: rounds alternate; each after a raise ends with the last raiser."""
    state = deal(M7, M7_EXTRA)
    state, _ = play(state, [(0, "envido 2"), (1, "quiero"), (2, "quiero"), (3, "quiero")])
    order: list[int] = []
    script = {  # (round, seat) -> word
        (1, 2): "1 más",
        (2, 1): "envido",
    }
    rounds = 1
    seen: set[int] = set()
    while state.lance == "grande":
        seat = state.to_act[0]
        if seat in seen:  # a new round started
            rounds += 1
            seen = set()
        seen.add(seat)
        order.append(seat)
        state, events = play(state, [(seat, script.get((rounds, seat), "paso"))])
    # round 1 to the left ending with 0; round 2 to the right ending with 2 (raised);
    # round 3 to the left ending with 1 (raised); round 4 to the right, ending with 1 too
    assert order == [3, 2, 1, 0, 3, 0, 1, 2, 0, 3, 2, 1]
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "equal" and state.deposits[0] == 4 * 5
    spoken = [d["action"] for d in kinds(events, "spoke")]
    assert spoken == ["paso"]


def test_p4_ordago_in_reenvites_waits_for_every_answer() -> None:
    """P4.3/P4.4: an órdago as a raise: refusing it takes the deposit; the rest answer it."""
    state = deal(M7, M7_EXTRA)
    state, _ = play(state, [(0, "envido 2"), (1, "quiero"), (2, "quiero"), (3, "quiero")])
    # round 1 to the left: 3 passes, 2 calls órdago, 1 refuses (takes the deposit), 0 accepts;
    # 3 spoke before the órdago: a round to the right asks him
    state, events = play(state, [(3, "paso"), (2, "ordago"), (1, "no quiero"), (0, "quiero")])
    assert kinds(events, "deposit_taken") == [
        {"seat": 1, "lance": "grande", "count": 8, "why": "refused"}
    ]
    assert state.to_act == (3,)
    assert [str(a) for a in piedras.legal_actions(state, 3)] == ["quiero", "no quiero"]
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 3, "paso")
    assert err.value.reason == "must_answer"
    state, events = play(state, [(3, "quiero")])
    # órdago among 0, 2, 3 while seat 1 is still in the hand: partial, settled at once;
    # grande: seat 0 (A A 4 5) is the worst: he takes the piles of 2 and 3 (6 each)
    assert kinds(events, "ordago_settled") == [
        {"lance": "grande", "worst": 0, "players": [0, 2, 3]}
    ]
    assert state.score == (18, 14, 0, 0) and state.free == (2, 3)
    assert state.in_hand == (0, 1) and state.lance == "chica"


def test_p4_freed_players_lose_their_claim_on_earlier_deposits() -> None:
    """P4.4/P5: players freed by an órdago leave the hand; a deposit left with none of its
    players goes to the plate (stones stay conserved)."""
    hands = ["12o 12c 11e 10b", "1o 2c 4e 5b", "7o 6c 5e 4b", "10o 7c 6e 5o"]
    state = deal(hands, ["1b", "1e", "10c", "11b"])
    state, _ = play(
        state,
        [(0, "paso"), (1, "envido 2"), (2, "quiero"), (3, "no quiero"), (0, "no quiero")],
    )
    state, events = play(state, [(2, "paso"), (1, "paso")])
    assert kinds(events, "lance_closed")[0]["players"] == [1, 2] and state.deposits[0] == 4
    state, events = play(state, [(0, "ordago"), (1, "quiero"), (2, "quiero"), (3, "no quiero")])
    # chica: seat 0 (R R C S) is the worst: he takes the piles of 1 and 2 (6 each)
    assert kinds(events, "ordago_settled")[0]["worst"] == 0
    assert state.free == (1, 2)
    # pares and juego: only seat 0 has them -> en paso; the grande deposit has no player left
    assert state.hand_number == 2
    plate = [(d["seat"], d["count"], d["lance"], d["why"]) for d in kinds(events, "to_plate")]
    assert plate == [
        (None, 4, "grande", "abandoned"),
        (0, 1, "pares", "en_paso"),
        (0, 2, "juego", "en_paso"),
    ]
    assert state.score == (17, 0, 0, 8) and state.plate == 7
    assert state.in_hand == (3, 0) and state.mano == 3  # 1 and 2 sit out: the mano skips them


def test_p4_ordago_with_everyone_in_the_last_lance_is_settled_at_once() -> None:
    """P4.4: an órdago with everyone still in the hand ends the juego at once, even in juego;
    the worst takes every pile and every deposit."""
    hands = ["12o 12c 11e 10b", "7o 7c 7e 12b", "7b 6c 10e 11o"]
    state = deal(hands, ["1b", "1e", "10c"])
    state, _ = play(state, [(0, "envido"), (1, "quiero"), (2, "quiero")])
    state, _ = play(state, [(2, "paso"), (1, "paso"), (0, "paso")])  # grande: equal, 6 stones
    state, _ = play(state, everyone_passes(state))  # chica
    state, _ = play(state, [(0, "paso"), (1, "paso")])  # pares: 0 and 1
    assert state.lance == "juego" and state.deposits[0] == 6
    state, events = play(state, [(0, "ordago"), (1, "quiero"), (2, "quiero")])
    # juego: 31 (seat 1) > 40 (seat 0) > 33 (seat 2): seat 2 is the worst
    assert kinds(events, "ordago_settled") == [{"lance": "juego", "worst": 2, "players": [0, 1, 2]}]
    over = kinds(events, "hand_over")[0]
    assert over["piles"] == [0, 0, 24] and over["plate"] == 0
    assert kinds(events, "juego_lost") == [{"seat": 2, "juego": 1, "losses": 1}]
    assert not kinds(events, "lance_won")  # nothing else was settled


def test_p1_p2_player_at_zero_after_the_hand_is_free_and_sits_out() -> None:
    """P1: a player with 0 stones at the end of a hand is free: he is dealt no cards for the rest
    of the juego and the mano skips him. P2: the next deal goes one card at a time from the new
    mano, among the players still in."""
    import random

    from engine.cards import DECK

    state = with_piles(deal(TRIO, TRIO_EXTRA, seed=21), (1, 8, 8))
    state, events = play(state, everyone_passes(state) * 4)  # grande, chica, pares, punto
    plate = [(d["seat"], d["count"], d["lance"]) for d in kinds(events, "to_plate")]
    # seat 0 wins grande (puts his last stone), chica and pares with nothing left; punto: 2
    assert plate == [(0, 1, "grande"), (2, 1, "punto")]
    assert kinds(events, "freed") == [{"seat": 0}]
    assert not kinds(events, "juego_lost")
    assert state.free == (0,) and state.score == (0, 8, 7)
    assert state.hand_number == 2 and state.mano == 1 and state.in_hand == (1, 2)
    assert state.hands[0] == () and state.to_act == (1, 2)
    deck = list(DECK)
    random.Random("21/2").shuffle(deck)
    assert state.hands[1] == tuple(deck[0:10:2]) and state.hands[2] == tuple(deck[1:10:2])
    started = kinds(events, "hand_started")[0]
    assert started["mano"] == 1 and started["dealer"] == 2 and started["players"] == [1, 2]
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 0, f"descarto {deck[0]}")
    assert err.value.reason == "not_in_hand"
    # the hand after: the mano moves right from 1 to 2, then back to 1, never to 0
    for seat in (1, 2):
        state = piedras.apply(state, seat, piedras.default_action(state, seat)).state
    while state.hand_number == 2 and state.juego == 1:
        seat = state.to_act[0]
        state = piedras.apply(state, seat, piedras.default_action(state, seat)).state
    assert state.juego == 1 and state.hand_number == 3
    assert state.mano == 2 and state.in_hand == (2, 1)


def test_p4_first_envite_refusers_are_out_of_the_reenvites() -> None:
    """P4.3: the ones who did not take part in the first envite are out of the re-envites."""
    state = deal(M7, M7_EXTRA)
    state, _ = play(state, [(0, "paso"), (1, "envido 2"), (2, "no quiero"), (3, "quiero")])
    state, _ = play(state, [(0, "quiero")])
    assert state.betting is not None and state.betting.in_lance == (0, 1, 3)
    # first re-envite round: to the left from the bettor (1), ending with him: 0, 3, 1
    assert state.to_act == (0,)
    with pytest.raises(IllegalAction) as err:
        piedras.apply(state, 2, "3 más")
    assert err.value.reason == "not_in_lance"
    state, _ = play(state, [(0, "3 más"), (3, "quiero"), (1, "quiero")])
    # a raise: a new round to the right ending with the raiser (0); seat 2 is never asked
    assert state.to_act == (1,)
    state, events = play(state, [(1, "paso"), (3, "paso"), (0, "paso")])
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "equal" and closed["players"] == [0, 1, 3]
    assert closed["deposit"] == 15


def test_p4_first_envite_ordago_nobody_accepts_pays_one() -> None:
    """P4.2: an órdago nobody accepts is a refused first envite: 1 stone to the plate at once,
    the lance won by refusal, no card shown (P5: in juego/punto the value too at the end)."""
    state = deal(TRIO, TRIO_EXTRA)
    state, events = play(state, everyone_passes(state) * 3)  # grande, chica, pares en paso
    assert state.lance == "punto"
    state, events = play(state, [(0, "paso"), (1, "ordago"), (2, "no quiero"), (0, "no quiero")])
    order = [e.kind for e in events]
    assert order.count("showdown") == 1  # only the end of the hand shows the cards
    assert order.index("showdown") > order.index("lance_closed")
    refusal = [d for d in kinds(events, "to_plate") if d["why"] == "refusal"]
    assert refusal == [{"seat": 1, "count": 1, "lance": "punto", "why": "refusal"}]
    closed = kinds(events, "lance_closed")[0]
    assert closed["outcome"] == "refused" and closed["winner"] == 1
    value = [d for d in kinds(events, "to_plate") if d["lance"] == "punto" and d["why"] == "value"]
    assert value == [{"seat": 1, "count": 1, "lance": "punto", "why": "value"}]
