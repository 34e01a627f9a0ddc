"""The table's bookkeeping of records (pure): called where a transition ends a hand or the game.

A finished hand becomes a :class:`~bot.records.model.Pending` hand record (start state +
actions) and adds the game's own counters (``Game.record_hand``) to the document's tally; the
end of the game adds the :class:`~bot.records.model.GameRecord`. At most
:data:`MAX_PENDING_HANDS` hand record waits in the document: the publisher stores it first
thing after the write that ended the hand (a crashed publisher is replaced by another process's
sweep within seconds), long before another hand can end; if it could not, the older hand would
be dropped (never the game). So the document grows by about one engine state and the current
hand's actions (≈1 KB for Mus), far under its 8 KB aim.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from bot.games.base import Game, TableView
from bot.records.model import GameRecord, HandLog, Pending, RecordedPlayer, add_tally
from engine.core import Action, Event

log_ = logging.getLogger("bot.records")

MAX_PENDING_HANDS = 1
GROUP = "*"
"""The tally's entry for the whole table (hands played)."""


class Booked(TableView, Protocol):
    """A table as its bookkeeping sees it: what a game reads, and the records it keeps."""

    rec_hand: HandLog | None
    rec_tally: dict[str, dict[str, int]]
    rec_out: list[Pending]

    @property
    def moved_at(self) -> float: ...
    @property
    def started_at(self) -> float: ...


def open_hand(table: Booked) -> None:
    """A hand was dealt: its log starts from the stored engine state."""
    table.rec_hand = HandLog.of(table.state) if table.state is not None else None


def replay(game: Game, log: HandLog) -> tuple[Any, list[Event]]:
    """Replay a hand from its log: the state after its last action and the hand's events (the
    next hand's deal, dealt in the same transition, is cut off)."""
    state = game.from_json(log.state_json())
    events: list[Event] = []
    for seat, text in log.actions:
        transition = game.apply(state, seat, game.parse_action(text))
        state = transition.state
        events.extend(transition.events)
    for i, event in enumerate(events):
        if event.kind in game.features.hand_starts:
            return state, events[:i]
    return state, events


def note(table: Booked, actions: Sequence[tuple[int, Action]], events: Sequence[Event]) -> None:
    """After a transition was committed: log its actions; if it ended the hand (or the game),
    queue the hand's record, add its counters, and open the next hand's log (or queue the
    game's record). Tables started before records existed have no log and keep none."""
    log = table.rec_hand
    if log is None:
        return
    log.actions.extend((seat, str(action)) for seat, action in actions)
    game = table.adapter
    over = table.status == "over"
    if not over and not any(e.kind in game.features.hand_starts for e in events):
        return
    start = game.from_json(log.state_json())
    try:
        end, hand_events = replay(game, log)
        faithful = game.to_json(end) == table.state
    except Exception:
        faithful = False
    if faithful:
        add_tally(table.rec_tally, game.record_hand(start, hand_events))
        add_tally(table.rec_tally, {GROUP: {"hands": 1}})
        hand = Pending(hand=game.hand_number(start), doc=log.model_dump(mode="json"))
        hands = [p for p in table.rec_out if p.hand > 0] + [hand]
        games = [p for p in table.rec_out if p.hand == 0]
        table.rec_out = hands[-MAX_PENDING_HANDS:] + games
    else:  # never expected: a log that does not replay to the table's state is not kept
        log_.warning("table %s: hand log does not replay; hand not recorded", table.chat_id)
    if over:
        table.rec_hand = None
        record = game_record(table)
        table.rec_tally = {}  # now in the game's record
        table.rec_out = [*table.rec_out, Pending(hand=0, doc=record.model_dump(mode="json"))]
    else:
        open_hand(table)


def game_record(table: Booked) -> GameRecord:
    """The finished game as it is kept (players, places, times, counters)."""
    game = table.adapter
    places = game.game_places(table.engine_state(), len(table.players))
    players = [
        RecordedPlayer(
            id=p.user_id,
            name=p.name,
            seat=seat,
            team=seat % 2 if game.features.teams else None,
            computer=bool(getattr(p, "computer", False)),
        )
        for seat, p in enumerate(table.players)
    ]
    tally = {k: v for k, v in table.rec_tally.items() if k != GROUP}
    return GameRecord(
        id=table.tid,
        chat=table.chat_id,
        game=table.game,
        options=dict(table.options),
        lang=table.lang,
        players=players,
        places=places,
        started=table.started_at,
        ended=table.moved_at,
        hands=table.rec_tally.get(GROUP, {}).get("hands", 0),
        tally=tally,
    )
