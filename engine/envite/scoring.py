"""How a round scores (rules/envite.md E4-E6): the stake, tumbo, chicos and the game, then the
next deal."""

from __future__ import annotations

from engine.core import RawEvent, Transition, transition
from engine.envite.deal import deal, open_round, opening_raw
from engine.envite.state import (
    CHICO_FUERA,
    RENUNCIO_EXTRA,
    TUMBO_AT,
    TUMBO_LOSS,
    EnviteState,
    replace,
)

EnviteTransition = Transition[EnviteState]


def round_won(state: EnviteState, team: int, why: str, events: list[RawEvent]) -> EnviteTransition:
    """``team`` won the round: by its tricks (``why="tricks"``), or by a renuncio call, true
    (``"renuncio"``) or false (``"false_renuncio"``), which adds 2 to the stake (E4, E5, E6)."""
    foul = why != "tricks"
    extra = RENUNCIO_EXTRA if foul else 0
    if state.step == CHICO_FUERA:
        return _win_chico(state, team, why if foul else "chico_fuera", events)
    if state.tumbo:
        at = state.en_tumbo
        if at[0] and at[1]:
            return _win_chico(state, team, why if foul else "both_at_11", events)
        if at[team]:
            return _win_chico(state, team, why if foul else "tumbo", events)
        return score_round(state, team, TUMBO_LOSS + extra, why if foul else "tumbo", events)
    return score_round(state, team, state.stake + extra, why, events)


def score_round(
    state: EnviteState, team: int, points: int, why: str, events: list[RawEvent]
) -> EnviteTransition:
    """``team`` scores ``points`` capped at 11 (E6); then the next deal."""
    score = list(state.score)
    gained = min(TUMBO_AT, score[team] + points) - score[team]
    score[team] += gained
    data = {"round": state.round, "team": team, "points": gained, "why": why, "score": score}
    events.append(("round_scored", data, None))
    return _next_round(state, events, score=(score[0], score[1]))


def _win_chico(state: EnviteState, team: int, why: str, events: list[RawEvent]) -> EnviteTransition:
    chicos = list(state.chicos)
    chicos[team] += 1
    events.append(("chico_won", {"team": team, "chicos": chicos, "why": why}, None))
    if chicos[team] >= state.options.chicos:
        events.append(("game_won", {"team": team, "chicos": chicos}, None))
        over = replace(
            state,
            score=(0, 0),
            chicos=(chicos[0], chicos[1]),
            phase="over",
            winner=team,
            raised=None,
            turn=state.turn,
        )
        return transition(over, events)
    return _next_round(state, events, score=(0, 0), chicos=(chicos[0], chicos[1]))


def _next_round(state: EnviteState, events: list[RawEvent], **changes: object) -> EnviteTransition:
    """E1/E2: the deal moves one seat to the right; shuffle from the seed and the round number.

    ``changes`` (the new score or chicos) go into the same copy of the state. The new deal's
    events (one per seat) are described only if someone reads them."""
    number = state.round + 1
    dealer = (state.dealer + 1) % state.players
    hands, vira = deal(state.seed, number, dealer, state.players)
    new = open_round(state, **changes, round=number, dealer=dealer, hands=hands, vira=vira)
    return transition(new, lambda: [*events, *opening_raw(new)])
