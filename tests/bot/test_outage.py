"""Issue 25 item 8: a long Bot API outage is two warnings in the log, in simulated time.

While the long poll fails, PTB hands each failure to the error handler without an update; the
log says when Telegram stops answering and when it answers again (a reminder now and then at
INFO), never a traceback a poll."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from telegram.error import NetworkError, RetryAfter, TimedOut

sys.path.insert(0, str(Path(__file__).parent))

from test_handlers import Harness

from bot.handlers import common, errors


async def test_a_38_minute_outage_is_one_warning_when_it_starts_and_one_when_it_ends(
    caplog: pytest.LogCaptureFixture,
) -> None:
    h = Harness()
    now = [5000.0]
    h.svc.outage.clock = lambda: now[0]
    failures = [NetworkError("Bad Gateway"), TimedOut(), RetryAfter(5), NetworkError("x")]
    caplog.set_level(logging.DEBUG)
    for poll in range(38 * 60 // 4):  # a failed poll every 4 s, as PTB's retries space them
        context = SimpleNamespace(application=h.app, error=failures[poll % len(failures)])
        await errors.on_error(None, context)  # type: ignore[arg-type]
        now[0] += 4.0
    update, context = h.command(101, "/ayuda", chat_id=101)  # Telegram answers: an update
    await common.note_private(update, context)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        "the Telegram Bot API does not answer (NetworkError)",
        "the Telegram Bot API answers again after 2280 s",
    ]
    assert not any(r.exc_info or r.exc_text for r in caplog.records)
    reminders = [r for r in caplog.records if "still does not answer" in r.getMessage()]
    assert len(reminders) == 3 and all(r.levelno == logging.INFO for r in reminders)
    # Another outage later is told again.
    caplog.clear()
    await errors.on_error(None, SimpleNamespace(application=h.app, error=TimedOut()))  # type: ignore[arg-type]
    assert [r.levelno for r in caplog.records if r.name == "bot.botapi"] == [logging.WARNING]
