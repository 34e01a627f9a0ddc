"""Who may act: refusals made before any handler runs (identities shared by many people).

Telegram delivers a post "as a channel" (or as the group itself, by an anonymous admin) with
``sender_chat`` set and a placeholder user: GroupAnonymousBot (1087968824), Channel_Bot
(136817688) or Telegram (777000, a linked channel's automatic forward). Everyone posting that way
shares that one id, so such an identity may not take a seat, open a table or act for one: it
gets one clear reply. Help and rules still answer. Buttons and inline queries always carry the
real user who pressed or typed, so only messages are checked.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.handlers.common import Context, chat_lang, first_delivery, reply, services
from locales import t

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
