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
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message, Update
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot import keyboards, render
from bot.settings import Settings
from bot.storage import DuplicateUpdate, Loaded, Store, Write
from bot.table import Step, Table
from engine.core import IllegalAction
from locales import t

log = logging.getLogger("bot.flow")

R = TypeVar("R")
SERVICES_KEY = "tapete"
Context = ContextTypes.DEFAULT_TYPE


@dataclass
class Services:
    """Shared by every handler (kept in ``application.bot_data``)."""

    settings: Settings
    store: Store
    clock: Callable[[], float] = time.time
    #: Update ids this process knows it is handling first (bounded; see :func:`first_delivery`).
    owned: OrderedDict[int, None] = field(default_factory=OrderedDict)

    def own(self, update_id: int) -> None:
        self.owned[update_id] = None
        self.owned.move_to_end(update_id)
        if len(self.owned) > 1024:
            self.owned.popitem(last=False)


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


async def first_delivery(svc: Services, update: Update) -> bool:
    """True if this process is the first to handle ``update`` (by any process), for answers
    that do not write the table: checked lazily, right before such an answer, so an update
    that writes pays nothing extra (its id is checked inside the write, see
    :func:`change_table`). Asking again for the same update in this process is free (so a
    refusal re-delivered to the same process may be answered twice: harmless).
    Never call it before a ``change_table(..., update=update)`` of the same update: the write
    would then see the id as used and be dropped as a duplicate.

    Pure replies (``/ayuda``, ``/reglas``, refusals made before looking at the table) skip the
    check: a re-delivered update then at most repeats a harmless answer.
    """
    if update.update_id in svc.owned:
        return True
    if not await svc.store.first_time(update.update_id):
        return False
    svc.own(update.update_id)
    return True


async def change_table(
    svc: Services,
    chat_id: int,
    fn: Callable[[Table | None], tuple[Table | None, R]],
    *,
    update: Update | None = None,
    users: Iterable[int] = (),
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
    """
    linked = tuple(users)

    def run(current: Loaded | None) -> Write[R]:
        table_to_save, result = fn(load_doc(current))
        if table_to_save is None:
            return Write(result)
        return Write(
            result,
            doc=table_to_save.model_dump_json(exclude_defaults=True),
            timer_at=table_to_save.deadline if table_to_save.status == "playing" else None,
            ttl=svc.settings.table_ttl,
            users=linked,
        )

    if update is None:
        return await svc.store.update_table(chat_id, run)
    try:
        return await svc.store.update_table(chat_id, run, update_id=update.update_id)
    except DuplicateUpdate:
        raise ApplicationHandlerStop from None
    except IllegalAction:
        if not await first_delivery(svc, update):
            raise ApplicationHandlerStop from None
        raise


async def record_ids(
    svc: Services,
    chat_id: int,
    tid: str,
    *,
    lobby_msg: int | None = None,
    table_msg: int | None = None,
    hand: int | None = None,
    hand_msgs: dict[int, int] | None = None,
) -> None:
    """Remember the ids of messages just sent (only if the table is still the same one)."""
    if lobby_msg is None and table_msg is None and not hand_msgs:
        return

    def fn(table: Table | None) -> tuple[Table | None, None]:
        if table is None or table.tid != tid:
            return None, None
        if lobby_msg is not None:
            table.lobby_msg = lobby_msg
        if hand is not None and table.hand != hand:
            return None, None  # the hand moved on meanwhile: these messages are outdated
        if table_msg is not None:
            table.table_msg = table_msg
        for seat, msg_id in (hand_msgs or {}).items():
            table.hand_msgs[str(seat)] = msg_id
        return table, None

    await change_table(svc, chat_id, fn)


# ---- replies --------------------------------------------------------------------------------


def error_text(lang: str, error: IllegalAction) -> str:
    """A refusal in the chat's language (``error.<reason>``; user text escaped). A dotted
    reason is a game's own locale key (``piedras.error.free``)."""
    params: dict[str, Any] = {
        k: render.esc(v) if isinstance(v, str) else v for k, v in error.params.items()
    }
    key = error.reason if "." in error.reason else f"error.{error.reason}"
    try:
        return t(lang, key, **params)
    except (KeyError, IndexError, ValueError):
        return t(lang, "error.generic")


async def reply(update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
    """Answer a command in the chat it came from (HTML)."""
    message = update.effective_message
    if message is None:
        return
    await message.reply_text(
        text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
    )


async def alert(update: Update, text: str) -> None:
    """Answer a button press with a short private alert (only the presser sees it)."""
    query = update.callback_query
    if query is not None:
        await query.answer(text[:200], show_alert=True)


def display_name(update: Update) -> str:
    user = update.effective_user
    return user.full_name if user is not None else "?"


# ---- publishing -----------------------------------------------------------------------------


MAX_RETRY_AFTER = 5.0
"""Flood control: wait and retry once when Telegram asks for at most this many seconds."""

T = TypeVar("T")


async def _api(call: Callable[[], Awaitable[T]]) -> T:
    """One Bot API call, retried once after a short flood-control wait."""
    try:
        return await call()
    except RetryAfter as exc:
        with warnings.catch_warnings():  # PTB 22 warns that the type becomes timedelta
            warnings.simplefilter("ignore")
            wait = exc.retry_after
        seconds = wait.total_seconds() if isinstance(wait, timedelta) else float(wait)
        if seconds > MAX_RETRY_AFTER:
            raise
        await asyncio.sleep(seconds)
        return await call()


async def send(
    bot: Bot, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> Message | None:
    """Send a message (HTML); ``None`` when Telegram refuses (logged, never raised)."""
    try:
        return await _api(
            lambda: bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            )
        )
    except Forbidden:
        log.warning("cannot write to chat %s (forbidden)", chat_id)
    except BadRequest as exc:
        log.warning("cannot write to chat %s: %s", chat_id, exc.message)
    except TelegramError as exc:
        log.warning("sending to chat %s failed: %s", chat_id, type(exc).__name__)
    return None


async def edit(
    bot: Bot, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> bool:
    """Edit a message in place; False when it cannot be edited (deleted, too old...).

    A network failure counts as done (the edit may have gone through): better one stale
    message, healed by the next move, than a duplicate table message.
    """
    try:
        await _api(
            lambda: bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            )
        )
        return True
    except BadRequest as exc:
        if "not modified" in exc.message.lower():
            return True
        log.warning("cannot edit message %s in %s: %s", message_id, chat_id, exc.message)
    except Forbidden:
        log.warning("cannot edit message in chat %s (forbidden)", chat_id)
    except TelegramError as exc:
        log.warning("editing in chat %s failed: %s", chat_id, type(exc).__name__)
        return True
    return False


async def send_hand(bot: Bot, table: Table, seat: int) -> int | None:
    """Send or edit a player's private hand message; returns the id of a new message."""
    player = table.players[seat]
    text = table.adapter.hand_text(table, seat)
    markup = hand_markup(table, seat)
    old = table.hand_msgs.get(str(seat))
    if old is not None and await edit(bot, player.user_id, old, text, markup):
        return None
    message = await send(bot, player.user_id, text, markup)
    return None if message is None else message.message_id


def hand_markup(table: Table, seat: int) -> InlineKeyboardMarkup | None:
    """The private hand's buttons: the discard toggles in a discard, else the game's own."""
    if table.status != "playing":
        return None
    game = table.adapter
    state = table.engine_state()
    if game.in_discard(state):
        if seat not in game.to_act(state):
            return None
        cards = game.seat_cards(table, seat)
        return keyboards.discard_keyboard(table, cards, table.discards.get(str(seat), []))
    rows = keyboards.game_rows(table, game.hand_buttons(table, seat))
    return InlineKeyboardMarkup(rows) if rows else None


def table_view(table: Table) -> tuple[str, InlineKeyboardMarkup | None]:
    """The table message's text and buttons for this table."""
    markup = keyboards.table_keyboard(table) if table.status == "playing" else None
    return table.adapter.table_text(table), markup


def lobby_view(table: Table) -> tuple[str, InlineKeyboardMarkup | None]:
    """The lobby message's text and buttons (none once the game started or was cancelled)."""
    markup = keyboards.lobby_keyboard(table) if table.status == "lobby" else None
    return render.lobby_text(table), markup


def _same(
    a: tuple[str, InlineKeyboardMarkup | None], b: tuple[str, InlineKeyboardMarkup | None]
) -> bool:
    def plain(m: InlineKeyboardMarkup | None) -> object:
        return None if m is None else m.to_dict()

    return a[0] == b[0] and plain(a[1]) == plain(b[1])


MAX_CATCH_UP = 3
"""How many times a process re-edits a message that a newer table made out of date."""


async def catch_up(
    bot: Bot,
    svc: Services,
    table: Table,
    message_id: int,
    shown: tuple[str, InlineKeyboardMarkup | None],
    *,
    lobby: bool = False,
) -> None:
    """After editing the lobby or table message from the table this process saved, re-read the
    table: if another process saved a newer one meanwhile (and maybe edited first), edit again,
    so a late edit from an older table never stays.
    """
    for _ in range(MAX_CATCH_UP):
        fresh = await read_table(svc, table.chat_id)
        if fresh is None or fresh.tid != table.tid:
            return
        if (fresh.lobby_msg if lobby else fresh.table_msg) != message_id:
            return  # a newer message took over (next hand, /mesa): it is edited by its owner
        if not lobby and fresh.state is None:
            return
        wanted = lobby_view(fresh) if lobby else table_view(fresh)
        if _same(wanted, shown):
            return
        if not await edit(bot, table.chat_id, message_id, *wanted):
            return
        shown = wanted


async def refresh_lobby(bot: Bot, svc: Services, table: Table) -> None:
    """Edit the lobby message to show this table (and keep it current, see :func:`catch_up`)."""
    if table.lobby_msg is None:
        return
    shown = lobby_view(table)
    if await edit(bot, table.chat_id, table.lobby_msg, *shown):
        await catch_up(bot, svc, table, table.lobby_msg, shown, lobby=True)


async def show_table(
    bot: Bot, table: Table, *, repost: bool = False, svc: Services | None = None
) -> int | None:
    """Edit the table message in place (or post it when there is none, or on ``/mesa``).

    Returns the id of a newly posted message, for the caller to record. With ``svc``, an edit in
    place is followed by :func:`catch_up`.
    """
    if table.status not in ("playing", "over", "cancelled") or table.state is None:
        return None
    shown = table_view(table)
    if table.table_msg is not None and not repost:
        if await edit(bot, table.chat_id, table.table_msg, *shown):
            if svc is not None:
                await catch_up(bot, svc, table, table.table_msg, shown)
            return None
    elif table.table_msg is not None:
        await edit(
            bot, table.chat_id, table.table_msg, shown[0], None
        )  # the old copy loses buttons
    message = await send(bot, table.chat_id, *shown)
    return None if message is None else message.message_id


async def publish(
    bot: Bot, svc: Services, table: Table, step: Step, *, dm_seats: Iterable[int] = ()
) -> None:
    """Tell the group and the players what a step changed.

    New group messages only for a hand's result (with the game end) and the next hand's table
    message; everything else edits the current table message and the private hand messages.
    """
    lang = table.lang
    if step.closed_hand_log is not None and step.closed_table_msg is not None:
        closed = table.adapter.closed_table_text(table, step.closed_hand_log)
        await edit(bot, table.chat_id, step.closed_table_msg, closed, None)
    hand_log = step.closed_hand_log if step.closed_hand_log is not None else table.log
    result = table.adapter.result_text(table, step.events, hand_log)
    if table.status == "over":
        result = "\n\n".join(x for x in (result, t(lang, "msg.game_over")) if x)
    if step.cancelled:
        result = "\n\n".join(x for x in (result, t(lang, "msg.cancelled_timeouts")) if x)
    # Private hands first, so nobody has to act before seeing his cards.
    seats = set(dm_seats)
    seats.update(table.adapter.hand_seats(step.events))
    if step.discard_started:  # everyone to discard (not a player sitting the hand out)
        seats.update(table.to_act())
    if step.discard_ended:  # the hand messages already sent lose their "waiting" line
        seats.update(int(s) for s in table.hand_msgs)
    new_ids: dict[int, int] = {}
    for seat in sorted(s for s in seats if isinstance(s, int) and 0 <= s < len(table.players)):
        msg_id = await send_hand(bot, table, seat)
        if msg_id is not None:
            new_ids[seat] = msg_id
    table_msg: int | None = None
    if table.status != "playing":
        table_msg = await show_table(bot, table, svc=svc)  # the last one loses its buttons
    if result:
        await send(bot, table.chat_id, result)
    if table.status == "playing":
        table_msg = await show_table(bot, table, svc=svc)  # in place, or posted for a new hand
    await record_ids(
        svc, table.chat_id, table.tid, table_msg=table_msg, hand=table.hand, hand_msgs=new_ids
    )


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
