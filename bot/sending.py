"""One publication round's messages: the Bot API calls that send and edit what
:mod:`bot.present` renders, and the round's bookkeeping (what each message shows, the calls
made against Telegram's budget, who could not be written to)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from telegram import Bot, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot.botapi import Blocked, Gone, NotStarted, call_api, html_message
from bot.lease import Lease
from bot.present import Render, digest, hand_view, lobby_view, table_view
from bot.shown import NO_MESSAGE
from bot.table import Table

log = logging.getLogger("bot.publisher")


@dataclass
class Done:
    """Done in a publication round, not written down yet: closing edits (their message ids) and
    records stored (their hand numbers, 0 for the game)."""

    closing: list[str] = field(default_factory=list)
    records: set[int] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.closing or self.records)


@dataclass
class Run:
    """One publication's bookkeeping: what the messages show, the Bot API calls it made."""

    chat_id: int
    shown: dict[str, str]
    calls: int = 0
    """New messages sent (all chats) not yet taken from the budget."""
    group_calls: int = 0
    """New messages sent to the group not yet taken from the budget."""
    lease: Lease | None = None
    """The publication's lock, checked before each Bot API call (:meth:`check`)."""
    blocked: set[int] = field(default_factory=set)
    """Private chats Telegram refused to write to (players who blocked the bot)."""
    reached: set[int] = field(default_factory=set)
    """Private chats written to."""
    version: int = 0
    """The version of the document the round renders (each of its records adds one)."""
    moved: bool = False
    """A record of the round landed on another write: publish again from the newest."""
    clock: Callable[[], float] = time.time
    """The unix time of retries (the process's ``Services.clock``)."""
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    """The pauses between tries of a call (``Services.sleep``)."""

    def count(self, chat_id: int, *, send: bool) -> None:
        """One Bot API call; a new message counts against the bot's budget (about 30 a
        second), and in the group against the group's (about 20 a minute); edits are no new
        messages."""
        self.calls += send
        self.group_calls += send and chat_id == self.chat_id

    async def check(self) -> None:
        """Before a Bot API call: :class:`LeaseLost` if the lock may be another's now."""
        if self.lease is not None:
            await self.lease.check()

    def spent(self) -> tuple[int, int]:
        """The calls not yet taken from the budget (and forget them: they are, now)."""
        spent = (self.group_calls, self.calls)
        self.calls = self.group_calls = 0
        return spent


async def send(
    bot: Bot, run: Run, chat_id: int, render_: Render, *, uncertain_ok: bool
) -> Message | None:
    text, markup = render_
    return await call_api(
        html_message(bot, chat_id, text, markup),
        uncertain_ok=uncertain_ok,
        check=run.check,
        clock=run.clock,
        sleep=run.sleep,
    )


async def edit(bot: Bot, run: Run, chat_id: int, message_id: int, render_: Render) -> None:
    text, markup = render_
    try:
        await call_api(
            lambda: bot.edit_message_text(
                text,
                chat_id=chat_id,
                message_id=message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
            ),
            check=run.check,
            clock=run.clock,
            sleep=run.sleep,
        )
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            log.warning("cannot edit message %s in %s: %s", message_id, chat_id, exc.message)


def shown_key(chat_id: int, message_id: int) -> str:
    return f"{chat_id}:{message_id}"


def has_table(table: Table) -> bool:
    return table.status in ("playing", "over", "cancelled") and table.state is not None


async def edit_or_skip(bot: Bot, run: Run, chat_id: int, message_id: int, want: Render) -> bool:
    """Edit a message to ``want`` unless it shows it already; False if the message is gone."""
    key, wanted = shown_key(chat_id, message_id), digest(want)
    if run.shown.get(key) == wanted:
        return True
    run.count(chat_id, send=False)
    try:
        await edit(bot, run, chat_id, message_id, want)
    except Gone as exc:
        run.shown.pop(key, None)
        if isinstance(exc, Blocked):
            run.blocked.add(chat_id)
        return False
    run.shown[key] = wanted
    if chat_id > 0:
        run.reached.add(chat_id)
    return True


def reachable(user_id: int) -> bool:
    """A private chat exists only with a person: a computer seat's id is negative (never a
    Telegram user's), so nothing is ever sent to it.

    >>> reachable(12345), reachable(-1)
    (True, False)
    """
    return user_id > 0


def never_started(table: Table, user_id: int) -> bool:
    """The seated user's private chat was found never opened (at this table)."""
    seat = table.seat_of(user_id)
    return seat is not None and table.shown.hand_msgs.get(str(seat)) == NO_MESSAGE


async def post_notice(bot: Bot, run: Run, table: Table, to: int | None, text: str) -> None:
    if to is not None and (not reachable(to) or never_started(table, to)):
        return
    where = table.chat_id if to is None else to
    run.count(where, send=True)
    try:
        sent = await send(bot, run, where, (text, None), uncertain_ok=True)
    except (Gone, BadRequest) as exc:
        # Named by where it was to go: the group, or the player's private chat.
        log.warning("a notice of table %s to %s could not be posted: %s", table.chat_id, where, exc)
        return
    if to is not None and sent is not None:
        run.reached.add(to)


async def post(bot: Bot, run: Run, chat_id: int, want: Render) -> int | None:
    """Send a message the table needs (a player needs its buttons: a timed-out send is tried
    again); ``None`` when that chat cannot be written, :data:`NO_MESSAGE` when it is a user's
    who never opened it."""
    run.count(chat_id, send=True)
    try:
        message = await send(bot, run, chat_id, want, uncertain_ok=False)
    except NotStarted:
        return NO_MESSAGE
    except Gone as exc:
        log.warning("cannot write to chat %s: %s", chat_id, exc)
        if isinstance(exc, Blocked):
            run.blocked.add(chat_id)
        return None
    except BadRequest as exc:
        log.warning("cannot write to chat %s: %s", chat_id, exc.message)
        return None
    if message is None:
        return None
    run.shown[shown_key(chat_id, message.message_id)] = digest(want)
    if chat_id > 0:
        run.reached.add(chat_id)
    return message.message_id


def erased_messages(seen: Table, now: Table) -> list[tuple[int, int]]:
    """The messages (chat, message id) that ``seen``, a newer copy of the table than ``now``
    that a rollback erased, knew and ``now`` does not: they show what no longer is (a table
    message, private hands of moves or a hand that never happened). None when ``now`` is of
    another table or a later hand (it did not come from before ``seen``)."""
    if seen.tid != now.tid or now.hand > seen.hand:
        return []
    group = {now.shown.lobby_msg, now.shown.table_msg, *map(int, now.shown.closing)}
    mine = [seen.shown.lobby_msg, seen.shown.table_msg, *map(int, seen.shown.closing)]
    out = [(seen.chat_id, msg) for msg in mine if msg is not None and msg not in group]
    hands = {
        (now.players[int(seat)].user_id, msg)
        for seat, msg in now.shown.hand_msgs.items()
        if int(seat) < len(now.players)
    }
    for seat, msg in sorted(seen.shown.hand_msgs.items()):
        user_id = seen.players[int(seat)].user_id if int(seat) < len(seen.players) else 0
        if reachable(user_id) and msg != NO_MESSAGE and (user_id, msg) not in hands:
            out.append((user_id, msg))
    return sorted(set(out))


async def erase(bot: Bot, run: Run, chat_id: int, message_id: int) -> None:
    """Delete a message that shows what no longer is (see :func:`erased_messages`); one that
    cannot be deleted (gone already, older than Telegram allows) is left as it is."""
    run.shown.pop(shown_key(chat_id, message_id), None)
    run.count(chat_id, send=False)
    try:
        await call_api(
            lambda: bot.delete_message(chat_id, message_id),
            check=run.check,
            clock=run.clock,
            sleep=run.sleep,
        )
    except (Gone, BadRequest) as exc:
        log.warning("cannot delete message %s in %s: %s", message_id, chat_id, exc)


async def edit_all(bot: Bot, run: Run, table: Table) -> None:
    """Edit every message of the table whose wanted render changed (group first)."""
    if table.shown.lobby_msg is not None:
        await edit_or_skip(bot, run, table.chat_id, table.shown.lobby_msg, lobby_view(table))
    if table.shown.table_msg is not None and has_table(table):
        await edit_or_skip(bot, run, table.chat_id, table.shown.table_msg, table_view(table))
    if table.state is None or table.status == "lobby":
        return
    edits = [
        edit_or_skip(bot, run, table.players[int(seat)].user_id, msg, hand_view(table, int(seat)))
        for seat, msg in sorted(table.shown.hand_msgs.items())
        if int(seat) < len(table.players)
        and reachable(table.players[int(seat)].user_id)
        and msg != NO_MESSAGE
    ]
    await asyncio.gather(*edits)  # different private chats: no need to wait for each other
