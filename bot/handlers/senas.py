"""The seña buttons of a player's private hand message (``s:<chat>:<tid>:<hand>:<name>``).

A seña is refused privately (an alert) when the hand or round it was offered in is over, when
it was sent already (a second press) or the table moved on; a sent one is confirmed with a short
private alert and delivered by the publisher as private notices (:mod:`bot.games.senas`).
"""

from __future__ import annotations

from telegram import Update

from bot import keyboards, present
from bot.flow import moves
from bot.games import senas as signs
from bot.games.render import error_text
from bot.handlers import mine
from bot.handlers.common import (
    Context,
    alert,
    answer,
    change_table,
    publisher_of,
    services,
)
from bot.handlers.common import now as clock
from bot.services import Services
from bot.table import Step, Table
from engine.core import IllegalAction
from engine.senas_play import sena


async def send(
    svc: Services,
    chat_id: int,
    tid: str,
    hand: int,
    user_id: int,
    name: str,
    *,
    update: Update | None = None,
    steps: list[Step] | None = None,
) -> Table:
    """Send seña ``name`` for the user's seat at the table, offered in ``hand`` (its step
    appended to ``steps``); raises ``IllegalAction`` (nothing written) when the hand is over,
    it was sent already..."""
    at = clock(svc)

    def fn(table: Table | None) -> tuple[Table | None, tuple[Table, Step]]:
        if table is None or table.tid != tid or table.status != "playing":
            raise IllegalAction("sena_closed")
        seat = table.seat_of(user_id)
        if seat is None:
            raise IllegalAction("not_seated")
        if table.hand != hand:
            raise IllegalAction("sena_closed")
        table, step = moves.act(table, seat, sena(name), at, svc.settings.turn_timeout)
        present.post(table, step)
        return table, (table, step)

    table, step = await change_table(svc, chat_id, fn, update=update, publish=True)
    if steps is not None:
        steps.append(step)
    return table


async def sena_button(update: Update, context: Context) -> None:
    """Send the pressed seña for the presser's seat (once; only inside its window)."""
    query, user = update.callback_query, update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    svc = services(context)
    if cb is None or cb.kind != "s" or not cb.args or cb.token is None:
        await alert(update, error_text(svc.settings.language, IllegalAction("stale")))
        return
    name = cb.args[0]
    steps: list[Step] = []
    try:
        table = await send(
            svc, cb.chat_id, cb.tid, cb.token, user.id, name, update=update, steps=steps
        )
    except IllegalAction as exc:
        await mine.refuse(update, context.bot, svc, cb.chat_id, exc)
        await publisher_of(context).publish(cb.chat_id)  # his hand message loses stale buttons
        return
    seat = table.seat_of(user.id)
    sent = signs.sent_text(table, name)
    # Pressed on his ephemeral hand: said there, above his hand without that seña.
    if (
        mine.pressed_in(update, cb.chat_id)
        and seat is not None
        and await mine.show_hand(update, context.bot, svc, table, seat, note=sent)
    ):
        sent = ""
    await (answer(update) if not sent else alert(update, sent))
    await publisher_of(context).publish(cb.chat_id)
    for step in steps:  # his partner's ephemeral hand says it too (a partner in the group)
        await mine.after_move(context.bot, svc, table, step, user.id)
