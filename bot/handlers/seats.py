"""A game that outlives a phone: ``/pausa`` and ``/seguir``, handing a seat over mid-game
(``/sustituir``, "Sentarme" on a seat left free) and "Otra partida" at the end.

Every change is one compare-and-set write of the table, with its notices queued in the same
write (by :mod:`bot.present`); the publisher posts them.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import MessageEntity, Update, User

from bot import keyboards, present
from bot.flow import seating
from bot.games.render import error_text
from bot.handlers.common import (
    Context,
    alert,
    answer,
    change_table,
    chat_lang,
    display_name,
    new_tid,
    now,
    publisher_of,
    reply,
    services,
)
from bot.table import Table
from engine.core import IllegalAction
from locales import t

Change = Callable[[Table | None], tuple[Table | None, None]]


async def _write(
    update: Update, context: Context, chat_id: int, fn: Change, users: tuple[int, ...] = ()
) -> bool:
    """One CAS write of the table, a refusal answered (an alert for a button); then publish."""
    svc = services(context)
    try:
        await change_table(svc, chat_id, fn, update=update, users=users, publish=True)
    except IllegalAction as exc:
        text = error_text(await chat_lang(svc, chat_id), exc)
        if update.callback_query is not None:
            await alert(update, text)
        else:
            await reply(update, text, svc=svc)
        return False
    await answer(update)
    await publisher_of(context).publish(chat_id)
    return True


async def pausa(update: Update, context: Context) -> None:
    """``/pausa`` (``/pause``): any seated player stops every timer until ``/seguir``."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or not table.active:
            raise IllegalAction("no_table")
        seating.pause(table, user.id)
        present.paused(table)
        return table, None

    await _write(update, context, chat.id, fn)


async def seguir(update: Update, context: Context) -> None:
    """``/seguir`` (``/resume``): anyone seated goes on, with a fresh turn time."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    at, name = now(svc), display_name(update)

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or not table.active:
            raise IllegalAction("no_table")
        seating.resume(table, user.id, at, svc.settings.turn_timeout, svc.settings.pause)
        present.resumed(table, name)
        return table, None

    await _write(update, context, chat.id, fn)


def substitute_named(update: Update) -> tuple[User | None, str | None]:
    """Who ``/sustituir`` names: the author of the message replied to, a mention of a user
    without a username (Telegram gives his id), else a ``@username`` (id unknown)."""
    message = update.effective_message
    if message is None:
        return None, None
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        return replied.from_user, None
    for entity, text in message.parse_entities(
        [MessageEntity.TEXT_MENTION, MessageEntity.MENTION]
    ).items():
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return entity.user, None
        if entity.type == MessageEntity.MENTION:
            return None, text.lstrip("@")
    words = (message.text or "").split()[1:]
    named = next((w for w in words if w.startswith("@") and len(w) > 1), None)
    return None, named[1:64] if named else None


async def sustituir(update: Update, context: Context) -> None:
    """``/sustituir`` (``/substitute``) by reply to the newcomer's message (he sits at once and
    gets the hand in private) or ``/sustituir @usuario`` (the seat waits for him: "Sentarme")."""
    svc = services(context)
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    newcomer, username = substitute_named(update)
    if newcomer is None and username is None:
        await reply(update, t(await chat_lang(svc, chat.id), "phone.sub_usage"), svc=svc)
        return
    at, name = now(svc), display_name(update)
    settings = svc.settings

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.status != "playing":
            raise IllegalAction("not_started" if table is not None else "no_table")
        if newcomer is not None:
            seat = seating.hand_over(
                table,
                user.id,
                newcomer.id,
                newcomer.full_name,
                at,
                settings.turn_timeout,
                settings.pause,
            )
            present.seat_handed(table, seat, name)
        else:
            seating.free_seat(table, user.id, at, settings.pause, reserved=username)
            present.seat_left(table, name, reserved=username or "")
        return table, None

    users = (newcomer.id,) if newcomer is not None else ()
    await _write(update, context, chat.id, fn, users=users)


async def sit_button(update: Update, context: Context) -> None:
    """ "Sentarme" on a seat left free mid-game (``k:<chat>:<tid>:<seat>``)."""
    query, user = update.callback_query, update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None or cb.token is None:
        await answer(update)
        return
    svc = services(context)
    at, name, seat = now(svc), display_name(update), cb.token

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.tid != cb.tid:
            raise IllegalAction("stale")
        old = seating.take_seat(
            table,
            seat,
            user.id,
            name,
            user.username,
            at,
            svc.settings.turn_timeout,
            svc.settings.pause,
        )
        present.seat_handed(table, seat, old.name)
        return table, None

    await _write(update, context, cb.chat_id, fn, users=(user.id,))


async def again_button(update: Update, context: Context) -> None:
    """ "Otra partida" (``o:<chat>:<tid>``): a new lobby with the same players and options."""
    query, user = update.callback_query, update.effective_user
    if query is None or query.data is None or user is None:
        return
    cb = keyboards.parse_callback(query.data)
    if cb is None:
        await answer(update)
        return
    tid = new_tid()

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.tid != cb.tid:
            raise IllegalAction("stale")
        return table.next_table(user.id, tid), None

    await _write(update, context, cb.chat_id, fn)
