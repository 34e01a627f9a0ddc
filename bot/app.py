"""Builds the Telegram :class:`~telegram.ext.Application`: ALL the wiring is here.

``build_application(settings, redis=...)`` returns an Application ready to run; ``python -m bot``
runs it with polling or a webhook, tests start it against a fake Bot API server. It holds the
commands (Spanish and English aliases), the buttons, the one error handler and the turn-timer
sweep (started in ``post_init``, stopped in ``post_stop`` / ``post_shutdown``), and with
``TAPETE_WEBAPP_URL`` the Mini App's page and API (:mod:`bot.miniapp.server`).

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

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import menu
from bot.games.registry import command_names
from bot.handlers import (
    computers,
    errors,
    guard,
    info,
    inline,
    lobby,
    migrate,
    play,
    records,
    seats,
    senas,
    timers,
)
from bot.handlers.common import PUBLISHER_KEY, SERVICES_KEY, Context, note_private
from bot.http import SplitRequest
from bot.miniapp.feed import Feed
from bot.miniapp.server import MiniApp
from bot.ops import MeteredApplication, StatusServer
from bot.publisher import Publisher
from bot.services import Services
from bot.settings import Settings
from bot.store import Client, Store, open_store
from locales import DEFAULT_LANGUAGE, LANGUAGES, catalog

log = logging.getLogger("bot.app")

SWEEPER_KEY = "tapete.sweeper"
STATUS_KEY = "tapete.status"
LISTENER_KEY = "tapete.listener"
MINIAPP_KEY = "tapete.miniapp"
MINIAPP_STARTED = "tapete.miniapp.started"

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
    ("vista", "view", info.vista),
    ("estadisticas", "stats", records.estadisticas),
    ("ranking", "ranking", records.ranking),
    ("historial", "history", records.historial),
    ("mano", "hand", records.mano),
    ("olvidame", "forgetme", records.olvidame),
]


def build_application(
    settings: Settings, *, redis: Client | None = None, store: Store | None = None
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The bot's Application; storage is ``store``, else ``redis``, else ``settings.redis_url``,
    else the SQLite file ``settings.sqlite_path``, else a temporary one (tables lost on restart)."""
    builder = (
        Application.builder()
        .application_class(MeteredApplication)
        .token(settings.telegram_bot_token)
        .concurrent_updates(settings.concurrent_updates)
        .request(SplitRequest(read_timeout=settings.api_timeout))
    )
    if settings.telegram_api_url:
        base = settings.telegram_api_url
        builder = builder.base_url(base).base_file_url(_file_url(base))
    app = builder.post_init(_post_init).post_stop(_post_stop).post_shutdown(_post_shutdown).build()
    if store is None:
        store = open_store(
            redis,
            settings.redis_url,
            settings.redis_prefix,
            sqlite_path=settings.sqlite_path,
            cluster=settings.redis_cluster,
        )
    svc = Services(settings=settings, store=store)
    app.bot_data[SERVICES_KEY] = svc
    # The one publisher of the process: its handlers and its sweep publish through it.
    pub = app.bot_data[PUBLISHER_KEY] = Publisher(app.bot, svc, background=True)
    if settings.webapp_url:  # the table's Mini App: its page, API and pushes (bot.miniapp)
        feed = Feed(store)
        pub.watchers.append(feed.changed)
        app.bot_data[MINIAPP_KEY] = MiniApp(svc, app.bot, pub, feed)

    messages = filters.UpdateType.MESSAGE
    app.add_handler(TypeHandler(Update, note_private), group=-2)
    # Before every command: posts as a channel or an anonymous admin are refused (guard.py).
    app.add_handler(
        MessageHandler(filters.COMMAND & messages, guard.refuse_shared_identity), group=-1
    )
    # Before every button: a press naming another chat's table is refused (guard.py).
    app.add_handler(
        CallbackQueryHandler(guard.refuse_forged_press, pattern=guard.TABLE_BUTTONS), group=-1
    )
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
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, migrate.migrated))
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
    pub: Publisher = app.bot_data[PUBLISHER_KEY]
    pub.holding = True  # (again, after a stop)
    await _set_commands(app)
    if svc.settings.metrics_port and STATUS_KEY not in app.bot_data:
        status = StatusServer(svc, svc.settings.metrics_listen, svc.settings.metrics_port)
        await status.start()
        app.bot_data[STATUS_KEY] = status
    miniapp: MiniApp | None = app.bot_data.get(MINIAPP_KEY)
    if miniapp is not None and not app.bot_data.get(MINIAPP_STARTED):
        miniapp.closing = False
        await miniapp.start()
        app.bot_data[MINIAPP_STARTED] = True
    running = app.bot_data.get(SWEEPER_KEY)
    if running is None or running[0].done():
        stop = asyncio.Event()
        task = asyncio.create_task(timers.sweep_forever(pub, stop))
        app.bot_data[SWEEPER_KEY] = (task, stop)
    listening = app.bot_data.get(LISTENER_KEY)
    if listening is None or listening.done():  # wake-ups from other processes (publisher)
        app.bot_data[LISTENER_KEY] = asyncio.create_task(pub.listen())


async def _set_commands(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """The command menu per scope (groups, private chats) and language (:mod:`bot.menu`; the
    Spanish one also for every other language); a refusal by the API server is only a
    warning."""
    for scope in menu.SCOPES:
        telegram_scope = _SCOPES[scope]
        for lang in LANGUAGES:
            if not catalog(lang):
                continue
            commands = [BotCommand(name, text) for name, text in menu.menu(scope, lang)]
            try:
                if lang == DEFAULT_LANGUAGE:
                    await app.bot.set_my_commands(commands, scope=telegram_scope)
                await app.bot.set_my_commands(commands, scope=telegram_scope, language_code=lang)
            except TelegramError as exc:
                log.warning("setMyCommands (%s, %s) refused: %s", scope, lang, exc)
            except Exception as exc:
                log.warning("setMyCommands (%s, %s) failed: %s", scope, lang, type(exc).__name__)


_SCOPES = {"group": BotCommandScopeAllGroupChats(), "private": BotCommandScopeAllPrivateChats()}


SWEEP_STOP_SECONDS = 5.0
"""Longest wait for the sweep in progress (timers being fired) on a graceful stop."""


async def _stop_sweeper(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Let the sweep in progress finish (timers it claimed are fired, not left leased to no
    one for :data:`~bot.store.TIMER_LEASE`), up to :data:`SWEEP_STOP_SECONDS`."""
    running = app.bot_data.pop(SWEEPER_KEY, None)
    if running is None:
        return
    task, stop = running
    stop.set()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(task, SWEEP_STOP_SECONDS)


async def _post_stop(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """A graceful stop (SIGTERM, SIGINT), once the Application has handled every update it had
    taken (``Application.stop`` waits for them): the sweep in progress ends, then the
    publications still running (:mod:`bot.background`) finish or are left to other
    processes."""
    await _stop_sweeper(app)
    pub: Publisher = app.bot_data[PUBLISHER_KEY]
    await pub.publications.drain()
    with contextlib.suppress(Exception):  # held publications are released, not left to expire
        await pub.stop()
    listening = app.bot_data.pop(LISTENER_KEY, None)
    if listening is not None:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await listening


async def _post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    await _post_stop(app)
    status = app.bot_data.pop(STATUS_KEY, None)
    if status is not None:
        await status.stop()
    miniapp: MiniApp | None = app.bot_data.get(MINIAPP_KEY)
    if miniapp is not None and app.bot_data.pop(MINIAPP_STARTED, False):
        await miniapp.stop()
    svc: Services = app.bot_data[SERVICES_KEY]
    await svc.store.aclose()
