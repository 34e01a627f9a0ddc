"""Bot API calls with the retries that make sense, and what their failures mean.

A flood-control wait short enough is waited; 5xx, network errors and timeouts are retried; what
cannot succeed now raises :class:`Deferred` (try the whole publication later), a chat or message
that cannot be written any more raises :class:`Gone`.
"""

from __future__ import annotations

import asyncio
import logging
import time
import warnings
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TypeVar

import httpx
from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError, TimedOut

T = TypeVar("T")
log = logging.getLogger("bot.botapi")

TELEGRAM_CLOCK_SAMPLES = 64
"""Typed messages whose delay bounds how far this process's clock runs ahead of Telegram's: a
window, so that a clock set forward is learnt after as many messages."""

MAX_WAIT = 5.0
"""Longest flood-control wait (or retry pause) spent inside one publication; longer ones are
left to a later try."""


RETRIES = 3
"""Tries of one Bot API call that failed for a reason that may pass (5xx, network, timeout)."""


RETRY_LATER = 5.0
"""Seconds before another try when Telegram kept failing."""
RETRY_PAUSE = 0.5
"""Seconds before the second try of a failed call (doubled before each further one)."""


class Deferred(Exception):
    """Telegram refuses for now: try the whole publication again at ``at`` (unix time)."""

    def __init__(self, at: float) -> None:
        super().__init__(f"retry at {at}")
        self.at = at


class Gone(Exception):
    """The message or chat cannot be written any more (deleted, blocked, kicked)."""


class Blocked(Gone):
    """Telegram forbids writing to that chat (a user who blocked the bot, a group that removed
    it)."""


class NotStarted(Gone):
    """A user who never opened a private chat with the bot: no message can reach him there
    (he plays from the group, :mod:`bot.handlers.mine`), and he blocked nothing."""


def never_started(message: str) -> bool:
    """Whether a ``Forbidden`` refusal says the user never opened the private chat.

    >>> never_started("Forbidden: bot can't initiate conversation with a user")
    True
    >>> never_started("Forbidden: bot was blocked by the user")
    False
    """
    return "initiate conversation" in message.lower()


def retry_seconds(exc: RetryAfter) -> float:
    with warnings.catch_warnings():  # PTB 22 warns that the type becomes timedelta
        warnings.simplefilter("ignore")
        wait = exc.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


async def call_api(
    call: Callable[[], Awaitable[T]],
    *,
    uncertain_ok: bool = False,
    check: Callable[[], Awaitable[None]] | None = None,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T | None:
    """One Bot API call with the retries that make sense; ``check`` is awaited before each
    try (a publication's: its lock is still its own, else it raises); ``clock`` tells the unix
    time of a retry and ``sleep`` pauses (a publication passes its process's).

    A flood-control wait up to :data:`MAX_WAIT` is waited; a longer one raises
    :class:`Deferred`. 5xx, network errors and timeouts are retried (:data:`RETRIES` tries)
    before :class:`Deferred`; with ``uncertain_ok`` a failure that may have taken effect
    (:func:`surely_unsent` says no: a timeout, a connection lost after the request went out)
    returns ``None`` at once (a send that may have gone through must not be repeated).
    ``Forbidden`` and a deleted message raise :class:`Gone`; other ``BadRequest`` errors
    propagate.
    """
    pause = RETRY_PAUSE
    for attempt in range(RETRIES):
        if check is not None:
            await check()
        try:
            return await call()
        except RetryAfter as exc:
            wait = retry_seconds(exc)
            if wait > MAX_WAIT:
                raise Deferred(clock() + wait) from None
            await sleep(wait)
        except Forbidden as exc:
            raise (NotStarted if never_started(exc.message) else Blocked)(exc.message) from None
        except BadRequest as exc:
            text = exc.message.lower()
            if "not found" in text or "can't be edited" in text or "chat not found" in text:
                raise Gone(exc.message) from None
            raise
        except TelegramError as exc:
            if uncertain_ok and not surely_unsent(exc):
                return None
            if attempt + 1 == RETRIES:
                raise Deferred(clock() + RETRY_LATER) from None
            await sleep(pause)
        pause *= 2
    raise Deferred(clock() + RETRY_LATER)


UNSENT_CAUSES = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
"""Transport failures that happen before a request leaves: the call surely had no effect."""


def surely_unsent(exc: TelegramError) -> bool:
    """Whether a failed call surely did nothing: Telegram answered with an error (flood
    control, a 5xx: the method failed), or the request never left (no connection). A timeout or
    a connection lost once the request was sent may have taken effect.

    >>> from telegram.error import NetworkError
    >>> surely_unsent(NetworkError("Bad Gateway")), surely_unsent(TimedOut())
    (True, False)
    """
    cause = exc.__cause__
    if isinstance(exc, TimedOut) or cause is not None:
        return isinstance(cause, UNSENT_CAUSES)
    return True  # an answer of Telegram's (a 5xx, "Bad Gateway"): the method failed


def html_message(
    bot: Bot, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None
) -> Callable[[], Awaitable[Message]]:
    """A new message as the bot sends every one (HTML, no link previews), for :func:`call_api`."""
    return lambda: bot.send_message(
        chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup, disable_web_page_preview=True
    )


OUTAGE_REMINDER = 600.0
"""Seconds between two reminders (INFO) that the Bot API is still unreachable."""


@dataclass
class TelegramClock:
    """How far this process's clock may run ahead of Telegram's, learnt from the dates Telegram
    gives typed messages (whole seconds, its own clock).

    A message reaches the bot no earlier than it was sent, so each ``arrival - date`` bounds the
    offset from above, and the least of the recent ones is the tightest bound (late deliveries
    only raise theirs). With it :meth:`sent_by` is certain whatever the two clocks say: a command
    typed just after a move is never taken for one typed before it. A message's own delay is no
    evidence for it (late, or a clock ahead?), so it is left out of its own bound.

    >>> telegram = TelegramClock()
    >>> telegram.saw(1, date=100.0, arrival=101.6)
    >>> telegram.sent_by(1, date=100.0)  # nothing else seen: the clocks are taken to agree
    101.0
    >>> telegram.saw(2, date=110.0, arrival=111.9)
    >>> telegram.sent_by(2, date=110.0)  # this clock is at most 1.6 s ahead
    112.6
    """

    seen: deque[tuple[int, float]] = field(
        default_factory=lambda: deque(maxlen=TELEGRAM_CLOCK_SAMPLES)
    )

    def saw(self, update_id: int, date: float, arrival: float) -> None:
        """A message Telegram dated ``date`` reached this process at ``arrival`` (its clock)."""
        self.seen.append((update_id, arrival - date))

    def sent_by(self, update_id: int, date: float) -> float:
        """The latest moment (this process's clock) the message of ``update_id``, dated
        ``date`` by Telegram, can have been sent at."""
        ahead = min((lag for seen, lag in self.seen if seen != update_id), default=0.0)
        return date + 1.0 + ahead  # the date is the whole second the message was sent in


@dataclass
class Outage:
    """Telegram unreachable for a while, as an operator wants it in the log: one warning when
    it starts and one when it ends, however long it lasts (between them an INFO reminder every
    :data:`OUTAGE_REMINDER` seconds; not a traceback per failed poll).

    >>> now = [0.0]; outage = Outage(clock=lambda: now[0])
    >>> outage.failed(TimedOut()); now[0] = 30.0; outage.failed(TimedOut()); outage.since
    0.0
    >>> now[0] = 95.0; outage.answered(); outage.since is None
    True
    """

    clock: Callable[[], float] = time.monotonic
    since: float | None = None
    said: float = 0.0

    def failed(self, error: TelegramError) -> None:
        """A poll (or another call) failed with ``error``."""
        now = self.clock()
        if self.since is None:
            self.since, self.said = now, now
            log.warning("the Telegram Bot API does not answer (%s)", type(error).__name__)
        elif now - self.said >= OUTAGE_REMINDER:
            self.said = now
            log.info(
                "the Telegram Bot API still does not answer, for %.0f s (%s)",
                now - self.since,
                type(error).__name__,
            )
        else:
            log.debug("the Telegram Bot API does not answer (%s)", type(error).__name__)

    def answered(self) -> None:
        """Telegram answered (an update came): the outage, if any, is over."""
        if self.since is not None:
            log.warning(
                "the Telegram Bot API answers again after %.0f s", self.clock() - self.since
            )
            self.since = None
