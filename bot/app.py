"""Builds the Telegram :class:`~telegram.ext.Application`: ALL the wiring is here.

``build_application(settings, redis=...)`` returns an Application ready to run; ``python -m bot``
runs it with polling or a webhook, tests start it against a fake Bot API server. It holds the
commands (Spanish and English aliases), the buttons, the one error handler and the turn-timer
sweep (started in ``post_init``, stopped in ``post_stop`` / ``post_shutdown``).

Update de-duplication costs no round trip of its own: a handler's table write carries the
update id into the compare-and-set script (``change_table(..., update=update)``), and answers
that do not write check it lazily (``first_delivery``) only where a repeat would matter; see
:mod:`bot.handlers.common`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from redis.asyncio import Redis
from telegram import BotCommand, Update
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    filters,
)

from bot.games import command_names
from bot.handlers import (
    computers,
    errors,
    info,
    inline,
    lobby,
    play,
    records,
    seats,
    senas,
    timers,
)
from bot.handlers.common import SERVICES_KEY, Context, Services
from bot.settings import Settings
from bot.storage import Store, open_store
from locales import LANGUAGES, catalog

log = logging.getLogger("bot.app")

SWEEPER_KEY = "tapete.sweeper"

Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]
"""Every command and button handler: ``async def handler(update, context) -> None``."""

#: (Spanish command, English alias, handler). Spanish first in the command menu.
COMMANDS: list[tuple[str, str, Handler]] = [
    ("nueva", "new", lobby.nueva),
    ("unirme", "join", lobby.unirme),
    ("salir", "leave", lobby.salir),
    ("empezar", "go", lobby.empezar),
    ("cancelar", "cancel", lobby.cancelar),
    ("maquina", "addbot", computers.maquina),
    ("vuelvo", "back", computers.vuelvo),
    ("mesa", "table", play.mesa),
    ("cartas", "cards", play.cartas),
    ("descarto", "discard", play.descarto),
    ("pausa", "pause", seats.pausa),
    ("seguir", "resume", seats.seguir),
    ("sustituir", "substitute", seats.sustituir),
    ("ayuda", "help", info.ayuda),
    ("reglas", "rules", info.reglas),
    ("idioma", "language", info.idioma),
    ("estadisticas", "stats", records.estadisticas),
    ("ranking", "ranking", records.ranking),
    ("historial", "history", records.historial),
    ("mano", "hand", records.mano),
    ("olvidame", "forgetme", records.olvidame),
]

MENU: dict[str, list[tuple[str, str]]] = {
    "es": [
        ("nueva", "Abrir una mesa: /nueva mus [opciones]"),
        ("unirme", "Sentarme a la mesa"),
        ("empezar", "Empezar la partida"),
        ("maquina", "Sentar a una máquina: /maquina [equipo]"),
        ("vuelvo", "Recuperar mi sitio de la máquina"),
        ("envido", "Envidar: /envido [N]"),
        ("quiero", "Aceptar el envite"),
        ("noquiero", "Rechazar el envite"),
        ("mesa", "Volver a poner la mesa"),
        ("cartas", "Ver mis cartas en privado"),
        ("ayuda", "Ayuda"),
        ("reglas", "Reglas del mus"),
        ("estadisticas", "Mis estadísticas en este grupo"),
        ("ranking", "Ranking del grupo"),
        ("historial", "Últimas partidas del grupo"),
        ("cancelar", "Cancelar la mesa"),
    ],
    "en": [
        ("new", "Open a table: /new mus [options]"),
        ("join", "Take a seat"),
        ("go", "Start the game"),
        ("addbot", "Seat a computer player: /addbot [team]"),
        ("back", "Take my seat back from the computer"),
        ("bet", "Bet: /bet [N]"),
        ("accept", "Accept the bet"),
        ("fold", "Refuse the bet"),
        ("table", "Post the table again"),
        ("cards", "See my cards in private"),
        ("help", "Help"),
        ("rules", "Rules of mus"),
        ("stats", "My statistics in this group"),
        ("ranking", "The group's ranking"),
        ("history", "The group's latest games"),
        ("cancel", "Cancel the table"),
    ],
}


def build_application(
    settings: Settings, *, redis: Redis | None = None, store: Store | None = None
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot's Application; storage is ``store``, else ``redis``, else ``settings.redis_url``,
    else in memory (tables lost on restart)."""
    builder = (
        Application.builder()
        .token(settings.telegram_bot_token)
        .concurrent_updates(settings.concurrent_updates)
    )
    if settings.telegram_api_url:
        base = settings.telegram_api_url
        builder = builder.base_url(base).base_file_url(_file_url(base))
    app = (
        builder.post_init(_post_init).post_stop(_stop_sweeper).post_shutdown(_post_shutdown).build()
    )
    if store is None:
        store = open_store(redis, settings.redis_url, settings.redis_prefix)
    app.bot_data[SERVICES_KEY] = Services(settings=settings, store=store)

    messages = filters.UpdateType.MESSAGE
    app.add_handler(
        CommandHandler("start", lobby.start_private, filters=filters.ChatType.PRIVATE & messages)
    )
    for spanish, english, callback in COMMANDS:
        names = [spanish] if spanish == english else [spanish, english]
        app.add_handler(CommandHandler(names, callback, filters=messages))
    # Every game's action commands (Spanish and English); the game at the table reads them.
    taken = {name for spanish, english, _ in COMMANDS for name in (spanish, english)}
    actions = [name for name in command_names() if name not in taken]
    app.add_handler(CommandHandler(actions, play.action_command, filters=messages))
    app.add_handler(CallbackQueryHandler(lobby.game_button, pattern=r"^n:"))
    app.add_handler(CallbackQueryHandler(lobby.lobby_button, pattern=r"^[jlgxe]:"))
    app.add_handler(CallbackQueryHandler(play.table_button, pattern=r"^[ah]:"))
    app.add_handler(CallbackQueryHandler(computers.button, pattern=r"^[bfv]:"))
    app.add_handler(CallbackQueryHandler(play.discard_button, pattern=r"^[tcp]:"))
    app.add_handler(CallbackQueryHandler(seats.sit_button, pattern=r"^k:"))
    app.add_handler(CallbackQueryHandler(seats.again_button, pattern=r"^o:"))
    app.add_handler(CallbackQueryHandler(senas.sena_button, pattern=r"^s:"))
    app.add_handler(InlineQueryHandler(inline.inline_query))
    app.add_handler(ChosenInlineResultHandler(inline.chosen_result))
    app.add_error_handler(errors.on_error)
    return app


def _file_url(base: str) -> str:
    """``http://host/bot`` → ``http://host/file/bot`` (python-telegram-bot's base_file_url)."""
    head, sep, tail = base.rpartition("/bot")
    return f"{head}/file/bot{tail}" if sep else base


async def _post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    svc: Services = app.bot_data[SERVICES_KEY]
    await _set_commands(app)
    _stop = app.bot_data.get(SWEEPER_KEY)
    if _stop is None or _stop.done():
        app.bot_data[SWEEPER_KEY] = asyncio.create_task(timers.sweep_forever(app.bot, svc))


async def _set_commands(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The command menu per language; a refusal by the API server is only a warning."""
    for lang in LANGUAGES:
        if not catalog(lang):
            continue
        commands = [BotCommand(name, text) for name, text in MENU.get(lang, MENU["es"])]
        try:
            if lang == "es":
                await app.bot.set_my_commands(commands)
            await app.bot.set_my_commands(commands, language_code=lang)
        except TelegramError as exc:
            log.warning("setMyCommands (%s) refused: %s", lang, exc)
        except Exception as exc:
            log.warning("setMyCommands (%s) failed: %s", lang, type(exc).__name__)


async def _stop_sweeper(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    task = app.bot_data.pop(SWEEPER_KEY, None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    await _stop_sweeper(app)
    svc: Services = app.bot_data[SERVICES_KEY]
    await svc.store.aclose()
