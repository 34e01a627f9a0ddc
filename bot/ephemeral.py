"""Ephemeral messages (Bot API 10.2/10.3): a message in a group that one member alone sees.

python-telegram-bot 22.8 speaks Bot API 10.0, so they are called here through ``api_kwargs`` and
``Bot.do_api_request``; every method and parameter name of the Bot API is in this module, a
one-line change each when the reference or the library moves.

A bot that is no administrator may write one to a member only within :data:`WINDOW` seconds of
that member's own press (its ``callback_query_id``); an administrator at any time. Whatever
Telegram refuses raises :class:`Refused`, and the caller falls back to an alert and a private
message. A server older than 10.2 ignores the unknown parameter and would post the text to the
whole group: :func:`supported` asks once, harmlessly, and :func:`send` deletes at once a message
that came back without an ephemeral id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, EndPointNotFound, Forbidden, TelegramError

from bot.botapi import Deferred, Gone, call_api

PARAMETERS = "ephemeral_message_parameters"
RECEIVER = "receiver_user_id"
QUERY = "callback_query_id"
REPLACE = "replace_callback_query_message"
MESSAGE_ID = "ephemeral_message_id"
EDIT_TEXT = "editEphemeralMessageText"
EDIT_MARKUP = "editEphemeralMessageReplyMarkup"
DELETE = "deleteEphemeralMessage"

WINDOW = 15.0
"""Seconds after a member's press in which a bot that is no administrator may write to him."""


class Refused(Exception):
    """Telegram will not show this ephemeral message (an older server, a private chat, not a
    member, the window passed): tell it the usual way instead."""


@dataclass(frozen=True)
class Ephemeral:
    """One ephemeral message: where, to whom, and its id (a sequence of its own)."""

    chat_id: int
    receiver: int
    message_id: int

    def kwargs(self) -> dict[str, Any]:
        """The parameters that name it in an edit or a deletion."""
        return {"chat_id": self.chat_id, RECEIVER: self.receiver, MESSAGE_ID: self.message_id}


async def supported(bot: Bot, chat_id: int) -> bool:
    """Whether the server knows ephemeral messages: deleting one that does not exist is refused
    as "not found" by a server that does, as an unknown method (404) by one that does not."""
    try:
        await bot.do_api_request(
            DELETE, api_kwargs={"chat_id": chat_id, RECEIVER: 0, MESSAGE_ID: 0}
        )
    except EndPointNotFound:
        return False
    except TelegramError:
        return True
    return True


def _identify(message: Message, chat_id: int, receiver: int) -> Ephemeral | None:
    found = message.api_kwargs.get(MESSAGE_ID)
    return None if not isinstance(found, int) else Ephemeral(chat_id, receiver, found)


async def send(
    bot: Bot,
    chat_id: int,
    receiver: int,
    text: str,
    *,
    markup: InlineKeyboardMarkup | None = None,
    query_id: str | None = None,
    replace: bool = False,
) -> Ephemeral:
    """Show ``text`` (HTML) to ``receiver`` alone in the group ``chat_id``; ``query_id`` is his
    press that allows it, ``replace`` shows it in place of the pressed message."""
    options: dict[str, Any] = {RECEIVER: receiver}
    if query_id is not None:
        options[QUERY] = query_id
    if replace:
        options[REPLACE] = True
    try:
        message = await call_api(
            lambda: bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                disable_web_page_preview=True,
                api_kwargs={PARAMETERS: options},
            ),
            uncertain_ok=True,
        )
    except (BadRequest, Gone, EndPointNotFound, Deferred) as exc:
        raise Refused(str(exc)) from None
    if message is None:
        raise Refused("timed out")
    shown = _identify(message, chat_id, receiver)
    if shown is None:  # an older server posted it for all to see: take it back at once
        await call_api(lambda: bot.delete_message(chat_id, message.message_id))
        raise Refused("the server does not know ephemeral messages")
    return shown


async def edit(
    bot: Bot, shown: Ephemeral, text: str, markup: InlineKeyboardMarkup | None = None
) -> None:
    """Change what ``shown`` says (HTML) and its buttons; the same text is no change."""
    kwargs: dict[str, Any] = {**shown.kwargs(), "text": text, "parse_mode": ParseMode.HTML}
    if markup is not None:
        kwargs["reply_markup"] = markup
    try:
        await call_api(lambda: bot.do_api_request(EDIT_TEXT, api_kwargs=kwargs))
    except BadRequest as exc:
        if "not modified" in exc.message.lower():
            return
        raise Refused(exc.message) from None
    except (Gone, Forbidden, EndPointNotFound, Deferred) as exc:
        raise Refused(str(exc)) from None


async def delete(bot: Bot, shown: Ephemeral) -> None:
    """Take ``shown`` away from its receiver."""
    try:
        await call_api(lambda: bot.do_api_request(DELETE, api_kwargs=shown.kwargs()))
    except (BadRequest, Gone, Forbidden, EndPointNotFound, Deferred) as exc:
        raise Refused(str(exc)) from None
