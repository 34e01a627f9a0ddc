"""What one seat (or the whole group) may see of an envite game (DESIGN.md views)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import check_seat
from engine.envite import senas_play
from engine.envite.state import CHICO_FUERA, LADDER, EnviteState


@dataclass(frozen=True, slots=True)
class EnviteView:
    """A seat's knowledge of the game: its own cards only, everything public besides."""

    seat: int | None
    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-plain data (cards as text)."""
        return dict(self.data)


def _step(step: int) -> int | str:
    return "chico fuera" if step == CHICO_FUERA else LADDER[step]


def view(state: EnviteState, seat: int | None = None) -> EnviteView:
    """Everything ``seat`` may know (``None``: the public view for the group).

    Fields: seat (the seat viewing, None for the group), phase, round, players, k, teams,
    mandadores, mocho, dealer, mano, turn, to_act, vira,
    trick ([[seat, card]...] of the current trick), tricks (finished ones: leader, cards, winner),
    tricks_won, stake (2/4/7/9 or "chico fuera"), bet (pending {step, team} or null),
    bet_closed, bet_team (the team that made the last bet of this round, pending or accepted,
    else null), bets (this round's betting in order: [{seat, team, action}] with action
    "envido", "siete", "nueve", "chico fuera" or "quiero"; ``seat`` is who spoke), tumbo (this
    round is played at tumbo), en_tumbo, score, chicos, chicos_to_win, options, winner; with a
    seat: ``cards`` (its hand) and ``mocho_cards`` (the mocho's hand, for its mandador only, else
    null), ``senas_received`` (``[[from_seat, name]...]``: what its team signalled it this
    round) and ``senas_caught`` (the opponents' señas it caught, rules/senas.md S4).

    A seat off the table, or the mocho's (nobody sits there: its mandador sees its cards), is a
    ``ValueError``.

    >>> from engine.envite.game import new_game
    >>> v = view(new_game(players=4, seed=2), 0).to_dict()
    >>> len(v["cards"]), v["stake"], v["score"]
    (3, 2, [0, 0])
    """
    if seat is not None:
        check_seat(seat, state.players)
    if seat is not None and (not 0 <= seat < state.players or seat == state.ghost):
        raise ValueError(f"no view for seat {seat}: not a player's seat")
    n = state.players
    trick = [[(state.leader + i) % n, str(c)] for i, c in enumerate(state.trick)]
    data: dict[str, Any] = {
        "seat": seat,
        "phase": state.phase,
        "round": state.round,
        "players": n,
        "k": state.k,
        "teams": [[s for s in range(n) if s % 2 == t] for t in (0, 1)],
        "mandadores": list(state.mandadores),
        "mocho": state.ghost,
        "dealer": state.dealer,
        "mano": state.mano,
        "turn": state.turn if state.phase == "play" else None,
        "to_act": list(state.to_act),
        "vira": str(state.vira),
        "trick": trick,
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
            for t in state.tricks
        ],
        "tricks_won": list(state.tricks_won),
        "stake": _step(state.step),
        "bet": None
        if state.raised is None
        else {"step": _step(state.raised), "team": state.raised_by},
        "bet_closed": state.bet_closed,
        "bet_team": state.raised_by,
        "bets": [
            {"seat": who, "team": who % 2, "action": kind.replace("_", " ")}
            for who, kind in state.spoken
        ],
        "tumbo": state.tumbo,
        "en_tumbo": list(state.en_tumbo),
        "score": list(state.score),
        "chicos": list(state.chicos),
        "chicos_to_win": state.options.chicos,
        "options": state.options.model_dump(),
        "winner": state.winner,
    }
    if seat is not None:
        data["cards"] = [str(c) for c in state.hands[seat]]
        ghost = state.ghost
        if ghost is not None and state.mandadores[ghost % 2] == seat:
            data["mocho_cards"] = [str(c) for c in state.hands[ghost]]
        else:
            data["mocho_cards"] = None
        data.update(senas_play.view_fields(state, seat))
    return EnviteView(seat, data)
