"""A group upgraded to a supergroup: its table moves to the new chat id and play goes on.

Telegram announces the upgrade with two service messages, one in the old chat
(``migrate_to_chat_id``) and one in the new supergroup (``migrate_from_chat_id``); either one
moves the table (the second finds nothing left to move). The move is one atomic store step
(:meth:`~bot.store.Store.move_table`): the document, its turn timer, its publication entry,
the chat's language and the players' links to their table. Messages of the old group are not
reachable in the supergroup, so the lobby or table message is posted there anew by the
publisher; private hands are edited in place (their buttons now name the new chat).
"""

from __future__ import annotations

import logging

from telegram import Update

from bot.handlers.common import Context, publisher_of, services
from bot.miniapp.auth import startapp_link
from bot.services import Services
from bot.store import ChatTaken
from bot.tables import load_doc

log = logging.getLogger("bot.migrate")

RETRIES = 10


async def migrated(update: Update, context: Context) -> None:
    """The service message of a group → supergroup upgrade (in either chat)."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    svc = services(context)
    if await move_table(svc, old, new):
        log.info("table of chat %s moved to %s (supergroup)", old, new)
        await publisher_of(context).publish(new)


async def move_table(svc: Services, old: int, new: int) -> bool:
    """Move the table of ``old`` to ``new``; False when there is none (moved already)."""
    for _ in range(RETRIES):
        loaded = await svc.store.load(old)
        table = load_doc(loaded)
        if loaded is None or table is None:
            return False
        table.move_to(new)
        if table.app_link:  # the Mini App's link names the chat: the new one now
            table.app_link = startapp_link(svc.settings.telegram_bot_token, table.bot_name, new)
        try:
            version = await svc.store.move_table(
                old,
                new,
                loaded.version,
                table.model_dump_json(exclude_defaults=True),
                ttl=svc.settings.table_ttl,
                users=tuple(p.user_id for p in table.players),
            )
        except ChatTaken:
            log.warning("chat %s became %s, which has a table already: left as it is", old, new)
            return False
        if version is not None:
            return True
    log.warning("table of chat %s: moving it to %s kept conflicting", old, new)
    return False
