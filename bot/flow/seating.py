"""Seats during a game: pause and resume, a seat left or handed over, and "Vuelvo"."""

from __future__ import annotations

from bot.flow import clock
from bot.flow.clock import PAUSE
from bot.games.render import esc
from bot.games.seats import Player
from bot.table import Table
from engine.core import IllegalAction


def come_back(
    table: Table, user_id: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
) -> None:
    """ "Vuelvo": a person takes his seat back from the computer (with a fresh turn timer)."""
    if table.status != "playing":
        raise IllegalAction("not_started")
    seat = table.seat_of(user_id)
    if seat is None:
        raise IllegalAction("not_seated")
    player = table.players[seat]
    if not player.away:
        raise IllegalAction("bots.error.not_away")
    # One who left his seat mid-game takes it back while nobody else took it.
    player.away, player.misses, player.free, player.reserved = False, 0, False, None
    clock.fresh_turn(table, now, timeout)
    clock.schedule(table, now, pause)


def pause(table: Table, user_id: int) -> None:
    """``/pausa``: any seated player stops the clock (no timer fires) until ``/seguir``."""
    seat = seated_playing(table, user_id)
    if table.paused_by:
        raise IllegalAction("phone.error.paused", name=table.paused_by)
    table.paused_by = table.players[seat].name
    table.move_at = table.nudge_at = table.clock_at = None
    table.deadline = None


def resume(
    table: Table, user_id: int, now: float, timeout: float, pause: tuple[float, float] = PAUSE
) -> None:
    """``/seguir``: anyone seated goes on, with a fresh turn time for the people to act."""
    seated_playing(table, user_id)
    if not table.paused_by:
        raise IllegalAction("phone.error.not_paused")
    table.paused_by = None
    clock.fresh_turn(table, now, timeout)
    clock.schedule(table, now, pause)


def free_seat(
    table: Table,
    user_id: int,
    now: float,
    pause: tuple[float, float] = PAUSE,
    reserved: str | None = None,
) -> int:
    """``/salir`` mid-game (or ``/sustituir @usuario``): the computer plays the seat until
    someone sits down ("Sentarme"; only ``reserved`` when given)."""
    seat = seated_playing(table, user_id)
    player = table.players[seat]
    player.free, player.away, player.misses = True, True, 0
    player.reserved = reserved.lower().lstrip("@") if reserved else None
    clock.schedule(table, now, pause)
    return seat


def take_seat(
    table: Table,
    seat: int,
    user_id: int,
    name: str,
    username: str | None,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
) -> Player:
    """A newcomer sits in a seat left free mid-game (or is handed one): he plays it from now
    on (his private hand is sent anew) and the one who left may no longer act. Returns the
    player who had the seat."""
    if table.status != "playing":
        raise IllegalAction("not_started")
    if table.seat_of(user_id) is not None:
        raise IllegalAction("already_seated")
    if not 0 <= seat < len(table.players) or not table.players[seat].free:
        raise IllegalAction("stale")
    old = table.players[seat]
    if old.reserved and (username or "").lower() != old.reserved:
        raise IllegalAction("phone.error.reserved", name=esc(old.reserved))
    table.players[seat] = Player(user_id=user_id, name=name[:64], team=old.team)
    table.resend_hand(seat)
    table.discards.pop(str(seat), None)
    if table.paused_by is None and table.deadline is None:
        clock.fresh_turn(table, now, timeout)
    clock.schedule(table, now, pause)
    return old


def hand_over(
    table: Table,
    user_id: int,
    to_id: int,
    to_name: str,
    now: float,
    timeout: float,
    pause: tuple[float, float] = PAUSE,
) -> int:
    """``/sustituir`` by reply: the seat of ``user_id`` goes to another person at once."""
    seat = free_seat(table, user_id, now, pause)
    take_seat(table, seat, to_id, to_name, None, now, timeout, pause)
    return seat


def seated_playing(table: Table, user_id: int) -> int:
    if table.status != "playing":
        raise IllegalAction("not_started")
    seat = table.seat_of(user_id)
    if seat is None or table.players[seat].free:
        raise IllegalAction("not_seated")
    return seat
