"""What every handler shares: the services, table updates with CAS, replies and publishing.

Handlers stay thin: parse the update, call :func:`change_table` with a small pure function of the
:class:`~bot.table.Table`, then :func:`publish` what the step produced (edit the table message,
send the few new group messages, update the private hand messages).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatAction, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot import render
from bot.background import Publications
from bot.budget import Budget
from bot.ops import LOG_TABLE
from bot.publisher import Deferred, Gone, call_api, flush
from bot.records.store import Records
from bot.settings import Settings
from bot.storage import DuplicateUpdate, Loaded, Store, Write
from bot.table import Step, Table
from engine.core import IllegalAction
from locales import t

log = logging.getLogger("bot.flow")

R = TypeVar("R")
SERVICES_KEY = "tapete"
REACHABLE_FOR = 3600.0
"""Seconds a user stays known to be reachable in private after the last proof of it."""
Context = ContextTypes.DEFAULT_TYPE


@dataclass
class Services:
    """Shared by every handler (kept in ``application.bot_data``)."""

    settings: Settings
    store: Store
    clock: Callable[[], float] = time.time
    records: Records | None = None
    """Game records (:mod:`bot.records`): opened beside ``store`` on first use."""
    #: Update ids this process knows it is handling first (bounded; see :func:`first_delivery`).
    owned: OrderedDict[int, None] = field(default_factory=OrderedDict)
    background: bool = False
    """Publish in the background (:mod:`bot.background`; the Application does): handlers
    answer and return at once. Off, a handler awaits its publication (unit tests)."""
    publications: Publications = field(default_factory=Publications)
    budget: Budget = field(init=False)
    #: Tables this process is publishing now (:func:`bot.publisher.flush`).
    publishing: set[int] = field(default_factory=set)
    #: Tables another process wrote while this one held their publication: released at once
    #: until then (``time.monotonic()``; see :mod:`bot.publisher`).
    contended: dict[int, float] = field(default_factory=dict)
    #: Until when other processes are known to publish this bot's tables too (holds are short).
    shared_until: float = 0.0
    #: This process's id among those sweeping the store, and how many swept lately.
    process: str = field(default_factory=lambda: secrets.token_hex(6))
    processes: int = 0
    #: Whether a finished publication may hold its lock (not while the process stops).
    holding: bool = True
    #: The task that releases held publications, and the publications it started.
    releaser: asyncio.Task[None] | None = None
    release_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    #: Users this process knows it could write to in private lately (``time.monotonic()`` of
    #: the last proof: a private message from them, or one sent to them).
    reachable: OrderedDict[int, float] = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.budget = self.store.budget()

    def own(self, update_id: int) -> None:
        self.owned[update_id] = None
        self.owned.move_to_end(update_id)
        if len(self.owned) > 1024:
            self.owned.popitem(last=False)

    def reached(self, user_id: int, ok: bool = True) -> None:
        """The bot could (or, ``ok=False``, could not) write to ``user_id`` in private now."""
        if not ok:
            self.reachable.pop(user_id, None)
            return
        self.reachable[user_id] = time.monotonic()
        self.reachable.move_to_end(user_id)
        if len(self.reachable) > 4096:
            self.reachable.popitem(last=False)

    def known_reachable(self, user_id: int) -> bool:
        """The bot wrote to ``user_id`` in private, or he wrote to it, in the last
        :data:`REACHABLE_FOR` seconds (a check with Telegram is then not needed)."""
        seen = self.reachable.get(user_id)
        return seen is not None and time.monotonic() - seen < REACHABLE_FOR


def services(context: Context) -> Services:
    found = context.application.bot_data[SERVICES_KEY]
    assert isinstance(found, Services)
    return found


def new_tid() -> str:
    """A short random table id (stale buttons of an older table in the chat are refused)."""
    return secrets.token_hex(3)


async def chat_lang(svc: Services, chat_id: int) -> str:
    """The chat's language (``/idioma``), else the default from the settings.

    Read from the store every time (no per-process cache: another process may have changed
    it). Handlers ask only when they must answer without a table at hand (refusals, help);
    table messages use the table's own ``lang``, loaded with the table.
    """
    prefs = await svc.store.get_prefs(f"chat:{chat_id}")
    return prefs.get("lang") or svc.settings.language


async def set_chat_lang(svc: Services, chat_id: int, lang: str) -> None:
    await svc.store.set_prefs(f"chat:{chat_id}", {"lang": lang})


# ---- table documents ------------------------------------------------------------------------


def load_doc(current: Loaded | None) -> Table | None:
    return None if current is None else Table.model_validate_json(current.doc)


async def read_table(svc: Services, chat_id: int) -> Table | None:
    return load_doc(await svc.store.load(chat_id))


def current_table(table: Table | None, tid: str) -> Table:
    """The table a button of table ``tid`` acts on (else ``IllegalAction("stale")``)."""
    if table is None or table.tid != tid or not table.active:
        raise IllegalAction("stale")
    return table


async def peek(svc: Services, chat_id: int, check: Callable[[Table | None], R]) -> R:
    """``check`` (which may raise ``IllegalAction``) on the table as this process last saw it,
    for checks made before a write that checks again (a stale copy that passes costs nothing:
    the compare-and-set refuses it); a refusal is confirmed on the table as it is now."""
    cached = svc.store.is_cached(chat_id)
    try:
        return check(load_doc(await svc.store.cached(chat_id)))
    except IllegalAction:
        if not cached:
            raise
    return check(await read_table(svc, chat_id))


def dedupe_chat(update: Update, chat_id: int | None = None) -> int:
    """The chat whose window of update ids (:mod:`bot.storage`, "De-duplication") an update
    is checked against: the table's chat when the update concerns a table (``chat_id``), else
    the chat it came from (or its sender's private chat)."""
    if chat_id is not None:
        return chat_id
    chat, user = update.effective_chat, update.effective_user
    return chat.id if chat is not None else user.id if user is not None else 0


async def first_delivery(svc: Services, update: Update, chat_id: int | None = None) -> bool:
    """True if this process is the first to handle ``update`` (by any process), for answers
    that do not write the table: checked lazily, right before such an answer, so an update
    that writes pays nothing extra (its id is checked inside the write, see
    :func:`change_table`). Asking again for the same update in this process is free (so a
    refusal re-delivered to the same process may be answered twice: harmless).
    Never call it before a ``change_table(..., update=update)`` of the same update: the write
    would then see the id as used and be dropped as a duplicate. ``chat_id``: the table the
    update concerns, when it is not the chat the update came from (the same chat as its
    writes: an id counts once per chat, see :func:`dedupe_chat`).

    Pure replies (``/ayuda``, ``/reglas``, refusals made before looking at the table) skip the
    check: a re-delivered update then at most repeats a harmless answer.
    """
    if update.update_id in svc.owned:
        return True
    if not await svc.store.first_time(update.update_id, dedupe_chat(update, chat_id)):
        return False
    svc.own(update.update_id)
    return True


async def note_private(update: Update, context: Context) -> None:
    """Before every handler: a user who writes to the bot in private can be written to there."""
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and user is not None and chat.type == chat.PRIVATE:
        services(context).reached(user.id)


async def first_look(svc: Services, update: Update, chat_id: int) -> tuple[bool, Table | None]:
    """:func:`first_delivery` and the table of ``chat_id`` as it is now, in one round trip (for
    answers that read the table without writing it: "Mis cartas", ``/ayuda``)."""
    if update.update_id in svc.owned:
        return True, load_doc(await svc.store.load(chat_id))
    first, current = await svc.store.first_look(chat_id, update.update_id)
    if first:
        svc.own(update.update_id)
    return first, load_doc(current)


async def change_table(
    svc: Services,
    chat_id: int,
    fn: Callable[[Table | None], tuple[Table | None, R]],
    *,
    update: Update | None = None,
    users: Iterable[int] = (),
    publish: bool = False,
) -> R:
    """Load, run ``fn`` on a fresh copy, compare-and-set the result (retried on conflict).

    ``fn`` returns ``(table_to_save_or_None, result)``; it may raise ``IllegalAction``, which
    propagates with nothing written. The table's deadline becomes the store's timer.

    With ``update`` (the handler's own write for that update; not the follow-up bookkeeping
    writes), its update id is de-duplicated in the same round trip as the write: a duplicate
    delivery (here or in another process) writes nothing and stops the handler silently
    (``ApplicationHandlerStop``: no reply, no render, no edit). A refusal (``IllegalAction``)
    is checked lazily with :func:`first_delivery` before it propagates, so the duplicate of an
    update that already moved the table is not answered with a refusal either.

    ``users``: if the table is written, the store also records (in the same write) that these
    users sit at it (:meth:`~bot.storage.Store.user_tables`).

    ``publish``: the caller publishes the table right after (:func:`bot.publisher.flush`): the
    write also takes the table's publishing lock when it is free, saving a round trip.
    """
    linked = tuple(users)
    token = secrets.token_hex(8) if publish else None

    def run(current: Loaded | None) -> Write[R]:
        loaded = load_doc(current)
        if loaded is not None:
            LOG_TABLE.set(loaded.tid)  # the logs of this task name the table
        table_to_save, result = fn(loaded)
        if table_to_save is None:
            return Write(result)
        return Write(
            result,
            doc=table_to_save.model_dump_json(exclude_defaults=True),
            timer_at=table_to_save.deadline if table_to_save.status == "playing" else None,
            ttl=svc.settings.table_ttl,
            users=linked,
            lock=token,
        )

    update_id = None if update is None else update.update_id
    try:
        return await with_redis_retries(
            lambda: svc.store.update_table(chat_id, run, update_id=update_id)
        )
    except DuplicateUpdate:
        raise ApplicationHandlerStop from None
    except IllegalAction:
        if update is not None and not await first_delivery(svc, update, chat_id):
            raise ApplicationHandlerStop from None
        raise


REDIS_PAUSES = (0.2, 0.5, 1.0, 2.0)
"""Pauses between tries of a store call while Redis does not answer (about 4 s in all, within
the time a player waits for a button)."""


async def with_redis_retries(call: Callable[[], Awaitable[R]]) -> R:
    """A store call, tried again while Redis is unreachable (a restart, a failover). A write
    whose answer was lost and is tried again is recognised by its update id (the retry writes
    nothing), or by the table's own checks (a timer no longer due)."""
    for pause in REDIS_PAUSES:
        try:
            return await call()
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(pause)
    return await call()


# ---- replies --------------------------------------------------------------------------------


def error_text(lang: str, error: IllegalAction, *, plain: bool = False) -> str:
    """A refusal in the chat's language (``error.<reason>``). A dotted reason is a game's own
    locale key (``piedras.error.free``).

    The words it echoes (an unknown action, a bad card...) lose their bidi and control
    characters, and are HTML-escaped for a message, or left as they are for an alert
    (``plain=True``: alerts are plain text, where ``&lt;`` would show as typed).
    """
    clean = render.neutral if plain else render.esc
    params: dict[str, Any] = {
        k: clean(v) if isinstance(v, str) else v for k, v in error.params.items()
    }
    key = error.reason if "." in error.reason else f"error.{error.reason}"
    try:
        return t(lang, key, **params)
    except (KeyError, IndexError, ValueError):
        return t(lang, "error.generic")


async def reply(
    update: Update,
    text: str,
    markup: InlineKeyboardMarkup | None = None,
    *,
    svc: Services | None = None,
    kind: str = "refusal",
) -> None:
    """Answer a command in the chat it came from (HTML).

    With ``svc``, an answer in a group is no part of the game (a refusal, help): it goes to
    the group only while the group's budget keeps a reserve for the game and the user was not
    answered there lately; otherwise to the user in private (or nowhere), see :mod:`bot.budget`.
    """
    message = update.effective_message
    if message is None:
        return
    chat, user = update.effective_chat, update.effective_user
    if svc is not None and chat is not None and user is not None and chat.type != chat.PRIVATE:
        try:
            where = await svc.budget.where(chat.id, user.id, kind, svc.settings.answer_quiet)
        except Exception as exc:  # no budget at hand: answer, as Telegram allows it
            log.info("budget unknown: %s", type(exc).__name__)
            where = "group"
        if where != "group":
            await start_dm_ok(message.get_bot(), user.id, text)
            return
    try:
        await message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
        )
    except TelegramError as exc:
        log.warning("a reply in chat %s failed: %s", message.chat_id, type(exc).__name__)


async def alert(update: Update, text: str) -> None:
    """Answer a button press with a short private alert (only the presser sees it)."""
    await answer(update, text)


async def answer(update: Update, text: str | None = None, *, url: str | None = None) -> None:
    """Answer a button press (an alert with ``text``); a failed answer is only logged: the
    press was handled, and publishing must go on."""
    query = update.callback_query
    if query is None:
        return
    try:
        if text is None and url is None:
            await query.answer()
        else:
            await query.answer(None if text is None else text[:200], show_alert=True, url=url)
    except TelegramError as exc:
        log.info("callback answer failed: %s", type(exc).__name__)


def display_name(update: Update) -> str:
    user = update.effective_user
    return user.full_name if user is not None else "?"


# ---- publishing -----------------------------------------------------------------------------


async def send(
    bot: Bot, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> Message | None:
    """Send a message that is no part of a table (HTML); ``None`` when Telegram refuses."""
    try:
        return await call_api(
            lambda: bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            ),
            uncertain_ok=True,
        )
    except (Gone, Deferred, BadRequest) as exc:
        log.warning("cannot write to chat %s: %s", chat_id, exc)
    return None


async def publish(
    bot: Bot, svc: Services, table: Table, step: Step | None = None, **_: object
) -> None:
    """Make Telegram show this table's newest document (see :mod:`bot.publisher`)."""
    await publish_chat(bot, svc, table.chat_id)


async def publish_chat(bot: Bot, svc: Services, chat_id: int) -> None:
    """Make Telegram show the newest document of the table of ``chat_id``: in the background
    when ``svc.background`` (the handler goes on and returns; see :mod:`bot.background`),
    else before returning."""
    if svc.background:
        svc.publications.start(bot, svc, chat_id)
    else:
        await flush(bot, svc, chat_id)


async def can_write_to(bot: Bot, user_id: int, svc: Services | None = None) -> bool:
    """Whether the bot may write to a user in private (he opened a chat with it), asked with a
    "typing..." that shows nothing lasting; with ``svc``, not asked when this process wrote to
    him, or he to it, lately (:meth:`Services.known_reachable`)."""
    if svc is not None and svc.known_reachable(user_id):
        return True
    try:
        await bot.send_chat_action(user_id, ChatAction.TYPING)
        if svc is not None:
            svc.reached(user_id)
        return True
    except (Forbidden, BadRequest):
        return False
    except TelegramError as exc:
        log.warning("private chat with a user unknown: %s", type(exc).__name__)
        return False


async def start_dm_ok(bot: Bot, user_id: int, text: str) -> bool:
    """Try to write to a user in private: False if he never opened a chat with the bot."""
    try:
        await bot.send_message(user_id, text, parse_mode=ParseMode.HTML)
        return True
    except (Forbidden, BadRequest):
        return False
    except TelegramError as exc:
        log.warning("private message to a user failed: %s", type(exc).__name__)
        return False


def now(svc: Services) -> float:
    return svc.clock()
