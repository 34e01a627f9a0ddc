"""What every handler shares: the services, table updates with CAS, replies and publishing.

Handlers stay thin: parse the update, call :func:`change_table` with a small pure function of the
:class:`~bot.table.Table`, then hand the table to the publisher (:func:`publisher_of`), which
edits the table message, sends the few new group messages and updates the private hands.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatAction, ChatMemberStatus, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot import tables
from bot.botapi import Deferred, Gone, call_api, html_message
from bot.games.render import esc
from bot.publisher import Publisher
from bot.services import Services
from bot.store import DuplicateUpdate
from bot.table import Table
from bot.tables import load_doc
from engine.core import IllegalAction
from locales import t

log = logging.getLogger("bot.flow")

R = TypeVar("R")
SERVICES_KEY = "tapete"
PUBLISHER_KEY = "tapete.publisher"
Context = ContextTypes.DEFAULT_TYPE


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


def dedupe_chat(update: Update, chat_id: int | None = None) -> int:
    """The chat whose window of update ids (:mod:`bot.store`, "De-duplication") an update
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
    """Before every handler: an update came, so Telegram answers; a message's date tells how
    far this clock may run ahead of Telegram's; a user who writes to the bot in private can be
    written to there."""
    svc = services(context)
    svc.outage.answered()
    message = update.message
    if message is not None and message.date is not None:
        svc.telegram_clock.saw(update.update_id, message.date.timestamp(), now(svc))
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and user is not None and chat.type == chat.PRIVATE:
        svc.reached(user.id)


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
    """A handler's write of a table (:func:`bot.tables.change_table`).

    With ``update`` (the handler's own write for that update; not the follow-up bookkeeping
    writes), its update id is de-duplicated in the same round trip as the write: a duplicate
    delivery (here or in another process) writes nothing and stops the handler silently
    (``ApplicationHandlerStop``: no reply, no render, no edit). A refusal (``IllegalAction``)
    is checked lazily with :func:`first_delivery` before it propagates, so the duplicate of an
    update that already moved the table is not answered with a refusal either.
    """
    update_id = None if update is None else update.update_id
    try:
        return await tables.change_table(
            svc, chat_id, fn, update_id=update_id, users=users, publish=publish
        )
    except DuplicateUpdate:
        raise ApplicationHandlerStop from None
    except IllegalAction:
        if update is not None and not await first_delivery(svc, update, chat_id):
            raise ApplicationHandlerStop from None
        raise


# ---- replies --------------------------------------------------------------------------------


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
    answered there lately; otherwise to the user in private (or nowhere), see
    :mod:`bot.store.budget`; the first help diverted so leaves a one-line pointer in the group.
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
            if await start_dm_ok(message.get_bot(), user.id, text) and kind == "help":
                await _point_to_private(svc, message, chat.id, user)
            return
    try:
        await message.reply_text(
            text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
        )
    except TelegramError as exc:
        log.warning("a reply in chat %s failed: %s", message.chat_id, type(exc).__name__)


async def _point_to_private(svc: Services, message: Message, chat_id: int, user: User) -> None:
    """The first help or rules a user gets in private instead of the group (in a quiet period)
    leaves one line there, so that the group sees he was answered; the next ones leave none
    (nor do refusals: ten refused presses make one group message at most)."""
    if await svc.budget.where(chat_id, user.id, "pointer", svc.settings.answer_quiet) != "group":
        return
    lang = await chat_lang(svc, chat_id)
    text = t(lang, "msg.answered_private", name=esc(user.first_name))
    try:
        await message.reply_text(text, parse_mode=ParseMode.HTML, disable_notification=True)
    except TelegramError as exc:
        log.warning("a pointer in chat %s failed: %s", chat_id, type(exc).__name__)


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
        return await call_api(html_message(bot, chat_id, text, markup), uncertain_ok=True)
    except (Gone, Deferred, BadRequest) as exc:
        log.warning("cannot write to chat %s: %s", chat_id, exc)
    return None


def publisher_of(context: Context) -> Publisher:
    """This process's publisher (made in the wiring, :mod:`bot.app`): ``.publish(chat_id)``
    makes Telegram show the newest document of that table (see :mod:`bot.publisher`)."""
    found = context.application.bot_data[PUBLISHER_KEY]
    assert isinstance(found, Publisher)
    return found


#: getChatMember statuses of people in the group (a restricted user counts while a member).
MEMBER_STATUSES = (ChatMemberStatus.MEMBER, ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def is_member(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Whether the user belongs to the group now (asked to Telegram; a failure says no)."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except Exception:
        return False
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in MEMBER_STATUSES


async def can_write_to(bot: Bot, user_id: int, svc: Services | None = None) -> bool:
    """Whether the bot may write to a user in private (he opened a chat with it), asked with a
    "typing..." that shows nothing lasting; with ``svc``, not asked when this process wrote to
    him, or he to it, lately (:meth:`Services.known_reachable`)."""
    if svc is not None and svc.known_reachable(user_id):
        return True
    try:
        await call_api(lambda: bot.send_chat_action(user_id, ChatAction.TYPING))
    except (Gone, BadRequest):  # he never opened the chat, or blocked the bot
        return False
    except Deferred:
        # Telegram refuses for now (flood control, 5xx): he is seated; his hand follows when
        # Telegram answers, and one who really cannot be written to is told so then.
        log.warning("private chat with user %s not checked: Telegram refuses for now", user_id)
        return True
    if svc is not None:
        svc.reached(user_id)
    return True


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
