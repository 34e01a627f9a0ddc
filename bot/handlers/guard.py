"""Who may act: refusals made before any handler runs (identities shared by many people).

Telegram delivers a post "as a channel" (or as the group itself, by an anonymous admin) with
``sender_chat`` set and a placeholder user: GroupAnonymousBot (1087968824), Channel_Bot
(136817688) or Telegram (777000, a linked channel's automatic forward). Everyone posting that way
shares that one id, so such an identity may not take a seat, open a table or act for one: it
gets one clear reply. Help and rules still answer. Buttons and inline queries always carry the
real user who pressed or typed, so only messages are checked.

A button's data names the table's chat, and data can be forged: a press counts only where that
table's buttons can be, the group's own messages (and, for a player's hand buttons, his private
chat with the bot); a press on a message posted through inline mode, whose chat Telegram does not
say, counts for a member of that group. Any other press is refused before a handler reads it.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot import keyboards
from bot.handlers.common import (
    Context,
    alert,
    chat_lang,
    first_delivery,
    is_member,
    reply,
    services,
)
from locales import language_of, t

#: Placeholder user ids of posts made as a chat rather than as a person.
SHARED_SENDERS = frozenset({1087968824, 136817688, 777000})

#: Commands such identities may still use (they answer and change nothing).
OPEN_COMMANDS = frozenset({"ayuda", "help", "reglas", "rules", "start"})


def shared_identity(update: Update) -> bool:
    """True when the message was posted as a chat (channel, anonymous admin), not a person."""
    message = update.effective_message
    if message is not None and message.sender_chat is not None:
        return True
    user = update.effective_user
    return user is not None and user.id in SHARED_SENDERS


def command_of(update: Update) -> str:
    """``/Envido@TapeteBot 5`` → ``envido``."""
    message = update.effective_message
    text = (message.text or "") if message is not None else ""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    return first.lstrip("/").split("@", 1)[0].lower()


async def refuse_shared_identity(update: Update, context: Context) -> None:
    """Runs before every command: a shared identity is answered once and goes no further."""
    if not shared_identity(update) or command_of(update) in OPEN_COMMANDS:
        return
    svc = services(context)
    chat = update.effective_chat
    if chat is not None and await first_delivery(svc, update):
        await reply(update, t(await chat_lang(svc, chat.id), "security.shared_identity"))
    raise ApplicationHandlerStop


#: Callback data that names a table's chat (every kind but ``n``, the game chooser).
TABLE_BUTTONS = r"^[ahjlgxebfvtcpsko]:"

#: Button kinds a player's private hand message carries (keyboards' table): the discard, señas,
#: the game's own hand buttons and "Mis cartas".
PRIVATE_KINDS = frozenset({"t", "c", "s", "a", "h"})


async def pressed_where_it_belongs(update: Update, context: Context) -> bool:
    """Whether a button press names the table of the chat it was pressed in (see above)."""
    query, user = update.callback_query, update.effective_user
    cb = None if query is None or query.data is None else keyboards.parse_callback(query.data)
    if query is None or user is None or cb is None:
        return True  # nothing names a table: the handlers answer it
    message = query.message
    if message is None:  # on a message posted via inline mode: its chat is not known
        return await is_member(context.bot, cb.chat_id, user.id)
    where = message.chat.id
    return where == cb.chat_id or (where == user.id and cb.kind in PRIVATE_KINDS)


async def refuse_forged_press(update: Update, context: Context) -> None:
    """Runs before every button: a press naming another chat's table changes nothing."""
    if await pressed_where_it_belongs(update, context):
        return
    svc = services(context)
    query, user = update.callback_query, update.effective_user
    message = query.message if query is not None else None
    if message is not None and message.chat.id != (user.id if user else 0):
        lang = await chat_lang(svc, message.chat.id)
    else:
        lang = language_of(user.language_code if user else None)
    await alert(update, t(lang, "security.forged_press"))
    raise ApplicationHandlerStop
