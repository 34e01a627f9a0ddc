"""Dealing, a seat's action and the timer's moves: the engine transitions of a table.

:func:`act` is the verb of a seat's action, immutable: the table after it and its
:class:`~bot.table.Step`, what the transition produced (its events, the señas made, the seats
taken over, the hand that closed); the others change the table they are given and return its
Step. What the chat is to be shown of it beyond its messages (notices, results) is
:func:`bot.present.post`'s to say.
"""

from __future__ import annotations

import itertools
from typing import Any

from bot.flow import clock
from bot.flow.clock import PAUSE, READ_PAUSES
from bot.games import render
from bot.games.base import Features
from bot.games.seats import LogEntry
from bot.records import book
from bot.table import Step, Table
from engine.core import Action, Event, IllegalAction

TAKEOVER_AFTER = 2
"""A player's own turns timed out in a row after which the computer plays for him."""


def start(
    table: Table, seed: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
) -> Step:
    """Deal the first hand: enough players, even teams where the game wants them; in a game
    of teams the players are seated alternately, team 1 first (its first player is the
    mandador)."""
    if table.status != "lobby":
        raise IllegalAction("already_started")
    low = table.seats_range()[0]
    have = len(table.players)
    if have < low:
        raise IllegalAction("not_enough_players", have=have, need=low)
    if table.adapter.features.teams:
        first, second = table.team_members()
        check_teams(table.adapter.features, (len(first), len(second)), table.options)
        if len(second) > len(first):
            first, second = second, first
        seated = [p for pair in itertools.zip_longest(first, second) for p in pair if p]
        for i, player in enumerate(seated):
            player.team = i % 2
        table.players = seated
    if not any(p.bot_level is None for p in table.players):
        raise IllegalAction("bots.error.no_humans")
    state = table.adapter.new_game(have, table.options, seed)
    table.status = "playing"
    table.seed = seed
    # The engine deals inside new_game (no events); each seat's view feeds its DM.
    commit(table, state, now, timeout, pause)
    table.started_at = now
    book.open_hand(table)
    step = Step(senas=computers_signal(table))
    table.hand = table.adapter.hand_number(state)
    if table.adapter.features.in_discard(state):
        table.discard_round += 1
    return step


def check_teams(features: Features, sizes: tuple[int, int], options: dict[str, Any]) -> None:
    """Refuse a start of a teams game with uneven teams, unless the game's short-team option
    is on (:attr:`~bot.games.base.Features.short_team`) and one team is one player short.

    >>> from bot.games.base import ShortTeam
    >>> mocho = Features(teams=2, short_team=ShortTeam("mocho", "uneven_mocho"))
    >>> check_teams(mocho, (3, 2), {"mocho": True})
    >>> check_teams(mocho, (3, 1), {"mocho": True})
    Traceback (most recent call last):
    ...
    engine.core.IllegalAction: uneven_mocho(a=3, b=1)
    """
    a, b = sizes
    if a == b:
        return
    short = features.short_team
    if short is None or not options.get(short.option):
        raise IllegalAction("uneven_teams", a=a, b=b)
    if abs(a - b) != 1 or min(a, b) < short.least:
        raise IllegalAction(short.refusal, a=a, b=b)


def act(
    table: Table,
    seat: int,
    action: Action | str,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
) -> tuple[Table, Step]:
    """The flow's verb, immutable as the engines' ``apply``: one seat's action on ``table``
    (:func:`play`), returning the table after it and what the step produced; ``table`` itself
    is left as it was, refused or not (``IllegalAction`` carries the refusal).

    >>> from bot.table import Table
    >>> lobby = Table(chat_id=-1, creator=1)
    >>> act(lobby, 0, "paso", 0.0, 60.0)
    Traceback (most recent call last):
    ...
    engine.core.IllegalAction: not_started
    """
    # A fresh table from its stored form, not a deep copy: half the time for a whole document.
    after = Table.model_validate_json(table.model_dump_json())
    return after, play(after, seat, action, now, timeout, pause)


def play(
    table: Table,
    seat: int,
    action: Action | str,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
) -> Step:
    """One seat's action through the engine, on ``table`` itself (:func:`act` leaves it as it
    was); a person the computer played for who acts himself is back at his seat."""
    if table.status != "playing":
        raise IllegalAction("game_over" if table.status == "over" else "not_started")
    adapter = table.adapter
    state = table.engine_state()
    if isinstance(action, str):
        action = adapter.parse_action(action)
    if action.kind == "sena":
        return signal(table, seat, action, state)
    if table.paused_by:
        raise IllegalAction("phone.error.paused", name=table.paused_by)
    if table.players[seat].free:
        raise IllegalAction("not_seated")
    if seat not in adapter.to_act(state) and not adapter.features.engine_checks_turn:
        raise IllegalAction("not_your_turn")
    try:
        transition = adapter.apply(state, seat, action)
    except IllegalAction as exc:
        raise render.refusal(table, exc) from None
    table.timeouts = 0
    player = table.players[seat]
    player.misses, player.away = 0, False
    return advance(
        table, transition.state, list(transition.events), now, timeout, [(seat, action)], pause
    )


def signal(table: Table, seat: int, action: Action, state: Any) -> Step:
    """A seña (rules/senas.md), made at any moment of its window, in turn or not: the
    engine records it (its partners, and any opponent who caught it, are told privately in
    this same write: ``Step.senas``). No turn passes: the turn token, the timer and the public
    log stay as they are, so nobody's buttons go stale."""
    try:
        transition = table.adapter.apply(state, seat, action)
    except IllegalAction as exc:
        raise render.refusal(table, exc) from None
    table.state = table.adapter.to_json(transition.state)
    book.note(table, [(seat, action)], [])  # in the hand's log: the record replays it
    return Step(events=list(transition.events), senas=[list(transition.events)])


def computer_senas(
    table: Table, state: Any, seat: int, said: list[list[Event]]
) -> tuple[Any, list[tuple[int, Action]]]:
    """A computer player makes the señas it wants now (rules/senas.md): their events join
    ``said`` (its partners are told in this same write, as for a person's seña: one message
    for all). Returns the new state and the señas made, for the hand's log."""
    adapter = table.adapter
    made: list[tuple[int, Action]] = []
    events: list[Event] = []
    for sena in adapter.computer_senas(
        state, seat, clock.rng(table, seat, "senas"), clock.level(table, seat)
    ):
        transition = adapter.apply(state, seat, sena)
        state = transition.state
        made.append((seat, sena))
        events.extend(transition.events)
    if events:
        said.append(events)
    return state, made


def computers_signal(table: Table) -> list[list[Event]]:
    """Every computer seat makes its señas as soon as they may be made (S1: envite from the
    deal, Mus from the cut), not only when its turn comes: partners know before they
    play, as at a real table. Called once the move before is stored and logged; returns the
    señas' events (one list a seat)."""
    said: list[list[Event]] = []
    if table.status != "playing" or table.state is None:
        return said
    state = table.engine_state()
    made: list[tuple[int, Action]] = []
    for seat, player in enumerate(table.players):
        if player.computer and not player.free:
            state, now_made = computer_senas(table, state, seat, said)
            made.extend(now_made)
    if made:
        table.state = table.adapter.to_json(state)
        book.note(table, made, [])
    return said


def fire_timer(
    table: Table, now: float, timeout: float, pause: tuple[float, float] = PAUSE
) -> Step:
    """The timer is due: the computer players to act make their moves; when the people's
    time ran out too, the engine's default move is played for each of them, and a person
    whose own turns ran out :data:`TAKEOVER_AFTER` times in a row is played for by the
    computer from now on (until "Vuelvo"). When nobody plays himself any more the table
    waits (no timer) instead of playing on alone.

    With no move due the step is not ``played``: nothing was due (the timer moved since it was
    scheduled), or the people to act were nudged (its ``nudges``) or the clock moved on.
    """
    if table.status != "playing" or table.deadline is None or table.deadline > now:
        return Step()
    if table.paused_by:
        table.deadline = None
        return Step()
    adapter = table.adapter
    state = table.engine_state()
    events: list[Event] = []
    notes: list[LogEntry] = []
    played: list[tuple[int, Action]] = []
    said: list[list[Event]] = []
    hand = adapter.hand_number(state)
    people_due = table.turn_deadline is None or table.turn_deadline <= now
    move_at = table.move_at if table.move_at is not None else table.deadline  # older documents
    computers_due = people_due or move_at <= now
    taken: list[int] = []
    for seat in adapter.to_act(state):
        if seat not in adapter.to_act(state) or adapter.hand_number(state) != hand:
            continue
        player = table.players[seat]
        if player.computer:
            if not computers_due:
                continue
            if events and not adapter.features.in_discard(state):
                continue  # one computer move per pause, except in a simultaneous discard
            state, made = computer_senas(table, state, seat, said)
            played.extend(made)  # the hand's log has the señas before the move
            action = adapter.computer_action(
                state, seat, clock.rng(table, seat, "move"), clock.level(table, seat)
            )
        elif people_due:
            action = adapter.default_action(state, seat)
            note = LogEntry(kind="timeout", data={"seat": seat, "action": str(action)})
            notes.append(note)
            # The note goes in the log right before what the default move did (rendered as
            # one line), so the closing hand keeps it too.
            events.append(Event("timeout", dict(note.data)))
            player.misses += 1
            if player.misses >= TAKEOVER_AFTER:
                player.away = True
                taken.append(seat)
        else:
            continue
        transition = adapter.apply(state, seat, action)
        played.append((seat, action))
        state = transition.state
        events.extend(transition.events)
        if adapter.is_over(state):
            break
    if not events:
        return Step(nudges=clock.between_moves(table, now))
    if notes:
        table.timeouts += 1
    step = advance(table, state, events, now, timeout, played, pause)
    step.senas[:0] = said  # the señas made before the moves came first
    step.notes = notes
    step.taken_over = taken
    return step


def advance(
    table: Table,
    state: Any,
    events: list[Event],
    now: float,
    timeout: float,
    played: list[tuple[int, Action]],
    pause: tuple[float, float] = PAUSE,
) -> Step:
    adapter = table.adapter
    was_discard = table.state is not None and adapter.features.in_discard(table.engine_state())
    step = Step(events=events, played=True)
    log = list(table.log)
    for event in events:
        if event.kind in adapter.features.hand_starts:
            step.closed_hand_log = adapter.keep_log(log)
            step.closed_hand = table.hand
            log = []
        if event.public:
            log.append(LogEntry(kind=event.kind, data=dict(event.data)))
            log = adapter.keep_log(log)
    table.log = log
    if step.closed_hand_log is not None or not adapter.features.in_discard(state):
        table.discards = {}
    if adapter.features.in_discard(state) and not was_discard:
        table.discards = {}
        table.discard_round += 1
        step.discard_started = True
    read = step.closed_hand_log is not None  # the group reads the result first
    commit(table, state, now, timeout, pause, read=read)
    table.hand = adapter.hand_number(state)
    if adapter.is_over(state):
        table.status = "over"
        table.deadline = None
    book.note(table, played, events)
    step.senas = computers_signal(table)
    return step


def commit(
    table: Table,
    state: Any,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
    *,
    read: bool = False,
) -> None:
    """Store the new state and set the clocks (``read``: a new hand after a result, see
    :data:`READ_PAUSE`)."""
    table.state = table.adapter.to_json(state)
    table.turn += 1
    table.moved_at = now
    over = table.adapter.is_over(state)
    clock.fresh_turn(table, None if over else now, timeout, read=read)
    if read:
        pause = (pause[0] * READ_PAUSES, pause[1] * READ_PAUSES)
    clock.schedule(table, now, pause)
