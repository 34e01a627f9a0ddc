"""``/ayuda``, ``/reglas`` and ``/idioma``: help, rules and the group's language."""

from __future__ import annotations

from telegram import Update

from bot.handlers.common import (
    Context,
    change_table,
    chat_lang,
    read_table,
    reply,
    services,
    set_chat_lang,
)
from bot.table import Table
from locales import LANGUAGES, catalog, t


async def ayuda(update: Update, context: Context) -> None:
    """``/ayuda``: the commands, in the chat's language (the game at the table's own help
    when it has one: ``<game>.help``)."""
    chat = update.effective_chat
    if chat is not None:
        await reply(update, await _game_text(context, chat.id, "help"))


async def reglas(update: Update, context: Context) -> None:
    """``/reglas``: a short summary of the rules (of the game at the table: ``<game>.rules``
    when it has its own, else mus)."""
    chat = update.effective_chat
    if chat is not None:
        await reply(update, await _game_text(context, chat.id, "rules"))


async def _game_text(context: Context, chat_id: int, what: str) -> str:
    svc = services(context)
    table = await read_table(svc, chat_id)
    lang = table.lang if table is not None and table.active else await chat_lang(svc, chat_id)
    if table is not None and table.active and f"{table.game}.{what}" in catalog(lang):
        return t(lang, f"{table.game}.{what}")
    return t(lang, f"msg.{what}")


async def idioma(update: Update, context: Context) -> None:
    """``/idioma es|en``: the language of this chat (and of its table, if any)."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    lang = await chat_lang(svc, chat.id)
    words = [w.lower() for w in context.args or []]
    if len(words) != 1 or words[0] not in LANGUAGES:
        await reply(update, t(lang, "error.bad_language"))
        return
    new = words[0]
    await set_chat_lang(svc, chat.id, new)

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or not table.active or table.lang == new:
            return None, None
        table.lang = new
        return table, None

    await change_table(svc, chat.id, fn, update=update)
    await reply(update, t(new, "msg.language_set"))
