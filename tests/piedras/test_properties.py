"""Random legal matches of 3 to 8 players: invariants at every step (rules/piedras.md P1-P5)."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given
from hypothesis import strategies as st

from engine import piedras
from engine.core import Action, Event
from engine.piedras import Options, PiedrasState
from engine.piedras.events import KINDS

CARD_TEXT = re.compile(r'"(?:1[0-2]|[1-7])[oceb]"')
MAX_STEPS = 20_000


def _choose(rng: random.Random, state: PiedrasState, seat: int) -> Action:
    actions = piedras.legal_actions(state, seat)
    assert actions, f"seat {seat} must act but has no legal action"
    if rng.random() < 0.6:  # mostly quiet play keeps matches short and reaches the settlement
        quiet = [a for a in actions if a.kind in ("paso", "quiero", "descarto", "no_quiero")]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(actions)


def _check_events(before: PiedrasState, events: tuple[Event, ...]) -> None:
    for e in events:
        assert e.kind in KINDS, e.kind
        text = json.dumps(dict(e.data))
        if e.kind == "dealt":
            assert e.to == frozenset({e.data["seat"]})
        elif e.public and e.kind != "showdown":
            assert not CARD_TEXT.search(text), f"public {e.kind} shows a card: {text}"
        else:
            assert e.public, f"unexpected private event {e.kind}"


def _check_views(state: PiedrasState) -> None:
    public = piedras.view(state, None).to_dict()
    assert public["cards"] is None
    json.dumps(public)
    for seat in range(state.players):
        v = piedras.view(state, seat).to_dict()
        own = [str(c) for c in state.hands[seat]] or None
        assert v["cards"] == own
        shown = v["revealed"] or [None] * state.players
        for other in range(state.players):
            if other != seat and shown[other] is not None:
                assert other in state.revealed
        others = {str(c) for s in range(state.players) if s != seat for c in state.hands[s]}
        revealed_cards = {c for h in shown if h for c in h}
        leaked = (set(CARD_TEXT.findall(json.dumps(v))) - {f'"{c}"' for c in own or []}) - {
            f'"{c}"' for c in revealed_cards
        }
        assert not leaked & {f'"{c}"' for c in others}, leaked


def _check_state(state: PiedrasState) -> None:
    assert min(state.piles) >= 0 and state.plate >= 0 and min(state.deposits) >= 0
    assert sum(state.piles) + sum(state.deposits) + state.plate == state.stones_in_play
    assert piedras.from_json(piedras.to_json(state)) == state
    for seat in state.to_act:
        assert piedras.legal_actions(state, seat)
    if not state.is_over:
        assert state.to_act
        assert set(state.to_act) <= set(state.in_hand)
        assert len(state.in_hand) >= 2
        assert all(state.piles[s] == 0 for s in state.free)
        assert all(state.piles[s] == 0 for s in range(state.players) if s not in state.seated)
        if state.phase == "discard":  # P5: every deposit is settled before a new hand
            assert not any(state.deposits) and not state.lances
    b = state.betting
    if b is not None and b.stage != "open" and any(state.piles[s] == 0 for s in b.in_lance):
        for seat in state.to_act:  # P4: an empty pile in the lance caps every raise
            kinds = {a.kind for a in piedras.legal_actions(state, seat)}
            assert not kinds & {"envido", "ordago"}, kinds


@given(
    players=st.integers(3, 8),
    stones=st.sampled_from([5, 8, 10]),
    losses=st.integers(1, 2),
    reyes=st.sampled_from([8, 4]),
    ampliado=st.booleans(),
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
)
def test_p1_to_p5_random_matches_keep_every_invariant(
    players: int,
    stones: int,
    losses: int,
    reyes: int,
    ampliado: bool,
    seed: int,
    choices: int,
) -> None:
    """P1-P5: stones conserved, piles >= 0, JSON round-trip, a legal move for every seat in
    to_act, no hidden card in another seat's view or in a public event, and the match ends."""
    options = Options(
        stones=stones,  # type: ignore[arg-type]
        losses=losses,
        reyes=reyes,  # type: ignore[arg-type]
        tanteo_ampliado=ampliado,
    )
    # A seeded Random, not hypothesis's own: it would record every one of thousands of draws.
    rng = random.Random(choices)
    state = piedras.new_game(players=players, options=options, seed=seed)
    _check_state(state)
    started, over, lost = 1, 0, 0
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        seat = rng.choice(state.to_act)
        t = piedras.apply(state, seat, _choose(rng, state, seat))
        _check_events(state, t.events)
        for e in t.events:
            started += e.kind == "hand_started"
            over += e.kind == "hand_over"
            lost += e.kind == "juego_lost"
        state = t.state
        _check_state(state)
        _check_views(state)
    assert state.is_over, "the match must end"
    assert started == over, "every hand ends with hand_over"
    assert lost == sum(state.losses)
    assert all(state.losses[s] == options.losses for s in state.out)
    assert state.winner is not None and state.winner not in state.out
    assert state.out == tuple(s for s in range(players) if s != state.winner)


@given(seed=st.integers(0, 2**16), players=st.integers(3, 8))
def test_p1_default_actions_finish_a_match(seed: int, players: int) -> None:
    """P1: the timer's default moves are always legal and a match played with them ends."""
    state = piedras.new_game(players=players, seed=seed)
    for _ in range(MAX_STEPS):
        if state.is_over:
            break
        seat = state.to_act[-1]
        action = piedras.default_action(state, seat)
        assert action in piedras.legal_actions(state, seat)
        state = piedras.apply(state, seat, action).state
    assert state.is_over
