"""The turn timer sweep: plays the engine's safe default for whoever let the clock run out.

Timers live in the store's sorted set (written by every table save), so any bot process can fire
them, also after a restart. A sweep claims the due tables (leased, so two processes never fire the
same one) and fires each with a CAS update that checks the table's own deadline.
"""

from __future__ import annotations

import asyncio
import logging

from telegram import Bot

from bot.handlers.common import Services, change_table, publish
from bot.table import Step, Table

log = logging.getLogger("bot.timers")


async def fire(bot: Bot, svc: Services, chat_id: int) -> bool:
    """Fire one table's timer if it is due; True when a default move was played."""
    at = svc.clock()

    def fn(table: Table | None) -> tuple[Table | None, tuple[Table, Step] | None]:
        if table is None or table.status != "playing":
            return None, None
        step = table.fire_timer(at, svc.settings.turn_timeout)
        if step is None:
            # Not due after all (a move came in): re-save so the store's timer is right again.
            return table, None
        return table, (table, step)

    fired = await change_table(svc, chat_id, fn)
    if fired is None:
        return False
    table, step = fired
    await publish(bot, svc, table, step)
    return True


async def sweep_once(bot: Bot, svc: Services) -> int:
    """Fire every due timer once; returns how many tables moved."""
    moved = 0
    for chat_id in await svc.store.claim_due(svc.clock()):
        try:
            moved += await fire(bot, svc, chat_id)
        except Exception:
            log.exception("timer of a table failed")
    return moved


async def sweep_forever(bot: Bot, svc: Services) -> None:
    """The background task started in ``post_init``: a sweep every ``timer_tick`` seconds."""
    while True:
        try:
            await sweep_once(bot, svc)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer sweep failed")
        await asyncio.sleep(svc.settings.timer_tick)
