"""``/ayuda``, ``/reglas`` and ``/idioma``: help, rules and the group's language."""

from __future__ import annotations

from telegram import Update

from bot.games.base import Game
from bot.games.registry import find_game
from bot.games.render import esc
from bot.handlers.common import (
    Context,
    change_table,
    chat_lang,
    first_look,
    publisher_of,
    reply,
    services,
    set_chat_lang,
)
from bot.services import Services
from bot.table import Table
from locales import LANGUAGES, language_of, t


async def _first_look(svc: Services, update: Update, chat_id: int) -> tuple[bool, str, Game | None]:
    """Whether the update is handled for the first time, the chat's language and the game at
    its table (if any), in one round trip when a table is being played (its language is the
    chat's: ``/idioma`` changes both)."""
    first, table = await first_look(svc, update, chat_id)
    if table is not None and table.active:
        return first, table.lang, table.adapter
    return first, (await chat_lang(svc, chat_id) if first else ""), None


async def ayuda(update: Update, context: Context) -> None:
    """``/ayuda``: the commands; at a table only the game's own lines and where the rest is
    (``/ayuda todo`` gives everything)."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    first, lang, game = await _first_look(svc, update, chat.id)
    if not first:
        return  # answered already (a re-delivery)
    text = f"{t(lang, 'msg.help')}\n{t(lang, 'records.help')}\n{t(lang, 'bots.help')}"
    text += f"\n{t(lang, 'phone.help')}"
    everything = [w.lower() for w in context.args or []][:1] in (["todo"], ["all"])
    if (
        game is not None and not everything
    ):  # at a table: the game's own lines, the rest a word away
        text = f"{game.texts.say(lang, game.texts.help)}\n{t(lang, 'msg.help_more')}"
    elif game is not None:
        text = f"{game.texts.say(lang, game.texts.help)}\n\n{text}"
    await reply(update, text, svc=svc, kind="help")


async def reglas(update: Update, context: Context) -> None:
    """``/reglas [juego]``: the rules of that game, else of the game at the table, else the list
    of the games."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    first, lang, game = await _first_look(svc, update, chat.id)
    if not first:
        return
    words = list(context.args or [])
    if words:
        game = find_game(words[0])
        if game is None:
            text = t(lang, "error.unknown_rules", word=esc(words[0][:30]))
            await reply(update, text, svc=svc, kind="help")
            return
    text = game.texts.say(lang, game.texts.rules) if game is not None else t(lang, "msg.rules_list")
    await reply(update, text, svc=svc, kind="help")


async def idioma(update: Update, context: Context) -> None:
    """``/idioma es|en``: the language of this chat (and of its table, if any)."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    if chat.type == chat.PRIVATE:
        # A private chat has no table and speaks its user's own language: nothing to store
        # (and nobody can fill the store with settings by writing to the bot in private).
        user = update.effective_user
        code = user.language_code if user is not None else None
        own = language_of(code) if code else svc.settings.language
        await reply(update, t(own, "security.private_chat"))
        return
    lang = await chat_lang(svc, chat.id)
    words = [w.lower() for w in context.args or []]
    if len(words) != 1 or words[0] not in LANGUAGES:
        await reply(update, t(lang, "error.bad_language"), svc=svc)
        return
    new = words[0]
    await set_chat_lang(svc, chat.id, new)

    await _set_on_table(update, context, chat.id, "lang", new)
    await reply(update, t(new, "msg.language_set"))
    # The table and the hands speak the new language now.
    await publisher_of(context).publish(chat.id)


async def _set_on_table(
    update: Update, context: Context, chat_id: int, field: str, value: object
) -> None:
    """A chat setting the open table follows at once (``lang``, ``compact_cards``): written
    with a compare-and-set, nothing when there is no active table or it has the value."""

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or not table.active or getattr(table, field) == value:
            return None, None
        setattr(table, field, value)
        return table, None

    await change_table(services(context), chat_id, fn, update=update, publish=True)


VIEWS = {"compacta": True, "compact": True, "normal": False}
"""The words of ``/vista`` (``/view``): the compact card view on or off."""


async def vista(update: Update, context: Context) -> None:
    """``/vista compacta|normal`` (``/view compact|normal``): how this chat shows each player
    his own cards (``R🪙 3🏆`` or ``rey de oros, tres de copas``), its table at once."""
    svc = services(context)
    chat = update.effective_chat
    if chat is None:
        return
    lang = await chat_lang(svc, chat.id)
    words = [w.lower() for w in context.args or []]
    if chat.type == chat.PRIVATE or len(words) != 1 or words[0] not in VIEWS:
        await reply(update, t(lang, "error.bad_view"), svc=svc)
        return
    compact = VIEWS[words[0]]
    await svc.store.set_prefs(f"chat:{chat.id}", {"cards": "compact" if compact else "normal"})

    await _set_on_table(update, context, chat.id, "compact_cards", compact)
    await reply(update, t(lang, "msg.view_compact" if compact else "msg.view_normal"))
    await publisher_of(context).publish(chat.id)  # the hands read the new way now
