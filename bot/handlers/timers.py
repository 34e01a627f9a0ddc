"""The turn timer sweep: plays the engine's safe default for whoever let the clock run out.

Timers live in the store's sorted set (written by every table save), so any bot process can fire
them, also after a restart. A sweep claims the due tables (leased, so two processes never fire the
same one) and fires each with a CAS update that checks the table's own deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

from telegram.constants import ChatAction
from telegram.error import Forbidden, TelegramError

from bot import present
from bot.botapi import never_started
from bot.flow import moves
from bot.handlers import mine
from bot.handlers.common import change_table
from bot.ops import LOG_CHAT
from bot.publisher import Publisher
from bot.table import Step, Table

log = logging.getLogger("bot.timers")


async def fire(pub: Publisher, chat_id: int) -> bool:
    """Fire one table's timer if it is due; True when a move was played. With no move due
    the timer may still have nudged the people to act or moved the clock on: the table is
    saved and published all the same."""
    svc = pub.svc
    at = svc.clock()
    gone = False

    def fn(
        table: Table | None,
    ) -> tuple[Table | None, tuple[Table, Step, bool] | None]:
        nonlocal gone
        gone = table is None
        if table is None or table.status != "playing":
            return None, None
        discarding = _discarding(table)
        # No move due (a move came in, or a nudge or the clock): re-save all the same, so the
        # store's timer is right again and the nudges are posted.
        step = moves.fire_timer(table, at, svc.settings.turn_timeout, svc.settings.pause)
        present.post(table, step)
        return table, (table, step, _discarding(table) != discarding)

    fired = await change_table(svc, chat_id, fn, publish=True)
    if gone:  # the table expired: its timer goes too
        await svc.store.drop_timer(chat_id)
    if fired is None:
        return False
    table, step, discard_changed = fired
    await pub.publish(table.chat_id)
    if not step.played:  # a nudge or the clock's minute
        return False
    # A computer's move or a timeout: the ephemeral hands it changed (a computer's discard
    # that ended the discard brings the new cards).
    await mine.after_move(pub.bot, svc, table, step, presser=0, everyone=discard_changed)
    await check_reachable(pub, table, step)
    return True


def _discarding(table: Table) -> bool:
    return table.status == "playing" and table.adapter.features.in_discard(table.engine_state())


async def check_reachable(pub: Publisher, table: Table, step: Step) -> None:
    """A player the timer played for may have blocked the bot (the group would only see
    timeouts): ask Telegram with a "typing..." (nothing lasting), and if it refuses, tell the
    group once (:func:`bot.present.unreachable`, in a compare-and-set write)."""
    seats = {int(note.data.get("seat", -1)) for note in step.notes if note.kind == "timeout"}
    users = {
        table.players[seat].user_id
        for seat in seats
        if 0 <= seat < len(table.players)
        and table.players[seat].user_id not in table.shown.unreachable
    }
    blocked = set()
    for user_id in users:
        try:
            await pub.bot.send_chat_action(user_id, ChatAction.TYPING)
        except Forbidden as exc:
            if not never_started(exc.message):  # he plays from the group: he blocked nothing
                blocked.add(user_id)
        except TelegramError:
            continue
    if not blocked:
        return
    tid = table.tid

    def fn(current: Table | None) -> tuple[Table | None, None]:
        if current is None or current.tid != tid:
            return None, None
        before = list(current.shown.unreachable)
        present.unreachable(current, blocked)
        return (current if current.shown.unreachable != before else None), None

    await change_table(pub.svc, table.chat_id, fn)
    await pub.publish(table.chat_id)


async def _fire(pub: Publisher, chat_id: int) -> bool:
    LOG_CHAT.set(chat_id)  # a task of its own (gather): the logs of this firing name the chat
    try:
        return await fire(pub, chat_id)
    except Exception:
        log.exception("timer of a table failed")
        return False


async def sweep_once(pub: Publisher) -> int:
    """Fire the due timers (a batch of them, at once; other processes take the rest) and
    publish the tables whose publication is due; returns how many tables moved."""
    svc = pub.svc
    try:
        sweep = await svc.store.claim_sweep(
            svc.clock(),
            limit=svc.settings.sweep_batch,
            process=svc.process,
            alive_for=max(5.0, 3 * svc.settings.timer_tick),
        )
    except Exception:
        # The store may be back with older tables (a restart, a replica promoted): the first
        # sweep that reaches it again looks at every table this process saw.
        svc.store.look_all_soon()
        raise
    svc.processes = sweep.processes
    # Tables found behind what this process showed (a rollback) are shown again as they are;
    # now and then it looks for those that nothing touched since, and at once at all it saw
    # after an outage or a failover (a failed look delays none of the timers just claimed:
    # the next one looks again).
    try:
        await svc.store.look_behind()
    except Exception as exc:
        svc.store.look_all_soon()
        log.info("looking for tables behind failed: %s", type(exc).__name__)
    behind = [chat for chat in svc.store.behind() if chat not in sweep.publications]
    if not sweep.timers and not sweep.publications and not behind:
        return 0
    svc.sweeping += 1
    try:
        moved = await asyncio.gather(*(_fire(pub, chat) for chat in sweep.timers))
        await pub.publish_claimed([*sweep.publications, *behind])
    finally:
        svc.sweeping -= 1
    return sum(moved)


async def sweep_forever(pub: Publisher, stop: asyncio.Event | None = None) -> None:
    """The background task started in ``post_init``: a sweep every ``timer_tick`` seconds
    (with a little jitter, so that processes started together take turns), until ``stop`` is
    set (a sweep in progress is finished first)."""
    rng = random.Random()
    warned = False
    stop = stop or asyncio.Event()
    while not stop.is_set():
        try:
            await sweep_once(pub)
            warned = False
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not warned:  # one line per outage, not one per tick
                log.warning("timer sweep failed: %s", type(exc).__name__)
                warned = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), pub.svc.settings.timer_tick * rng.uniform(0.8, 1.2))
