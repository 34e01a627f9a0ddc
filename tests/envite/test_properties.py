"""Random legal games of every size (rules/envite.md E1-E7), checking invariants at every step.

E1 (sizes, mocho), E2 (deal privacy), E3/E4 (one winner per trick, legality), E5/E6 (scores).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.envite as envite
from engine.cards import DECK, Card
from engine.core import Action, Event
from engine.envite import EnviteState, IllegalAction, Options
from engine.envite.ranking import card_key, suit_of

CARD_TEXTS = frozenset(str(c) for c in DECK)
KIND_PROBES = [Action(k) for k in ("envido", "siete", "nueve", "chico_fuera", "quiero",
                                   "no_quiero", "tumbo", "no_tumbo")]  # fmt: skip
SIZES = [(4, False), (6, False), (8, False), (10, False), (12, False),
         (5, True), (7, True), (9, True), (11, True)]  # fmt: skip
MAX_STEPS = 20_000
# Whole games with every check at every step are slow: keep the example count modest.
EXAMPLES = min(settings.default.max_examples, 20)


# A string that is exactly a card text, anywhere in a JSON value (keys too): one regular
# expression over its text instead of a walk, at every step of every random game.
_CARD_STRING = re.compile(r'"((?:1[0-2]|[1-7])[oceb])"')


def cards_in(value: Any) -> set[str]:
    """Every string of a JSON-plain value that is a card text."""
    return set(_CARD_STRING.findall(json.dumps(value))) & CARD_TEXTS


def hand_texts(state: EnviteState, seats: range | list[int]) -> set[str]:
    return {str(c) for seat in seats for c in state.hands[seat]}


def seen_not_following(public: dict[str, Any], team: int) -> bool:
    """E4: from the public view only, whether a seat of ``team`` failed to follow this round."""
    vira, k, n = Card.parse(public["vira"]), public["k"], public["players"]
    plays = [(t["leader"], t["cards"]) for t in public["tricks"]]
    if public["trick"]:
        plays.append((public["trick"][0][0], [card for _, card in public["trick"]]))
    for leader, cards in plays:
        led = suit_of(Card.parse(cards[0]), vira, k)
        for i, card in enumerate(cards[1:], 1):
            if (leader + i) % n % 2 == team and suit_of(Card.parse(card), vira, k) != led:
                return True
    return False


def check_state(state: EnviteState) -> None:
    assert envite.from_json(envite.to_json(state)) == state
    assert all(0 <= x <= 11 for x in state.score)
    seats = range(state.players)
    if state.is_over:
        assert state.to_act == () and state.winner in (0, 1)
        assert state.chicos[state.winner] == state.options.chicos
        return
    assert len(state.to_act) == 1
    assert len(state.tricks) <= 2 and max(state.tricks_won) < 2
    for seat in seats:
        actions = envite.legal_actions(state, seat)
        if seat in state.to_act:
            assert actions, "a seat in to_act always has a legal action"
            assert envite.default_action(state, seat) in actions
        else:
            assert all(a.kind == "renuncio" for a in actions)
    # E4 modo renuncio: the offer to call depends on public play only, never on hidden hands.
    public = envite.view(state).to_dict()
    for seat in seats:
        offered = Action("renuncio") in envite.legal_actions(state, seat)
        expected = (
            state.options.renuncio
            and public["phase"] in ("play", "bet")
            and seat != state.ghost
            and seen_not_following(public, 1 - seat % 2)
        )
        assert offered == expected, (seat, offered)
    everyone = hand_texts(state, seats)
    assert not cards_in(envite.view(state).to_dict()) & everyone
    for seat in seats:
        if seat == state.ghost:
            continue
        data = envite.view(state, seat).to_dict()
        own = [seat] + ([state.ghost] if data["mocho_cards"] is not None else [])
        assert state.ghost is None or (state.mandadores[1] == seat) == (len(own) == 2)
        hidden = everyone - hand_texts(state, own)
        assert not cards_in(data) & hidden, f"seat {seat} sees another seat's cards"
        assert data["cards"] == [str(c) for c in state.hands[seat]]


def probe_legality(state: EnviteState, rng: random.Random) -> None:
    """``legal_actions`` is exact: an action outside it is refused, leaving no trace."""
    seat = state.to_act[0]
    legal = envite.legal_actions(state, seat)
    hand = state.hands[state.turn]
    candidates = [Action("tiro", cards=(c,)) for c in hand]
    candidates += rng.sample(KIND_PROBES, 2)
    candidates.append(Action("tiro", cards=(rng.choice(DECK),)))
    before = envite.to_json(state)
    for action in candidates:
        # In answer to a bet, a bare "envido" is an alias of the next raise (E7).
        if action in legal or (state.phase == "bet" and action == Action("envido")):
            continue
        with pytest.raises(IllegalAction):
            envite.apply(state, seat, action)
    assert envite.to_json(state) == before


class Tracker:
    """Follows the events to check tricks, privacy and scores across transitions."""

    def __init__(self) -> None:
        self.trick: list[tuple[int, Card]] = []

    def check(self, old: EnviteState, new: EnviteState, events: tuple[Event, ...]) -> None:
        hidden = hand_texts(old, range(old.players))
        for event in events:
            assert event.kind in envite.EVENT_KINDS
            if event.kind == "round_started":
                hidden = hand_texts(new, range(new.players))
                self.trick = []
            if event.kind == "dealt":
                seat = event.data["seat"]
                assert event.to == frozenset({new.controller(seat)})
                assert event.data["cards"] == [str(c) for c in new.hands[seat]]
                continue
            assert event.public
            if event.kind == "card_played":
                hidden.discard(event.data["card"])
                self.trick.append((event.data["seat"], Card.parse(event.data["card"])))
            assert not cards_in(dict(event.data)) & hidden, f"{event} leaks a hidden card"
            if event.kind == "trick_won":
                self.check_trick(old, event)
            if event.kind == "renuncio_called":
                # E4: a call is true exactly when an opponent of the caller really renounced.
                team = event.data["team"]
                offenders = [s for s in old.renuncios if s % 2 != team]
                assert event.data["valid"] == bool(offenders)
                assert event.data["offender"] == (offenders[0] if offenders else None)
        self.check_round_result(old, events)
        if new.chicos == old.chicos:
            assert new.score[0] >= old.score[0] and new.score[1] >= old.score[1]
        else:
            assert sum(new.chicos) == sum(old.chicos) + 1
            assert new.is_over or new.score == (0, 0)

    @staticmethod
    def check_round_result(old: EnviteState, events: tuple[Event, ...]) -> None:
        """E4-E6 read from the rules: what a finished round pays, and when it takes the chico."""
        kinds = [e.kind for e in events]
        if "round_scored" not in kinds and "chico_won" not in kinds:
            return
        by_kind = {e.kind: e.data for e in events}
        at = old.en_tumbo
        if "bet_refused" in by_kind:
            team, owed = by_kind["bet_refused"]["to_team"], (2, 4, 7, 9)[old.raised - 1]  # type: ignore[operator]
        elif "tumbo_decided" in by_kind and not by_kind["tumbo_decided"]["play"]:
            team, owed = 1 - by_kind["tumbo_decided"]["team"], 1
        else:
            call = by_kind.get("renuncio_called")
            if call is not None:
                team = call["team"] if call["valid"] else 1 - call["team"]
                extra = 2
            else:
                team, extra = by_kind["trick_won"]["team"], 0
            chico = old.step == 4 or (old.tumbo and (at[team] or all(at)))
            assert ("chico_won" in kinds) == chico
            if chico:
                assert by_kind["chico_won"]["team"] == team
                return
            owed = (3 if old.tumbo else (2, 4, 7, 9)[old.step]) + extra
        assert "chico_won" not in kinds
        scored = by_kind["round_scored"]
        assert scored["team"] == team
        assert scored["points"] == min(11, old.score[team] + owed) - old.score[team]
        assert scored["score"][1 - team] == old.score[1 - team]

    def check_trick(self, state: EnviteState, event: Event) -> None:
        """Every trick has all seats' cards and exactly one highest card: its winner's."""
        assert len(self.trick) == state.players
        assert len({seat for seat, _ in self.trick}) == state.players
        led = suit_of(self.trick[0][1], state.vira, state.k)
        keys = [card_key(card, led, state.vira, state.k) for _, card in self.trick]
        best = max(keys)
        assert keys.count(best) == 1
        assert self.trick[keys.index(best)][0] == event.data["seat"]
        assert str(self.trick[keys.index(best)][1]) == event.data["card"]
        self.trick = []


def play_random_game(state: EnviteState, rng: random.Random) -> EnviteState:
    tracker = Tracker()
    check_state(state)
    for _ in range(MAX_STEPS):
        if state.is_over:
            return state
        seat = state.to_act[0]
        action = rng.choice(envite.legal_actions(state, seat))
        if state.options.renuncio and rng.random() < 0.25:
            callers = [
                s for s in range(state.players)
                if Action("renuncio") in envite.legal_actions(state, s)
            ]  # fmt: skip
            if callers:
                seat, action = rng.choice(callers), Action("renuncio")
        if rng.random() < 0.2:
            probe_legality(state, rng)
        t = envite.apply(state, seat, action)
        tracker.check(state, t.state, t.events)
        state = t.state
        check_state(state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "mocho"), SIZES)
@settings(max_examples=EXAMPLES)
@given(
    seed=st.integers(0, 2**32),
    choices=st.integers(0, 2**32),
    chicos=st.sampled_from([1, 2]),
    renuncio=st.booleans(),
    drawn=st.booleans(),
)
def test_e1_to_e7_random_legal_games(
    players: int, mocho: bool, seed: int, choices: int, chicos: int, renuncio: bool, drawn: bool
) -> None:
    """E1-E7: random legal games of every size end, with every invariant held at every step."""
    options = Options(chicos=chicos, mocho=mocho, renuncio=renuncio)  # type: ignore[arg-type]
    dealer = None if drawn else seed % (players + players % 2)
    state = envite.new_game(players=players, options=options, seed=seed, dealer=dealer)
    for event in envite.opening_events(state):
        assert event.public or event.to == frozenset({state.controller(event.data["seat"])})
    final = play_random_game(state, random.Random(choices))
    assert final.is_over and final.winner in (0, 1)
