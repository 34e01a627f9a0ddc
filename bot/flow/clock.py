"""The turn clock: deadlines, the computer players' pauses, the nudge and the time shown.

One timer per table fires at the first of: a computer's move (the end of its pause), the nudge
of the people to act, the next minute the table message shows, the people's deadline.
"""

from __future__ import annotations

import random

from bot.games.timing import next_change, quarters
from bot.table import Table

PAUSE = (1.5, 3.0)
"""Seconds a computer player "thinks" before its move (least, most); settings may shorten it."""
READ_PAUSE = 8.0
"""Seconds added to the first turn of a new hand, so people read the last hand's result before
the clock runs (the first player may act at once: nobody has to press "Seguimos")."""
READ_PAUSES = 3
"""A computer player opening a new hand waits this many of its pauses (people are reading)."""
NUDGE_AFTER = 20.0
"""Seconds after a turn starts at which the people still to act are nudged in private (at most
a third of the turn time)."""
NUDGE_RETRY = 1.0
"""Seconds a nudge waits when the table message it links to is not posted yet."""


def fresh_turn(table: Table, now: float | None, timeout: float, *, read: bool = False) -> None:
    """A new turn time from ``now`` (``None``: no turn): deadline, nudge, clock; ``read``:
    a new hand's first turn, with :data:`READ_PAUSE` more to read the last result."""
    seconds = table.turn_time or timeout
    table.turn_seconds = round(seconds)
    if now is None:
        table.turn_deadline = table.nudge_at = None
        return
    table.turn_deadline = now + seconds + (READ_PAUSE if read else 0.0)
    table.nudge_at = now + min(table.nudge_after, seconds / 3) if table.nudge_after else None
    tick_clock(table, now)


def tick_clock(table: Table, now: float) -> None:
    """The time the table message shows now (:func:`bot.games.timing.quarters`: the turn
    time at most, so a first turn's reading pause shows no more than the header says), and
    when it changes next."""
    if table.turn_deadline is None:
        table.clock_quarters, table.clock_at = 0, None
        return
    left = round(table.turn_deadline - now, 3)
    shown = quarters(min(left, table.turn_seconds or left))
    table.clock_quarters = shown
    table.clock_at = next_change(table.turn_deadline, shown)


def schedule(table: Table, now: float, pause: tuple[float, float]) -> None:
    """Set the computer player's pause when one is to act, then the timer; no timer when
    the game is over, the table is paused or nobody plays himself (the table waits)."""
    state = table.engine_state()
    table.move_at = None
    if table.adapter.is_over(state) or not table.humans_present() or table.paused_by:
        table.deadline = None
        return
    acting = table.adapter.to_act(state)
    if any(table.players[seat].computer for seat in acting):
        low, high = pause
        table.move_at = now + rng(table, -1, "pause").uniform(low, high)
    set_deadline(table)


def set_deadline(table: Table) -> None:
    """The timer fires at the first of: a computer's move, the nudge, the clock's next
    minute, the people's deadline."""
    if table.paused_by or not table.humans_present():
        table.deadline = None
        return
    due = [
        at
        for at in (table.move_at, table.nudge_at, table.clock_at, table.turn_deadline)
        if at is not None
    ]
    table.deadline = min(due) if due else None


def between_moves(table: Table, now: float) -> list[tuple[int, int]]:
    """The timer fired with no move due: the people to act are nudged (once a turn; their user
    ids and the seconds left, for :func:`bot.present.post` to queue) and the clock the table
    message shows moves on to its next minute."""
    nudges: list[tuple[int, int]] = []
    if table.nudge_at is not None and table.nudge_at <= now and not table.table_posted():
        table.nudge_at = now + NUDGE_RETRY  # the table message is being posted: link it
    if table.nudge_at is not None and table.nudge_at <= now:
        table.nudge_at = None
        left = max(0, round((table.turn_deadline or now) - now))
        for seat in table.to_act():
            player = table.players[seat]
            if not player.computer:
                nudges.append((player.user_id, left))
    if table.clock_at is not None and table.clock_at <= now:
        tick_clock(table, now)
    set_deadline(table)
    return nudges


def rng(table: Table, seat: int, purpose: str) -> random.Random:
    """A reproducible generator for this turn (from the stored seed and the turn)."""
    return random.Random(f"{table.tid}:{table.seed}:{table.turn}:{seat}:{purpose}")


def level(table: Table, seat: int) -> str:
    return table.players[seat].bot_level or table.level
