"""A player's own things in the group: his hand as an ephemeral message (issue 24).

"🂠 Mis cartas" on the table message answers with the presser's hand as a message in the group
that he alone sees (:mod:`bot.ephemeral`), with the buttons his private hand message has (the
discard toggles and "descarto", envite's cards, his señas). Every press of his on it, or on the
table message, edits it to the hand as it is now (a refusal about his own hand is written on it),
so he discards, plays a card and makes a seña without leaving the group. A bot that is no
administrator may write to him only within :data:`bot.ephemeral.WINDOW` seconds of his own
press: each one is quoted, and nothing is written to him when it is too old.

The private chat stays the durable copy (the publisher edits it silently); where Telegram refuses
ephemeral messages (an older server, a client that cannot show them, the window passed), every
caller falls back to what it did before: an alert, a private message.

After a move the others' ephemeral hands it changed are brought up to date too (a new hand's
cards, a discard's toggles and new cards, envite's card buttons on the turn that comes): within
the window of each one's last press, or at any time where the bot is an administrator of the
group (asked of Telegram only when a window has passed, and trusted for :data:`ADMIN_FOR`).

What is remembered of a player's ephemeral hand at a table (its id, the table and hand it showed,
his last press) is kept in the store's preferences under ``eph:<chat>:<user>``, for any process;
whether the bot is an administrator of a group, under ``adm:<chat>``.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass

from telegram import Bot, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot import ephemeral
from bot.botapi import Deferred, Gone, call_api
from bot.ephemeral import Ephemeral, Refused
from bot.games import senas as signs
from bot.games.render import error_text
from bot.handlers.common import alert, answer, chat_lang
from bot.present import digest, hand_view
from bot.services import Services
from bot.table import Step, Table
from bot.tables import change_table, read_table
from engine.core import IllegalAction

log = logging.getLogger("bot.flow")

MARGIN = 1.0
"""Seconds kept from :data:`bot.ephemeral.WINDOW`: an edit this close to its end is not tried."""

ADMIN_FOR = 300.0
"""Seconds a look at the bot's own status in a group is trusted (it may be promoted or demoted
meanwhile; an edit refused after the window looks again at the next one)."""

ADMIN = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


@dataclass(frozen=True)
class Kept:
    """A player's ephemeral hand at a table: which message, what it showed, his last press."""

    tid: str
    hand: int
    message_id: int
    query: str
    at: float
    digest: str = ""
    """What it shows (:func:`bot.present.digest`): the same is not sent again."""


def _scope(chat_id: int, user_id: int) -> str:
    return f"eph:{chat_id}:{user_id}"


async def kept(svc: Services, chat_id: int, user_id: int) -> Kept | None:
    """The player's ephemeral hand at the table of ``chat_id``, if one was shown."""
    found = await svc.store.get_prefs(_scope(chat_id, user_id))
    try:
        return Kept(
            found["tid"],
            int(found["hand"]),
            int(found["id"]),
            found["q"],
            float(found["at"]),
            found.get("d", ""),
        )
    except (KeyError, ValueError):
        return None


async def _keep(
    svc: Services, table: Table, user_id: int, message_id: int, query: str, shown: str
) -> None:
    values = {
        "d": shown,
        "tid": table.tid,
        "hand": str(table.hand),
        "id": str(message_id),
        "q": query,
        "at": repr(svc.clock()),
    }
    await svc.store.set_prefs(_scope(table.chat_id, user_id), values)


async def _mark(svc: Services, table: Table, user_id: int) -> None:
    """Write down in the table that this player has an ephemeral hand there (after a move,
    his and only those are looked up and edited)."""
    tid = table.tid

    def fn(current: Table | None) -> tuple[Table | None, None]:
        if current is None or current.tid != tid or user_id in current.shown.ephemeral:
            return None, None
        current.shown.ephemeral = [*current.shown.ephemeral, user_id]
        return current, None

    await change_table(svc, table.chat_id, fn)
    if user_id not in table.shown.ephemeral:
        table.shown.ephemeral = [*table.shown.ephemeral, user_id]


async def usable(svc: Services, bot: Bot, chat_id: int) -> bool:
    """Whether the Bot API server knows ephemeral messages (asked once per process)."""
    if svc.ephemeral_ok is None:
        svc.ephemeral_ok = await ephemeral.supported(bot, chat_id)
    return svc.ephemeral_ok


def pressed_ephemeral(update: Update) -> int | None:
    """The id of the ephemeral message the press was made on, if it was one."""
    query = update.callback_query
    message = query.message if query is not None else None
    if message is None:
        return None
    found = message.api_kwargs.get(ephemeral.MESSAGE_ID)
    return found if isinstance(found, int) else None


def pressed_in(update: Update, chat_id: int) -> bool:
    """The press was made in the group ``chat_id`` (not on a private hand message)."""
    query = update.callback_query
    message = query.message if query is not None else None
    return message is not None and message.chat.id == chat_id


async def show_hand(
    update: Update,
    bot: Bot,
    svc: Services,
    table: Table,
    seat: int,
    *,
    note: str | None = None,
    fresh: bool = False,
    open_: bool = True,
) -> bool:
    """Show the presser his hand (with ``note`` above it) in the group, for him alone: the
    ephemeral message he pressed, or the one he was shown at this table, is edited; with
    ``fresh`` (or none to edit, unless not ``open_``) a new one is sent, quoting his press,
    and the older one goes. False when that was not done (the caller tells him the usual
    way)."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None or table.status != "playing" or table.state is None:
        return False
    if not pressed_in(update, table.chat_id) or not await usable(svc, bot, table.chat_id):
        return False
    text, markup = hand_view(table, seat)
    if note:
        text = f"{note}\n\n{text}"
    wanted = digest((text, markup))
    pressed = pressed_ephemeral(update)
    if pressed is None and not open_ and user.id not in table.shown.ephemeral:
        return False  # none to edit, none to open: not even a look in the store
    before = await kept(svc, table.chat_id, user.id)
    target = pressed
    if target is None and not fresh and before is not None and before.tid == table.tid:
        target = before.message_id
    if target is not None:
        same = before is not None and (before.message_id, before.digest) == (target, wanted)
        try:
            if not same:
                await ephemeral.edit(bot, Ephemeral(table.chat_id, user.id, target), text, markup)
        except Refused as exc:
            log.info("an ephemeral hand could not be edited: %s", exc)
        else:
            await _keep(svc, table, user.id, target, query.id, wanted)
            return True
    elif not open_:
        return False
    try:
        shown = await ephemeral.send(
            bot, table.chat_id, user.id, text, markup=markup, query_id=query.id
        )
    except Refused as exc:
        log.info("an ephemeral hand could not be sent: %s", exc)
        return False
    await _keep(svc, table, user.id, shown.message_id, query.id, wanted)
    if user.id not in table.shown.ephemeral:
        await _mark(svc, table, user.id)
    old = [before.message_id] if before is not None else []
    for message_id in {*old, *([] if pressed is None else [pressed])} - {shown.message_id}:
        with contextlib.suppress(Refused):  # the older copy would show an older hand
            await ephemeral.delete(bot, Ephemeral(table.chat_id, user.id, message_id))
    return True


async def bot_is_admin(bot: Bot, svc: Services, chat_id: int) -> bool:
    """Whether the bot is an administrator of the group (it may then edit an ephemeral message
    at any time): the last look if it is recent, else Telegram is asked."""
    scope = f"adm:{chat_id}"
    found = await svc.store.get_prefs(scope)
    try:
        if svc.clock() - float(found["at"]) < ADMIN_FOR:
            return found["v"] == "1"
    except (KeyError, ValueError):
        pass
    try:
        member = await call_api(lambda: bot.get_chat_member(chat_id, bot.id))
    except (TelegramError, Gone, Deferred) as exc:
        log.info("the bot's status in a group could not be read: %s", exc)
        member = None
    admin = member is not None and member.status in ADMIN
    await _note_admin(svc, chat_id, admin)
    return admin


async def _note_admin(svc: Services, chat_id: int, admin: bool) -> None:
    values = {"v": "1" if admin else "0", "at": repr(svc.clock())}
    await svc.store.set_prefs(f"adm:{chat_id}", values)


async def refresh(
    bot: Bot, svc: Services, table: Table, seat: int, note: str | None = None
) -> bool:
    """Edit the seat's ephemeral hand to the table as it is now, when Telegram allows it (his
    last press at this table is recent enough, or the bot is an administrator of the group);
    False when it was not done."""
    player = table.players[seat] if 0 <= seat < len(table.players) else None
    if player is None or player.computer or svc.ephemeral_ok is not True:
        return False
    if player.user_id not in table.shown.ephemeral:
        return False
    before = await kept(svc, table.chat_id, player.user_id)
    if before is None or before.tid != table.tid:
        return False
    text, markup = hand_view(table, seat)
    if note:
        text = f"{note}\n\n{text}"
    wanted = digest((text, markup))
    if wanted == before.digest:
        return True
    late = svc.clock() - before.at > ephemeral.WINDOW - MARGIN
    if late and not await bot_is_admin(bot, svc, table.chat_id):
        return False
    try:
        shown = Ephemeral(table.chat_id, player.user_id, before.message_id)
        await ephemeral.edit(bot, shown, text, markup)
    except Refused as exc:
        log.info("an ephemeral hand could not be refreshed: %s", exc)
        if late:  # no administrator any more: not asked again for a while
            await _note_admin(svc, table.chat_id, False)
        return False
    values = {"d": wanted}  # his last press stays what it was
    await svc.store.set_prefs(_scope(table.chat_id, player.user_id), values)
    return True


async def refresh_others(bot: Bot, svc: Services, table: Table, presser: int) -> None:
    """Every other player's ephemeral hand that Telegram lets the bot edit (new cards after
    the discard, the discard's toggles when it starts, a new hand)."""
    for seat, player in enumerate(table.players):
        if player.user_id != presser and not player.computer:
            await refresh(bot, svc, table, seat)


async def tell_senas(bot: Bot, svc: Services, table: Table, step: Step) -> set[int]:
    """Each seña notice of the step ("Ana te hace la seña: dos reyes", "👀 Pillas a Ana...")
    written above its receiver's ephemeral hand too, where Telegram lets the bot edit it: a
    partner who plays from the group reads it there (his private chat, where he opened one,
    keeps the copy). Returns the seats told so."""
    said: dict[int, list[str]] = {}
    for made in step.senas:
        for user_id, text in signs.notices(table, made):
            said.setdefault(user_id, []).append(text)
    told: set[int] = set()
    for user_id, texts in said.items():
        seat = table.seat_of(user_id)
        if seat is not None and await refresh(bot, svc, table, seat, "\n".join(texts)):
            told.add(seat)
    return told


async def after_move(
    bot: Bot, svc: Services, table: Table, step: Step, presser: int, *, everyone: bool = False
) -> None:
    """The others' ephemeral hands a move changed: the señas it made told to their receivers
    (:func:`tell_senas`); everyone's when a hand or a discard began (or ``everyone``: a discard
    ended), else those now to act (envite's card buttons). Only the players written down as
    having one are looked up, and an unchanged hand is no call."""
    if not table.shown.ephemeral or table.status != "playing" or table.state is None:
        return
    told = await tell_senas(bot, svc, table, step)
    if everyone or step.discard_started or step.closed_hand_log is not None:
        seats: list[int] = list(range(len(table.players)))
    else:
        seats = list(table.adapter.to_act(table.engine_state()))
    for seat in seats:
        player = table.players[seat]
        if seat not in told and player.user_id != presser and not player.computer:
            await refresh(bot, svc, table, seat)


async def refuse(update: Update, bot: Bot, svc: Services, chat_id: int, exc: IllegalAction) -> None:
    """A press refused: written on the presser's ephemeral hand when he pressed there (above
    his hand as it is now), else in an alert (private: every refusal may go there)."""
    lang = await chat_lang(svc, chat_id)
    user = update.effective_user
    if pressed_ephemeral(update) is not None and user is not None:
        table = await read_table(svc, chat_id)
        seat = None if table is None else table.seat_of(user.id)
        note = error_text(lang, exc)
        if (
            table is not None
            and seat is not None
            and await show_hand(update, bot, svc, table, seat, note=note)
        ):
            await answer(update)
            return
    await alert(update, error_text(lang, exc, plain=True))
