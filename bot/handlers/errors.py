"""The one error handler: log without card text, answer the user with a generic apology."""

from __future__ import annotations

import logging
import math
import re
import time
import traceback

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from telegram import Update
from telegram.constants import ParseMode
from telegram.error import NetworkError, RetryAfter

from bot.handlers.common import Context, chat_lang, services
from locales import t

log = logging.getLogger("bot.errors")

_CARD_RE = re.compile(r"\b(?:1[0-2]|[1-7])[ocebOCEB]\b")


def scrub(text: str) -> str:
    """Hide anything that looks like a card (``12o``) in a log line.

    >>> scrub("hands=['12o 3c', '1b']")
    "hands=['?? ??', '??']"
    """
    return _CARD_RE.sub("??", text)


OUTAGE_WARNING_EVERY = 60.0
"""Seconds between two warnings of one Redis outage (one line per outage, not per update)."""
_last_outage_warning = -math.inf


def _outage(error: BaseException | None) -> bool:
    return isinstance(error, RedisConnectionError | RedisTimeoutError)


async def on_error(update: object, context: Context) -> None:
    """Log the failure (no card text) and apologise in the chat the update came from.

    While Redis does not answer (the handlers already tried again for a few seconds), the
    apology says so in the default language (the chat's language is in Redis too), and the log
    gets one warning per outage instead of a traceback per update.
    """
    global _last_outage_warning
    error = context.error
    if update is None and isinstance(error, NetworkError | RetryAfter):
        # The long poll failing (Telegram away, 5xx, flood control): PTB retries it; the log
        # says when the outage starts and ends (Outage), not a traceback a poll.
        services(context).outage.failed(error)
        return
    outage = _outage(error)
    if outage:
        services(context).store.look_all_soon()  # it may be back with older tables
        if time.monotonic() - _last_outage_warning > OUTAGE_WARNING_EVERY:
            _last_outage_warning = time.monotonic()
            log.warning("Redis does not answer (%s): updates are answered 'retry'", error)
    elif error is not None:
        trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        update_id = update.update_id if isinstance(update, Update) else None
        log.error("update %s failed: %s", update_id, scrub(trace))
    if not isinstance(update, Update):
        return
    try:
        chat = update.effective_chat
        svc = services(context)
        if outage:
            text = t(svc.settings.language, "msg.retry")
        else:
            lang = await chat_lang(svc, chat.id) if chat else svc.settings.language
            text = t(lang, "msg.error")
        if update.callback_query is not None:
            await update.callback_query.answer(text, show_alert=True)
        elif update.effective_message is not None:
            await update.effective_message.reply_text(text, parse_mode=ParseMode.HTML)
    except Exception as exc:  # the apology itself failed: nothing more to do
        log.warning("could not apologise: %s", type(exc).__name__)
