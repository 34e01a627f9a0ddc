"""The bets (rules/envite.md E5) and the tumbo decision (E6): who may answer, the ladder, and
what each answer does."""

from __future__ import annotations

from engine.core import Action, IllegalAction, RawEvent, transition
from engine.envite.scoring import EnviteTransition, score_round
from engine.envite.state import BET_KINDS, CHICO_FUERA, LADDER, EnviteState, replace
from engine.envite.tricks import play_cards

_BET_ACTIONS = frozenset(BET_KINDS[1:])


def _step_text(step: int) -> int | str:
    return "chico fuera" if step == CHICO_FUERA else LADDER[step]


def out_of_turn(state: EnviteState, seat: int, action: Action) -> IllegalAction:
    """Why ``seat``, not to act now, may not take ``action``."""
    answering = (state.phase == "tumbo" and action.kind in ("tumbo", "no_tumbo")) or (
        state.phase == "bet" and action.kind in ("quiero", "no_quiero", *_BET_ACTIONS)
    )
    if answering and state.to_act and state.to_act[0] % 2 == seat % 2:
        return IllegalAction("not_mandador", seat=seat, mandador=state.to_act[0])
    if state.phase == "bet" and state.raised_by == seat % 2 and action.kind in _BET_ACTIONS:
        return IllegalAction("cannot_raise_own_bet")
    return IllegalAction("not_your_turn", seat=seat)


def apply_tumbo(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    """E6: the mandador of the team at 11 plays the round (tumbo) or gives it up."""
    if action.kind in _BET_ACTIONS:
        raise IllegalAction("no_bets_en_tumbo")
    if action.kind not in ("tumbo", "no_tumbo"):
        raise IllegalAction("must_decide_tumbo")
    team = seat % 2
    play = action.kind == "tumbo"
    events: list[RawEvent] = [("tumbo_decided", {"seat": seat, "team": team, "play": play}, None)]
    if play:
        return transition(replace(state, phase="play", tumbo=True), events)
    return score_round(state, 1 - team, 1, "no_tumbo", events)


def _bet_step(state: EnviteState, action: Action, expected: int) -> None:
    """Check that a bet action names the next step of the ladder (E5)."""
    if action.kind == "envido":
        if action.amount is None or action.amount == LADDER[expected]:
            return
    elif action.kind == BET_KINDS[expected]:
        return
    raise IllegalAction("wrong_bet_step", expected=_step_text(expected))


def apply_answer(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    """E5: the mandador's answer to a bet: quiero, no quiero or the next step."""
    raised, by = state.raised, state.raised_by
    assert raised is not None and by is not None
    team = seat % 2
    events: list[RawEvent]
    if action.kind == "quiero":
        events = [("bet_accepted", {"seat": seat, "team": team, "stake": _step_text(raised)}, None)]
        new = replace(
            state,
            phase="play",
            step=raised,
            raised=None,
            bet_closed=True,
            spoken=(*state.spoken, (seat, "quiero")),
        )
        return transition(new, events)
    if action.kind == "no_quiero":
        paid = LADDER[raised - 1]
        data = {"seat": seat, "team": team, "paid": paid, "to_team": by}
        return score_round(state, by, paid, "no_quiero", [("bet_refused", data, None)])
    if action.kind in _BET_ACTIONS:
        if raised == CHICO_FUERA:
            raise IllegalAction("no_higher_bet")
        _bet_step(state, action, raised + 1)
        events = [_bet_event(state, seat, raised + 1)]
        spoken = (*state.spoken, (seat, BET_KINDS[raised + 1]))
        new = replace(state, raised=raised + 1, raised_by=team, spoken=spoken)
        return transition(new, events)
    if action.kind == "tiro":
        raise IllegalAction("must_answer_bet")
    raise IllegalAction("wrong_phase", phase=state.phase)


def _bet_event(state: EnviteState, seat: int, step: int) -> RawEvent:
    data = {
        "seat": seat,
        "team": seat % 2,
        "action": BET_KINDS[step].replace("_", " "),
        "step": _step_text(step),
        "for_seat": state.turn if state.phase == "play" else seat,
    }
    return ("bet", data, None)


def apply_play(state: EnviteState, seat: int, action: Action) -> EnviteTransition:
    """The player to act bets (E5) or plays his card."""
    if action.kind in _BET_ACTIONS:
        if any(state.en_tumbo):
            raise IllegalAction("no_bets_en_tumbo")
        if state.bet_closed:
            raise IllegalAction("bet_already_settled")
        _bet_step(state, action, 1)
        new = replace(
            state,
            phase="bet",
            raised=1,
            raised_by=state.turn % 2,
            spoken=(*state.spoken, (seat, BET_KINDS[1])),
        )
        return transition(new, [_bet_event(state, seat, 1)])
    if action.kind in ("quiero", "no_quiero"):
        raise IllegalAction("no_bet_to_answer")
    if action.kind != "tiro":
        raise IllegalAction("wrong_phase", phase=state.phase)
    return play_cards(state, seat, action)
