"""SIGTERM while the Bot API does not answer (issue 25, item 6): ``docker stop`` kills after
10 s, so a process whose Telegram is gone must still stop well within that."""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from botproc import BotProcess, polling
from driver import open_table
from fake_telegram import FakeTelegram

pytestmark = [
    pytest.mark.xdist_group("processes"),
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="processes need a shared Redis"),
]


@pytest.mark.parametrize("gone", ["refused", "silent"])
async def test_sigterm_with_the_bot_api_unreachable_stops_within_10_s(
    tg: FakeTelegram, redis_factory: Any, gone: str
) -> None:
    """``refused``: nothing listens any more; ``silent``: calls are taken and never answered
    (a network that drops packets), so each would wait for its timeout."""
    proc = BotProcess(tg, tg.tokens[0], Path(tempfile.mkdtemp(prefix="tapete-term-")) / "bot.log")
    polls = tg.polls_started(proc.token)
    proc.start()
    try:
        await polling(tg, proc.token, polls)
        table, _users, group = await open_table(tg, redis_factory.client())
        await tg.settle()
        state = await table.state()
        if gone == "silent":
            for method in ("sendmessage", "editmessagetext", "answercallbackquery"):
                tg.delay[(proc.token, method)] = 120.0
        table.seat_user(await table.doc(), state.to_act[0]).send(group, "/mus")
        await asyncio.sleep(0.2)
        if gone == "refused":
            tg.stop()  # every call now fails to connect
        await asyncio.sleep(1.0)  # the publication and the poll meet it
        assert proc.proc is not None
        stopped = time.monotonic()
        os.kill(proc.proc.pid, signal.SIGTERM)
        code = await asyncio.to_thread(proc.proc.wait, 30)
        took = time.monotonic() - stopped
    finally:
        proc.stop()
    print(f"SIGTERM ({gone}) took {took:.1f} s")
    assert took < 10.0, f"SIGTERM took {took:.1f} s\n{proc.log.read_text()[-3000:]}"
    assert code == 0, proc.log.read_text()[-3000:]
